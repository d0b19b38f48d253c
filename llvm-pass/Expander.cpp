//===- Expander.cpp - One checked call, expanded to inline asm ------------===//
//
// The text and the constraints of each instruction come from renderAsm(), the
// same function the ptxas certification renders through. This file only
// supplies the operands renderAsm() asks for, slot by slot:
//
//   Output        a register tensor element, stored after the asm
//   Input         a register tensor element (loaded), a scalar (the value of
//                 the call, narrowed from its promoted type), or a memory
//                 address (cast to the state space, as an integer)
//   Predicate     `icmp ne` of the scalar predicate or of this repeat's
//                 predicate tensor element
//   TiedOldValue  the destination element's current value
//
// A `.pred` operand is an i1 ('b') in the asm and a bool (i8) in memory:
// loaded and compared with 0, stored zero-extended.
//
//===----------------------------------------------------------------------===//
#include "Expander.h"
#include "IRCarrier.h"
#include "MarkerReader.h"
#include "tileapply/core/AsmRender.h"
#include "tileapply/core/Immediates.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tileapply {

namespace {

Error internalError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "internal error while expanding: " + Msg);
}

class Expansion {
public:
  Expansion(const Form &F, const MarkerCall &MC, const BoundCall &B, const DebugLoc &Loc)
      : F(F), MC(MC), B(B), Ctx(MC.Call->getContext()), DL(MC.Call->getModule()->getDataLayout()),
        Builder(Ctx, ConstantFolder(),
                IRBuilderCallbackInserter([this](Instruction *I) { Emitted.push_back(I); })) {
    Builder.SetInsertPoint(MC.Call);
    // After SetInsertPoint, which would take the marker's own location.
    Builder.SetCurrentDebugLocation(Loc);
  }

  Error run();
  /// Removes everything emitted so far (after a failed run).
  void discard();

private:
  const Form &F;
  const MarkerCall &MC;
  const BoundCall &B;
  LLVMContext &Ctx;
  const DataLayout &DL;
  SmallVector<Instruction *, 64> Emitted;
  IRBuilder<ConstantFolder, IRBuilderCallbackInserter> Builder;

  std::vector<AsmOperandBinding> Bindings; // per form operand
  std::vector<Value *> ScalarRegs;         // per form operand, once per call
  std::vector<Value *> SpaceBases;         // per form operand, once per call
  Value *ScalarPred = nullptr;

  const ArgDesc &argOf(unsigned Operand) const { return MC.Args[B.OperandArg[Operand]]; }
  Value *valueOf(unsigned Operand) const { return MC.Values[B.OperandArg[Operand]]; }

  Error bindOperands();
  Expected<Value *> scalarRegister(unsigned Operand, Type *Ty);
  Value *elementPointer(unsigned ArgIdx, int64_t Repeat, int64_t Group);
  Value *address(unsigned Operand, Type *IntTy);
  int64_t addressOffset(unsigned Operand, int64_t Repeat) const;
  Value *predicate(int64_t Repeat);
  Expected<Value *> operandElement(unsigned Operand, unsigned Element, int64_t Repeat, Type *Ty);
};

Error Expansion::bindOperands() {
  if (B.OperandArg.size() != F.Operands.size())
    return internalError("the bound call has " + Twine(B.OperandArg.size()) +
                         " operands, the form " + Twine(F.Operands.size()));
  Bindings.resize(F.Operands.size());
  ScalarRegs.resize(F.Operands.size(), nullptr);
  SpaceBases.resize(F.Operands.size(), nullptr);
  for (unsigned I = 0, E = F.Operands.size(); I != E; ++I) {
    if (F.Operands[I].Direction == Dir::Sink) {
      Bindings[I].K = AsmOperandBinding::Sink;
      continue;
    }
    if (B.OperandArg[I] < 0 && F.Operands[I].Optional) {
      Bindings[I].K = AsmOperandBinding::Omitted;
      continue;
    }
    if (B.OperandArg[I] < 0 || static_cast<size_t>(B.OperandArg[I]) >= MC.Args.size())
      return internalError("operand " + Twine(I) + " is bound to no argument");
    const OperandSpec &S = F.Operands[I];
    const ArgDesc &A = argOf(I);
    AsmOperandBinding &Bd = Bindings[I];
    Bd.Carrier = A.Elem;
    Bd.Negated = A.Negated;
    if (I < B.Split.size())
      Bd.Split = B.Split[I];
    if (S.Direction == Dir::Addr) {
      if (A.Kind != TILEAPPLY_KIND_MEMORY)
        return internalError("address operand '" + S.Name + "' is not bound to a memory tensor");
      Bd.K = AsmOperandBinding::Address;
      continue;
    }
    if (S.Direction == Dir::Imm) {
      // The rules proved it a constant integer in range.
      std::optional<int64_t> V;
      if (A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant)
        V = A.Constant->IsFloat ? std::optional<int64_t>(static_cast<int64_t>(A.Constant->F))
                                : A.Constant->I;
      if (!V || !S.immAllows(*V))
        return internalError("immediate operand '" + S.Name + "' is not a constant in its range");
      Bd.K = AsmOperandBinding::Immediate;
      Bd.ImmText = std::to_string(*V);
      continue;
    }
    if (A.Kind == TILEAPPLY_KIND_REGISTER)
      continue;
    if (A.Kind != TILEAPPLY_KIND_SCALAR || S.Direction != Dir::Read)
      return internalError("operand '" + S.Name + "' is bound to " + "an argument of kind " +
                           Twine(A.Kind));
    // A negated constant stays a register: PTX has `!%p`, not `!1`.
    if (!A.Constant || A.Negated)
      continue;
    // A constant the operand takes as an immediate goes into the text. A
    // register group ({a, b}) has no single-immediate spelling, so a scalar
    // filling one stays a register.
    // Nor has an operand written in braces or brackets ({%r1}, [%r1]), nor
    // one where PTX takes only a register.
    // Nor one outside the range PTX takes an immediate in there (bfe: 0..255).
    auto InImmRange = [&] {
      std::optional<int64_t> V = integralValue(*A.Constant);
      return !S.ImmRangeOnRegister || (V && *V >= S.ImmLo && *V <= S.ImmHi);
    };
    std::string Imm = S.Regs == 1 && !S.Braced && !S.Bracketed && !S.RegisterOnly && InImmRange()
                          ? immediateText(S.Type, *A.Constant)
                          : "";
    if (!Imm.empty()) {
      Bd.K = AsmOperandBinding::Immediate;
      Bd.ImmText = std::move(Imm);
      continue;
    }
    // A constant of another carrier that the rules accepted as exact (an int
    // literal holding the bits of an .f16x2) but that PTX takes no immediate
    // for: materialize it in the operand's own carrier. No conversion runs on
    // the GPU; the bits are the constant's.
    if (!carrierMatches(A.Elem, S.Type)) {
      Bd.Carrier = naturalCarrier(S.Type);
      Type *Ty = carrierType(Bd.Carrier, Ctx);
      const ScalarConst &C = *A.Constant;
      if (Ty->isIntegerTy())
        ScalarRegs[I] = ConstantInt::getSigned(Ty, C.IsFloat ? static_cast<int64_t>(C.F) : C.I);
      else
        ScalarRegs[I] = ConstantFP::get(Ty, C.IsFloat ? C.F : static_cast<double>(C.I));
    }
  }
  return Error::success();
}

Expected<Value *> Expansion::scalarRegister(unsigned Operand, Type *Ty) {
  if (Value *Done = ScalarRegs[Operand])
    return Done;
  const ArgDesc &A = argOf(Operand);
  Value *V = valueOf(Operand);
  Type *From = V->getType();
  // A .pred operand: nonzero is true.
  if (Ty->isIntegerTy(1) && From->isIntegerTy() && !From->isIntegerTy(1))
    V = Builder.CreateICmpNE(V, ConstantInt::get(From, 0));
  From = V->getType();
  // Undo C's default argument promotion: the carrier is the low bits of the
  // promoted integer, and a promoted float is exactly representable.
  if (From != Ty) {
    if (From->isIntegerTy() && Ty->isIntegerTy() &&
        From->getIntegerBitWidth() > Ty->getIntegerBitWidth())
      V = Builder.CreateTrunc(V, Ty);
    else if (From->isDoubleTy() && Ty->isFloatTy() && A.Elem == TILEAPPLY_DT_F32)
      V = Builder.CreateFPTrunc(V, Ty);
    else
      return internalError("a scalar of type " + dtypeName(A.Elem) +
                           " cannot be passed as its carrier");
  }
  ScalarRegs[Operand] = V;
  return V;
}

Value *Expansion::elementPointer(unsigned ArgIdx, int64_t Repeat, int64_t Group) {
  const ArgDesc &A = MC.Args[ArgIdx];
  Value *Base = MC.Values[ArgIdx];
  int64_t Offset = elementOffset(A, B.RepeatExtents, Repeat, Group);
  if (Offset == 0)
    return Base;
  int64_t Bytes = Offset * (dtypeBits(A.Elem) / 8);
  Value *Idx = ConstantInt::getSigned(DL.getIndexType(Base->getType()), Bytes);
  // The rules proved register views in bounds of their storage.
  if (A.Storage > 0 && Offset > 0 && Offset < A.Storage)
    return Builder.CreateInBoundsPtrAdd(Base, Idx);
  return Builder.CreatePtrAdd(Base, Idx);
}

Value *Expansion::address(unsigned Operand, Type *IntTy) {
  // One cast per call into the instruction's state space (cvta.to.<space>);
  // each repeat's constant offset is part of the asm text (addressOffset).
  Value *&Base = SpaceBases[Operand];
  if (!Base && !valueOf(Operand)->getType()->isPointerTy()) {
    // A .shared::cluster window address is a number already (an i32).
    Base = Builder.CreateZExtOrTrunc(valueOf(Operand), IntTy);
    return Base;
  }
  if (!Base) {
    Base = valueOf(Operand);
    unsigned AS = nvptxAddressSpace(F.Operands[Operand].AddrSpace);
    if (Base->getType()->getPointerAddressSpace() != AS)
      Base = Builder.CreateAddrSpaceCast(Base, PointerType::get(Ctx, AS));
    Base = Builder.CreatePtrToInt(Base, IntTy);
  }
  return Base;
}

int64_t Expansion::addressOffset(unsigned Operand, int64_t Repeat) const {
  const ArgDesc &A = argOf(Operand);
  return elementOffset(A, B.RepeatExtents, Repeat, /*Group=*/0) * (dtypeBits(A.Elem) / 8);
}

Value *Expansion::predicate(int64_t Repeat) {
  const ArgDesc &P = MC.Args[B.PredArg];
  Value *V = MC.Values[B.PredArg];
  if (P.Kind == TILEAPPLY_KIND_PRED_SCALAR) {
    if (!ScalarPred)
      ScalarPred = Builder.CreateICmpNE(V, ConstantInt::get(V->getType(), 0));
    return ScalarPred;
  }
  Type *Ty = carrierType(P.Elem, Ctx);
  Value *Elem =
      Builder.CreateAlignedLoad(Ty, elementPointer(B.PredArg, Repeat, 0), DL.getABITypeAlign(Ty));
  return Builder.CreateICmpNE(Elem, ConstantInt::get(Ty, 0));
}

Expected<Value *> Expansion::operandElement(unsigned Operand, unsigned Element, int64_t Repeat,
                                            Type *Ty) {
  const AsmOperandBinding &Bd = Bindings[Operand];
  const ArgDesc &A = argOf(Operand);
  switch (Bd.K) {
  case AsmOperandBinding::Address: return address(Operand, Ty);
  case AsmOperandBinding::Omitted:
  case AsmOperandBinding::Sink:
  case AsmOperandBinding::Immediate:
    return internalError("operand '" + F.Operands[Operand].Name +
                         "' is an immediate but has an asm operand");
  case AsmOperandBinding::Register: break;
  }
  if (A.Kind == TILEAPPLY_KIND_SCALAR)
    return scalarRegister(Operand, Ty);
  Type *Stored = Ty->isIntegerTy(1) ? carrierType(A.Elem, Ctx) : Ty;
  Value *V = Builder.CreateAlignedLoad(
      Stored, elementPointer(B.OperandArg[Operand], Repeat, Element), DL.getABITypeAlign(Stored));
  if (Stored != Ty) // a bool in memory, a .pred in the asm
    V = Builder.CreateICmpNE(V, ConstantInt::get(Stored, 0));
  return V;
}

Error Expansion::run() {
  if (B.PredArg >= 0 && static_cast<size_t>(B.PredArg) >= MC.Args.size())
    return internalError("the predicate is bound to no argument");
  if (Error E = bindOperands())
    return E;

  // A carry chain is one statement for the whole call, its slots marked
  // with their repeat; every other form one statement per repeat.
  int64_t NumRepeats = B.numRepeats();
  unsigned ChainLength = F.isChain() ? static_cast<unsigned>(NumRepeats) : 1;
  int64_t Statements = F.isChain() ? 1 : NumRepeats;
  AsmStatement Stmt =
      renderAsm(F, Bindings, /*Predicated=*/B.PredArg >= 0, B.PreserveDst, ChainLength);

  // The signature, checked against the constraint letters renderAsm chose.
  SmallVector<Type *, 8> OutTys, InTys;
  SmallVector<Type *, 16> SlotTys;
  for (const AsmSlot &Slot : Stmt.Slots) {
    Type *Want = asmRegisterType(Slot.Constraint, Ctx);
    if (!Want)
      return internalError("unknown constraint letter '" + Twine(Slot.Constraint) + "'");
    if (Slot.R != AsmSlot::Predicate) {
      if (Slot.FormOperand >= F.Operands.size())
        return internalError("an asm operand names form operand " + Twine(Slot.FormOperand));
      const AsmOperandBinding &Bd = Bindings[Slot.FormOperand];
      if (Bd.K == AsmOperandBinding::Register) {
        Type *Carrier = carrierType(Bd.Carrier, Ctx);
        bool PredOfInteger = Want->isIntegerTy(1) && Carrier && Carrier->isIntegerTy();
        if (Carrier != Want && !PredOfInteger)
          return internalError("constraint '" + Twine(Slot.Constraint) + "' for a " +
                               dtypeName(Bd.Carrier) + " operand");
      }
    }
    SlotTys.push_back(Want);
    (Slot.R == AsmSlot::Output ? OutTys : InTys).push_back(Want);
  }
  Type *RetTy = OutTys.empty()       ? Type::getVoidTy(Ctx)
                : OutTys.size() == 1 ? OutTys.front()
                                     : StructType::get(Ctx, OutTys);
  FunctionType *FTy = FunctionType::get(RetTy, InTys, /*isVarArg=*/false);
  if (Error E = InlineAsm::verify(FTy, Stmt.Constraints))
    return internalError("invalid constraints \"" + Stmt.Constraints +
                         "\": " + toString(std::move(E)));
  InlineAsm *IA = InlineAsm::get(FTy, Stmt.Text, Stmt.Constraints, Stmt.HasSideEffects);
  MDNode *Tag = MDNode::get(Ctx, MDString::get(Ctx, MC.Opcode));
  unsigned TagKind = Ctx.getMDKindID(OpcodeMDName); // one name lookup a call

  bool HasAddress = llvm::any_of(
      Bindings, [](const AsmOperandBinding &Bd) { return Bd.K == AsmOperandBinding::Address; });
  if (HasAddress && F.isChain())
    return internalError("a carry chain with a memory operand");
  for (int64_t R = 0; R != Statements; ++R) {
    if (HasAddress) {
      // Same operands and constraints; only the "[$k+offset]" text moves.
      for (unsigned I = 0; I < Bindings.size(); ++I)
        if (Bindings[I].K == AsmOperandBinding::Address)
          Bindings[I].AddrOffset = addressOffset(I, R);
      IA = InlineAsm::get(FTy, renderAsm(F, Bindings, B.PredArg >= 0, B.PreserveDst).Text,
                          Stmt.Constraints, Stmt.HasSideEffects);
    }
    SmallVector<Value *, 8> Inputs;
    for (unsigned I = 0, E = Stmt.Slots.size(); I != E; ++I) {
      const AsmSlot &Slot = Stmt.Slots[I];
      switch (Slot.R) {
      case AsmSlot::Output: continue;
      case AsmSlot::Predicate:
        if (B.PredArg < 0)
          return internalError("a predicate slot without tile::pred");
        Inputs.push_back(predicate(R));
        continue;
      case AsmSlot::Input:
      case AsmSlot::TiedOldValue: {
        Expected<Value *> V =
            operandElement(Slot.FormOperand, Slot.Element, R + Slot.Repeat, SlotTys[I]);
        if (!V)
          return V.takeError();
        Inputs.push_back(*V);
        continue;
      }
      }
    }

    CallInst *Asm = Builder.CreateCall(FTy, IA, Inputs);
    Asm->addFnAttr(Attribute::NoUnwind);
    // Like every inline asm Clang emits for CUDA: never made control
    // dependent on more values (no sinking into a branch, no hoisting out of
    // one). Warp- and warpgroup-synchronous forms need it; for the others it
    // costs nothing the contract promises.
    Asm->addFnAttr(Attribute::Convergent);
    // Arithmetic is a pure function of its registers: let the optimizer
    // merge or drop it. Memory forms are volatile and clobber memory.
    if (!Stmt.HasSideEffects) {
      Asm->setDoesNotAccessMemory();
      Asm->addFnAttr(Attribute::WillReturn);
    }
    Asm->setMetadata(TagKind, Tag);

    unsigned Out = 0;
    for (const AsmSlot &Slot : Stmt.Slots) {
      if (Slot.R != AsmSlot::Output)
        continue;
      unsigned ArgIdx = B.OperandArg[Slot.FormOperand];
      if (MC.Args[ArgIdx].Kind != TILEAPPLY_KIND_REGISTER)
        return internalError("destination '" + F.Operands[Slot.FormOperand].Name +
                             "' is not a register tensor");
      Value *V =
          OutTys.size() == 1 ? static_cast<Value *>(Asm) : Builder.CreateExtractValue(Asm, Out);
      ++Out;
      Type *Stored = carrierType(MC.Args[ArgIdx].Elem, Ctx);
      if (V->getType()->isIntegerTy(1) && Stored && Stored != V->getType())
        V = Builder.CreateZExt(V, Stored); // a .pred stored as a bool
      Builder.CreateAlignedStore(V, elementPointer(ArgIdx, R + Slot.Repeat, Slot.Element),
                                 DL.getABITypeAlign(V->getType()));
    }
  }
  return Error::success();
}

void Expansion::discard() {
  for (Instruction *I : reverse(Emitted))
    I->eraseFromParent();
  Emitted.clear();
}

} // namespace

Error expandCall(const Form &F, const MarkerCall &MC, const BoundCall &B, const DebugLoc &Loc) {
  Expansion E(F, MC, B, Loc);
  if (Error Err = E.run()) {
    E.discard();
    return Err;
  }
  return Error::success();
}

} // namespace tileapply
