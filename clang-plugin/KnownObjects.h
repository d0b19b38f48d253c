//===- KnownObjects.h - The variable an argument designates, from the AST -*- C++ -*-===//
//
// Where an argument of `__tile_apply` statically designates a variable (a C
// array, a tile::reg, a memory view built over one), which variable and how it
// is declared: core's checkObject() then decides whether its state space fits
// the operand.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_KNOWNOBJECTS_H
#define TILEAPPLY_CLANGPLUGIN_KNOWNOBJECTS_H

#include "tileapply/core/ObjectSpaces.h"
#include <optional>

namespace clang {
class Expr;
} // namespace clang

namespace tileapply {
namespace plugin {

/// The variable behind argument \p Arg, described by \p A, when the source
/// says which one it is: for a register tensor (or predicate tensor), the
/// variable it is an element, member or view of; for a memory view, the
/// variable the pointer it was built from points into. Looks through
/// references (bound once), `T *const` and constexpr pointers, `&`, array
/// decay, pointer casts and arithmetic, `tile::view`, `tile::pred`,
/// `tile::negated` and `tile::to_cluster`. Anything else (a parameter, a
/// pointer that may change) is unknown.
std::optional<KnownObject> knownObject(const clang::Expr *Arg, const ArgDesc &A);

} // namespace plugin
} // namespace tileapply

#endif
