//===- CallFinder.h - Every __tile_apply call of a translation unit -*- C++ -*-//
//
// Walks the whole AST after template instantiation and hands each call to
// the `__tile_apply` function template (global namespace) to a callback,
// together with the function whose body holds it. Calls that are still
// dependent (inside a template that was never instantiated) have no callee
// yet and are skipped; their instances are visited instead.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_CALLFINDER_H
#define TILEAPPLY_CLANGPLUGIN_CALLFINDER_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace tileapply {
namespace plugin {

/// Whether `F` is a specialization of `::__tile_apply`.
bool isTileApply(const clang::FunctionDecl *F);

/// Calls `Fn(Call, Enclosing)` once for each `__tile_apply` call in the
/// translation unit, in source order within each function. `Enclosing` is the
/// function (or lambda call operator) whose body holds the call, or null for a
/// call outside any function body.
void forEachTileApplyCall(
    clang::ASTContext &Ctx,
    llvm::function_ref<void(const clang::CallExpr *Call,
                            const clang::FunctionDecl *Enclosing)>
        Fn);

} // namespace plugin
} // namespace tileapply

#endif
