//===- DeadCode.cpp - What only the markers needed, removed ---------------===//
#include "DeadCode.h"
#include "LocalMemory.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace tileapply {

bool feedsOnlyUsedLists(const User &U) {
  if (isa<ConstantExpr>(U))
    return all_of(U.users(), [](const User *Next) { return feedsOnlyUsedLists(*Next); });
  if (!isa<ConstantArray>(U))
    return false;
  return all_of(U.users(), [](const User *List) {
    const auto *GV = dyn_cast<GlobalVariable>(List);
    return GV && (GV->getName() == "llvm.used" || GV->getName() == "llvm.compiler.used");
  });
}

/// Whether nothing but the used lists refers to \p C.
static bool onlyListedAsUsed(const Constant &C) {
  return all_of(C.users(), [](const User *U) { return feedsOnlyUsedLists(*U); });
}

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

// Done in the pass because it is cheap (what fed one call is little, and
// local to it) and spares SROA, which would otherwise take each slot apart.
void removeDeadFeeders(ArrayRef<WeakTrackingVH> Operands) {
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
    // and what they stored may be dead in turn. Not a register tensor of an
    // expanded call (tagged before this runs): what the expansion stored
    // there is the user's instruction, kept even when nothing reads its
    // result, as at -O0; the optimizer may still drop a pure one.
    auto *Slot = dyn_cast<AllocaInst>(I);
    if (!Slot || Slot->hasMetadata(TensorMDName) || !llvm::all_of(Slot->users(), [&](User *U) {
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

} // namespace tileapply
