//===- LocalMemory.h - Register tensors that stay in local memory -*- C++ -*-===//
//
// A register tensor is promised to live in registers, but only the optimizer
// decides: SROA keeps an array in memory (the thread's local memory) when it
// is indexed at run time, passed to a function that is not inlined, or its
// address escapes. The expansion tags the alloca of every register tensor a
// marker touched (`!tileapply.tensor`: the call's source location and the
// argument's index); this pass runs at the end of the optimizer and warns
// about every tagged alloca that survived, with the reason its uses show.
//
// The warning is reported by a hook when one is set (the Clang plugin, which
// knows the declaration and the source line of the offending use), else here,
// through the pass's own diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_LLVMPASS_LOCALMEMORY_H
#define TILEAPPLY_LLVMPASS_LOCALMEMORY_H

#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/PassManager.h"
#include <functional>
#include <string>

namespace llvm {
class AllocaInst;
class Function;
} // namespace llvm

namespace tileapply {

/// The metadata on a register tensor's alloca: !{i64 srcloc, i32 argument}.
inline constexpr const char *TensorMDName = "tileapply.tensor";

/// Tags \p Tensor as the storage of argument \p Arg (after the opcode) of the
/// `__tile_apply` call whose source location cookie is \p SrcLoc (0 when
/// unknown). The first call to touch a tensor wins.
void tagRegisterTensor(llvm::AllocaInst &Tensor, uint64_t SrcLoc, unsigned Arg);

/// Why a tagged tensor is still in memory after optimization.
enum class LocalMemoryReason { RuntimeIndex, PassedToCall, AddressTaken };

struct LocalMemoryFinding {
  const llvm::Function *Fn = nullptr;
  uint64_t CallSrcLoc = 0; // the first __tile_apply call that touched it
  unsigned Arg = 0;        // its argument index in that call (after the opcode)
  LocalMemoryReason Why = LocalMemoryReason::AddressTaken;
  std::string Callee;       // for PassedToCall: the function, demangled
  llvm::DebugLoc Where;     // the offending use's debug location, if any
  std::string VarName;      // from debug information, if any
  unsigned VarLine = 0;     // from debug information, if any
};

/// "it is indexed at run time at line 12" (no line when \p Line is 0).
std::string localMemoryReason(const LocalMemoryFinding &F, unsigned Line);
/// What to do about it, as a note.
std::string localMemoryAdvice(LocalMemoryReason Why);

/// Reports a finding; returns false to let the pass report it itself.
using LocalMemoryHook = std::function<bool(const LocalMemoryFinding &)>;
/// Sets (or, with an empty hook, clears) the process-wide hook.
void setLocalMemoryHook(LocalMemoryHook Hook);

/// The check, for the optimizer-last extension point (never at -O0, where
/// nothing is promoted).
class TileApplyLocalMemoryPass : public llvm::PassInfoMixin<TileApplyLocalMemoryPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace tileapply

#endif
