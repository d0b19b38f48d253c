//===- MarkerReader.cpp - Reading one __tileapply_apply call --------------===//
//
// Every check of the marker's IR shape lives here. The pass runs right after
// always-inline and before SROA, so the values a C++ front end passes still
// sit in local variables: the opcode pointer is stored to the wrapper's
// parameter slot and loaded back, a constant scalar is stored to a temporary
// and loaded (sometimes through a reference to it). The look-through below
// recognizes exactly that shape and proves it with dominance; anything else
// is simply "not known", never guessed.
//
//===----------------------------------------------------------------------===//
#include "MarkerReader.h"
#include "IRCarrier.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace tileapply {

namespace {

/// Loads of local variables are followed this many levels deep: a value, and
/// the parameter slots of the header's functions that pass it on by
/// reference (`__tile_apply`, then `tile::detail::value`), with room to spare.
constexpr unsigned MaxTraceDepth = 6;

/// No layout needs more words than this (64 arguments of rank 16 take 2370);
/// the cap keeps a hostile `[4294967295 x i32] zeroinitializer` cheap.
constexpr uint64_t MaxLayoutWords = 4096;

Error malformed(const Twine &Msg) { return createStringError(inconvertibleErrorCode(), Msg); }

std::string typeName(const Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return S;
}

std::string kindName(tileapply_kind K) {
  switch (K) {
  case TILEAPPLY_KIND_REGISTER: return "a register tensor";
  case TILEAPPLY_KIND_MEMORY: return "a memory tensor";
  case TILEAPPLY_KIND_SCALAR: return "a scalar";
  case TILEAPPLY_KIND_PRED_SCALAR: return "a scalar predicate";
  case TILEAPPLY_KIND_PRED_TENSOR: return "a predicate tensor";
  case TILEAPPLY_KIND_PRESERVE_DST: return "tile::preserve_dst";
  default: return "an unsupported argument";
  }
}

bool isIgnorableUse(const User *U) {
  if (const auto *I = dyn_cast<Instruction>(U))
    return I->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(I) || I->isDroppable();
  return false;
}

/// Whether use \p U of the address \p Addr only reads the memory behind it:
/// a load from it, or a store of it into a local variable written only that
/// once whose loaded copies are, in turn, only read through. The second case
/// is how unoptimized C++ passes a variable by reference, possibly through
/// several parameters.
bool isReadOnlyUse(const User *U, const Value &Addr, unsigned Depth) {
  if (isIgnorableUse(U))
    return true;
  if (const auto *LI = dyn_cast<LoadInst>(U))
    return LI->getPointerOperand() == &Addr;
  const auto *SI = dyn_cast<StoreInst>(U);
  if (!SI || SI->getValueOperand() != &Addr || SI->getPointerOperand() == &Addr ||
      Depth >= MaxTraceDepth)
    return false;
  const auto *Ref = dyn_cast<AllocaInst>(SI->getPointerOperand());
  if (!Ref)
    return false;
  for (const User *RU : Ref->users()) {
    if (RU == SI || isIgnorableUse(RU))
      continue;
    const auto *Copy = dyn_cast<LoadInst>(RU);
    if (!Copy || Copy->getPointerOperand() != Ref)
      return false;
    for (const User *CU : Copy->users())
      if (!isReadOnlyUse(CU, *Copy, Depth + 1))
        return false;
  }
  return true;
}

/// The only store to \p Slot, if every other use of it only reads it.
StoreInst *soleStore(AllocaInst &Slot) {
  StoreInst *Only = nullptr;
  for (User *U : Slot.users()) {
    auto *SI = dyn_cast<StoreInst>(U);
    if (SI && SI->getPointerOperand() == &Slot && SI->getValueOperand() != &Slot) {
      if (Only || !SI->isSimple())
        return nullptr;
      Only = SI;
      continue;
    }
    if (!isReadOnlyUse(U, Slot, 0))
      return nullptr;
  }
  return Only;
}

/// The value of constant \p C as a scalar of carrier \p D.
std::optional<ScalarConst> scalarConstant(DType D, const Constant *C) {
  // Values of CUDA's class carriers are bit patterns, never numbers,
  // whatever sign the lanes have.
  bool FloatCarrier = dtypeKind(D) == CarrierKind::Float;
  if (const auto *CI = dyn_cast<ConstantInt>(C)) {
    unsigned Bits = dtypeBits(D);
    if (FloatCarrier || Bits == 0 || Bits > 64)
      return std::nullopt;
    // The promoted i32 holds the carrier's value in its low bits.
    APInt V = CI->getValue().zextOrTrunc(Bits);
    ScalarConst S;
    S.I = dtypeKind(D) == CarrierKind::Signed ? V.getSExtValue()
                                              : static_cast<int64_t>(V.getZExtValue());
    return S;
  }
  if (const auto *CF = dyn_cast<ConstantFP>(C)) {
    if (!FloatCarrier)
      return std::nullopt;
    APFloat F = CF->getValueAPF();
    bool LosesInfo = false;
    // A `float` travels promoted to double; its value is the float's.
    if (D == TILEAPPLY_DT_F32)
      F.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &LosesInfo);
    F.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &LosesInfo);
    ScalarConst S;
    S.IsFloat = true;
    S.F = F.convertToDouble();
    return S;
  }
  return std::nullopt;
}

} // namespace

// ---- look-through ----------------------------------------------------------

Value *MarkerReader::storedValueAt(Value *V, unsigned Depth) const {
  auto *Load = dyn_cast<LoadInst>(V);
  if (!Load || !Load->isSimple() || Depth >= MaxTraceDepth)
    return nullptr;
  auto *Slot = dyn_cast<AllocaInst>(traceValue(Load->getPointerOperand(), Depth + 1));
  if (!Slot || Slot->getFunction() != Load->getFunction())
    return nullptr;
  StoreInst *Store = soleStore(*Slot);
  if (!Store || Store->getValueOperand()->getType() != Load->getType())
    return nullptr;
  // The store must happen before every path to the load; a load that could
  // run first reads an uninitialized variable, which is no constant.
  DominatorTree &DT = GetDT(*Load->getFunction());
  if (!DT.dominates(Store, Load))
    return nullptr;
  return Store->getValueOperand();
}

Value *MarkerReader::traceValue(Value *V, unsigned Depth) const {
  while (Depth < MaxTraceDepth) {
    if (V->getType()->isPointerTy())
      V = V->stripPointerCasts();
    Value *Stored = storedValueAt(V, Depth);
    if (!Stored)
      break;
    V = Stored;
    ++Depth;
  }
  return V;
}

Value *MarkerReader::tracePointer(Value *V) const { return traceValue(V, 0)->stripPointerCasts(); }

Constant *MarkerReader::traceConstant(Value *V) const { return traceConstant(V, 0); }

Constant *MarkerReader::traceConstant(Value *V, unsigned Depth) const {
  // Bounded: unreachable code may hold cycles of casts.
  for (; Depth < 2 * MaxTraceDepth; ++Depth) {
    if (isa<ConstantInt>(V) || isa<ConstantFP>(V))
      return cast<Constant>(V);
    // Argument promotion and the header's own conversions: fold the cast once
    // its operand is known.
    if (auto *Cast = dyn_cast<CastInst>(V)) {
      switch (Cast->getOpcode()) {
      case Instruction::Trunc:
      case Instruction::ZExt:
      case Instruction::SExt:
      case Instruction::FPExt:
      case Instruction::FPTrunc:
      case Instruction::BitCast: break;
      default: return nullptr;
      }
      Constant *Inner = traceConstant(Cast->getOperand(0), Depth + 1);
      if (!Inner)
        return nullptr;
      return ConstantFoldCastOperand(Cast->getOpcode(), Inner, Cast->getType(),
                                     Cast->getModule()->getDataLayout());
    }
    // A load from constant memory: a `constexpr` global, or a member or
    // element of one (`s.v`, `arr[1]` when no Clang plugin pinned them).
    if (auto *Load = dyn_cast<LoadInst>(V); Load && Load->isSimple())
      if (auto *Ptr = dyn_cast<Constant>(tracePointer(Load->getPointerOperand())))
        if (Constant *C = ConstantFoldLoadFromConstPtr(Ptr, Load->getType(),
                                                       Load->getModule()->getDataLayout()))
          if (isa<ConstantInt>(C) || isa<ConstantFP>(C))
            return C;
    Value *Next = traceValue(V, 0);
    if (Next == V)
      return nullptr;
    V = Next;
  }
  return nullptr;
}

// ---- the variable behind a pointer --------------------------------------------

namespace {

/// Uses of a local variable looked at per step: a view's temporary and the
/// reference slots of the header's helpers have a handful; anything with
/// more is not what the header emits, and stays unknown (which keeps the
/// pass linear in the calls).
constexpr unsigned MaxSlotUses = 64;

/// The name the user gave a global: its debug name, else the last component
/// of its demangled name (`kernel()::s` is `s`).
std::string globalName(const GlobalVariable &GV) {
  SmallVector<DIGlobalVariableExpression *, 1> DIs;
  GV.getDebugInfo(DIs);
  for (DIGlobalVariableExpression *DI : DIs)
    if (DIGlobalVariable *V = DI->getVariable(); V && !V->getName().empty())
      return V->getName().str();
  std::string Name = demangle(GV.getName());
  size_t End = Name.size(), Begin = End;
  while (Begin > 0 && (isAlnum(Name[Begin - 1]) || Name[Begin - 1] == '_'))
    --Begin;
  return Begin == End ? Name : Name.substr(Begin);
}

std::string localName(AllocaInst &AI) {
  for (DbgVariableRecord *DVR : findDVRDeclares(&AI))
    if (DILocalVariable *V = DVR->getVariable())
      return V->getName().str();
  return AI.getName().str();
}

} // namespace

/// The one value of type \p Ty stored at the start of the local variable
/// \p Slot, when every other access only reads it, and that store comes
/// before \p Reader. Follows the copies of its address that unoptimized C++
/// keeps in other local variables (`this` of a constructor, a reference
/// parameter), each of those written once.
Value *MarkerReader::soleValueIn(Value *Slot, Type *Ty, Instruction &Reader) const {
  SmallVector<Value *, 8> Aliases{Slot};
  StoreInst *Found = nullptr;
  unsigned Budget = MaxSlotUses;
  for (size_t I = 0; I < Aliases.size(); ++I) {
    Value *A = Aliases[I];
    for (User *U : A->users()) {
      if (Budget-- == 0)
        return nullptr;
      if (isIgnorableUse(U))
        continue;
      if (auto *LI = dyn_cast<LoadInst>(U); LI && LI->getPointerOperand() == A)
        continue;
      if (auto *GEP = dyn_cast<GetElementPtrInst>(U);
          GEP && GEP->getPointerOperand() == A && GEP->hasAllZeroIndices()) {
        Aliases.push_back(GEP);
        continue;
      }
      auto *SI = dyn_cast<StoreInst>(U);
      if (!SI)
        return nullptr;
      if (SI->getPointerOperand() == A && SI->getValueOperand() != A) {
        if (Found)
          return nullptr;
        Found = SI;
        continue;
      }
      // The address kept in another local variable: its loads are copies.
      auto *Ref = dyn_cast<AllocaInst>(SI->getPointerOperand());
      if (!Ref || SI->getValueOperand() != A || Ref == A)
        return nullptr;
      for (User *RU : Ref->users()) {
        if (Budget-- == 0)
          return nullptr;
        if (RU == SI || isIgnorableUse(RU))
          continue;
        auto *Copy = dyn_cast<LoadInst>(RU);
        if (!Copy || Copy->getPointerOperand() != Ref)
          return nullptr;
        Aliases.push_back(Copy);
      }
    }
  }
  if (!Found || !Found->isSimple() || Found->getValueOperand()->getType() != Ty ||
      Found->getFunction() != Reader.getFunction())
    return nullptr;
  if (!GetDT(*Reader.getFunction()).dominates(Found, &Reader))
    return nullptr;
  return Found->getValueOperand();
}

/// The data layout that sizes \p V's pointer arithmetic.
static const DataLayout &DataLayoutOf(const Value &V) {
  if (const auto *I = dyn_cast<Instruction>(&V))
    return I->getModule()->getDataLayout();
  if (const auto *A = dyn_cast<Argument>(&V))
    return A->getParent()->getParent()->getDataLayout();
  if (const auto *G = dyn_cast<GlobalValue>(&V))
    return G->getParent()->getDataLayout();
  // A constant expression: its users are instructions or other constants.
  for (const User *U : V.users())
    return DataLayoutOf(*U);
  static const DataLayout Default("");
  return Default;
}

MarkerReader::TracedObject MarkerReader::traceObject(Value *V) const {
  TracedObject T;
  int64_t Bytes = 0;
  bool OffsetKnown = true;
  auto Unknown = [&] { OffsetKnown = false; };
  for (unsigned Depth = 0; V && Depth < 4 * MaxTraceDepth; ++Depth) {
    // Constant GEPs and casts move the offset; anything else a GEP does
    // (a run-time index) keeps the object but loses the offset.
    if (V->getType()->isPointerTy()) {
      const DataLayout &DL = DataLayoutOf(*V);
      APInt Off(DL.getIndexTypeSizeInBits(V->getType()), 0);
      V = V->stripAndAccumulateConstantOffsets(DL, Off, /*AllowNonInbounds=*/true);
      Bytes += Off.getSExtValue();
    }
    if (Value *U = getUnderlyingObject(V); U != V) {
      Unknown();
      V = U;
    }
    // A phi or select whose sources all designate one variable.
    if (isa<PHINode>(V) || isa<SelectInst>(V)) {
      auto *I = cast<Instruction>(V);
      Value *Common = nullptr;
      for (unsigned K = isa<SelectInst>(I) ? 1 : 0; K < I->getNumOperands(); ++K) {
        Value *In = getUnderlyingObject(I->getOperand(K));
        if (In == I)
          continue;
        if (Common && In != Common)
          return T;
        Common = In;
      }
      Unknown();
      V = Common;
      continue;
    }
    // A view passed by value: a field of a loaded copy of its temporary.
    if (auto *EV = dyn_cast<ExtractValueInst>(V)) {
      auto *Whole = dyn_cast<LoadInst>(EV->getAggregateOperand());
      ArrayRef<unsigned> Idx = EV->getIndices();
      if (!Whole || !Whole->isSimple() || !all_of(Idx, [](unsigned X) { return X == 0; }))
        return T;
      auto *Slot = dyn_cast<AllocaInst>(tracePointer(Whole->getPointerOperand()));
      if (!Slot)
        return T;
      V = soleValueIn(Slot, EV->getType(), *Whole);
      continue;
    }
    if (auto *LI = dyn_cast<LoadInst>(V)) {
      auto *Slot = dyn_cast<AllocaInst>(tracePointer(LI->getPointerOperand()));
      if (!LI->isSimple() || !Slot)
        return T;
      V = soleValueIn(Slot, LI->getType(), *LI);
      continue;
    }
    break;
  }
  T.Object = V;
  if (V && OffsetKnown)
    T.ByteOffset = Bytes;
  return T;
}

std::optional<KnownObject> MarkerReader::objectOf(Value *Ptr) const {
  Value *V = traceObject(Ptr).Object;
  if (!V)
    return std::nullopt;
  if (auto *AI = dyn_cast<AllocaInst>(V))
    return KnownObject{ObjectKind::Local, localName(*AI)};
  auto *GV = dyn_cast<GlobalVariable>(V);
  if (!GV)
    return std::nullopt;
  // Address spaces are NVPTX's (an IR without a triple is taken as such).
  const Triple &TT = GV->getParent()->getTargetTriple();
  if (!TT.str().empty() && !TT.isNVPTX())
    return std::nullopt;
  switch (GV->getAddressSpace()) {
  case 1: // NVPTX global
    return KnownObject{ObjectKind::Device, globalName(*GV)};
  case 3: // NVPTX shared
    return KnownObject{ObjectKind::Shared, globalName(*GV)};
  case 4: // NVPTX const: __constant__ may be written from the host, constexpr not
    return KnownObject{GV->isExternallyInitialized() || !GV->isConstant() ? ObjectKind::Constant
                                                                          : ObjectKind::Constexpr,
                       globalName(*GV)};
  default: return std::nullopt;
  }
}

// ---- the opcode and the layout ----------------------------------------------

/// The global variable behind a constant pointer operand, or why not.
static Expected<GlobalVariable *> constantGlobal(Value *Traced, StringRef What) {
  auto *GV = dyn_cast<GlobalVariable>(Traced);
  if (!GV) {
    if (isa<Constant>(Traced))
      return malformed("the " + What + " is not a pointer to a global constant");
    return malformed("the " + What +
                     " is not a compile-time constant (it must point to a "
                     "global constant)");
  }
  if (!GV->isConstant() || !GV->hasInitializer())
    return malformed("the " + What + " global '@" + GV->getName() +
                     "' is not a constant with an initializer");
  return GV;
}

static Expected<std::string> readOpcode(Value *Traced) {
  Expected<GlobalVariable *> GV = constantGlobal(Traced, "opcode");
  if (!GV)
    return GV.takeError();
  const Constant *Init = (*GV)->getInitializer();
  auto *Ty = dyn_cast<ArrayType>(Init->getType());
  if (!Ty || !Ty->getElementType()->isIntegerTy(8))
    return malformed("the opcode global '@" + (*GV)->getName() + "' is not a string (found " +
                     typeName(Init->getType()) + ")");
  StringRef Bytes;
  if (getConstantStringInfo(*GV, Bytes, /*TrimAtNul=*/false)) {
    size_t Nul = Bytes.find('\0');
    if (Nul == StringRef::npos)
      return malformed("the opcode string '@" + (*GV)->getName() + "' is not NUL-terminated");
    return Bytes.substr(0, Nul).str();
  }
  // An all-zero array (other than of one byte) has no string LLVM can hand
  // out untrimmed: it is the empty string.
  if (isa<ConstantAggregateZero>(Init) && Ty->getNumElements() > 0)
    return std::string();
  return malformed("the opcode global '@" + (*GV)->getName() + "' is not a constant string");
}

static Expected<SmallVector<int32_t, 64>> readLayoutWords(Value *Traced) {
  Expected<GlobalVariable *> GV = constantGlobal(Traced, "layout");
  if (!GV)
    return GV.takeError();
  const Constant *C = (*GV)->getInitializer();
  // tile.h wraps the array in a one-field struct (`int_array<N>`).
  while (auto *STy = dyn_cast<StructType>(C->getType())) {
    if (STy->getNumElements() != 1 || !(C = C->getAggregateElement(0u)))
      break;
  }
  auto *ATy = dyn_cast<ArrayType>(C->getType());
  if (!ATy || !ATy->getElementType()->isIntegerTy(32))
    return malformed("the layout global '@" + (*GV)->getName() +
                     "' must be an i32 array or a struct wrapping one, found " +
                     typeName((*GV)->getValueType()));
  if (ATy->getNumElements() > MaxLayoutWords)
    return malformed("the layout global '@" + (*GV)->getName() + "' has " +
                     Twine(ATy->getNumElements()) + " words, more than " + Twine(MaxLayoutWords));
  SmallVector<int32_t, 64> Words;
  for (unsigned I = 0, E = ATy->getNumElements(); I != E; ++I) {
    auto *Word = dyn_cast_or_null<ConstantInt>(C->getAggregateElement(I));
    if (!Word)
      return malformed("word " + Twine(I) + " of the layout global '@" + (*GV)->getName() +
                       "' is not a constant integer");
    Words.push_back(static_cast<int32_t>(Word->getSExtValue()));
  }
  return Words;
}

// ---- the values -------------------------------------------------------------

/// Checks that the IR value of argument \p Index fits its layout record.
static Error checkValue(const ArgDesc &A, unsigned Index, const Value &V) {
  Type *Ty = V.getType();
  LLVMContext &Ctx = Ty->getContext();
  auto Mismatch = [&](const Twine &Want) {
    return malformed("argument " + Twine(Index) + " is " + kindName(A.Kind) +
                     " in the layout, so its value must be " + Want + ", found " + typeName(Ty));
  };
  switch (A.Kind) {
  case TILEAPPLY_KIND_REGISTER:
  case TILEAPPLY_KIND_PRED_TENSOR:
    if (!Ty->isPointerTy())
      return Mismatch("a pointer");
    return Error::success();
  case TILEAPPLY_KIND_MEMORY: {
    // The .shared::cluster window is a 32-bit address, not a pointer.
    if (A.Sp == TILEAPPLY_SPACE_SHARED_CLUSTER) {
      if (!Ty->isIntegerTy(32))
        return Mismatch("an i32 window address");
      return Error::success();
    }
    if (!Ty->isPointerTy())
      return Mismatch("a pointer");
    unsigned AS = Ty->getPointerAddressSpace();
    if (AS != 0 && AS != nvptxAddressSpace(A.Sp))
      return Mismatch("a generic pointer or one in the " + spaceName(A.Sp).str() +
                      " address space (" + Twine(nvptxAddressSpace(A.Sp)) + ")");
    return Error::success();
  }
  case TILEAPPLY_KIND_SCALAR: {
    Type *Promoted = promotedType(A.Elem, Ctx);
    Type *Carrier = carrierType(A.Elem, Ctx);
    if (!Promoted || !Carrier)
      return malformed("argument " + Twine(Index) + " is a scalar of unknown dtype " +
                       Twine(A.Elem));
    if (Ty != Promoted && Ty != Carrier)
      return Mismatch(Promoted == Carrier
                          ? typeName(Promoted)
                          : typeName(Promoted) + " (the promoted " + dtypeName(A.Elem).str() +
                                ") or " + typeName(Carrier));
    // A promoted integer constant must be one that a carrier value promotes
    // to: its low bits, zero- or sign-extended, give it back. Else the
    // narrowing to the carrier would change it without a word.
    if (Ty == Promoted && Ty != Carrier && Carrier->isIntegerTy())
      if (const auto *CI = dyn_cast<ConstantInt>(&V)) {
        unsigned Bits = Carrier->getIntegerBitWidth();
        if (!CI->getValue().isIntN(Bits) && !CI->getValue().isSignedIntN(Bits))
          return malformed("argument " + Twine(Index) + " is a " + dtypeName(A.Elem) +
                           " scalar in the layout, but its promoted value " +
                           Twine(CI->getSExtValue()) + " does not fit in " + Twine(Bits) +
                           " bits: no " + dtypeName(A.Elem) + " promotes to it");
      }
    return Error::success();
  }
  case TILEAPPLY_KIND_PRED_SCALAR:
    if (!Ty->isIntegerTy())
      return Mismatch("an integer (nonzero = on)");
    return Error::success();
  case TILEAPPLY_KIND_PRESERVE_DST:
  case TILEAPPLY_KIND_UNSUPPORTED:
  default:
    // Ignored by the expansion; the rules report an unsupported argument.
    return Error::success();
  }
}

Expected<MarkerCall> MarkerReader::read(CallInst &Call) const {
  unsigned NumOperands = Call.arg_size();
  if (NumOperands < 2)
    return malformed("it has " + Twine(NumOperands) + " operand" + (NumOperands == 1 ? "" : "s") +
                     "; the opcode and the layout come first");
  for (unsigned I = 0; I < 2; ++I)
    if (!Call.getArgOperand(I)->getType()->isPointerTy())
      return malformed(Twine("the ") + (I == 0 ? "opcode" : "layout") +
                       " operand is not a pointer, found " +
                       typeName(Call.getArgOperand(I)->getType()));

  MarkerCall MC;
  MC.Call = &Call;
  Expected<std::string> Opcode = readOpcode(tracePointer(Call.getArgOperand(0)));
  if (!Opcode)
    return Opcode.takeError();
  MC.Opcode = std::move(*Opcode);

  Expected<SmallVector<int32_t, 64>> Words = readLayoutWords(tracePointer(Call.getArgOperand(1)));
  if (!Words)
    return Words.takeError();
  Expected<std::vector<ArgDesc>> Args = decodeLayout(*Words);
  if (!Args)
    return Args.takeError();
  MC.Args = std::move(*Args);

  unsigned NumValues = NumOperands - 2;
  if (MC.Args.size() != NumValues)
    return malformed("the layout describes " + Twine(MC.Args.size()) + " argument" +
                     (MC.Args.size() == 1 ? "" : "s") + " but the call passes " + Twine(NumValues) +
                     " value" + (NumValues == 1 ? "" : "s") + " after it");

  for (unsigned I = 0; I < NumValues; ++I) {
    ArgDesc &A = MC.Args[I];
    Value *V = Call.getArgOperand(I + 2);
    if (Error E = checkValue(A, I, *V))
      return std::move(E);
    if (A.Kind == TILEAPPLY_KIND_SCALAR)
      if (Constant *C = traceConstant(V))
        A.Constant = scalarConstant(A.Elem, C);
    // A tensor's base is addressed directly when a local variable merely
    // holds it, which lets SROA see the register array right away.
    if (V->getType()->isPointerTy()) {
      Value *Base = traceValue(V, 0);
      if (Base->getType() == V->getType())
        V = Base;
    }
    // The storage of a register tensor or a view of one: the alloca it lies
    // in, and where (through the view's temporary), for the aliasing rules.
    if ((A.Kind == TILEAPPLY_KIND_REGISTER || A.Kind == TILEAPPLY_KIND_PRED_TENSOR) &&
        V->getType()->isPointerTy() && dtypeBits(A.Elem) >= 8) {
      TracedObject T = traceObject(V);
      int64_t Bytes = dtypeBits(A.Elem) / 8;
      if (T.Object && isa<AllocaInst>(T.Object) && T.ByteOffset && *T.ByteOffset % Bytes == 0) {
        A.Base = T.Object;
        A.BaseOffset = *T.ByteOffset / Bytes;
      }
    }
    MC.Values.push_back(V);
  }
  return MC;
}

} // namespace tileapply
