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
class Decl;
class DeclRefExpr;
class FunctionDecl;
} // namespace clang

namespace tileapply {
namespace plugin {

/// Whether `F` is a specialization of `::__tile_apply`.
bool isTileApply(const clang::FunctionDecl *F);
/// Whether `F` is a specialization of `tile::ewise`, which the plugin checks
/// like a `__tile_apply` call (its callbacks below receive those calls too).
bool isTileEwise(const clang::FunctionDecl *F);

/// Calls `Fn(Call, Enclosing)` once for each `__tile_apply` call in the
/// translation unit, in source order within each function. `Enclosing` is the
/// function (or lambda call operator) whose body holds the call, or null for a
/// call outside any function body.
using TileApplyCallback =
    llvm::function_ref<void(clang::CallExpr *Call, const clang::FunctionDecl *Enclosing)>;
void forEachTileApplyCall(clang::ASTContext &Ctx, TileApplyCallback Fn);

/// The same, also calling `Use(Ref, Enclosing)` for each mention of
/// `__tile_apply` that is not the callee of a direct call (`&__tile_apply<...>`,
/// a reference bound to it). Unevaluated operands (decltype, sizeof, noexcept,
/// requires-expressions, a non-polymorphic typeid) are skipped by both: nothing
/// in them runs or is expanded.
using TileApplyUseCallback =
    llvm::function_ref<void(const clang::DeclRefExpr *Ref, const clang::FunctionDecl *Enclosing)>;
void forEachTileApplyCall(clang::ASTContext &Ctx, TileApplyCallback Fn, TileApplyUseCallback Use);

/// The same for the calls inside one declaration (a function, a class with
/// its methods, a namespace, ...), for a consumer that sees declarations as
/// the parser completes them.
void forEachTileApplyCall(clang::ASTContext &Ctx, clang::Decl *D, TileApplyCallback Fn);

} // namespace plugin
} // namespace tileapply

#endif
