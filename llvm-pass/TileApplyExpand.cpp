//===- TileApplyExpand.cpp - The tile-apply-expand pass -------------------===//
//
// The driver: find the marker calls; read each one (MarkerReader), look its
// opcode up and check it with the same rules the Clang plugin uses (core's
// checkCall), reporting what is wrong; then expand those that passed
// (Expander) and erase every marker; finally drop what only the markers
// needed: the declaration, the layout arrays and the opcode strings.
//
//===----------------------------------------------------------------------===//
#include "TileApplyExpand.h"
#include "PassDiagnostics.h"
#include "Expander.h"
#include "LocalMemory.h"
#include "MarkerReader.h"
#include "tileapply/abi.h"
#include "tileapply/core/CallRules.h"
#include "tileapply/core/OpcodeTable.h"
#include "tileapply/core/Target.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace tileapply {

namespace {

/// The GPU the function is compiled for, from the attributes clang puts on
/// every device function; none when the IR does not say (hand-written tests).
std::optional<Target> callerTarget(const Function &F) {
  Attribute Cpu = F.getFnAttribute("target-cpu");
  if (!Cpu.isStringAttribute())
    return std::nullopt;
  std::optional<Target> T = parseTarget(Cpu.getValueAsString());
  if (!T)
    return std::nullopt;
  Attribute Features = F.getFnAttribute("target-features");
  if (Features.isStringAttribute())
    T->PtxVersion = parsePtxFeature(Features.getValueAsString());
  return T;
}

/// One line per problem: clang prints the message above the source snippet,
/// so the notes follow on the same line rather than below it.
std::string problemText(const Problem &P) {
  std::string Text = P.Message;
  for (const std::string &Note : P.Notes)
    Text += "; " + Note;
  return Text;
}

/// Whether \p U, a user of a global, only feeds `llvm.used` /
/// `llvm.compiler.used`, possibly through constant casts.
bool feedsOnlyUsedLists(const User &U) {
  if (isa<ConstantExpr>(U))
    return all_of(U.users(),
                  [](const User *Next) { return feedsOnlyUsedLists(*Next); });
  if (!isa<ConstantArray>(U))
    return false;
  return all_of(U.users(), [](const User *List) {
    const auto *GV = dyn_cast<GlobalVariable>(List);
    return GV && (GV->getName() == "llvm.used" ||
                  GV->getName() == "llvm.compiler.used");
  });
}

/// Whether nothing but the used lists refers to \p C.
bool onlyListedAsUsed(const Constant &C) {
  return all_of(C.users(),
                [](const User *U) { return feedsOnlyUsedLists(*U); });
}

/// Erases the globals of \p Candidates that nothing but the used lists
/// refers to any more. Clang lists every `__device__` variable, the layout
/// arrays included, in `llvm.compiler.used`.
void eraseDeadGlobals(Module &M, ArrayRef<GlobalVariable *> Candidates) {
  SmallPtrSet<GlobalVariable *, 16> Dead;
  for (GlobalVariable *GV : Candidates) {
    GV->removeDeadConstantUsers();
    if (GV->isDiscardableIfUnused() && onlyListedAsUsed(*GV))
      Dead.insert(GV);
  }
  if (Dead.empty())
    return;
  removeFromUsedLists(M, [&](Constant *C) {
    auto *GV = dyn_cast<GlobalVariable>(C->stripPointerCasts());
    return GV && Dead.contains(GV);
  });
  for (GlobalVariable *GV : Candidates) {
    if (!Dead.contains(GV))
      continue;
    GV->removeDeadConstantUsers();
    if (GV->use_empty())
      GV->eraseFromParent();
  }
}

/// One marker call between the two phases: read and checked, not yet
/// expanded. Nothing here refers to IR that another call's expansion changes.
struct CheckedCall {
  CallInst *Call = nullptr;
  CallLocation At;
  std::optional<MarkerCall> MC;
  const Form *F = nullptr; // owned by the opcode cache
  BoundCall Bound;
};

/// Expands every marker of a module in two phases. Phase one reads and checks
/// every call without changing the IR; phase two expands and erases them.
/// Reading looks through local variables with dominance queries, and a query
/// inside a block that was just changed re-numbers the whole block: done one
/// call at a time, expansion would make the pass quadratic in the calls of a
/// function. In two phases each block is numbered once.
class MarkerExpander {
public:
  MarkerExpander(Module &M, FunctionAnalysisManager &FAM, size_t NumCalls)
      : M(M), Reader([&FAM](Function &F) -> DominatorTree & {
          return FAM.getResult<DominatorTreeAnalysis>(F);
        }) {
    // Never moved once read: growing the vector would copy every call read
    // so far (and re-track each one's debug location).
    Calls.reserve(NumCalls);
  }

  /// Phase one: reads and checks \p Call, reporting what is wrong with it.
  void check(CallInst &Call);
  /// Phase two: expands the calls that passed, then erases every marker.
  void expandAll();

private:
  Module &M;
  MarkerReader Reader;
  std::vector<CheckedCall> Calls;
  /// Each distinct opcode is looked up once per module.
  StringMap<std::optional<LookupResult>> Lookups;

  void removeDeadFeeders(ArrayRef<WeakTrackingVH> Operands);

  const LookupResult &lookup(StringRef Opcode) {
    std::optional<LookupResult> &Slot = Lookups[Opcode];
    if (!Slot)
      Slot = OpcodeTable::get().lookup(Opcode);
    return *Slot;
  }
  void read(CheckedCall &C);
};

void MarkerExpander::check(CallInst &Call) {
  CheckedCall &C = Calls.emplace_back();
  C.Call = &Call;
  C.At = callLocation(Call);
  const Triple &TT = M.getTargetTriple();
  if (!TT.str().empty() && !TT.isNVPTX()) {
    report(*Call.getFunction(), C.At, DS_Error,
           "'" TILEAPPLY_MARKER_NAME "' in a module for " + TT.str() +
               ": tileapply expands calls only in NVPTX device code");
    return;
  }
  read(C);
}

void MarkerExpander::read(CheckedCall &C) {
  const Function &Caller = *C.Call->getFunction();
  Expected<MarkerCall> MC = Reader.read(*C.Call);
  if (!MC) {
    // A call with too many arguments is the user's mistake, said as the
    // plugin says it; anything else means IR that tile.h did not write.
    bool UserError = false;
    std::string Msg;
    handleAllErrors(MC.takeError(), [&](const StringError &SE) {
      UserError = SE.convertToErrorCode() ==
                  std::make_error_code(std::errc::argument_list_too_long);
      Msg = SE.getMessage();
    }, [&](const ErrorInfoBase &Other) { Msg = Other.message(); });
    report(Caller, C.At, DS_Error,
           (UserError ? "" : "malformed '" TILEAPPLY_MARKER_NAME "' call: ") + Msg);
    return;
  }
  const LookupResult &Lookup = lookup(MC->Opcode);
  if (!Lookup) {
    report(Caller, C.At, DS_Error,
           problemText(spellingProblem(Lookup.Problem)));
    return;
  }
  std::optional<Target> T = callerTarget(Caller);
  bool Failed = false;
  // The variables behind the operands, where the IR shows them (after
  // inlining it may show more than the source did): their state spaces must
  // fit the operands. Under the Clang plugin, a call it refused never gets
  // here (an error stops code generation), so nothing is reported twice.
  for (unsigned I = 0; I < MC->Args.size(); ++I) {
    const ArgDesc &A = MC->Args[I];
    Value *V = C.Call->getArgOperand(I + 2);
    if (!A.isShaped() || !V->getType()->isPointerTy())
      continue;
    if (std::optional<KnownObject> O = Reader.objectOf(V))
      if (std::optional<Problem> P = checkObject(MC->Opcode, A, I, *O)) {
        report(Caller, C.At, DS_Error, problemText(*P));
        Failed = true;
      }
  }
  const Form *Chosen = nullptr;
  for (const Problem &P :
       checkCall(Lookup, MC->Args, T ? &*T : nullptr, &C.Bound, &Chosen)) {
    bool IsError = P.severity() == Severity::Error;
    report(Caller, C.At, IsError ? DS_Error : DS_Warning, problemText(P));
    Failed |= IsError;
  }
  if (Failed)
    return;
  C.F = Chosen;
  C.MC = std::move(*MC);
}

void MarkerExpander::expandAll() {
  for (CheckedCall &C : Calls) {
    // The register tensors it touches, for the local-memory check at the
    // end of the optimizer.
    if (C.F)
      for (unsigned I = 0; I < C.MC->Args.size(); ++I)
        if (const auto *AI = static_cast<const AllocaInst *>(C.MC->Args[I].Base))
          tagRegisterTensor(const_cast<AllocaInst &>(*AI), C.At.SrcLoc, I);
    if (C.F)
      if (Error E = expandCall(*C.F, *C.MC, C.Bound, C.At.Loc))
        report(*C.Call->getFunction(), C.At, DS_Error,
               "'" + C.MC->Opcode + "': " + toString(std::move(E)));
    // Whatever happened, the marker goes: later passes and the back end must
    // not see it, and after an error the compilation stops anyway.
    if (!C.Call->use_empty())
      C.Call->replaceAllUsesWith(PoisonValue::get(C.Call->getType()));
    SmallVector<WeakTrackingVH, 8> Operands(C.Call->arg_begin(), C.Call->arg_end());
    C.Call->eraseFromParent();
    removeDeadFeeders(Operands);
  }
  Calls.clear();
}

/// What computed the marker's operands is dead now: the loads of the inlined
/// wrapper's parameter slots, the stores into those slots, and the slots,
/// through every level of the header's helpers (a reference passed on is
/// stored into a slot, loaded, stored into the next). Removing them here is
/// cheap (they are few and local to the call) and spares SROA, which would
/// otherwise take each slot apart after us.
void MarkerExpander::removeDeadFeeders(ArrayRef<WeakTrackingVH> Operands) {
  SmallVector<Value *, 16> Work(Operands.begin(), Operands.end());
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    auto *I = dyn_cast_or_null<Instruction>(V);
    if (!I || !I->getParent())
      continue;
    if (isInstructionTriviallyDead(I)) {
      for (Value *Op : I->operands())
        Work.push_back(Op);
      I->eraseFromParent();
      continue;
    }
    // A slot nothing reads any more: its stores (and lifetime markers) go,
    // and what they stored may be dead in turn.
    auto *Slot = dyn_cast<AllocaInst>(I);
    if (!Slot || !llvm::all_of(Slot->users(), [&](User *U) {
          auto *SI = dyn_cast<StoreInst>(U);
          return (SI && SI->getPointerOperand() == Slot && SI->getValueOperand() != Slot &&
                  SI->isSimple()) ||
                 cast<Instruction>(U)->isLifetimeStartOrEnd();
        }))
      continue;
    SmallVector<Instruction *, 4> Users;
    for (User *U : Slot->users())
      Users.push_back(cast<Instruction>(U));
    for (Instruction *U : Users) {
      if (auto *SI = dyn_cast<StoreInst>(U))
        Work.push_back(SI->getValueOperand());
      U->eraseFromParent();
    }
    Slot->eraseFromParent();
  }
}

} // namespace

PreservedAnalyses TileApplyExpandPass::run(Module &M,
                                           ModuleAnalysisManager &AM) {
  Function *Marker = M.getFunction(TILEAPPLY_MARKER_NAME);
  if (!Marker)
    return PreservedAnalyses::all();

  // Collect first: expansion erases the calls it walks over.
  SmallVector<CallInst *, 16> Calls;
  SetVector<GlobalVariable *> Candidates;
  for (Use &U : Marker->uses()) {
    auto *Call = dyn_cast<CallInst>(U.getUser());
    if (Call && Call->isCallee(&U)) {
      Calls.push_back(Call);
      for (unsigned I = 0, E = std::min(2u, Call->arg_size()); I != E; ++I)
        if (auto *GV = dyn_cast<GlobalVariable>(
                Call->getArgOperand(I)->stripPointerCasts()))
          Candidates.insert(GV);
      continue;
    }
    // The marker's address taken, an invoke, a callbr: nothing a front end
    // following the ABI emits, and nothing we can expand.
    if (auto *I = dyn_cast<Instruction>(U.getUser()))
      report(*I->getFunction(), callLocation(*I), DS_Error,
             "'" TILEAPPLY_MARKER_NAME
             "' may only be called directly, with a call instruction");
    else if (!feedsOnlyUsedLists(*U.getUser()))
      M.getContext().diagnose(DiagnosticInfoGeneric(
          "'" TILEAPPLY_MARKER_NAME "' is referenced by a constant; it may "
          "only be called directly",
          DS_Error));
  }
  if (Calls.empty())
    return PreservedAnalyses::all();
  // In program order (use lists are not), so diagnostics come in the order
  // of the source.
  {
    DenseSet<CallInst *> IsCall(Calls.begin(), Calls.end());
    SmallPtrSet<Function *, 16> Holders;
    for (CallInst *Call : Calls)
      Holders.insert(Call->getFunction());
    Calls.clear();
    for (Function &F : M)
      if (Holders.contains(&F))
        for (Instruction &I : instructions(F))
          if (auto *Call = dyn_cast<CallInst>(&I); Call && IsCall.contains(Call))
            Calls.push_back(Call);
  }

  FunctionAnalysisManager &FAM =
      AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  MarkerExpander Expander(M, FAM, Calls.size());
  for (CallInst *Call : Calls)
    Expander.check(*Call);
  Expander.expandAll();

  if (Marker->isDeclaration() && Marker->use_empty())
    Marker->eraseFromParent();
  eraseDeadGlobals(M, Candidates.getArrayRef());

  // Instructions were added and removed, never blocks.
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

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
      if (auto *CB = dyn_cast<CallBase>(U);
          CB && CB->getCalledFunction() == W && CB->getMetadata(SrcLocMDName) &&
          CB->getFunction() != W)
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

PreservedAnalyses TileApplyPipelineStartPass::run(Module &M,
                                                  ModuleAnalysisManager &AM) {
  if (!M.getTargetTriple().isNVPTX())
    return PreservedAnalyses::all();
  Function *Marker = M.getFunction(TILEAPPLY_MARKER_NAME);
  if (!Marker || Marker->use_empty())
    return PreservedAnalyses::all();
  inlineTaggedWrappers(
      *Marker, AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager());
  // No standard extension point sits between always-inline and the first
  // SROA, so this one brings its own always-inliner: the marker leaves the
  // header's wrapper, the register arrays are still allocas, and the SROA
  // that follows promotes what the expansion loads and stores.
  ModulePassManager MPM;
  MPM.addPass(AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  MPM.addPass(TileApplyExpandPass());
  return MPM.run(M, AM);
}

void expandOutsidePipeline(Module &M) {
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
  TileApplyPipelineStartPass().run(M, MAM);
}

void registerPasses(PassBuilder &PB) {
  // Lets -print-pipeline-passes and the pass instrumentation name the passes
  // as the textual pipeline spells them.
  if (PassInstrumentationCallbacks *PIC =
          PB.getPassInstrumentationCallbacks()) {
    PIC->addClassToPassName(TileApplyExpandPass::name(), "tile-apply-expand");
    PIC->addClassToPassName(TileApplyPipelineStartPass::name(),
                            "tile-apply-pipeline-start");
    PIC->addClassToPassName(TileApplyLocalMemoryPass::name(),
                            "tile-apply-local-memory");
  }
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
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
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(TileApplyPipelineStartPass());
      });
  // At -O0 nothing is promoted to registers, so there is nothing to say.
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level, ThinOrFullLTOPhase) {
        if (Level != OptimizationLevel::O0)
          MPM.addPass(TileApplyLocalMemoryPass());
      });
}

} // namespace tileapply
