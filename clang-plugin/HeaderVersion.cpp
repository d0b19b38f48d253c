//===- HeaderVersion.cpp - Whether tile.h is this plugin's version --------===//
#include "HeaderVersion.h"
#include "tileapply/core/Diagnostics.h"
#include "tileapply/version.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace tileapply {
namespace plugin {

/// "0.2.0" for a TILEAPPLY_VERSION number (MAJOR * 10000 + MINOR * 100 + PATCH).
static std::string versionName(int64_t V) {
  return std::to_string(V / 10000) + "." + std::to_string(V / 100 % 100) + "." +
         std::to_string(V % 100);
}

std::optional<std::string> headerVersionProblem(ASTContext &Ctx, const CallExpr *Call) {
  std::string Header = "<tileapply/tile.h>";
  if (const FunctionDecl *Callee = Call->getDirectCallee()) {
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::StringRef File = SM.getFilename(SM.getFileLoc(Callee->getLocation()));
    if (!File.empty())
      Header += " (" + File.str() + ")";
  }
  const VarDecl *Version = nullptr;
  for (const NamedDecl *D : Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("tile")))
    if (const auto *NS = dyn_cast<NamespaceDecl>(D))
      for (const NamedDecl *M : NS->lookup(&Ctx.Idents.get("header_version")))
        if (!Version)
          Version = dyn_cast<VarDecl>(M);
  std::string Found;
  if (!Version)
    Found = text(Text::HeaderWithoutVersion);
  else if (const APValue *V = Version->evaluateValue(); !V || !V->isInt())
    Found = text(Text::HeaderVersionNotConstant);
  else if (V->getInt().getSExtValue() == TILEAPPLY_VERSION)
    return std::nullopt;
  else
    Found = text(Text::HeaderVersionIs, {versionName(V->getInt().getSExtValue())});
  return text(Text::HeaderVersionMismatch, {Header, Found, TILEAPPLY_VERSION_STRING});
}

} // namespace plugin
} // namespace tileapply
