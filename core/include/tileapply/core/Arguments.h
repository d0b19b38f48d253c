//===- Arguments.h - The arguments of a call, as the header describes them -*- C++ -*-===//
//
// What a front end (the plugin, from the AST) or the pass (from the marker's
// layout array) knows about each argument of a `__tile_apply` call after the
// opcode: kind, carrier, state space, shape and strides, constant value.
// decodeLayout() reads the layout array of tileapply/abi.h; elementOffset()
// is the row-major indexing the expansion uses.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_ARGUMENTS_H
#define TILEAPPLY_CORE_ARGUMENTS_H

#include "tileapply/core/PtxTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tileapply {

/// Limits that keep a hostile layout from exhausting the compiler: a rank past
/// MaxRank is a malformed record; a tensor past MaxElements elements is
/// refused by the rules (one instruction per repeat: 65536 is already far past
/// any kernel).
inline constexpr int32_t MaxRank = 16;
inline constexpr int64_t MaxElements = int64_t(1) << 16;
/// The most arguments after the opcode (operands and options) one call may
/// have; the plugin refuses a call with more at the call.
inline constexpr int32_t MaxArgs = 64;

/// The value of a scalar argument, when it is a compile-time constant.
struct ScalarConst {
  bool IsFloat = false;
  double F = 0;   // when IsFloat
  int64_t I = 0;  // when !IsFloat (the value, sign-extended per the dtype)
  bool IsIntegerLiteral = false; // written as an integer literal (plugin only)
};

/// One argument of a call after the opcode, as the header's layout describes it.
struct ArgDesc {
  tileapply_kind Kind = TILEAPPLY_KIND_UNSUPPORTED;
  bool IsConst = false;
  bool Negated = false; // tile::negated(x): PTX's `!x`
  DType Elem = TILEAPPLY_DT_UNKNOWN;
  Space Sp = TILEAPPLY_SPACE_NONE;
  int64_t Storage = 0; // elements of the underlying storage, 0 = unknown
  /// For a KIND_UNSUPPORTED argument: why the header could not describe it.
  tileapply_unsupported Why = TILEAPPLY_UNSUPPORTED_TYPE;
  llvm::SmallVector<int64_t, 4> Extents, Strides;
  std::optional<ScalarConst> Constant; // filled by the caller when known
  /// The storage a register tensor or predicate tensor lies in, when the
  /// caller can tell (the plugin: the variable named; the pass: the alloca):
  /// two arguments with one non-null Base view the same storage, element 0 of
  /// this one being BaseOffset elements into it. Null: unknown, never guessed.
  const void *Base = nullptr;
  int64_t BaseOffset = 0;

  bool isTensor() const { return Kind == TILEAPPLY_KIND_REGISTER || Kind == TILEAPPLY_KIND_MEMORY; }
  /// Has a shape: a tensor or a predicate tensor.
  bool isShaped() const { return isTensor() || Kind == TILEAPPLY_KIND_PRED_TENSOR; }
  std::string shapeString() const; // "[8, 1]"
};

/// Decodes the marker's i32 layout array (tileapply/abi.h).
llvm::Expected<std::vector<ArgDesc>> decodeLayout(llvm::ArrayRef<int32_t> Words);

/// Element offset (in elements) of repeat `Repeat` (row-major linear index
/// over the repeat axes) and group element `Group` within argument `A`.
/// A scalar or an argument with no repeat axes always gives its own offset.
int64_t elementOffset(const ArgDesc &A, llvm::ArrayRef<int64_t> RepeatExtents, int64_t Repeat,
                      int64_t Group);

/// "[1, 2, 3]"
std::string listString(llvm::ArrayRef<int64_t> V);

} // namespace tileapply

#endif
