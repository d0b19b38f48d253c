//===- TileApplyExpand.h - The tile-apply-expand pass -----------*- C++ -*-===//
//
// The LLVM half of tileapply: `tile-apply-expand` replaces every call of the
// marker `__tileapply_apply` (tileapply/abi.h, docs/ir-form.md) with one
// inline-asm PTX instruction per repeat, and reports malformed or refused calls
// as LLVM diagnostics at the call's source location.
//
// Two modules register it: TileApplyPass.so (a pass plugin, for opt and
// `clang -fpass-plugin`) and the Clang plugin TileApply.so, which links this
// library statically and calls registerPasses() from a
// CodeGenOptions::PassBuilderCallbacks entry.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_LLVMPASS_TILEAPPLYEXPAND_H
#define TILEAPPLY_LLVMPASS_TILEAPPLYEXPAND_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Module;
class PassBuilder;
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

/// What the pipeline-start extension point runs: on an NVPTX module that calls
/// the marker, an AlwaysInlinerPass (so that the marker inside the header's
/// always-inline `__tile_apply` lands in the user's function while the
/// register arrays are still allocas) and then TileApplyExpandPass. Anything
/// else is left untouched.
class TileApplyPipelineStartPass
    : public llvm::PassInfoMixin<TileApplyPipelineStartPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
};

/// Registers `tile-apply-expand` (and `tile-apply-pipeline-start`, the
/// pipeline-start sequence) for textual pipelines, and the pipeline-start
/// extension point that runs the expansion in every default pipeline (clang
/// at -O0 to -O3, `opt -passes='default<O2>'`).
void registerPasses(llvm::PassBuilder &PB);

/// Runs the pipeline-start sequence on \p M with analysis managers of its
/// own, for a job that runs no pipeline of which it could be part (the first
/// half of a split compile, clang-plugin/PassRegistration.cpp).
void expandOutsidePipeline(llvm::Module &M);

} // namespace tileapply

#endif
