//===- PipelineStartPass.cpp - The expansion at the pipeline's start ------===//
#include "PipelineStartPass.h"
#include "ExpandPass.h"
#include "PassDiagnostics.h"
#include "tileapply/abi.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace tileapply {

/// Clang tags every call of a function declared `__attribute__((warning))`,
/// as the header's `__tile_apply` is, with the call's source location
/// (`!srcloc`); inlining drops the tag. Inlines such calls of the functions
/// that call the marker here, first, and puts the tag on the marker calls they
/// bring into the user's function: then an error can point at the user's line
/// even without debug information.
static void inlineTaggedWrappers(Function &Marker, FunctionAnalysisManager &FAM) {
  SmallPtrSet<Function *, 8> Wrappers;
  for (User *U : Marker.users())
    if (auto *CI = dyn_cast<CallInst>(U); CI && CI->getCalledFunction() == &Marker)
      if (CI->getFunction()->hasFnAttribute(Attribute::AlwaysInline))
        Wrappers.insert(CI->getFunction());
  // Flatten each wrapper first: the always-inline helpers it calls are
  // inlined into it once, not once per copy of it at every call site.
  for (Function *W : Wrappers) {
    SmallVector<CallBase *, 16> Work;
    for (Instruction &I : instructions(*W))
      if (auto *CB = dyn_cast<CallBase>(&I))
        Work.push_back(CB);
    while (!Work.empty()) {
      CallBase *CB = Work.pop_back_val();
      Function *Callee = CB->getCalledFunction();
      if (!Callee || Callee == W || Callee->isDeclaration() ||
          !Callee->hasFnAttribute(Attribute::AlwaysInline))
        continue;
      InlineFunctionInfo IFI;
      if (InlineFunction(*CB, IFI, /*MergeAttributes=*/true, /*CalleeAAR=*/nullptr,
                         /*InsertLifetime=*/false)
              .isSuccess())
        Work.append(IFI.InlinedCallSites.begin(), IFI.InlinedCallSites.end());
    }
    // Then promote its own locals (the parameter slots of the header's
    // helpers): what each call site receives is a handful of instructions,
    // not the unoptimized body, so inlining it and, after expansion,
    // optimizing what remains, cost little per call. SROA on the wrapper
    // changes nothing the expansion reads: the call site's arguments (the
    // caller's temporaries, tensors and the opcode literal) stay as they are.
    FunctionPassManager FPM;
    FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
    FPM.run(*W, FAM);
  }
  SmallVector<CallBase *, 16> Sites;
  for (Function *W : Wrappers)
    for (User *U : W->users())
      if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledFunction() == W &&
                                            CB->getMetadata(SrcLocMDName) && CB->getFunction() != W)
        Sites.push_back(CB);
  for (CallBase *CB : Sites) {
    MDNode *Tag = CB->getMetadata(SrcLocMDName);
    InlineFunctionInfo IFI;
    if (!InlineFunction(*CB, IFI, /*MergeAttributes=*/true, /*CalleeAAR=*/nullptr,
                        /*InsertLifetime=*/false)
             .isSuccess())
      continue;
    for (CallBase *New : IFI.InlinedCallSites)
      if (New->getCalledFunction() == &Marker && !New->getMetadata(SrcLocMDName))
        New->setMetadata(SrcLocMDName, Tag);
  }
}

PreservedAnalyses TileApplyPipelineStartPass::run(Module &M, ModuleAnalysisManager &AM) {
  if (!M.getTargetTriple().isNVPTX())
    return PreservedAnalyses::all();
  Function *Marker = M.getFunction(TILEAPPLY_MARKER_NAME);
  if (!Marker || Marker->use_empty())
    return PreservedAnalyses::all();
  inlineTaggedWrappers(*Marker, AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager());
  // No standard extension point sits between always-inline and the first
  // SROA, so this one brings its own always-inliner: the marker leaves the
  // header's wrapper, the register arrays are still allocas, and the SROA
  // that follows promotes what the expansion loads and stores.
  ModulePassManager MPM;
  MPM.addPass(AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  MPM.addPass(TileApplyExpandPass());
  return MPM.run(M, AM);
}

void runWithOwnAnalyses(Module &M, ModulePassManager &MPM) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  MPM.run(M, MAM);
}

void expandOutsidePipeline(Module &M) {
  ModulePassManager MPM;
  MPM.addPass(TileApplyPipelineStartPass());
  runWithOwnAnalyses(M, MPM);
}

} // namespace tileapply
