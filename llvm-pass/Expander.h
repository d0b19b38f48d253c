//===- Expander.h - One checked call, expanded to inline asm ----*- C++ -*-===//
//
// docs/spec.md section 3 in IR: a call that passed the layout rules becomes one
// inline-asm PTX instruction per repeat, in row-major repeat order, in front
// of its marker (a multi-instruction form: one statement per repeat, or, for
// a carry chain, one statement for the whole call; section 6). Around each
// instruction there is only what inline asm needs to see registers:
// constant-offset addressing and loads of the register
// tensor elements it reads, stores of the elements it writes, address
// arithmetic for memory operands and, for predication, the compare that
// produces the `.pred`. SROA later turns the loads and stores into plain
// registers.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_LLVMPASS_EXPANDER_H
#define TILEAPPLY_LLVMPASS_EXPANDER_H

#include "tileapply/core/CallRules.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/Support/Error.h"

namespace tileapply {

struct MarkerCall;

/// The metadata kind that tags every emitted inline asm with its opcode:
/// `!tileapply.opcode !{!"add.rn.f16x2"}`.
inline constexpr const char *OpcodeMDName = "tileapply.opcode";

/// Emits the expansion of \p MC (bound to \p F as \p B) in front of the
/// marker call, every instruction at \p Loc. The marker itself is left for
/// the caller to erase. An error means a disagreement between the bound call
/// and what can be emitted (an internal inconsistency, not a user error);
/// nothing emitted so far is kept in that case.
llvm::Error expandCall(const Form &F, const MarkerCall &MC, const BoundCall &B,
                       const llvm::DebugLoc &Loc);

} // namespace tileapply

#endif
