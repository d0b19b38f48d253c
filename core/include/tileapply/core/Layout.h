//===- Layout.h - Arguments of a call, and the rules they obey --*- C++ -*-===//
//
// The one set of layout rules. A front end (the plugin, from the AST) or the
// pass (from the marker's layout array) describes each argument of a call as
// an ArgDesc; checkCall() binds them to a Form's operands and returns every
// problem, worded once for both. elementOffset() is the row-major indexing the
// expansion uses.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_LAYOUT_H
#define TILEAPPLY_CORE_LAYOUT_H

#include "tileapply/core/OpcodeTable.h"
#include "tileapply/core/Target.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tileapply {

enum class DiagCode : uint8_t {
#define TA_DIAG(Code, Severity, Summary) Code,
#include "tileapply/core/Diagnostics.def"
};
enum class Severity : uint8_t { Error, Warning };
Severity diagSeverity(DiagCode C);
llvm::StringRef diagName(DiagCode C);    // "CarrierMismatch"
llvm::StringRef diagSummary(DiagCode C); // one line, for docs and listings

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
  llvm::SmallVector<int64_t, 4> Extents, Strides;
  std::optional<ScalarConst> Constant; // filled by the caller when known

  bool isTensor() const {
    return Kind == TILEAPPLY_KIND_REGISTER || Kind == TILEAPPLY_KIND_MEMORY;
  }
  std::string shapeString() const; // "[8, 1]"
};

/// Decodes the marker's i32 layout array (tileapply/abi.h).
llvm::Expected<std::vector<ArgDesc>> decodeLayout(llvm::ArrayRef<int32_t> Words);

/// One problem with a call. `Arg` is the index of the argument after the
/// opcode it concerns (0 = first operand), or -1 for the opcode / the call.
struct Problem {
  DiagCode Code;
  int Arg = -1;
  std::string Message;
  std::vector<std::string> Notes; // extra explanation lines
  std::string FixIt;              // replacement text for the opcode, if any
  bool PointAtDecl = false;       // a note should show the argument's declaration
  Severity severity() const { return diagSeverity(Code); }
};

/// A call that passed the rules: how arguments bind to the form's operands.
struct BoundCall {
  std::vector<int> OperandArg; // per Form operand: index into the args
  /// Per Form operand: the registers each of its Regs is given as (1, or 2/4
  /// for a Splittable operand passed as a group of narrower registers).
  std::vector<unsigned> Split;
  int PredArg = -1;            // a PRED_SCALAR / PRED_TENSOR argument, or -1
  bool PreserveDst = false;
  llvm::SmallVector<int64_t, 4> RepeatExtents; // {} for an all-scalar call
  int64_t numRepeats() const;
};

/// Checks the arguments against the form (and, if given, the target) and
/// fills `Out` when there is no error. Warnings do not stop the binding.
std::vector<Problem> checkCall(const Form &F, llvm::ArrayRef<ArgDesc> Args,
                               const Target *T, BoundCall *Out = nullptr);

/// The problem for an opcode spelling that is not a form.
Problem spellingProblem(const SpellingProblem &SP);

/// Element offset (in elements) of repeat `Repeat` (row-major linear index
/// over the repeat axes) and group element `Group` within argument `A`.
/// A scalar or an argument with no repeat axes always gives its own offset.
int64_t elementOffset(const ArgDesc &A, llvm::ArrayRef<int64_t> RepeatExtents,
                      int64_t Repeat, int64_t Group);

/// The PTX immediate for a constant scalar of an operand of type `T`, or "" if
/// PTX takes no immediate there or the value does not fit exactly.
std::string immediateText(PtxType T, const ScalarConst &C);
/// Whether a constant converts to operand type T without changing its value.
bool constantFitsExactly(PtxType T, const ScalarConst &C);

} // namespace tileapply

#endif
