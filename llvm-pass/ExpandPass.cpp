//===- ExpandPass.cpp - tile-apply-expand, the marker expansion -----------===//
//
// The driver: find the marker calls; read each one (MarkerReader), look its
// opcode up and check it with the same rules the Clang plugin uses (core's
// checkCall), reporting what is wrong; then expand those that passed
// (Expander) and erase every marker; finally drop what only the markers
// needed (DeadCode): the declaration, the layout arrays and the opcode strings.
//
//===----------------------------------------------------------------------===//
#include "ExpandPass.h"
#include "DeadCode.h"
#include "Expander.h"
#include "FunctionTarget.h"
#include "LocalMemory.h"
#include "MarkerReader.h"
#include "PassDiagnostics.h"
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
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace tileapply {

namespace {

/// One line per problem: clang prints the message above the source snippet,
/// so the notes follow on the same line rather than below it.
std::string problemText(const Problem &P) {
  std::string Text = P.Message;
  for (const std::string &Note : P.Notes)
    Text += "; " + Note;
  return Text;
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
    handleAllErrors(
        MC.takeError(),
        [&](const StringError &SE) {
          UserError =
              SE.convertToErrorCode() == std::make_error_code(std::errc::argument_list_too_long);
          Msg = SE.getMessage();
        },
        [&](const ErrorInfoBase &Other) { Msg = Other.message(); });
    report(Caller, C.At, DS_Error,
           (UserError ? "" : "malformed '" TILEAPPLY_MARKER_NAME "' call: ") + Msg);
    return;
  }
  const LookupResult &Lookup = lookup(MC->Opcode);
  if (!Lookup) {
    report(Caller, C.At, DS_Error, problemText(spellingProblem(Lookup.Problem)));
    return;
  }
  std::optional<Target> T = functionTarget(Caller);
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
  for (const Problem &P : checkCall(Lookup, MC->Args, T ? &*T : nullptr, &C.Bound, &Chosen)) {
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
    removeDeadFeeders(Operands);
  }
  Calls.clear();
}

} // namespace

PreservedAnalyses TileApplyExpandPass::run(Module &M, ModuleAnalysisManager &AM) {
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
        if (auto *GV = dyn_cast<GlobalVariable>(Call->getArgOperand(I)->stripPointerCasts()))
          Candidates.insert(GV);
      continue;
    }
    // The marker's address taken, an invoke, a callbr: nothing a front end
    // following the ABI emits, and nothing we can expand.
    if (auto *I = dyn_cast<Instruction>(U.getUser()))
      report(*I->getFunction(), callLocation(*I), DS_Error,
             "'" TILEAPPLY_MARKER_NAME "' may only be called directly, with a call instruction");
    else if (!feedsOnlyUsedLists(*U.getUser()))
      M.getContext().diagnose(DiagnosticInfoGeneric("'" TILEAPPLY_MARKER_NAME
                                                    "' is referenced by a constant; it may "
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

  FunctionAnalysisManager &FAM = AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
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

} // namespace tileapply
