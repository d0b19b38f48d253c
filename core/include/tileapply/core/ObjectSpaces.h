//===- ObjectSpaces.h - The variable behind an operand, and its space -*- C++ -*-===//
//
// A tensor operand is a pointer; where the front end (the plugin, from the
// AST) or the pass (from the IR, after inlining) can see which variable that
// pointer designates, the variable's state space is known at compile time and
// must agree with the operand: a register tensor is thread-owned storage, never
// a __shared__, __device__, __constant__ or __managed__ variable, and a memory
// view must name the space its variable lives in (tile::generic takes any).
// The rule and its words live here once; each half only finds the variable.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_OBJECTSPACES_H
#define TILEAPPLY_CORE_OBJECTSPACES_H

#include "tileapply/core/Arguments.h"
#include "tileapply/core/Diagnostics.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace tileapply {

/// How the variable behind an operand is declared.
enum class ObjectKind : uint8_t {
  Shared,    // __shared__
  Device,    // __device__
  Managed,   // __managed__
  Constant,  // __constant__
  Constexpr, // a constexpr variable: read-only, kept in constant memory
  Local,     // an automatic variable of the calling thread
};

/// The variable an operand's pointer designates, as far as it is known.
struct KnownObject {
  ObjectKind Kind;
  std::string Name; // as the user spells it; empty when unknown
};

/// The problem, if any, with argument \p Index (after the opcode, from 0) of
/// a call of \p Opcode whose storage is the variable \p O.
std::optional<Problem> checkObject(llvm::StringRef Opcode, const ArgDesc &A, unsigned Index,
                                   const KnownObject &O);

} // namespace tileapply

#endif
