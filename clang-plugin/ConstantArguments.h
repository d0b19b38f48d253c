//===- ConstantArguments.h - One answer to "is this scalar constant" -*- C++ -*-//
//
// A scalar argument that is a compile-time constant may be accepted where its
// C++ type alone would not be (`1.0` for a .f32 operand), and must be one
// where PTX wants an immediate. The plugin decides that with Clang's constant
// evaluator; the pass later reads the argument from IR. The two must agree,
// so before code generation sees a call the plugin pins each constant scalar
// argument to the value it found: the argument becomes a temporary
// initialized by a ConstantExpr holding that value, which code generation
// emits as a plain constant store. The pass then reads exactly the constant
// the checker decided on, at every -O level, with or without -g.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_CONSTANTARGUMENTS_H
#define TILEAPPLY_CLANGPLUGIN_CONSTANTARGUMENTS_H

#include "tileapply/core/Arguments.h"
#include "clang/AST/APValue.h"
#include "clang/Basic/PartialDiagnostic.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Decl;
class Expr;
} // namespace clang

namespace tileapply {
namespace plugin {

/// The value of a scalar argument expression when Clang folds it to an
/// integer of at most 64 bits or a floating value, without side effects.
/// Nothing for anything else (a CUDA `__half2` object, a run-time value).
std::optional<clang::APValue> foldScalar(const clang::Expr *E, const clang::ASTContext &Ctx);

/// The constant a scalar argument expression folds to (foldScalar), as core
/// checks it: an integer (sign- or zero-extended to 64 bits) or a double, and
/// whether the source spells it as a decimal integer literal (`2`, `-2`,
/// `2ull`, `(uint16_t)2`; not `0x4000`, which spells bits on purpose).
/// Nothing when it does not fold.
std::optional<ScalarConst> scalarConstant(const clang::Expr *E, const clang::ASTContext &Ctx);

/// The expression as written: no implicit conversions, temporaries or parens.
const clang::Expr *asWritten(const clang::Expr *E);

/// Pins every constant scalar argument of `Call` (a `__tile_apply` call) to
/// its folded value, as described above, and its opcode too (below).
/// Idempotent.
void pinConstantArguments(clang::CallExpr *Call, clang::ASTContext &Ctx);

/// The opcode the first argument of a `__tile_apply` call spells: the string
/// Clang's constant evaluator finds behind the pointer (a literal, a constexpr
/// array or pointer, a conditional on template parameters, the result of a
/// constexpr or consteval function, `tile::fmt<...>`), up to its first NUL.
/// Nothing when the pointer is not a compile-time string; then `WhyNot`, if
/// given, receives the evaluator's notes on why.
///
/// A non-literal opcode is pinned like a constant scalar: the argument
/// becomes a ConstantExpr around the original expression whose value points
/// into a string literal of that spelling, so code generation emits a plain
/// constant string, which is what the pass reads, whatever the expression
/// was (a consteval result in a temporary, a local constexpr array).
std::optional<std::string>
foldOpcode(const clang::Expr *E, clang::ASTContext &Ctx,
           llvm::SmallVectorImpl<clang::PartialDiagnosticAt> *WhyNot = nullptr);

} // namespace plugin
} // namespace tileapply

#endif
