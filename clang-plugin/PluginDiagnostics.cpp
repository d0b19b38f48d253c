//===- PluginDiagnostics.cpp - tileapply problems as Clang diagnostics ----===//
//
// Errors and notes are custom diagnostics whose text is the core message
// ("%0"), so the wording is exactly core's. The one warning,
// PackedIntegerLiteral, is a custom diagnostic placed in an existing Clang
// warning group: only such a diagnostic obeys -Werror, -Wno-<group> and -w
// (docs/diagnostics-control.md).
//
//===----------------------------------------------------------------------===//
#include "PluginDiagnostics.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace tileapply {
namespace plugin {

const Expr *CallSite::exprFor(int Arg) const {
  unsigned Index = Arg < 0 ? 0 : static_cast<unsigned>(Arg) + 1;
  if (Ewise)
    Index = Arg <= 0 ? 0 : static_cast<unsigned>(Arg) + 1;
  if (Index >= Call->getNumArgs())
    Index = 0;
  return Call->getArg(Index);
}

namespace {

bool isInTileNamespace(const Decl *D) {
  const auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext());
  return NS && NS->getName() == "tile" &&
         NS->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

/// The variable an argument designates, for a "declared here" note: looks
/// through implicit conversions, temporaries, `tile::view<...>(x)`,
/// `tile::pred(x)`, subscripts and member accesses.
const NamedDecl *underlyingDecl(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = DRE->getDecl();
      return isa<VarDecl, BindingDecl, FieldDecl>(D) ? D : nullptr;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
      if (isa<CXXThisExpr>(Base))
        return ME->getMemberDecl();
      E = Base;
      continue;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      E = ASE->getBase();
      continue;
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *F = CE->getDirectCallee();
      if (F && CE->getNumArgs() == 1 && F->getIdentifier() &&
          (F->getName() == "view" || F->getName() == "pred") && isInTileNamespace(F)) {
        E = CE->getArg(0);
        continue;
      }
    }
    return nullptr;
  }
  return nullptr;
}

/// The opcode literal's range as a file range a fix-it may replace: the
/// literal as the user wrote it at the call, directly or as a macro argument.
/// Invalid when the literal comes out of a macro body (`#define OP "..."`):
/// replacing the macro's use would silently stop using the macro.
CharSourceRange fixItRange(const Expr *Literal, const SourceManager &SM, const LangOptions &LO) {
  SourceLocation Begin = Literal->getBeginLoc();
  if (Begin.isMacroID() && !SM.isMacroArgExpansion(Begin))
    return {};
  return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Literal->getSourceRange()), SM,
                                  LO);
}

} // namespace

Reporter::Reporter(CompilerInstance &CI, const PluginOptions &Opts)
    : Diags(CI.getDiagnostics()), LangOpts(CI.getLangOpts()), Opts(Opts) {
  DiagnosticIDs &IDs = *Diags.getDiagnosticIDs();
  using Desc = DiagnosticIDs::CustomDiagDesc;
  ErrorID = IDs.getCustomDiagID(DiagnosticIDs::Error, "%0");
  ErrorWithTypeID = IDs.getCustomDiagID(DiagnosticIDs::Error, "%0; the argument has type %1");
  NoteID = IDs.getCustomDiagID(DiagnosticIDs::Note, "%0");
  DeclaredHereID = IDs.getCustomDiagID(DiagnosticIDs::Note, "%0 declared here");
  InstantiationID =
      IDs.getCustomDiagID(DiagnosticIDs::Note, "in instantiation of '%0' requested here");
  // A warning outside every group would ignore -Werror, -w and -Wno-...: put
  // it into an existing one (see WarningGroup).
  WarningID = IDs.getCustomDiagID(Desc(diag::Severity::Warning, "%0", DiagnosticIDs::CLASS_WARNING,
                                       /*ShowInSystemHeader=*/false, /*ShowInSystemMacro=*/false,
                                       DiagnosticIDs::getGroupForWarningOption(WarningGroup)));
  // Clang 22 leaves two gaps for a custom diagnostic in a group, both closed
  // here, before parsing starts:
  //  - Its mapping in each diagnostic state is created lazily, from the last
  //    severity anything (a `#pragma clang diagnostic` included) gave the
  //    group: one `ignored` pragma anywhere would silence it everywhere.
  //    Giving it a mapping in the command-line state now means every pragma
  //    state starts from a copy of that one instead.
  //  - Clang applied the -W options before this plugin was loaded; a late
  //    diagnostic sees -Wno-<group>, -Werror=<group>, -Werror and -w but not
  //    -Wno-error=<group>. Applying the same options again, in the same
  //    order, reaches it (on top of the default set just before) and changes
  //    nothing else.
  // (-Wno-everything still does not reach it: it only walks Clang's built-in
  // diagnostics. -w and -Wno-<group> do.)
  LocalMemoryID =
      IDs.getCustomDiagID(Desc(diag::Severity::Warning, "%0", DiagnosticIDs::CLASS_WARNING,
                               /*ShowInSystemHeader=*/false, /*ShowInSystemMacro=*/false,
                               DiagnosticIDs::getGroupForWarningOption(LocalMemoryGroup)));
  Diags.setSeverity(WarningID, diag::Severity::Warning, SourceLocation());
  Diags.setSeverity(LocalMemoryID, diag::Severity::Warning, SourceLocation());
  ProcessWarningOptions(Diags, CI.getDiagnosticOpts(), CI.getVirtualFileSystem(),
                        /*ReportDiags=*/false);
}

bool Reporter::isEnabled(const Problem &P) const {
  if (P.Code == DiagCode::PackedIntegerLiteral)
    return Opts.WarnPackedLiteral;
  return true;
}

void Reporter::report(const CallSite &Site, const Problem &P,
                      llvm::ArrayRef<PartialDiagnosticAt> Evaluator) {
  if (!isEnabled(P))
    return;
  const Expr *At = Site.exprFor(P.Arg);
  // A call-level problem (HostCall) points at `__tile_apply` itself.
  SourceLocation Loc = P.Code == DiagCode::HostCall ? Site.Call->getBeginLoc() : At->getBeginLoc();
  SourceRange Range =
      P.Code == DiagCode::HostCall ? Site.Call->getSourceRange() : At->getSourceRange();
  // (The notes count: one call in two template instances may fail the same
  // way for two opcodes, each named in a note.)
  std::string Key = P.Message;
  for (const std::string &Note : P.Notes)
    Key += "\n" + Note;
  if (!Reported.insert({Loc.getRawEncoding(), Key}).second)
    return;

  bool IsWarning = P.severity() == Severity::Warning;
  bool WithType = P.Code == DiagCode::UnsupportedArgument && P.Arg >= 0;
  {
    auto DB = Diags.Report(Loc, IsWarning ? WarningID : WithType ? ErrorWithTypeID : ErrorID);
    DB << P.Message;
    if (WithType)
      DB << At->IgnoreImplicit()->getType();
    DB << Range;
    if (!P.FixIt.empty() && P.Arg < 0) {
      CharSourceRange R = fixItRange(At, Diags.getSourceManager(), LangOpts);
      if (R.isValid())
        DB << FixItHint::CreateReplacement(R, "\"" + P.FixIt + "\"");
    }
  }
  for (const std::string &Note : P.Notes)
    Diags.Report(Loc, NoteID) << Note << Range;
  for (const PartialDiagnosticAt &Note : Evaluator) {
    DiagnosticBuilder DB = Diags.Report(Note.first, Note.second.getDiagID());
    Note.second.Emit(DB);
  }
  if (P.PointAtDecl && P.Arg >= 0)
    if (const NamedDecl *D = underlyingDecl(At))
      Diags.Report(D->getLocation(), DeclaredHereID) << D;
  addInstantiationNote(Site);
}

void Reporter::reportInternal(const CallSite &Site, llvm::StringRef Message) {
  SourceLocation Loc = Site.Call->getBeginLoc();
  if (!Reported.insert({Loc.getRawEncoding(), Message.str()}).second)
    return;
  Diags.Report(Loc, ErrorID) << Message << Site.Call->getSourceRange();
  addInstantiationNote(Site);
}

void Reporter::reportAt(const Expr *At, const FunctionDecl *Enclosing, const Problem &P) {
  SourceLocation Loc = At->getBeginLoc();
  if (!Reported.insert({Loc.getRawEncoding(), P.Message}).second)
    return;
  Diags.Report(Loc, ErrorID) << P.Message << At->getSourceRange();
  for (const std::string &Note : P.Notes)
    Diags.Report(Loc, NoteID) << Note << At->getSourceRange();
  addInstantiationNote(Enclosing);
}

void Reporter::reportLocalMemory(SourceLocation Decl, llvm::StringRef Message, SourceLocation Use,
                                 llvm::StringRef Note) {
  if (!Reported.insert({Decl.getRawEncoding(), Message.str()}).second)
    return;
  Diags.Report(Decl, LocalMemoryID) << Message;
  // (A note after an ignored warning is dropped with it.)
  Diags.Report(Use.isValid() ? Use : Decl, NoteID) << Note;
}

void Reporter::addInstantiationNote(const CallSite &Site) { addInstantiationNote(Site.Enclosing); }

void Reporter::addInstantiationNote(const FunctionDecl *F) {
  // Clang explains an error inside a template instance with the place that
  // instantiated it; do the same for the innermost instance.
  if (!F || !F->isTemplateInstantiation())
    return;
  SourceLocation POI = F->getPointOfInstantiation();
  if (POI.isInvalid())
    return;
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  F->getNameForDiagnostic(OS, PrintingPolicy(LangOpts), /*Qualified=*/true);
  Diags.Report(POI, InstantiationID) << Name;
}

} // namespace plugin
} // namespace tileapply
