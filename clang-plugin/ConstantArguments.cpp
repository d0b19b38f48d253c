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
// The opcode goes the same way when it is not a literal: a ConstantExpr whose
// value is the address of a string literal made for the spelling, which code
// generation emits as `@.str`, the same global a literal gives.
//
//===----------------------------------------------------------------------===//
#include "ConstantArguments.h"
#include "CallFinder.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

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
  if (!UnscopedEnum && (!T->isBuiltinType() || !(T->isIntegerType() || T->isRealFloatingType())))
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

const Expr *asWritten(const Expr *E) {
  const Expr *Prev = nullptr;
  while (E && E != Prev) {
    Prev = E;
    E = E->IgnoreUnlessSpelledInSource()->IgnoreParens();
  }
  return E;
}

std::optional<ScalarConst> scalarConstant(const Expr *E, const ASTContext &Ctx) {
  std::optional<APValue> V = foldScalar(E, Ctx);
  if (!V)
    return std::nullopt; // e.g. a CUDA __half2 object, or a run-time value
  ScalarConst C;
  if (V->isInt()) {
    const llvm::APSInt &I = V->getInt();
    C.I = I.isSigned() ? I.getSExtValue() : static_cast<int64_t>(I.getZExtValue());
  } else {
    llvm::APFloat F = V->getFloat();
    bool LosesInfo = false;
    F.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
    C.IsFloat = true;
    C.F = F.convertToDouble();
  }
  // `2`, `-2`, `(2)`, `2u`, `2ull`, `(uint16_t)2`: a decimal integer literal
  // that spells a number, whatever its suffix and through integer casts. A
  // literal in hexadecimal, octal or binary spells bits on purpose
  // (`0x40004000u`) and is not warned about.
  const Expr *W = asWritten(E);
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    if (const auto *U = dyn_cast<UnaryOperator>(W);
        U && (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus)) {
      W = asWritten(U->getSubExpr());
      continue;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(W);
        Cast && Cast->getType()->isIntegerType()) {
      W = asWritten(Cast->getSubExprAsWritten());
      continue;
    }
    break;
  }
  if (const auto *Lit = dyn_cast<IntegerLiteral>(W)) {
    llvm::StringRef Text =
        Lexer::getSourceText(CharSourceRange::getTokenRange(Lit->getSourceRange()),
                             Ctx.getSourceManager(), Ctx.getLangOpts());
    bool Radix = Text.size() > 1 && Text[0] == '0';
    C.IsIntegerLiteral = !Text.empty() && !Radix;
  }
  return C;
}

/// The string literal a pinned opcode points to, or null.
static const StringLiteral *pinnedOpcode(const Expr *E) {
  const auto *CE = dyn_cast<ConstantExpr>(E->IgnoreParens());
  if (!CE || !CE->hasAPValueResult())
    return nullptr;
  APValue V = CE->getAPValueResult();
  if (!V.isLValue() || !V.getLValueOffset().isZero())
    return nullptr;
  return dyn_cast_or_null<StringLiteral>(V.getLValueBase().dyn_cast<const Expr *>());
}

std::optional<std::string> foldOpcode(const Expr *E, ASTContext &Ctx,
                                      SmallVectorImpl<PartialDiagnosticAt> *WhyNot) {
  if (E->isValueDependent() || E->containsErrors())
    return std::nullopt;
  if (const StringLiteral *Pinned = pinnedOpcode(E))
    return Pinned->getString().str();
  if (std::optional<std::string> S = E->tryEvaluateString(Ctx))
    return S;
  if (WhyNot) {
    // Folding failed; a constant-expression evaluation says why, in Clang's
    // own words ("read of non-constexpr variable 'op' ...").
    Expr::EvalResult Result;
    Result.Diag = WhyNot;
    (void)E->EvaluateAsConstantExpr(Result, Ctx);
  }
  return std::nullopt;
}

/// Pins a non-literal opcode to the spelling it folds to (see the header).
static void pinOpcode(CallExpr *Call, ASTContext &Ctx) {
  Expr *Arg = Call->getArg(0);
  const Expr *Bare = Arg->IgnoreParenImpCasts();
  if (isa<StringLiteral, ConstantExpr>(Bare) || pinnedOpcode(Arg) || !Arg->isPRValue() ||
      !Arg->getType()->isPointerType())
    return;
  std::optional<std::string> S = foldOpcode(Arg, Ctx);
  if (!S)
    return;
  QualType ArrayTy = Ctx.getStringLiteralArrayType(Ctx.CharTy, S->size());
  StringLiteral *Lit = StringLiteral::Create(Ctx, *S, StringLiteralKind::Ordinary, /*Pascal=*/false,
                                             ArrayTy, Arg->getBeginLoc());
  APValue::LValuePathEntry First = APValue::LValuePathEntry::ArrayIndex(0);
  APValue Address(APValue::LValueBase(Lit), CharUnits::Zero(), First,
                  /*OnePastTheEnd=*/false);
  Call->setArg(0, ConstantExpr::Create(Ctx, Arg, Address));
}

void pinConstantArguments(CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Call->getNumArgs() == 0)
    return;
  if (isTileApply(Callee))
    pinOpcode(Call, Ctx);
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
      Value = ImplicitCastExpr::Create(Ctx, Arg->getType().getUnqualifiedType(), CK_LValueToRValue,
                                       Arg, nullptr, VK_PRValue, FPOptionsOverride());
      ToLvalueRef = true;
    } else {
      continue;
    }
    if (!Value->isPRValue())
      continue;
    ConstantExpr *Pinned = ConstantExpr::Create(Ctx, Value, *V);
    Call->setArg(I, new (Ctx) MaterializeTemporaryExpr(Arg->getType(), Pinned, ToLvalueRef));
  }
}

} // namespace plugin
} // namespace tileapply
