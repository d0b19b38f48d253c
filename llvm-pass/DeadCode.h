//===- DeadCode.h - What only the markers needed, removed -------*- C++ -*-===//
//
// After the expansion, the marker calls are gone and so is the last use of
// much of what fed them: the inlined wrappers' parameter slots and the loads
// and stores through them, and the globals (layout arrays, opcode strings)
// that nothing but clang's used lists refers to any more. Removing them in the
// pass is cheap and spares the optimizer (and -O0 output) the leftovers.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_LLVMPASS_DEADCODE_H
#define TILEAPPLY_LLVMPASS_DEADCODE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/ValueHandle.h"

namespace llvm {
class GlobalVariable;
class Module;
class User;
} // namespace llvm

namespace tileapply {

/// Whether \p U, a user of a global, only feeds `llvm.used` /
/// `llvm.compiler.used`, possibly through constant casts.
bool feedsOnlyUsedLists(const llvm::User &U);

/// Erases the globals of \p Candidates that nothing but the used lists
/// refers to any more. Clang lists every `__device__` variable, the layout
/// arrays included, in `llvm.compiler.used`.
void eraseDeadGlobals(llvm::Module &M, llvm::ArrayRef<llvm::GlobalVariable *> Candidates);

/// Removes what computed the operands of an erased marker call and is dead
/// now: the loads of the inlined wrapper's parameter slots, the stores into
/// those slots, and the slots, through every level of the header's helpers
/// (a reference passed on is stored into a slot, loaded, stored into the
/// next). Operands already gone (null handles) are skipped.
void removeDeadFeeders(llvm::ArrayRef<llvm::WeakTrackingVH> Operands);

} // namespace tileapply

#endif
