//===- LocalMemoryWarning.cpp - LocalMemoryTensor, at the declaration -----===//
#include "LocalMemoryWarning.h"
#include "CallFinder.h"
#include "KnownObjects.h"
#include "LocalMemory.h"
#include "PluginDiagnostics.h"
#include "tileapply/core/Diagnostics.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace tileapply {
namespace plugin {

namespace {
SourceLocation findUse(const Stmt *S, const VarDecl *V, LocalMemoryReason Why);
} // namespace

LocalMemoryWarnings::LocalMemoryWarnings(Reporter &R, bool Enabled) : R(R), Enabled(Enabled) {
  setLocalMemoryHook([this](const LocalMemoryFinding &F) { return !this->Enabled || report(F); });
}

LocalMemoryWarnings::~LocalMemoryWarnings() { setLocalMemoryHook({}); }

void LocalMemoryWarnings::record(const CallExpr *Call, ASTContext &C) {
  if (!Enabled)
    return;
  SM = &C.getSourceManager();
  if (!isTileApply(Call->getDirectCallee()))
    return; // (tile::ewise emits no marker)
  uint64_t Loc = Call->getBeginLoc().getRawEncoding();
  for (unsigned I = 1; I < Call->getNumArgs(); ++I) {
    const VarDecl *V = storageVariable(Call->getArg(I));
    // The array itself, declared in a function (a reference parameter names
    // storage declared elsewhere).
    if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType())
      continue;
    Tensors.try_emplace({Loc, I - 1}, V);
    // What a warning needs is taken now, while the AST exists: the back end
    // runs after clang may have freed it (-clear-ast-before-backend).
    auto [It, New] = Vars.try_emplace(V);
    if (!New)
      continue;
    TensorFacts &T = It->second;
    T.Name = V->getName().str();
    T.Decl = V->getLocation();
    const auto *Fn = dyn_cast<FunctionDecl>(V->getDeclContext());
    const Stmt *Body = Fn ? Fn->getBody() : nullptr;
    for (LocalMemoryReason Why : {LocalMemoryReason::RuntimeIndex, LocalMemoryReason::PassedToCall,
                                  LocalMemoryReason::AddressTaken})
      T.FirstUse[static_cast<unsigned>(Why)] = findUse(Body, V, Why);
  }
}

namespace {

/// Whether `E` designates `V` or a part of it (an element, its address).
bool designates(const Expr *E, const VarDecl *V) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl()->getCanonicalDecl() == V;
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      E = ASE->getBase();
    else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr();
    else if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
             Op && Op->getOperator() == OO_Subscript)
      E = Op->getArg(0);
    else
      return false;
  }
  return false;
}

bool isTileFunction(const FunctionDecl *F) {
  if (!F)
    return false;
  if (isTileApply(F))
    return true;
  for (const DeclContext *DC = F->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "tile" && NS->getDeclContext()->getRedeclContext()->isTranslationUnit())
        return true;
  return false;
}

/// Whether `S` reads a variable whose value is not a compile-time constant
/// (a parameter, a local or global that is not constexpr).
bool readsRuntimeVariable(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      return !Var->isConstexpr();
  for (const Stmt *Child : S->children())
    if (readsRuntimeVariable(Child))
      return true;
  return false;
}

/// The first use of `V` in `S`, in source order, that is of kind `Why`.
SourceLocation findUse(const Stmt *S, const VarDecl *V, LocalMemoryReason Why) {
  if (!S)
    return {};
  // This runs in the back end, after Sema: the constant evaluator is not
  // safe on every expression there (it crashed on a constexpr call in an
  // index of another array), so an index is judged by what it names: one
  // that reads a variable that is not constexpr is a run-time index.
  switch (Why) {
  case LocalMemoryReason::RuntimeIndex:
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S);
        ASE && designates(ASE->getBase(), V) && readsRuntimeVariable(ASE->getIdx()))
      return ASE->getIdx()->getBeginLoc();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
        Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
        designates(Op->getArg(0), V) && readsRuntimeVariable(Op->getArg(1)))
      return Op->getArg(1)->getBeginLoc();
    break;
  case LocalMemoryReason::PassedToCall:
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && !isa<CXXOperatorCallExpr>(Call) && !isTileFunction(Call->getDirectCallee()))
      for (const Expr *Arg : Call->arguments())
        if (designates(Arg, V))
          return Arg->getBeginLoc();
    break;
  case LocalMemoryReason::AddressTaken:
    if (const auto *U = dyn_cast<UnaryOperator>(S);
        U && U->getOpcode() == UO_AddrOf && designates(U->getSubExpr(), V))
      return U->getBeginLoc();
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
        Cast && Cast->getCastKind() == CK_ArrayToPointerDecay &&
        isa<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()) && designates(Cast->getSubExpr(), V))
      return Cast->getBeginLoc();
    break;
  }
  for (const Stmt *Child : S->children())
    if (SourceLocation L = findUse(Child, V, Why); L.isValid())
      return L;
  return {};
}

} // namespace

bool LocalMemoryWarnings::report(const LocalMemoryFinding &F) {
  // Only facts recorded in the front end: no AST node is touched here.
  auto It = Tensors.find({F.CallSrcLoc, F.Arg});
  if (It == Tensors.end() || !SM)
    return false;
  const TensorFacts &T = Vars.find(It->second)->second;
  SourceLocation Use = T.FirstUse[static_cast<unsigned>(F.Why)];
  unsigned Line = Use.isValid() ? SM->getExpansionLineNumber(Use) : F.Where ? F.Where.getLine() : 0;
  std::string Message = text(Text::LocalMemoryTensor,
                             {text(Text::LocalMemoryNamed, {T.Name}), localMemoryReason(F, Line)});
  R.reportLocalMemory(T.Decl, Message, Use, localMemoryAdvice(F.Why));
  return true;
}

} // namespace plugin
} // namespace tileapply
