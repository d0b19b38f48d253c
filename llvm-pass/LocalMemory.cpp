//===- LocalMemory.cpp - Register tensors that stay in local memory -------===//
#include "LocalMemory.h"
#include "PassDiagnostics.h"
#include "tileapply/core/Diagnostics.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tileapply {

static LocalMemoryHook &hook() {
  static LocalMemoryHook H;
  return H;
}

void setLocalMemoryHook(LocalMemoryHook Hook) { hook() = std::move(Hook); }

void tagRegisterTensor(AllocaInst &Tensor, uint64_t SrcLoc, unsigned Arg) {
  if (Tensor.getMetadata(TensorMDName))
    return;
  LLVMContext &Ctx = Tensor.getContext();
  Metadata *Ops[] = {ConstantAsMetadata::get(ConstantInt::get(Type::getInt64Ty(Ctx), SrcLoc)),
                     ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), Arg))};
  Tensor.setMetadata(TensorMDName, MDNode::get(Ctx, Ops));
}

namespace {

/// The first use of \p Tensor (through address arithmetic) that keeps it in
/// memory: an index known only at run time, a call it is passed to, or an
/// address that escapes. Plain loads and stores at constant offsets do not
/// (SROA would have promoted those, were they all).
struct Reason {
  LocalMemoryReason Why = LocalMemoryReason::AddressTaken;
  const Instruction *At = nullptr;
  std::string Callee;
};

Reason findReason(const AllocaInst &Tensor) {
  std::optional<Reason> Index, Call, Escape;
  SmallVector<const Value *, 16> Work{&Tensor};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I)
        continue;
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
        if (!GEP->hasAllConstantIndices() && !Index)
          Index = Reason{LocalMemoryReason::RuntimeIndex, I, ""};
        Work.push_back(I);
      } else if (isa<PHINode, SelectInst, AddrSpaceCastInst>(I)) {
        Work.push_back(I);
      } else if (const auto *SI = dyn_cast<StoreInst>(I)) {
        if (SI->getValueOperand() == V && !Escape)
          Escape = Reason{LocalMemoryReason::AddressTaken, I, ""};
      } else if (isa<LoadInst>(I)) {
        continue;
      } else if (const auto *CB = dyn_cast<CallBase>(I)) {
        if (CB->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(CB))
          continue;
        if (isa<MemIntrinsic>(CB)) {
          // A copy of variable size indexes the array at run time.
          if (!isa<ConstantInt>(cast<MemIntrinsic>(CB)->getLength()) && !Index)
            Index = Reason{LocalMemoryReason::RuntimeIndex, I, ""};
          continue;
        }
        if (!Call) {
          const Function *F = CB->getCalledFunction();
          Call = Reason{LocalMemoryReason::PassedToCall, I,
                        F ? demangle(F->getName()) : std::string("a function pointer")};
        }
      } else if (!Escape) {
        Escape = Reason{LocalMemoryReason::AddressTaken, I, ""};
      }
    }
  }
  if (Index)
    return *Index;
  if (Call)
    return *Call;
  if (Escape)
    return *Escape;
  return Reason{};
}

} // namespace

std::string localMemoryReason(const LocalMemoryFinding &F, unsigned Line) {
  std::string At = Line ? text(Text::AtLine, {std::to_string(Line)}) : "";
  switch (F.Why) {
  case LocalMemoryReason::RuntimeIndex: return text(Text::LocalMemoryIndexed, {At});
  case LocalMemoryReason::PassedToCall: return text(Text::LocalMemoryPassed, {F.Callee, At});
  case LocalMemoryReason::AddressTaken: break;
  }
  return text(Text::LocalMemoryAddress, {At});
}

std::string localMemoryAdvice(LocalMemoryReason Why) {
  switch (Why) {
  case LocalMemoryReason::RuntimeIndex: return text(Text::NoteLocalMemoryIndexed);
  case LocalMemoryReason::PassedToCall: return text(Text::NoteLocalMemoryPassed);
  case LocalMemoryReason::AddressTaken: break;
  }
  return text(Text::NoteLocalMemoryAddress);
}

PreservedAnalyses TileApplyLocalMemoryPass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &Fn : M) {
    SmallVector<AllocaInst *, 4> Tagged;
    for (Instruction &I : instructions(Fn))
      if (auto *AI = dyn_cast<AllocaInst>(&I); AI && AI->getMetadata(TensorMDName))
        Tagged.push_back(AI);
    for (AllocaInst *AI : Tagged) {
      const MDNode *MD = AI->getMetadata(TensorMDName);
      LocalMemoryFinding F;
      F.Fn = &Fn;
      if (MD->getNumOperands() == 2) {
        if (auto *C = mdconst::dyn_extract<ConstantInt>(MD->getOperand(0)))
          F.CallSrcLoc = C->getZExtValue();
        if (auto *C = mdconst::dyn_extract<ConstantInt>(MD->getOperand(1)))
          F.Arg = static_cast<unsigned>(C->getZExtValue());
      }
      AI->setMetadata(TensorMDName, nullptr);
      Reason R = findReason(*AI);
      F.Why = R.Why;
      F.Callee = R.Callee;
      if (R.At)
        F.Where = R.At->getDebugLoc();
      for (DbgVariableRecord *DVR : findDVRDeclares(AI))
        if (DILocalVariable *Var = DVR->getVariable()) {
          F.VarName = Var->getName().str();
          F.VarLine = Var->getLine();
          break;
        }
      if (hook() && hook()(F))
        continue;
      std::string Name = F.VarName.empty() ? text(Text::LocalMemoryUnnamed)
                                           : text(Text::LocalMemoryNamed, {F.VarName});
      CallLocation At;
      At.SrcLoc = F.CallSrcLoc;
      report(Fn, At, DS_Warning,
             text(Text::LocalMemoryTensor,
                  {Name, localMemoryReason(F, F.Where ? F.Where.getLine() : 0)}) +
                 "; " + localMemoryAdvice(F.Why));
    }
  }
  return PreservedAnalyses::all();
}

} // namespace tileapply
