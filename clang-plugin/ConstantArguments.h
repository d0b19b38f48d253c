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

#include "clang/AST/APValue.h"
#include <optional>

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
std::optional<clang::APValue> foldScalar(const clang::Expr *E,
                                         const clang::ASTContext &Ctx);

/// Pins every constant scalar argument of `Call` (a `__tile_apply` call) to
/// its folded value, as described above. Idempotent.
void pinConstantArguments(clang::CallExpr *Call, clang::ASTContext &Ctx);

} // namespace plugin
} // namespace tileapply

#endif
