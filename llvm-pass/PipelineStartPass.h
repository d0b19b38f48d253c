//===- PipelineStartPass.h - The expansion at the pipeline's start -*- C++ -*-===//
//
// Where the expansion runs in a clang compile: at the pipeline-start extension
// point, after the header's `__tile_apply` wrappers are inlined into the
// user's functions (keeping each call's source location) and before the first
// SROA; or, in a job that runs no pipeline, on its own (expandOutsidePipeline).
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_LLVMPASS_PIPELINESTARTPASS_H
#define TILEAPPLY_LLVMPASS_PIPELINESTARTPASS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Module;
} // namespace llvm

namespace tileapply {

/// What the pipeline-start extension point runs: on an NVPTX module that calls
/// the marker, an AlwaysInlinerPass (so that the marker inside the header's
/// always-inline `__tile_apply` lands in the user's function while the
/// register arrays are still allocas) and then TileApplyExpandPass. Anything
/// else is left untouched.
class TileApplyPipelineStartPass : public llvm::PassInfoMixin<TileApplyPipelineStartPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
};

/// Runs the pipeline-start sequence on \p M with analysis managers of its
/// own, for a job that runs no pipeline of which it could be part (the first
/// half of a split compile, clang-plugin/PassRegistration.cpp).
void expandOutsidePipeline(llvm::Module &M);

/// Runs \p MPM on \p M with analysis managers of its own, registered as opt
/// registers them (expandOutsidePipeline; test/fuzz/fuzz-pass.cpp).
void runWithOwnAnalyses(llvm::Module &M, llvm::ModulePassManager &MPM);

} // namespace tileapply

#endif
