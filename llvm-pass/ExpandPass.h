//===- ExpandPass.h - tile-apply-expand, the marker expansion ---*- C++ -*-===//
//
// The LLVM half of tileapply: `tile-apply-expand` replaces every call of the
// marker `__tileapply_apply` (tileapply/abi.h, docs/ir-form.md) with one
// inline-asm PTX instruction per repeat, and reports malformed or refused calls
// as LLVM diagnostics at the call's source location. Registration.h makes it
// known to a PassBuilder; PipelineStartPass.h runs it where clang needs it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_LLVMPASS_EXPANDPASS_H
#define TILEAPPLY_LLVMPASS_EXPANDPASS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Module;
} // namespace llvm

namespace tileapply {

/// Expands every marker call of the module. A module without markers is left
/// untouched. Required: it runs under optnone and at -O0, since an unexpanded
/// marker cannot be compiled.
class TileApplyExpandPass : public llvm::PassInfoMixin<TileApplyExpandPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
};

} // namespace tileapply

#endif
