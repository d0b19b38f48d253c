//===- FunctionTarget.h - The GPU a function is compiled for ----*- C++ -*-===//
//
// The pass checks a call against the target of the function holding it, as
// the plugin checks it against the cc1 target (clang-plugin/CompileTarget.h).
// In IR that target lives in the function's attributes, which clang puts on
// every device function.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_LLVMPASS_FUNCTIONTARGET_H
#define TILEAPPLY_LLVMPASS_FUNCTIONTARGET_H

#include "tileapply/core/Target.h"
#include <optional>

namespace llvm {
class Function;
} // namespace llvm

namespace tileapply {

/// The GPU \p F is compiled for, from its `target-cpu` (an `sm_XX` name) and
/// `target-features` (`+ptxNN`) attributes; none when the IR does not say
/// (hand-written tests) or the CPU is not an `sm_XX` name.
std::optional<Target> functionTarget(const llvm::Function &F);

} // namespace tileapply

#endif
