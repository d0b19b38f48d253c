//===- KnownObjects.h - The variable an argument designates, from the AST -*- C++ -*-===//
//
// Where an argument of `__tile_apply` statically designates a variable (a C
// array, a tile::reg, a memory view built over one), which variable and how it
// is declared: core's checkObject() then decides whether its state space fits
// the operand. And the variable a register tensor argument is as a whole
// (storageVariable), which core's overlap rules and the local-memory warnings
// key on.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_KNOWNOBJECTS_H
#define TILEAPPLY_CLANGPLUGIN_KNOWNOBJECTS_H

#include "tileapply/core/ObjectSpaces.h"
#include <optional>

namespace clang {
class Expr;
class VarDecl;
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

/// The variable a register or predicate tensor argument is, as a whole:
/// the variable named, looking through copies, temporaries, `tile::view` and
/// `tile::pred` (both start at the first element of what they wrap), or null
/// when the expression is anything else. Its canonical declaration is the
/// argument's ArgDesc::Base (core's overlap rules) and the key of the
/// local-memory warnings (LocalMemoryWarning.h).
///
/// Not the walk knownObject() makes, on purpose: that one asks which
/// variable an argument lies in (an element `r[2]`, a member `s.v`, a
/// reference's initializer all lie in some variable), which is all a state
/// space check needs. Base promises more, that element 0 of the argument is
/// element 0 of the variable, so this walk refuses everything that may start
/// elsewhere, and takes a reference variable as the variable it is.
const clang::VarDecl *storageVariable(const clang::Expr *E);

} // namespace plugin
} // namespace tileapply

#endif
