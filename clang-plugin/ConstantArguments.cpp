//===- ConstantArguments.cpp - One answer to "is this scalar constant" ----===//
//
// How an argument reaches `__tile_apply(const char *, A &&...)`:
//   - a prvalue (`1.0`, `sq(2.0)`) binds `A &&` through a temporary,
//     MaterializeTemporaryExpr(prvalue);
//   - an lvalue (`s.v`, `arr[1]`, a const variable) binds `const A &`
//     directly.
// Either way the argument is replaced by a temporary whose initializer is a
// ConstantExpr carrying the folded value around the original expression (kept
// for source ranges). Code generation emits a ConstantExpr with a value as
// that constant, so the temporary is one alloca with one constant store: the
// shape the pass's MarkerReader already proves constant.
//
//===----------------------------------------------------------------------===//
#include "ConstantArguments.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace tileapply {
namespace plugin {

std::optional<APValue> foldScalar(const Expr *E, const ASTContext &Ctx) {
  if (E->isValueDependent() || E->containsErrors())
    return std::nullopt;
  QualType T = E->getType().getNonReferenceType();
  // Builtin integers and floats, and unscoped enumerators (tile.h describes
  // them as their underlying integer).
  bool UnscopedEnum = T->isEnumeralType() && !T->isScopedEnumeralType();
  if (!UnscopedEnum &&
      (!T->isBuiltinType() || !(T->isIntegerType() || T->isRealFloatingType())))
    return std::nullopt;
  Expr::EvalResult Result;
  if (!E->EvaluateAsRValue(Result, Ctx) || Result.HasSideEffects)
    return std::nullopt;
  if (Result.Val.isInt() && Result.Val.getInt().getBitWidth() <= 64)
    return Result.Val;
  if (Result.Val.isFloat())
    return Result.Val;
  return std::nullopt;
}

void pinConstantArguments(CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return;
  for (unsigned I = 1, N = Call->getNumArgs(); I < N && I < Callee->getNumParams(); ++I) {
    Expr *Arg = Call->getArg(I);
    QualType Param = Callee->getParamDecl(I)->getType();
    // Already pinned, or a literal that code generation emits as one anyway.
    const Expr *Inner = Arg->IgnoreImplicit();
    if (isa<ConstantExpr, IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr>(Inner))
      continue;
    std::optional<APValue> V = foldScalar(Arg, Ctx);
    if (!V)
      continue;
    Expr *Value = nullptr;
    bool ToLvalueRef = false;
    if (auto *Temp = dyn_cast<MaterializeTemporaryExpr>(Arg)) {
      if (Temp->getLifetimeExtendedTemporaryDecl())
        continue; // never for a call argument; leave anything unusual alone
      Value = Temp->getSubExpr();
      ToLvalueRef = Temp->isBoundToLvalueReference();
    } else if (Arg->isGLValue() && Param->isLValueReferenceType() &&
               Param.getNonReferenceType().isConstQualified()) {
      // `const T &` bound to a constant lvalue: read it as a value.
      Value = ImplicitCastExpr::Create(Ctx, Arg->getType().getUnqualifiedType(),
                                       CK_LValueToRValue, Arg, nullptr, VK_PRValue,
                                       FPOptionsOverride());
      ToLvalueRef = true;
    } else {
      continue;
    }
    if (!Value->isPRValue())
      continue;
    ConstantExpr *Pinned = ConstantExpr::Create(Ctx, Value, *V);
    Call->setArg(I, new (Ctx) MaterializeTemporaryExpr(Arg->getType(), Pinned,
                                                        ToLvalueRef));
  }
}

} // namespace plugin
} // namespace tileapply
