//===- CallFinder.cpp - Every __tile_apply call of a translation unit -----===//
//
// A DynamicRecursiveASTVisitor over the whole translation unit, template
// instances included, that keeps a stack of the functions it is inside (a
// lambda's body counts as its call operator's) so each call comes with the
// function that holds it: CallChecker decides host or device code from it.
//
//===----------------------------------------------------------------------===//
#include "CallFinder.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ExprConcepts.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

using namespace clang;

namespace tileapply {
namespace plugin {

bool isTileApply(const FunctionDecl *F) {
  if (!F || !F->getIdentifier() || F->getName() != "__tile_apply")
    return false;
  if (!F->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  return F->getTemplatedKind() == FunctionDecl::TK_FunctionTemplateSpecialization;
}

bool isTileEwise(const FunctionDecl *F) {
  if (!F || !F->getIdentifier() || F->getName() != "ewise" ||
      F->getTemplatedKind() != FunctionDecl::TK_FunctionTemplateSpecialization)
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(F->getDeclContext());
  return NS && NS->getName() == "tile" &&
         NS->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

namespace {

class Finder : public DynamicRecursiveASTVisitor {
public:
  explicit Finder(TileApplyCallback Fn, std::optional<TileApplyUseCallback> Use = std::nullopt)
      : Fn(Fn), Use(Use) {
    // Calls in templates are only complete in their instances.
    ShouldVisitTemplateInstantiations = true;
    ShouldVisitLambdaBody = true;
  }

  bool TraverseDecl(Decl *D) override {
    auto *F = dyn_cast_or_null<FunctionDecl>(D);
    if (F)
      Enclosing.push_back(F);
    bool Continue = DynamicRecursiveASTVisitor::TraverseDecl(D);
    if (F)
      Enclosing.pop_back();
    return Continue;
  }

  bool TraverseLambdaExpr(LambdaExpr *L) override {
    // The body of a lambda belongs to its call operator, which the generic
    // traversal never enters as a declaration.
    Enclosing.push_back(L->getCallOperator());
    bool Continue = DynamicRecursiveASTVisitor::TraverseLambdaExpr(L);
    Enclosing.pop_back();
    if (!Continue)
      return false;
    // A generic lambda's instances hang off its call operator template,
    // which is not reached through the enclosing function either.
    if (FunctionTemplateDecl *T = L->getDependentCallOperator())
      for (FunctionDecl *Spec : T->specializations())
        if (!TraverseDecl(Spec))
          return false;
    return true;
  }

  // Unevaluated operands: no code is generated for them, so no call in them
  // is checked or expanded.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) override { return true; }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) override { return true; }
  bool TraverseRequiresExpr(RequiresExpr *) override { return true; }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *E) override {
    return !E->isPotentiallyEvaluated() || DynamicRecursiveASTVisitor::TraverseCXXTypeidExpr(E);
  }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc, bool) override { return true; }
  bool TraverseDecltypeType(DecltypeType *, bool) override { return true; }
  bool TraverseTypeOfExprTypeLoc(TypeOfExprTypeLoc, bool) override { return true; }
  bool TraverseTypeOfExprType(TypeOfExprType *, bool) override { return true; }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) override {
    // Pre-order: a call is visited before its callee, so a direct call's
    // callee is in Callees by now.
    if (Use && isTileApply(dyn_cast<FunctionDecl>(Ref->getDecl())) && !Callees.contains(Ref) &&
        !Ref->isInstantiationDependent() && UseSeen.insert(Ref).second)
      (*Use)(Ref, Enclosing.empty() ? nullptr : Enclosing.back());
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) override {
    if (const auto *Callee = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      Callees.insert(Callee);
    // A call that depends on template parameters (its arguments' types or
    // values) is checked in each instance instead.
    if (Call->isInstantiationDependent() || Call->containsErrors())
      return true;
    if ((!isTileApply(Call->getDirectCallee()) && !isTileEwise(Call->getDirectCallee())) ||
        Call->getNumArgs() == 0)
      return true;
    if (Seen.insert(Call).second)
      Fn(Call, Enclosing.empty() ? nullptr : Enclosing.back());
    return true;
  }

private:
  TileApplyCallback Fn;
  std::optional<TileApplyUseCallback> Use;
  llvm::SmallPtrSet<const DeclRefExpr *, 16> Callees, UseSeen;
  llvm::SmallVector<const FunctionDecl *, 8> Enclosing;
  llvm::SmallPtrSet<const CallExpr *, 16> Seen;
};

} // namespace

/// Most translation units never mention __tile_apply: skip the walk.
static bool mentionsTileApply(ASTContext &Ctx) {
  return Ctx.Idents.find("__tile_apply") != Ctx.Idents.end() ||
         Ctx.Idents.find("ewise") != Ctx.Idents.end();
}

void forEachTileApplyCall(ASTContext &Ctx, TileApplyCallback Fn) {
  if (mentionsTileApply(Ctx))
    Finder(Fn).TraverseAST(Ctx);
}

void forEachTileApplyCall(ASTContext &Ctx, TileApplyCallback Fn, TileApplyUseCallback Use) {
  if (mentionsTileApply(Ctx))
    Finder(Fn, Use).TraverseAST(Ctx);
}

void forEachTileApplyCall(ASTContext &Ctx, Decl *D, TileApplyCallback Fn) {
  if (mentionsTileApply(Ctx))
    Finder(Fn).TraverseDecl(D);
}

} // namespace plugin
} // namespace tileapply
