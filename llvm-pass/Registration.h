//===- Registration.h - The passes, made known to a PassBuilder -*- C++ -*-===//
//
// Two modules register the passes: TileApplyPass.so (a pass plugin, for opt
// and `clang -fpass-plugin`, PassPlugin.cpp) and the Clang plugin TileApply.so,
// which links this library statically and calls registerPasses() from a
// CodeGenOptions::PassBuilderCallbacks entry (clang-plugin/PassRegistration.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_LLVMPASS_REGISTRATION_H
#define TILEAPPLY_LLVMPASS_REGISTRATION_H

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace tileapply {

/// Registers `tile-apply-expand` (and `tile-apply-pipeline-start`, the
/// pipeline-start sequence, and `tile-apply-local-memory`) for textual
/// pipelines, and the extension points: the pipeline-start one that runs the
/// expansion in every default pipeline (clang at -O0 to -O3,
/// `opt -passes='default<O2>'`) and the optimizer-last one that runs the
/// local-memory check above -O0.
void registerPasses(llvm::PassBuilder &PB);

} // namespace tileapply

#endif
