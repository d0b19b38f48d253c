//===- Registration.cpp - The passes, made known to a PassBuilder ---------===//
#include "Registration.h"
#include "ExpandPass.h"
#include "LocalMemory.h"
#include "PipelineStartPass.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace tileapply {

void registerPasses(PassBuilder &PB) {
  // Lets -print-pipeline-passes and the pass instrumentation name the passes
  // as the textual pipeline spells them.
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks()) {
    PIC->addClassToPassName(TileApplyExpandPass::name(), "tile-apply-expand");
    PIC->addClassToPassName(TileApplyPipelineStartPass::name(), "tile-apply-pipeline-start");
    PIC->addClassToPassName(TileApplyLocalMemoryPass::name(), "tile-apply-local-memory");
  }
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "tile-apply-expand") {
          MPM.addPass(TileApplyExpandPass());
          return true;
        }
        if (Name == "tile-apply-local-memory") {
          MPM.addPass(TileApplyLocalMemoryPass());
          return true;
        }
        if (Name == "tile-apply-pipeline-start") {
          MPM.addPass(TileApplyPipelineStartPass());
          return true;
        }
        return false;
      });
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(TileApplyPipelineStartPass()); });
  // At -O0 nothing is promoted to registers, so there is nothing to say.
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level, ThinOrFullLTOPhase) {
        if (Level != OptimizationLevel::O0)
          MPM.addPass(TileApplyLocalMemoryPass());
      });
}

} // namespace tileapply
