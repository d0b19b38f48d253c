//===- PassRegistration.cpp - Where the expansion runs in a device job ----===//
#include "PassRegistration.h"
#include "PipelineStartPass.h"
#include "Registration.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendOptions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include <memory>

using namespace clang;

namespace tileapply {
namespace plugin {
namespace {

/// A job that runs no pipeline still runs its output pass (the bitcode or IR
/// writer) through the pass manager, and the pass instrumentation is the one
/// hook Clang gives a plugin there. The expansion runs once, on the module,
/// before that first pass: the bitcode written holds the same IR that the
/// pipeline-start extension point would have produced in a single job, so
/// the later job's optimizer sees what it would have seen.
void expandBeforeFirstPass(llvm::PassBuilder &PB) {
  llvm::PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks();
  if (!PIC)
    return;
  auto Done = std::make_shared<bool>(false);
  PIC->registerBeforeNonSkippedPassCallback([Done](llvm::StringRef, llvm::Any IR) {
    if (*Done)
      return;
    const llvm::Module *const *M = llvm::any_cast<const llvm::Module *>(&IR);
    if (!M)
      return;
    *Done = true;
        // The instrumentation hands the module over as const; this job owns
        // it and nothing has read it yet.
    expandOutsidePipeline(const_cast<llvm::Module &>(**M));
  });
}

bool emitsIR(frontend::ActionKind Action) {
  return Action == frontend::EmitBC || Action == frontend::EmitLLVM;
}

} // namespace

void registerExpansion(CompilerInstance &CI) {
  CodeGenOptions &CG = CI.getCodeGenOpts();
  if (!CG.DisableLLVMPasses) {
    CG.PassBuilderCallbacks.push_back([](llvm::PassBuilder &PB) { tileapply::registerPasses(PB); });
    return;
  }
  if (emitsIR(CI.getFrontendOpts().ProgramAction)) {
    CG.PassBuilderCallbacks.push_back(expandBeforeFirstPass);
    return;
  }
  // -syntax-only and the other actions that emit nothing never reach here
  // with code to expand; PTX or an object straight from unoptimized IR with
  // no pass manager run at all would leave the markers for ptxas to refuse.
  if (CI.getFrontendOpts().ProgramAction == frontend::EmitAssembly ||
      CI.getFrontendOpts().ProgramAction == frontend::EmitObj) {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    Diags.Report(
        Diags.getCustomDiagID(DiagnosticsEngine::Error,
                              "tileapply cannot expand __tile_apply calls when the device job runs "
                              "no LLVM passes and emits code directly (-disable-llvm-passes): "
                              "drop -disable-llvm-passes, or emit IR with -emit-llvm, which "
                              "tileapply expands"));
  }
}

} // namespace plugin
} // namespace tileapply
