//===- CallRules.h - The layout rules of a __tile_apply call ----*- C++ -*-===//
//
// The one set of rules (docs/spec.md sections 2 and 4): checkCall() binds a
// call's arguments to a form's operands and returns every problem, worded
// once for the plugin and the pass.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_CALLRULES_H
#define TILEAPPLY_CORE_CALLRULES_H

#include "tileapply/core/Arguments.h"
#include "tileapply/core/Diagnostics.h"
#include "tileapply/core/OpcodeTable.h"
#include "tileapply/core/Target.h"
#include <vector>

namespace tileapply {

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
std::vector<Problem> checkCall(const Form &F, llvm::ArrayRef<ArgDesc> Args, const Target *T,
                               BoundCall *Out = nullptr);

/// The same for a spelling with overloads (LookupResult's Found and
/// Overloads): the first form the arguments bind to without an error is
/// chosen (*Chosen) and bound (*Out). When none binds, the problems are
/// those of the first form that takes as many operands as the call passes
/// (else of the first form), with a note naming the others.
std::vector<Problem> checkCall(const LookupResult &Forms, llvm::ArrayRef<ArgDesc> Args,
                               const Target *T, BoundCall *Out, const Form **Chosen);

/// Why target `T` cannot run form `F` (passing its optional operands or
/// not): TargetTooOld or PtxTooOld, or nothing. The one floor rule, for
/// `__tile_apply` calls and for asm statements (issue 22).
std::optional<Problem> targetProblem(const Form &F, bool WithOptional, const Target &T);

} // namespace tileapply

#endif
