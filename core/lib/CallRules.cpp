//===- CallRules.cpp - The layout rules of a __tile_apply call ------------===//
//
// docs/spec.md sections 2 and 4 as code: operand count, kinds, carriers, repeat
// and group extents, destinations, views, options and the target. The plugin
// and the pass call checkCall() with the same ArgDescs, so a rule exists
// once; its wording is in Diagnostics.def.
//
//===----------------------------------------------------------------------===//
#include "tileapply/core/CallRules.h"
#include "tileapply/core/Immediates.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace tileapply {

int64_t BoundCall::numRepeats() const {
  int64_t N = 1;
  for (int64_t E : RepeatExtents)
    N *= E;
  return N;
}

namespace {

std::string kindPhrase(const ArgDesc &A) {
  switch (A.Kind) {
  case TILEAPPLY_KIND_REGISTER: return text(Text::KindRegister);
  case TILEAPPLY_KIND_MEMORY: return text(Text::KindMemory, {spaceName(A.Sp).str()});
  case TILEAPPLY_KIND_SCALAR: return text(Text::KindScalar);
  case TILEAPPLY_KIND_PRED_SCALAR:
  case TILEAPPLY_KIND_PRED_TENSOR: return text(Text::KindPredicate);
  case TILEAPPLY_KIND_PRESERVE_DST: return text(Text::KindPreserveDst);
  default: return text(Text::KindUnsupported);
  }
}

std::string str(int64_t V) { return std::to_string(V); }

class Checker {
public:
  Checker(const Form &F, ArrayRef<ArgDesc> Args, const Target *T) : F(F), Args(Args), T(T) {}

  std::vector<Problem> run(BoundCall *Out);

private:
  const Form &F;
  ArrayRef<ArgDesc> Args;
  const Target *T;
  std::vector<Problem> Problems;
  BoundCall B;

  Problem &report(DiagCode C, int Arg, std::string Msg) {
    Problems.push_back(Problem{C, Arg, std::move(Msg), {}, "", false});
    return Problems.back();
  }
  std::string opName(unsigned I) const {
    const OperandSpec &S = F.Operands[I];
    return text(S.isWritten() ? Text::DestinationName : Text::OperandName, {S.Name});
  }
  std::string operandList() const {
    std::string S;
    for (unsigned I = 0; I < F.Operands.size(); ++I)
      if (F.Operands[I].Direction != Dir::Sink)
        S += (S.empty()                   ? ""
              : F.Operands[I].JoinedByBar ? "|"
                                          : ", ") +
             F.Operands[I].Name + (F.Operands[I].Optional ? "?" : "");
    return S;
  }
  /// The argument operand I is bound to, or -1 (an optional one left out).
  int argOf(unsigned I) const { return I < B.OperandArg.size() ? B.OperandArg[I] : -1; }
  /// The form operand argument A is bound to, or -1 (an option).
  int operandOf(unsigned A) const {
    for (unsigned I = 0; I < B.OperandArg.size(); ++I)
      if (B.OperandArg[I] == static_cast<int>(A))
        return I;
    return -1;
  }

  bool splitOptions();
  void checkOperand(unsigned I);
  void checkImmediate(unsigned I);
  void checkCarrier(unsigned I);
  void reportPackedLiteral(unsigned Op, unsigned I);
  bool checkSizes();
  void checkShapes();
  void checkDestinations();
  void checkBounds(unsigned ArgIdx, StringRef What);
  void checkTarget();
  void checkAlignment();
  void checkAliasing();
};

// Operands first, then tile::pred, then tile::preserve_dst.
bool Checker::splitOptions() {
  unsigned NumOperands = 0;
  bool SeenOption = false;
  for (unsigned I = 0; I < Args.size(); ++I) {
    const ArgDesc &A = Args[I];
    bool IsPred = A.Kind == TILEAPPLY_KIND_PRED_SCALAR || A.Kind == TILEAPPLY_KIND_PRED_TENSOR;
    bool IsPreserve = A.Kind == TILEAPPLY_KIND_PRESERVE_DST;
    if (!IsPred && !IsPreserve) {
      if (SeenOption) {
        report(DiagCode::OptionOrder, I, text(Text::OperandAfterOption));
        return false;
      }
      ++NumOperands;
      continue;
    }
    SeenOption = true;
    if (IsPred) {
      if (B.PredArg >= 0 || B.PreserveDst) {
        report(DiagCode::OptionOrder, I,
               text(B.PredArg >= 0 ? Text::PredTwice : Text::PredAfterPreserve));
        return false;
      }
      B.PredArg = I;
    } else {
      if (B.PreserveDst) {
        report(DiagCode::OptionOrder, I, text(Text::PreserveTwice));
        return false;
      }
      B.PreserveDst = true;
      if (B.PredArg < 0)
        report(DiagCode::PreserveWithoutPred, I, text(Text::PreserveWithoutPred));
      else if (!F.hasDestination())
        report(DiagCode::PreserveWithoutDst, I, text(Text::PreserveWithoutDst, {F.Spelling}));
    }
  }
  unsigned All = F.numArgumentOperands(), Required = F.numRequiredOperands();
  if (NumOperands != All && NumOperands != Required) {
    std::string Count =
        Required != All ? text(Text::CountEither, {str(Required), str(All)}) : str(All);
    report(DiagCode::OperandCount, NumOperands > All ? All : -1,
           text(All == 1 ? Text::OperandCountOne : Text::OperandCount,
                {F.Spelling, Count, operandList(), str(NumOperands)}));
    return false;
  }
  // Optional operands are bound all together or not at all.
  bool WithOptional = NumOperands == All;
  B.Split.assign(F.Operands.size(), 1);
  int Next = 0;
  for (const OperandSpec &O : F.Operands)
    B.OperandArg.push_back(O.Direction == Dir::Sink || (O.Optional && !WithOptional) ? -1 : Next++);
  return true;
}

void Checker::checkOperand(unsigned Op) {
  if (argOf(Op) < 0)
    return;
  const unsigned I = argOf(Op); // the argument; Op is the form operand
  const OperandSpec &S = F.Operands[Op];
  const ArgDesc &A = Args[I];
  if (A.Kind == TILEAPPLY_KIND_UNSUPPORTED) {
    // The header says why it could not describe the argument (abi.h).
    if (A.Why == TILEAPPLY_UNSUPPORTED_VOLATILE_REGISTER) {
      Problem &P = report(DiagCode::VolatileRegister, I,
                          text(Text::VolatileRegister, {opName(Op), F.Spelling}));
      P.PointAtDecl = true;
      P.Notes.push_back(text(Text::NoteVolatileMemory));
      return;
    }
    Problem &P = report(DiagCode::UnsupportedArgument, I,
                        text(Text::UnsupportedArgument, {opName(Op), F.Spelling}));
    P.PointAtDecl = true;
    if (A.Why == TILEAPPLY_UNSUPPORTED_SCOPED_ENUM)
      P.Notes.push_back(text(Text::NoteScopedEnum));
    return;
  }
  if (A.Negated && !S.Negatable) {
    Problem &P = report(DiagCode::NotNegatable, I,
                        text(Text::NotNegatable, {opName(Op), F.Spelling, S.Name}));
    P.Notes.push_back(text(Text::NoteWhereNegation));
    if (S.Type == PtxType::pred && S.Direction == Dir::Read)
      P.Notes.push_back(text(Text::NoteNegateInCxx));
    return;
  }
  switch (S.Direction) {
  case Dir::Imm: checkImmediate(Op); return;
  case Dir::Sink: return; // bound to no argument
  case Dir::Write:
  case Dir::ReadWrite:
    if (A.Kind == TILEAPPLY_KIND_SCALAR) {
      report(DiagCode::ScalarDestination, I,
             text(Text::ScalarDestination, {opName(Op), F.Spelling}))
          .PointAtDecl = true;
      return;
    }
    if (A.Kind == TILEAPPLY_KIND_MEMORY) {
      Problem &P =
          report(DiagCode::MemoryWhereRegister, I,
                 text(Text::MemoryWhereDestination, {opName(Op), F.Spelling, kindPhrase(A)}));
      P.Notes.push_back(text(Text::NoteStoreExplicitly, {spaceName(A.Sp).str()}));
      return;
    }
    if (A.IsConst) {
      report(DiagCode::ConstDestination, I, text(Text::ConstDestination, {opName(Op), F.Spelling}))
          .PointAtDecl = true;
      return;
    }
    break;
  case Dir::Read:
    if (A.Kind == TILEAPPLY_KIND_MEMORY) {
      Problem &P = report(DiagCode::MemoryWhereRegister, I,
                          text(Text::MemoryWhereSource, {opName(Op), F.Spelling, kindPhrase(A)}));
      P.Notes.push_back(text(Text::NoteLoadExplicitly, {spaceName(A.Sp).str()}));
      return;
    }
    break;
  case Dir::Addr:
    if (A.Kind != TILEAPPLY_KIND_MEMORY) {
      report(DiagCode::RegisterWhereAddress, I,
             text(Text::RegisterWhereAddress, {opName(Op), F.Spelling, spaceName(S.AddrSpace).str(),
                                               kindPhrase(A), memoryTensorName(S.AddrSpace)}))
          .PointAtDecl = true;
      return;
    }
    if (S.WritesMemory && A.IsConst) {
      report(DiagCode::ConstDestination, I,
             text(Text::ConstMemoryDestination, {opName(Op), F.Spelling}))
          .PointAtDecl = true;
      return;
    }
    if (A.Sp != S.AddrSpace) {
      report(DiagCode::WrongStateSpace, I,
             text(Text::WrongStateSpace,
                  {F.Spelling, spaceName(S.AddrSpace).str(), opName(Op), memoryTensorName(A.Sp)}))
          .PointAtDecl = true;
      return;
    }
    break;
  }
  if (A.Kind == TILEAPPLY_KIND_PRED_SCALAR || A.Kind == TILEAPPLY_KIND_PRED_TENSOR ||
      A.Kind == TILEAPPLY_KIND_PRESERVE_DST)
    return; // cannot happen after splitOptions
  if (A.Kind == TILEAPPLY_KIND_SCALAR && S.Regs > 1) {
    report(DiagCode::GroupMismatch, I,
           text(Text::ScalarForGroup, {opName(Op), F.Spelling, str(S.Regs)}));
    return;
  }
  checkCarrier(Op);
}

void Checker::checkImmediate(unsigned Op) {
  const unsigned I = argOf(Op);
  const OperandSpec &S = F.Operands[Op];
  const ArgDesc &A = Args[I];
  std::string Range = S.immText();
  std::optional<int64_t> V;
  if (A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant)
    V = integralValue(*A.Constant);
  if (V && S.immAllows(*V))
    return;
  std::string Found = A.Kind != TILEAPPLY_KIND_SCALAR ? kindPhrase(A)
                      : !A.Constant                   ? text(Text::FoundRunTimeValue)
                      : V                             ? text(Text::FoundConstant, {str(*V)})
                                                      : text(Text::FoundNonInteger);
  report(DiagCode::ImmediateRequired, I,
         text(Text::ImmediateRequired, {S.Name, F.Spelling, Range, Found}))
      .PointAtDecl = A.Kind != TILEAPPLY_KIND_SCALAR;
}

void Checker::reportPackedLiteral(unsigned Op, unsigned I) {
  const OperandSpec &S = F.Operands[Op];
  const ArgDesc &A = Args[I];
  std::string Want = "." + ptxTypeName(S.Type).str();
  unsigned Bits = ptxTypeBits(S.Type);
  std::string Raw = "0x" + hexBits(static_cast<uint64_t>(A.Constant->I), Bits / 4);
  std::string V = str(A.Constant->I);
  float Value = static_cast<float>(A.Constant->I);
  std::string Lanes, Packed, Helper, RawSpelling;
  bool One = Bits == 16;
  if (S.Type == PtxType::f16x2) {
    Lanes = text(Text::LanesHalves);
    Packed = "0x" + hexBits(packedSplatBits(PtxType::f16x2, Value), 8);
    Helper = "tile::packed::f16x2(" + V + ".0f)";
  } else if (S.Type == PtxType::bf16x2) {
    Lanes = text(Text::LanesBfloats);
    Packed = "0x" + hexBits(packedSplatBits(PtxType::bf16x2, Value), 8);
    Helper = "tile::packed::bf16x2(" + V + ".0f)";
  } else if (S.Type == PtxType::f32x2) {
    Lanes = text(Text::LanesFloats);
    Packed = "0x" + hexBits(packedSplatBits(PtxType::f32x2, Value), 16);
    Helper = "tile::packed::f32x2(" + V + ".0f)";
  } else if (S.Type == PtxType::bf16) {
    Lanes = text(Text::LaneBfloat);
    Packed = "0x" + hexBits(packedSplatBits(PtxType::bf16, Value), 4);
    Helper = "tile::packed::bf16_bits(" + V + ".0f)";
  } else {
    Lanes = text(Text::LaneHalf);
    Packed = "0x" + hexBits(packedSplatBits(PtxType::f16, Value), 4);
    Helper = "tile::packed::f16_bits(" + V + ".0f)";
  }
  RawSpelling = Bits == 64 ? Packed + "ull" : Bits == 16 ? "(uint16_t)" + Packed : Packed + "u";
  Problem &P = report(DiagCode::PackedIntegerLiteral, I,
                      text(One ? Text::RawHalfIntegerLiteral : Text::PackedIntegerLiteral,
                           {V, opName(Op), F.Spelling, Raw, Want}));
  P.Notes.push_back(text(One ? Text::NoteRawHalfConstant : Text::NotePackedConstant,
                         {Lanes, V, Packed, Helper, RawSpelling}));
}

void Checker::checkCarrier(unsigned Op) {
  const unsigned I = argOf(Op); // the argument; Op is the form operand
  const OperandSpec &S = F.Operands[Op];
  const ArgDesc &A = Args[I];
  // A register group {a, b} standing for one wider register (mov.b64 d, {a, b}).
  if (S.Splittable && A.Kind == TILEAPPLY_KIND_REGISTER && !A.Extents.empty() &&
      A.Extents.back() > 1 && A.Extents.back() % S.Regs == 0) {
    int64_t G = A.Extents.back() / S.Regs;
    if (std::optional<PtxType> PartType = splitPartType(S.Type, G)) {
      unsigned Part = ptxTypeBits(*PartType);
      B.Split[Op] = static_cast<unsigned>(G);
      if (carrierMatches(A.Elem, *PartType))
        return;
      report(DiagCode::CarrierMismatch, I,
             text(Text::SplitCarrierMismatch,
                  {opName(Op), F.Spelling, str(G), str(Part), ptxTypeName(*PartType).str(),
                   ptxTypeName(S.Type).str(), dtypeName(A.Elem).str()}))
          .PointAtDecl = true;
      return;
    }
  }
  std::string Want = "." + ptxTypeName(S.Type).str();
  // An integer literal taken as the raw bits of a packed floating operand
  // or of a .f16/.bf16 one (whose carrier is its bits): accepted, but `2` is
  // rarely meant as the bits 0x0002. Warned whether it reached the operand's
  // own carrier (`(uint16_t)2`, `2u`) or converts to it exactly (`2`). Zero
  // is zero in every format: never warned.
  bool RawFloatBits = ptxTypeIsFloating(S.Type) &&
                      (ptxTypeClass(S.Type) == TypeClass::Packed || ptxTypeBits(S.Type) == 16);
  bool Fits = A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant && A.Elem != TILEAPPLY_DT_BOOL &&
              (carrierMatches(A.Elem, S.Type) || constantFitsExactly(S.Type, *A.Constant));
  if (Fits && RawFloatBits && A.Constant->IsIntegerLiteral && !A.Constant->IsFloat &&
      A.Constant->I != 0) {
    reportPackedLiteral(Op, I);
    return;
  }
  // A constant fits a numeric operand when its value does; a bool constant
  // never stands for a number (cp.async's fourth operand: `true` is
  // ignore-src, not src-size 1).
  if (Fits)
    return;
  if (carrierMatches(A.Elem, S.Type))
    return;
  // ld.global.u8 into a uint32_t, st.global.b8 from one: PTX extends or
  // truncates a wider data register of these families (dataMayBeWider).
  if (A.Kind != TILEAPPLY_KIND_SCALAR && S.Direction != Dir::Addr &&
      dataMayBeWider(F.Family, F.Spelling) && widerCarrierFits(A.Elem, S.Type))
    return;
  std::string Where = S.Direction == Dir::Addr ? text(Text::ElementsOf, {opName(Op)}) : opName(Op);
  Problem &P = report(A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant ? DiagCode::ScalarNotExact
                                                                    : DiagCode::CarrierMismatch,
                      I,
                      text(Text::CarrierMismatch, {Where, F.Spelling, expectedCarriers(S.Type),
                                                   Want, dtypeName(A.Elem).str()}));
  P.PointAtDecl = A.Kind != TILEAPPLY_KIND_SCALAR;
  if (A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant && ptxTypeClass(S.Type) == TypeClass::Packed)
    P.Notes.push_back(text(Text::NoteNeverPacks, {Want, ptxTypeName(S.Type).str()}));
  else if (A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant && RawFloatBits)
    P.Notes.push_back(text(Text::NoteHalfBits, {Want, ptxTypeName(S.Type).str()}));
  else if (A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant)
    P.Notes.push_back(text(Text::NoteExactConstant, {Want}));
  else if (A.Kind == TILEAPPLY_KIND_REGISTER && S.Direction != Dir::Addr &&
           dataMayBeWider(F.Family, F.Spelling) && widerCarrierFits(TILEAPPLY_DT_U32, S.Type))
    P.Notes.push_back(
        text(Text::NoteWiderCarrier,
             {F.Spelling, text(S.Direction == Dir::Read ? Text::WiderStores : Text::WiderLoads)}));
}

// Empty and oversized shapes first: the other rules enumerate elements.
bool Checker::checkSizes() {
  bool Ok = true;
  for (unsigned I = 0; I < Args.size(); ++I) {
    const ArgDesc &A = Args[I];
    if (!A.isShaped())
      continue;
    int64_t N = 1;
    bool Empty = false;
    for (int64_t E : A.Extents) {
      Empty |= E == 0;
      N = std::min<int64_t>(N * std::max<int64_t>(E, 1), MaxElements + 1);
    }
    if (Empty || N > MaxElements) {
      std::string What = operandOf(I) >= 0 ? opName(operandOf(I)) : text(Text::ThePredicateTensor);
      report(DiagCode::ShapeOutOfRange, I,
             Empty ? text(Text::ShapeEmpty, {What, A.shapeString()})
                   : text(Text::ShapeTooLarge, {What, A.shapeString(), str(MaxElements)}))
          .PointAtDecl = true;
      Ok = false;
    }
  }
  return Ok;
}

void Checker::checkShapes() {
  // The reference for repeat extents: the first tensor operand.
  int Ref = -1; // the form operand
  for (unsigned Op = 0; Op < F.Operands.size(); ++Op) {
    if (argOf(Op) < 0)
      continue;
    const unsigned I = argOf(Op);
    const ArgDesc &A = Args[I];
    if (!A.isTensor())
      continue;
    const OperandSpec &S = F.Operands[Op];
    if (A.Extents.empty()) {
      report(DiagCode::RankTooLow, I, text(Text::RankTooLow, {opName(Op)}));
      continue;
    }
    unsigned Regs = S.Regs * B.Split[Op];
    if (A.Extents.back() != Regs) {
      // A .vN access says so; any other group (a matrix fragment, a
      // coordinate list) is just its register count.
      bool IsVector = llvm::is_contained(splitSpelling(F.Spelling), "v" + str(S.Regs));
      std::string Group = S.Regs == 1 ? text(Text::GroupOne)
                          : IsVector  ? text(Text::GroupVector, {str(S.Regs)})
                                      : text(Text::GroupRegisters, {str(S.Regs)});
      // The groups a splittable operand may also be: "2 (32-bit) or 4 (16-bit)".
      std::string Groups;
      if (S.Splittable)
        for (unsigned G : SplitGroupSizes)
          if (std::optional<PtxType> Part = splitPartType(S.Type, G))
            Groups += (Groups.empty() ? "" : " or ") +
                      text(Text::GroupSplitPart, {str(G), str(ptxTypeBits(*Part))});
      if (!Groups.empty())
        Group += text(Text::GroupOrSplit, {Groups, ptxTypeName(S.Type).str()});
      report(DiagCode::GroupMismatch, I,
             text(Text::GroupMismatch,
                  {opName(Op), F.Spelling, Group, A.shapeString(), str(A.Extents.back())}))
          .PointAtDecl = true;
    }
    if (S.Direction == Dir::Addr && Regs > 1 && A.Strides.back() != 1)
      report(DiagCode::VectorNotContiguous, I,
             text(Text::VectorNotContiguous,
                  {opName(Op), F.Spelling, str(S.Regs), str(A.Strides.back())}));
    ArrayRef<int64_t> Rep = ArrayRef<int64_t>(A.Extents).drop_back();
    if (Ref < 0) {
      Ref = Op;
      B.RepeatExtents.assign(Rep.begin(), Rep.end());
      continue;
    }
    ArrayRef<int64_t> RefRep = B.RepeatExtents;
    if (Rep == RefRep)
      continue;
    std::string RefName = F.Operands[Ref].Name;
    if (Rep.size() == RefRep.size()) {
      for (unsigned Ax = 0; Ax < Rep.size(); ++Ax)
        if (Rep[Ax] == 1 && RefRep[Ax] > 1 && S.Direction == Dir::Read) {
          Problem &P = report(
              DiagCode::ImplicitBroadcast, I,
              text(Text::ImplicitBroadcast, {opName(Op), str(Ax), RefName, str(RefRep[Ax])}));
          SmallVector<int64_t, 4> Shape(RefRep.begin(), RefRep.end());
          Shape.push_back(A.Extents.back());
          SmallVector<int64_t, 4> Str(A.Strides.begin(), A.Strides.end());
          for (unsigned K = 0; K < Rep.size(); ++K)
            if (Rep[K] == 1 && RefRep[K] > 1)
              Str[K] = 0;
          std::string Sh = listString(Shape), St = listString(Str);
          Sh = Sh.substr(1, Sh.size() - 2);
          St = St.substr(1, St.size() - 2);
          P.Notes.push_back(text(Text::NoteExplicitBroadcast, {Sh, St}));
          P.PointAtDecl = true;
          return;
        }
    }
    report(DiagCode::RepeatMismatch, I,
           text(Text::RepeatMismatch, {RefName, Args[argOf(Ref)].shapeString(), listString(RefRep),
                                       S.Name, A.shapeString(), listString(Rep)}))
        .PointAtDecl = true;
    return;
  }

  // The predicate tensor: the repeat axes, then a group axis of 1.
  if (B.PredArg >= 0 && Args[B.PredArg].Kind == TILEAPPLY_KIND_PRED_TENSOR) {
    const ArgDesc &P = Args[B.PredArg];
    SmallVector<int64_t, 4> Want(B.RepeatExtents.begin(), B.RepeatExtents.end());
    Want.push_back(1);
    if (ArrayRef<int64_t>(P.Extents) != ArrayRef<int64_t>(Want))
      report(DiagCode::PredicateShape, B.PredArg,
             text(Text::PredicateShape, {P.shapeString(), listString(Want)}))
          .PointAtDecl = true;
    if (F.isAligned()) {
      Problem &Q = report(DiagCode::AlignedPredicateTensor, B.PredArg,
                          text(Text::AlignedPredicateTensor, {F.Spelling}));
      Q.Notes.push_back(text(Text::NoteUniformPredicate));
    }
    if (F.isChain())
      report(DiagCode::ChainPredicateTensor, B.PredArg,
             text(Text::ChainPredicateTensor, {F.Spelling}));
    if (P.Elem != TILEAPPLY_DT_BOOL && P.Elem != TILEAPPLY_DT_U32)
      report(DiagCode::PredicateType, B.PredArg,
             text(Text::PredicateType) + dtypeName(P.Elem).str())
          .PointAtDecl = true;
  }
}

void Checker::checkBounds(unsigned ArgIdx, StringRef What) {
  const ArgDesc &A = Args[ArgIdx];
  int64_t Lo = 0, Hi = 0;
  for (unsigned Ax = 0; Ax < A.Extents.size(); ++Ax) {
    int64_t Span = (A.Extents[Ax] - 1) * A.Strides[Ax];
    (Span < 0 ? Lo : Hi) += Span;
  }
  if (Lo < 0)
    report(DiagCode::ViewOutOfBounds, ArgIdx, text(Text::ViewBeforeStorage, {What.str(), str(Lo)}))
        .PointAtDecl = true;
  else if (A.Storage > 0 && Hi >= A.Storage)
    report(DiagCode::ViewOutOfBounds, ArgIdx,
           text(Text::ViewPastStorage,
                {What.str(), A.shapeString(), listString(A.Strides), str(Hi), str(A.Storage)}))
        .PointAtDecl = true;
}

void Checker::checkDestinations() {
  for (unsigned Op = 0; Op < F.Operands.size(); ++Op) {
    if (argOf(Op) < 0)
      continue;
    const unsigned I = argOf(Op);
    const OperandSpec &S = F.Operands[Op];
    const ArgDesc &A = Args[I];
    if (!A.isShaped())
      continue;
    checkBounds(I, opName(Op));
    if (!S.isWritten())
      continue;
    // An atomic read-modify-write (atom, red, an mbarrier) may name one
    // element in several repeats: each is an indivisible step of its own, in
    // repeat order (a counter updated four times by one call).
    if (S.ReadModifyWrite)
      continue;
    // Every (repeat, group) element of a destination must be its own storage.
    DenseSet<int64_t> Seen;
    int64_t N = 1;
    for (int64_t E : A.Extents)
      N *= E;
    SmallVector<int64_t, 4> Idx(A.Extents.size(), 0);
    for (int64_t K = 0; K < N; ++K) {
      int64_t Off = 0;
      for (unsigned Ax = 0; Ax < Idx.size(); ++Ax)
        Off += Idx[Ax] * A.Strides[Ax];
      if (!Seen.insert(Off).second) {
        bool Zero = llvm::any_of(llvm::zip(A.Extents, A.Strides),
                                 [](auto P) { return std::get<0>(P) > 1 && std::get<1>(P) == 0; });
        report(DiagCode::OverlappingDestination, I,
               text(Text::OverlappingDestination,
                    {opName(Op), F.Spelling, str(Off), A.shapeString(), listString(A.Strides)}) +
                   (Zero ? text(Text::BroadcastIsForInputs) : ""))
            .PointAtDecl = true;
        break;
      }
      for (int Ax = static_cast<int>(Idx.size()) - 1; Ax >= 0; --Ax) {
        if (++Idx[Ax] < A.Extents[Ax])
          break;
        Idx[Ax] = 0;
      }
    }
  }
  if (B.PredArg >= 0 && Args[B.PredArg].Kind == TILEAPPLY_KIND_PRED_TENSOR)
    checkBounds(B.PredArg, text(Text::ThePredicateTensor));
}

// Issue 17 item 6: misalignment between repeats. A memory operand accessed N
// bytes at a time (a .v2/.v4/.v8 group, a 128-bit element, cp.async's
// cp-size) needs every repeat's address aligned to N. Repeat 0's alignment is
// the caller's business (its pointer is a run-time value), but each other
// repeat sits at a constant offset from it, known from the layout: an offset
// that is no multiple of N makes that repeat misaligned whatever repeat 0 is.
void Checker::checkAlignment() {
  int64_t CopySize = 0; // cp.async: the bytes each repeat copies
  for (unsigned Op = 0; Op < F.Operands.size(); ++Op)
    if (F.Operands[Op].Direction == Dir::Imm && F.Operands[Op].Name == "cp-size" &&
        argOf(Op) >= 0 && Args[argOf(Op)].Constant)
      if (std::optional<int64_t> V = integralValue(*Args[argOf(Op)].Constant))
        CopySize = *V;
  for (unsigned Op = 0; Op < F.Operands.size(); ++Op) {
    const OperandSpec &S = F.Operands[Op];
    if (S.Direction != Dir::Addr || argOf(Op) < 0)
      continue;
    const unsigned I = argOf(Op);
    const ArgDesc &A = Args[I];
    if (A.Kind != TILEAPPLY_KIND_MEMORY || A.Extents.empty())
      continue;
    int64_t ElemBytes = dtypeBits(A.Elem) / 8;
    if (ElemBytes <= 0)
      continue;
    int64_t Access = ElemBytes * S.Regs * B.Split[Op];
    if (CopySize > Access)
      Access = CopySize;
    // Offsets in whole elements are always multiples of one element.
    if (Access <= ElemBytes || (Access & (Access - 1)) != 0)
      continue;
    int64_t N = B.numRepeats();
    int64_t Base = elementOffset(A, B.RepeatExtents, 0, 0);
    for (int64_t R = 1; R < N; ++R) {
      int64_t Off = (elementOffset(A, B.RepeatExtents, R, 0) - Base) * ElemBytes;
      if (Off % Access == 0)
        continue;
      std::string Group = str(Access / ElemBytes);
      Problem &P = report(
          DiagCode::MisalignedRepeat, I,
          text(Text::MisalignedRepeat, {opName(Op), F.Spelling, str(R), str(Off), str(Access),
                                        A.shapeString(), listString(A.Strides)}));
      P.Notes.push_back(text(Text::NoteAlignedRepeatStrides, {Group, str(Access)}));
      break;
    }
  }
}

// Issue 17 item 5: a destination over the storage of another operand. The
// expansion runs the repeats one after another in row-major order, each one
// instruction that reads its inputs before it writes: a repeat that reads an
// element an earlier repeat wrote reads the new value. Reads of the same
// repeat, or of earlier ones, are fine (a = a + b). Two destinations of one
// call may not share any element. Only operands whose Base the caller knows
// to be the same storage are compared.
void Checker::checkAliasing() {
  struct Use {
    unsigned Arg;
    int Op;
    bool Written;
  };
  SmallVector<Use, 8> Uses;
  for (unsigned Op = 0; Op < F.Operands.size(); ++Op) {
    if (argOf(Op) < 0 || !Args[argOf(Op)].Base || !Args[argOf(Op)].isShaped())
      continue;
    Uses.push_back({static_cast<unsigned>(argOf(Op)), static_cast<int>(Op),
                    F.Operands[Op].isWritten() && F.Operands[Op].Direction != Dir::Addr});
  }
  if (B.PredArg >= 0 && Args[B.PredArg].Kind == TILEAPPLY_KIND_PRED_TENSOR && Args[B.PredArg].Base)
    Uses.push_back({static_cast<unsigned>(B.PredArg), -1, false});
  const int64_t N = B.numRepeats();
  auto Name = [&](const Use &U) {
    return U.Op >= 0 ? opName(U.Op) : text(Text::ThePredicateTensor);
  };
  auto GroupOf = [&](const Use &U) {
    const ArgDesc &A = Args[U.Arg];
    return A.Extents.empty() ? int64_t(1) : A.Extents.back();
  };
  for (const Use &D : Uses) {
    if (!D.Written)
      continue;
    const ArgDesc &DA = Args[D.Arg];
    // The first repeat that writes each element of the storage.
    DenseMap<int64_t, int64_t> FirstWrite;
    for (int64_t R = 0; R < N; ++R)
      for (int64_t G = 0; G < GroupOf(D); ++G)
        FirstWrite.try_emplace(DA.BaseOffset + elementOffset(DA, B.RepeatExtents, R, G), R);
    for (const Use &X : Uses) {
      const ArgDesc &XA = Args[X.Arg];
      if (X.Arg == D.Arg || XA.Base != DA.Base || dtypeBits(XA.Elem) != dtypeBits(DA.Elem))
        continue;
      bool Found = false;
      for (int64_t R = 0; R < N && !Found; ++R)
        for (int64_t G = 0; G < GroupOf(X) && !Found; ++G) {
          int64_t E = XA.BaseOffset + elementOffset(XA, B.RepeatExtents, R, G);
          auto It = FirstWrite.find(E);
          if (It == FirstWrite.end())
            continue;
          if (X.Written) {
            if (X.Arg < D.Arg)
              continue; // reported once, at the first of the two
            Problem &P =
                report(DiagCode::SharedDestinations, X.Arg,
                       text(Text::SharedDestinations, {Name(D), Name(X), F.Spelling, str(E)}));
            P.Notes.push_back(text(Text::NoteDistinctDestinations));
            Found = true;
          } else if (It->second < R) {
            Problem &P =
                report(DiagCode::OverwrittenInput, D.Arg,
                       text(Text::OverwrittenInput, {Name(D), F.Spelling, str(E), str(It->second),
                                                     Name(X), str(X.Arg + 1), str(R)}));
            P.Notes.push_back(text(Text::NoteSeparateDestination));
            Found = true;
          }
        }
    }
  }
}

void Checker::checkTarget() {
  if (!T)
    return;
  // A call that passes the optional operands may need a newer floor.
  bool WithOptional = false;
  for (unsigned I = 0; I < B.OperandArg.size(); ++I)
    WithOptional |= F.Operands[I].Optional && B.OperandArg[I] >= 0;
  if (std::optional<Problem> P = targetProblem(F, WithOptional, *T))
    Problems.push_back(std::move(*P));
}

std::vector<Problem> Checker::run(BoundCall *Out) {
  if (splitOptions()) {
    for (unsigned I = 0; I < F.Operands.size(); ++I)
      checkOperand(I);
    // PTX has `mov.b64 d, {a, b}` and `mov.b64 {a, b}, d`, not both at once.
    if (llvm::count_if(B.Split, [](unsigned S) { return S > 1; }) > 1)
      report(DiagCode::GroupMismatch, -1, text(Text::SplitBothSides, {F.Spelling}));
    if (checkSizes()) {
      checkShapes();
      checkDestinations();
      if (llvm::none_of(Problems, [](const Problem &P) { return P.severity() == Severity::Error; }))
        checkAlignment();
      if (llvm::none_of(Problems, [](const Problem &P) { return P.severity() == Severity::Error; }))
        checkAliasing();
    }
  }
  checkTarget();
  bool Errors =
      llvm::any_of(Problems, [](const Problem &P) { return P.severity() == Severity::Error; });
  if (Out && !Errors)
    *Out = std::move(B);
  return std::move(Problems);
}

} // namespace

std::vector<Problem> checkCall(const Form &F, ArrayRef<ArgDesc> Args, const Target *T,
                               BoundCall *Out) {
  return Checker(F, Args, T).run(Out);
}

static bool hasError(const std::vector<Problem> &Ps) {
  return llvm::any_of(Ps, [](const Problem &P) { return P.severity() == Severity::Error; });
}

std::vector<Problem> checkCall(const LookupResult &Forms, ArrayRef<ArgDesc> Args, const Target *T,
                               BoundCall *Out, const Form **Chosen) {
  const Form &First = *Forms.Found;
  std::vector<Problem> Ps = checkCall(First, Args, T, Out);
  *Chosen = &First;
  if (Forms.Overloads.empty() || !hasError(Ps))
    return Ps;
  // Arguments before the options: what the call passes as operands.
  unsigned NumOperands = 0;
  for (const ArgDesc &A : Args)
    NumOperands += A.Kind != TILEAPPLY_KIND_PRED_SCALAR && A.Kind != TILEAPPLY_KIND_PRED_TENSOR &&
                   A.Kind != TILEAPPLY_KIND_PRESERVE_DST;
  auto Takes = [&](const Form &F) {
    return NumOperands == F.numArgumentOperands() || NumOperands == F.numRequiredOperands();
  };
  const Form *Report = Takes(First) ? &First : nullptr;
  for (const Form &O : Forms.Overloads) {
    BoundCall B;
    std::vector<Problem> OPs = checkCall(O, Args, T, &B);
    if (!hasError(OPs)) {
      *Chosen = &O;
      if (Out)
        *Out = std::move(B);
      return OPs;
    }
    if (!Report && Takes(O)) {
      Report = &O;
      Ps = std::move(OPs);
    }
  }
  if (!Report)
    Report = &First;
  *Chosen = Report;
  // Say that the spelling has other operand lists too.
  std::string Others;
  for (const Form *F : [&] {
         std::vector<const Form *> All{&First};
         for (const Form &O : Forms.Overloads)
           All.push_back(&O);
         return All;
       }()) {
    if (F == Report)
      continue;
    std::string Ops;
    for (const OperandSpec &O : F->Operands)
      if (O.Direction != Dir::Sink)
        Ops += (Ops.empty() ? "" : ", ") + O.Name + ":" + ptxTypeName(O.Type).str() +
               (O.Regs > 1 ? "x" + std::to_string(O.Regs) : "") +
               (O.Direction == Dir::Imm ? " " + O.immText() : "");
    Others += (Others.empty() ? "" : "; ") + Ops;
  }
  for (Problem &P : Ps)
    if (P.severity() == Severity::Error) {
      P.Notes.push_back(text(Text::NoteOverloads, {First.Spelling, Others}));
      break;
    }
  return Ps;
}

// ---- the floor of a form, for calls and asm statements (issue 22) ----
std::optional<Problem> targetProblem(const Form &F, bool WithOptional, const Target &T) {
  std::string What = "'" + F.Spelling + "'";
  if (WithOptional && F.optionalRaisesFloor())
    What += text(F.Operands.size() - F.numRequiredOperands() > 1 ? Text::WithOptionalOperands
                                                                 : Text::WithOptionalOperand);
  if (!F.runsOn(T, WithOptional)) {
    std::string Where = F.targetsText(WithOptional);
    if (F.OnlyOn.empty()) {
      Problem P{DiagCode::TargetTooOld,
                -1,
                text(Text::TargetTooOld, {What, Where, T.name()}),
                {},
                "",
                false};
      P.Notes.push_back(text(Text::NoteNewerGpu, {Where, T.name()}));
      return P;
    }
    Problem P{DiagCode::TargetTooOld,
              -1,
              text(Text::TargetSpecific, {What, Where, T.name()}),
              {},
              "",
              false};
    P.Notes.push_back(text(Text::NoteTargetKinds));
    return P;
  }
  if (T.PtxVersion && F.minPtx(WithOptional) > T.PtxVersion)
    return Problem{DiagCode::PtxTooOld,
                   -1,
                   text(Text::PtxTooOld, {What, ptxVersionName(F.minPtx(WithOptional)),
                                          ptxVersionName(T.PtxVersion)}),
                   {},
                   "",
                   false};
  return std::nullopt;
}

} // namespace tileapply
