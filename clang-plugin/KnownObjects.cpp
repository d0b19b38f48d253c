//===- KnownObjects.cpp - The variable an argument designates, from the AST ===//
#include "KnownObjects.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace tileapply {
namespace plugin {

namespace {

/// Deep enough for any spelling a user writes; bounds pathological ones.
constexpr unsigned MaxDepth = 24;

bool isInTile(const Decl *D) {
  const DeclContext *DC = D->getDeclContext();
  while (DC && isa<RecordDecl>(DC))
    DC = DC->getParent();
  const auto *NS = dyn_cast_or_null<NamespaceDecl>(DC);
  return NS && NS->getName() == "tile" &&
         NS->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

/// The header's function \p E calls, if it is one of \p Names with one argument.
const Expr *tileHelperArg(const Expr *E, std::initializer_list<llvm::StringRef> Names) {
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE || isa<CXXOperatorCallExpr>(CE) || CE->getNumArgs() != 1)
    return nullptr;
  const FunctionDecl *F = CE->getDirectCallee();
  if (!F || !F->getIdentifier() || !isInTile(F))
    return nullptr;
  for (llvm::StringRef N : Names)
    if (F->getName() == N)
      return CE->getArg(0);
  return nullptr;
}

/// The class template \p T is a specialization of, if it is the header's
/// `tile::<Name>`.
bool isTileClass(const CXXRecordDecl *RD, llvm::StringRef Name) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  return Spec && Spec->getIdentifier() && Spec->getName() == Name && isInTile(Spec);
}
bool isTileClass(QualType T, llvm::StringRef Name) {
  return isTileClass(T->getAsCXXRecordDecl(), Name);
}

/// How a variable is declared, when it is one whose space is known.
std::optional<ObjectKind> kindOf(const VarDecl &V) {
  if (V.hasAttr<CUDASharedAttr>())
    return ObjectKind::Shared;
  if (const auto *C = V.getAttr<CUDAConstantAttr>())
    return C->isImplicit() ? ObjectKind::Constexpr : ObjectKind::Constant;
  if (V.hasAttr<HIPManagedAttr>())
    return ObjectKind::Managed;
  if (V.hasAttr<CUDADeviceAttr>())
    return ObjectKind::Device;
  // An automatic variable of a function body (a parameter may be a kernel
  // parameter, in its own space: not known).
  if (!isa<ParmVarDecl>(V) && V.hasLocalStorage())
    return ObjectKind::Local;
  return std::nullopt;
}

const VarDecl *pointee(const Expr *E, unsigned Depth);

/// The variable whose storage the lvalue (or array) \p E is part of (any part:
/// not storageVariable's question, KnownObjects.h says how they differ).
const VarDecl *storageOf(const Expr *E, unsigned Depth) {
  for (; E && Depth < MaxDepth; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return nullptr;
      // A reference is bound once, to its initializer.
      if (V->getType()->isReferenceType()) {
        if (isa<ParmVarDecl>(V) || !V->getInit())
          return nullptr;
        E = V->getInit();
        continue;
      }
      return V;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
      if (Base->getType()->isArrayType())
        E = Base;
      else
        return pointee(ASE->getBase(), Depth + 1);
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return pointee(ME->getBase(), Depth + 1);
      E = ME->getBase();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_Deref)
        return nullptr;
      return pointee(UO->getSubExpr(), Depth + 1);
    }
    // tile::reg's operator[]: an element of the object.
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
      if (OC->getOperator() != OO_Subscript || !M || !isTileClass(M->getParent(), "reg"))
        return nullptr;
      E = OC->getArg(0);
      continue;
    }
    if (const Expr *Inner = tileHelperArg(E, {"view", "pred", "negated"})) {
      E = Inner;
      continue;
    }
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MTE->getSubExpr();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

/// The variable the pointer \p E points into.
const VarDecl *pointee(const Expr *E, unsigned Depth) {
  for (; E && Depth < MaxDepth; ++Depth) {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      if (Cast->getCastKind() == CK_ArrayToPointerDecay)
        return storageOf(Cast->getSubExpr(), Depth + 1);
      // Pointer to pointer, as written or implied: the same address.
      if (!Cast->getSubExpr()->getType()->isPointerType() &&
          !Cast->getSubExpr()->getType()->isArrayType())
        return nullptr;
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_AddrOf)
        return storageOf(UO->getSubExpr(), Depth + 1);
      return nullptr;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
        return nullptr;
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V || isa<ParmVarDecl>(V) || !V->getInit())
        return nullptr;
      QualType T = V->getType();
      if (T->isArrayType())
        return storageOf(E, Depth + 1);
      // A pointer that cannot change: `T *const p = s;`, or a reference to
      // a pointer bound once.
      if (!T->isReferenceType() && !T.isConstQualified() && !V->isConstexpr())
        return nullptr;
      E = V->getInit();
      continue;
    }
    if (isa<ArraySubscriptExpr, MemberExpr>(E))
      return storageOf(E, Depth + 1); // an array element or member, decayed
    return nullptr;
  }
  return nullptr;
}

/// The variable the memory view \p E is built over.
const VarDecl *viewedVariable(const Expr *E, unsigned Depth) {
  for (; E && Depth < MaxDepth; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MTE->getSubExpr();
      continue;
    }
    if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = BTE->getSubExpr();
      continue;
    }
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    if (const Expr *Inner = tileHelperArg(E, {"view", "to_cluster"})) {
      E = Inner;
      continue;
    }
    // tile::global<T, E...>(p), tile::shared<...>{p}, ...: the pointer.
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (!isTileClass(CE->getType(), "ref") || CE->getNumArgs() != 1)
        return nullptr;
      const Expr *A = CE->getArg(0);
      if (CE->getConstructor()->isCopyOrMoveConstructor()) {
        E = A;
        continue;
      }
      return pointee(A, Depth + 1);
    }
    // A view variable initialized once: `const tile::shared<...> S(buf);`
    // or a reference to one.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V || isa<ParmVarDecl>(V) || !V->getInit())
        return nullptr;
      QualType T = V->getType();
      if (!T->isReferenceType() && !T.isConstQualified() && !V->isConstexpr())
        return nullptr;
      E = V->getInit();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

} // namespace

const VarDecl *storageVariable(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    if (const auto *T = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = T->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      if (C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor()) {
        E = C->getArg(0);
        continue;
      }
      return nullptr;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      return V ? V->getCanonicalDecl() : nullptr;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      const auto *NS = FD ? dyn_cast<NamespaceDecl>(FD->getDeclContext()) : nullptr;
      if (!FD || !FD->getIdentifier() || Call->getNumArgs() != 1 || !NS ||
          NS->getName() != "tile" ||
          !NS->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
          (FD->getName() != "view" && FD->getName() != "pred"))
        return nullptr;
      E = Call->getArg(0);
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

std::optional<KnownObject> knownObject(const Expr *Arg, const ArgDesc &A) {
  const VarDecl *V = nullptr;
  if (A.Kind == TILEAPPLY_KIND_REGISTER || A.Kind == TILEAPPLY_KIND_PRED_TENSOR)
    V = storageOf(Arg, 0);
  else if (A.Kind == TILEAPPLY_KIND_MEMORY)
    V = viewedVariable(Arg, 0);
  if (!V)
    return std::nullopt;
  std::optional<ObjectKind> K = kindOf(*V);
  if (!K)
    return std::nullopt;
  return KnownObject{*K, V->getNameAsString()};
}

} // namespace plugin
} // namespace tileapply
