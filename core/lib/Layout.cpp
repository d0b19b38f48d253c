//===- Layout.cpp - The layout rules of a __tile_apply call ---------------===//
//
// CONTRACT sections 2 and 4 as code: operand count, kinds, carriers, repeat
// and group extents, destinations, views, options and the target. The plugin
// and the pass call checkCall() with the same ArgDescs, so a rule and its
// wording exist once.
//
//===----------------------------------------------------------------------===//
#include "tileapply/core/Layout.h"
#include "tileapply/packed.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstring>

using namespace llvm;

namespace tileapply {

namespace {
struct DiagInfo {
  const char *Name;
  Severity Sev;
  const char *Summary;
};
constexpr DiagInfo DiagInfos[] = {
#define TA_DIAG(Code, Sev, Summary) {#Code, Severity::Sev, Summary},
#include "tileapply/core/Diagnostics.def"
};
} // namespace

Severity diagSeverity(DiagCode C) { return DiagInfos[static_cast<unsigned>(C)].Sev; }
StringRef diagName(DiagCode C) { return DiagInfos[static_cast<unsigned>(C)].Name; }
StringRef diagSummary(DiagCode C) { return DiagInfos[static_cast<unsigned>(C)].Summary; }

static std::string listString(ArrayRef<int64_t> V) {
  std::string S = "[";
  for (unsigned I = 0; I < V.size(); ++I)
    S += (I ? ", " : "") + std::to_string(V[I]);
  return S + "]";
}

std::string ArgDesc::shapeString() const { return listString(Extents); }

int64_t BoundCall::numRepeats() const {
  int64_t N = 1;
  for (int64_t E : RepeatExtents)
    N *= E;
  return N;
}

// ---- decoding the marker's layout array -------------------------------------------

// Limits that keep a hostile layout from exhausting the compiler: a rank past
// 16 is a malformed record; a tensor past 2^16 elements is refused by the
// rules (one instruction per repeat: 65536 is already far past any kernel).
static constexpr int32_t MaxRank = 16;
static constexpr int64_t MaxElements = int64_t(1) << 16;

Expected<std::vector<ArgDesc>> decodeLayout(ArrayRef<int32_t> W) {
  auto Err = [](const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), "layout array: " + Msg);
  };
  if (W.size() < 2)
    return Err("shorter than its header");
  if (W[0] != TILEAPPLY_LAYOUT_VERSION)
    return Err("version " + Twine(W[0]) + ", expected " + Twine(TILEAPPLY_LAYOUT_VERSION));
  if (W[1] < 0 || W[1] > 64)
    return Err("argument count " + Twine(W[1]) + " out of range");
  std::vector<ArgDesc> Args;
  size_t At = 2;
  for (int32_t A = 0; A < W[1]; ++A) {
    if (At + 5 > W.size())
      return Err("record " + Twine(A) + " is truncated");
    ArgDesc D;
    int32_t Kind = W[At] & TILEAPPLY_KIND_MASK;
    if (Kind > TILEAPPLY_KIND_PRESERVE_DST)
      return Err("record " + Twine(A) + " has unknown kind " + Twine(Kind));
    if (W[At] & ~(TILEAPPLY_KIND_MASK | TILEAPPLY_QUAL_CONST | TILEAPPLY_QUAL_NEGATE))
      return Err("record " + Twine(A) + " has unknown qualifier bits");
    D.Kind = static_cast<tileapply_kind>(Kind);
    D.IsConst = W[At] & TILEAPPLY_QUAL_CONST;
    D.Negated = W[At] & TILEAPPLY_QUAL_NEGATE;
    if (W[At + 1] < 0 || W[At + 1] > TILEAPPLY_DT_LAST)
      return Err("record " + Twine(A) + " has unknown dtype " + Twine(W[At + 1]));
    D.Elem = static_cast<DType>(W[At + 1]);
    if (W[At + 2] < 0 || W[At + 2] > TILEAPPLY_SPACE_LAST)
      return Err("record " + Twine(A) + " has unknown state space " + Twine(W[At + 2]));
    D.Sp = static_cast<Space>(W[At + 2]);
    if (W[At + 3] < 0)
      return Err("record " + Twine(A) + " has a negative storage size");
    D.Storage = W[At + 3];
    int32_t Rank = W[At + 4];
    if (Rank < 0 || Rank > MaxRank)
      return Err("record " + Twine(A) + " has rank " + Twine(Rank) + " (at most " +
                 Twine(MaxRank) + ")");
    At += 5;
    if (At + 2 * size_t(Rank) > W.size())
      return Err("record " + Twine(A) + " is truncated");
    for (int32_t I = 0; I < Rank; ++I) {
      // Empty or huge shapes are the rules' business (checkCall reports them
      // at the argument); only a negative extent is a malformed record.
      int32_t E = W[At + I];
      if (E < 0)
        return Err("record " + Twine(A) + " has extent " + Twine(E) + " on axis " + Twine(I));
      D.Extents.push_back(E);
    }
    for (int32_t I = 0; I < Rank; ++I)
      D.Strides.push_back(W[At + Rank + I]);
    At += 2 * size_t(Rank);
    bool Shaped = D.isTensor() || D.Kind == TILEAPPLY_KIND_PRED_TENSOR;
    if (!Shaped && Rank != 0)
      return Err("record " + Twine(A) + " is not a tensor but has a shape");
    Args.push_back(std::move(D));
  }
  if (At != W.size())
    return Err(Twine(W.size() - At) + (W.size() - At == 1 ? " word" : " words") +
               " past the last record");
  return Args;
}

// ---- constants ----------------------------------------------------------------------

static std::string hexBits(uint64_t Bits, unsigned Digits) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format_hex_no_prefix(Bits, Digits, /*Upper=*/true);
  return S;
}

/// The integer value of C when it is integral, else nullopt.
static std::optional<int64_t> integralValue(const ScalarConst &C) {
  if (!C.IsFloat)
    return C.I;
  if (std::isfinite(C.F) && C.F == std::trunc(C.F) && std::fabs(C.F) < 9.2e18)
    return static_cast<int64_t>(C.F);
  return std::nullopt;
}

bool constantFitsExactly(PtxType T, const ScalarConst &C) {
  unsigned Bits = ptxTypeBits(T);
  switch (ptxTypeClass(T)) {
  case TypeClass::Pred:
    return false;
  case TypeClass::Unsigned:
  case TypeClass::Bits:
  case TypeClass::Packed: {
    // Packed and bit-size operands take raw bits: an integer in range, never a
    // floating value (that would be a numeric conversion or a pack).
    // (A nonnegative int64_t fits any width of 64 bits or more: .b128 too.)
    if (C.IsFloat)
      return ptxTypeClass(T) == TypeClass::Unsigned && integralValue(C) &&
             *integralValue(C) >= 0 && (Bits >= 64 || *integralValue(C) < (int64_t(1) << Bits));
    if (C.I < 0)
      return false;
    return Bits >= 64 || C.I < (int64_t(1) << Bits);
  }
  case TypeClass::Signed: {
    auto V = integralValue(C);
    if (!V)
      return false;
    if (Bits >= 64)
      return true;
    int64_t Lim = int64_t(1) << (Bits - 1);
    return *V >= -Lim && *V < Lim;
  }
  case TypeClass::Float: {
    double V = C.IsFloat ? C.F : static_cast<double>(C.I);
    if (!C.IsFloat && static_cast<int64_t>(V) != C.I)
      return false;
    if (T == PtxType::f64)
      return true;
    if (T == PtxType::f32)
      return std::isnan(V) || static_cast<double>(static_cast<float>(V)) == V;
    return false; // f16 / bf16 take their raw bits (uint16_t) or __half
  }
  }
  return false;
}

std::string immediateText(PtxType T, const ScalarConst &C) {
  if (!ptxTypeTakesImmediate(T) || !constantFitsExactly(T, C))
    return "";
  if (T == PtxType::f32) {
    float F = static_cast<float>(C.IsFloat ? C.F : static_cast<double>(C.I));
    uint32_t B;
    std::memcpy(&B, &F, 4);
    return "0f" + hexBits(B, 8);
  }
  if (T == PtxType::f64) {
    double D = C.IsFloat ? C.F : static_cast<double>(C.I);
    uint64_t B;
    std::memcpy(&B, &D, 8);
    return "0d" + hexBits(B, 16);
  }
  return std::to_string(*integralValue(C));
}

// ---- the rules ----------------------------------------------------------------------

namespace {

bool isShaped(const ArgDesc &A) {
  return A.isTensor() || A.Kind == TILEAPPLY_KIND_PRED_TENSOR;
}

std::string kindPhrase(const ArgDesc &A) {
  switch (A.Kind) {
  case TILEAPPLY_KIND_REGISTER: return "a register tensor";
  case TILEAPPLY_KIND_MEMORY: return "a " + spaceName(A.Sp).str() + " memory tensor";
  case TILEAPPLY_KIND_SCALAR: return "a scalar";
  case TILEAPPLY_KIND_PRED_SCALAR:
  case TILEAPPLY_KIND_PRED_TENSOR: return "a predicate";
  case TILEAPPLY_KIND_PRESERVE_DST: return "tile::preserve_dst";
  default: return "an unsupported argument";
  }
}

class Checker {
public:
  Checker(const Form &F, ArrayRef<ArgDesc> Args, const Target *T)
      : F(F), Args(Args), T(T) {}

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
    return (S.isWritten() ? "destination '" : "operand '") + S.Name + "'";
  }
  std::string operandList() const {
    std::string S;
    for (unsigned I = 0; I < F.Operands.size(); ++I)
      S += (I ? (F.Operands[I].JoinedByBar ? "|" : ", ") : "") + F.Operands[I].Name +
           (F.Operands[I].Optional ? "?" : "");
    return S;
  }
  /// The argument operand I is bound to, or -1 (an optional one left out).
  int argOf(unsigned I) const {
    return I < B.OperandArg.size() ? B.OperandArg[I] : -1;
  }
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
  bool checkSizes();
  void checkShapes();
  void checkDestinations();
  void checkBounds(unsigned ArgIdx, StringRef What);
  void checkTarget();
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
        report(DiagCode::OptionOrder, I,
               "operands must come before the options tile::pred and tile::preserve_dst");
        return false;
      }
      ++NumOperands;
      continue;
    }
    SeenOption = true;
    if (IsPred) {
      if (B.PredArg >= 0 || B.PreserveDst) {
        report(DiagCode::OptionOrder, I,
               B.PredArg >= 0 ? "tile::pred is given twice"
                              : "tile::pred must come before tile::preserve_dst");
        return false;
      }
      B.PredArg = I;
    } else {
      if (B.PreserveDst) {
        report(DiagCode::OptionOrder, I, "tile::preserve_dst is given twice");
        return false;
      }
      B.PreserveDst = true;
      if (B.PredArg < 0)
        report(DiagCode::PreserveWithoutPred, I,
               "tile::preserve_dst keeps the destination where the predicate is off, "
               "but the call has no tile::pred");
      else if (!F.hasDestination())
        report(DiagCode::PreserveWithoutDst, I,
               "tile::preserve_dst has nothing to preserve: '" + F.Spelling +
                   "' has no destination");
    }
  }
  unsigned All = F.Operands.size(), Required = F.numRequiredOperands();
  if (NumOperands != All && NumOperands != Required) {
    std::string Count = std::to_string(All);
    if (Required != All)
      Count = std::to_string(Required) + " or " + Count;
    report(DiagCode::OperandCount, NumOperands > All ? All : -1,
           "'" + F.Spelling + "' takes " + Count + " operand" + (All == 1 ? "" : "s") +
               " (" + operandList() + "), found " + std::to_string(NumOperands));
    return false;
  }
  // Optional operands are bound all together or not at all.
  bool WithOptional = NumOperands == All;
  B.Split.assign(All, 1);
  int Next = 0;
  for (unsigned I = 0; I < All; ++I)
    B.OperandArg.push_back(F.Operands[I].Optional && !WithOptional ? -1 : Next++);
  return true;
}

void Checker::checkOperand(unsigned Op) {
  if (argOf(Op) < 0)
    return;
  const unsigned I = argOf(Op); // the argument; Op is the form operand
  const OperandSpec &S = F.Operands[Op];
  const ArgDesc &A = Args[I];
  if (A.Kind == TILEAPPLY_KIND_UNSUPPORTED) {
    report(DiagCode::UnsupportedArgument, I,
           opName(Op) + " of '" + F.Spelling +
               "' is not a tensor, view or scalar tileapply knows")
        .PointAtDecl = true;
    return;
  }
  if (A.Negated && !S.Negatable) {
    Problem &P = report(DiagCode::NotNegatable, I,
                        opName(Op) + " of '" + F.Spelling + "' cannot be negated: PTX has no `!" +
                            S.Name + "` there");
    P.Notes.push_back("PTX reads a predicate negated only where its syntax says {!}c: the "
                      "predicate source of setp and set with .and, .or or .xor");
    if (S.Type == PtxType::pred && S.Direction == Dir::Read)
      P.Notes.push_back("for a bool, negate it in C++ instead (!c)");
    return;
  }
  switch (S.Direction) {
  case Dir::Imm:
    checkImmediate(Op);
    return;
  case Dir::Write:
  case Dir::ReadWrite:
    if (A.Kind == TILEAPPLY_KIND_SCALAR) {
      report(DiagCode::ScalarDestination, I,
             opName(Op) + " of '" + F.Spelling +
                 "' is a scalar; a destination must be a register tensor "
                 "(a C array or tile::reg) with a group axis")
          .PointAtDecl = true;
      return;
    }
    if (A.Kind == TILEAPPLY_KIND_MEMORY) {
      Problem &P = report(DiagCode::MemoryWhereRegister, I,
                          opName(Op) + " of '" + F.Spelling + "' is " + kindPhrase(A) +
                              ", but the instruction writes a register");
      P.Notes.push_back("apply the instruction to a register tensor, then store it with an "
                        "explicit st." + spaceName(A.Sp).str());
      return;
    }
    if (A.IsConst) {
      report(DiagCode::ConstDestination, I, opName(Op) + " of '" + F.Spelling + "' is const")
          .PointAtDecl = true;
      return;
    }
    break;
  case Dir::Read:
    if (A.Kind == TILEAPPLY_KIND_MEMORY) {
      Problem &P = report(DiagCode::MemoryWhereRegister, I,
                          opName(Op) + " of '" + F.Spelling + "' is " + kindPhrase(A) +
                              ", but the instruction reads a register");
      P.Notes.push_back("load it into a register tensor first with an explicit ld." +
                        spaceName(A.Sp).str());
      return;
    }
    break;
  case Dir::Addr:
    if (A.Kind != TILEAPPLY_KIND_MEMORY) {
      report(DiagCode::RegisterWhereAddress, I,
             opName(Op) + " of '" + F.Spelling + "' is an address in " +
                 spaceName(S.AddrSpace).str() + " memory, but the argument is " +
                 kindPhrase(A) + "; pass a " + memoryTensorName(S.AddrSpace) +
                 "<T, ...> memory tensor")
          .PointAtDecl = true;
      return;
    }
    if (S.WritesMemory && A.IsConst) {
      report(DiagCode::ConstDestination, I,
             opName(Op) + " of '" + F.Spelling + "' is memory of const elements; '" +
                 F.Spelling + "' writes it")
          .PointAtDecl = true;
      return;
    }
    if (A.Sp != S.AddrSpace) {
      report(DiagCode::WrongStateSpace, I,
             "'" + F.Spelling + "' accesses " + spaceName(S.AddrSpace).str() +
                 " memory, but " + opName(Op) + " is a " + memoryTensorName(A.Sp) +
                 " tensor")
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
           opName(Op) + " of '" + F.Spelling + "' is a group of " + std::to_string(S.Regs) +
               " registers; a scalar cannot fill it: pass a register tensor whose last axis is " +
               std::to_string(S.Regs));
    return;
  }
  checkCarrier(Op);
}

void Checker::checkImmediate(unsigned Op) {
  const unsigned I = argOf(Op);
  const OperandSpec &S = F.Operands[Op];
  const ArgDesc &A = Args[I];
  std::string Range = "[" + std::to_string(S.ImmLo) + ".." + std::to_string(S.ImmHi) + "]";
  std::optional<int64_t> V;
  if (A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant)
    V = integralValue(*A.Constant);
  if (V && *V >= S.ImmLo && *V <= S.ImmHi)
    return;
  std::string Found = A.Kind != TILEAPPLY_KIND_SCALAR ? kindPhrase(A)
                      : !A.Constant ? "a value known only at run time"
                      : V ? "the constant " + std::to_string(*V)
                          : "a constant that is not an integer";
  report(DiagCode::ImmediateRequired, I,
         "operand '" + S.Name + "' of '" + F.Spelling +
             "' is an immediate: PTX requires a compile-time constant integer in " + Range +
             ", found " + Found)
      .PointAtDecl = A.Kind != TILEAPPLY_KIND_SCALAR;
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
             opName(Op) + " of '" + F.Spelling + "' given as a group of " + std::to_string(G) +
                 " registers must hold " + std::to_string(Part) + "-bit elements (" +
                 std::to_string(G) + " x ." + ptxTypeName(*PartType).str() + " = ." +
                 ptxTypeName(S.Type).str() + "), found " + dtypeName(A.Elem).str())
          .PointAtDecl = true;
      return;
    }
  }
  std::string Want = "." + ptxTypeName(S.Type).str();
  if (A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant &&
      !carrierMatches(A.Elem, S.Type)) {
    if (constantFitsExactly(S.Type, *A.Constant)) {
      // An integer literal taken as the raw bits of a floating operand.
      if (A.Constant->IsIntegerLiteral && ptxTypeIsFloating(S.Type) &&
          ptxTypeClass(S.Type) != TypeClass::Float) {
        std::string Bits = "0x" + hexBits(static_cast<uint64_t>(A.Constant->I),
                                          ptxTypeBits(S.Type) / 4);
        Problem &P = report(DiagCode::PackedIntegerLiteral, I,
                            "integer literal " + std::to_string(A.Constant->I) + " passed to " +
                                opName(Op) + " of '" + F.Spelling + "' is the raw bits " + Bits +
                                ", not " + Want + " lanes of value " +
                                std::to_string(A.Constant->I));
        float V = static_cast<float>(A.Constant->I);
        std::string Lanes, Packed, Helper;
        if (S.Type == PtxType::f16x2) {
          Lanes = "two halves of";
          Packed = "0x" + hexBits(tile::packed::f16x2(V), 8);
          Helper = "tile::packed::f16x2(" + std::to_string(A.Constant->I) + ".0f)";
        } else if (S.Type == PtxType::bf16x2) {
          Lanes = "two bfloat16s of";
          Packed = "0x" + hexBits(tile::packed::bf16x2(V), 8);
          Helper = "tile::packed::bf16x2(" + std::to_string(A.Constant->I) + ".0f)";
        } else {
          Lanes = "two floats of";
          Packed = "0x" + hexBits(tile::packed::f32x2(V), 16);
          Helper = "tile::packed::f32x2(" + std::to_string(A.Constant->I) + ".0f)";
        }
        P.Notes.push_back(Lanes + " " + std::to_string(A.Constant->I) + ".0 are " + Packed +
                          ": write " + Helper + ", or " + Packed +
                          (S.Type == PtxType::f32x2 ? "ull" : "u") +
                          " where the raw bits are meant");
      }
      return;
    }
  }
  if (carrierMatches(A.Elem, S.Type))
    return;
  std::string Where = S.Direction == Dir::Addr ? "the elements of " + opName(Op) : opName(Op);
  Problem &P = report(A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant ? DiagCode::ScalarNotExact
                                                                    : DiagCode::CarrierMismatch,
                      I,
                      Where + " of '" + F.Spelling + "' must be " + expectedCarriers(S.Type) +
                          " (PTX " + Want + "), found " + dtypeName(A.Elem).str());
  P.PointAtDecl = A.Kind != TILEAPPLY_KIND_SCALAR;
  if (A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant && ptxTypeClass(S.Type) == TypeClass::Packed)
    P.Notes.push_back("a packed opcode never packs: pass the whole " + Want +
                      " carrier, e.g. built with tile::packed::" + ptxTypeName(S.Type).str() +
                      "(...)");
  else if (A.Kind == TILEAPPLY_KIND_SCALAR && A.Constant)
    P.Notes.push_back("a constant is accepted only when it converts to " + Want +
                      " without changing its value");
}

// Empty and oversized shapes first: the other rules enumerate elements.
bool Checker::checkSizes() {
  bool Ok = true;
  for (unsigned I = 0; I < Args.size(); ++I) {
    const ArgDesc &A = Args[I];
    if (!isShaped(A))
      continue;
    int64_t N = 1;
    bool Empty = false;
    for (int64_t E : A.Extents) {
      Empty |= E == 0;
      N = std::min<int64_t>(N * std::max<int64_t>(E, 1), MaxElements + 1);
    }
    if (Empty || N > MaxElements) {
      std::string What = operandOf(I) >= 0 ? opName(operandOf(I)) : "the predicate tensor";
      report(DiagCode::ShapeOutOfRange, I,
             What + " has shape " + A.shapeString() +
                 (Empty ? ", with an empty axis"
                        : ", more than " + std::to_string(MaxElements) +
                              " elements (one instruction per repeat)"))
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
      report(DiagCode::RankTooLow, I,
             opName(Op) + " has no axes; a tensor operand ends in its register-group axis");
      continue;
    }
    unsigned Regs = S.Regs * B.Split[Op];
    if (A.Extents.back() != Regs) {
      std::string Group = S.Regs == 1 ? "1 (one register)" :
          std::to_string(S.Regs) + " (a .v" + std::to_string(S.Regs) + " group)";
      // The groups a splittable operand may also be: "2 (32-bit) or 4 (16-bit)".
      std::string Groups;
      if (S.Splittable)
        for (unsigned G : SplitGroupSizes)
          if (std::optional<PtxType> Part = splitPartType(S.Type, G))
            Groups += (Groups.empty() ? "" : " or ") + std::to_string(G) + " (" +
                      std::to_string(ptxTypeBits(*Part)) + "-bit)";
      if (!Groups.empty())
        Group += ", or " + Groups + " registers that fill the ." + ptxTypeName(S.Type).str();
      report(DiagCode::GroupMismatch, I,
             opName(Op) + " of '" + F.Spelling + "' needs a group axis of " + Group +
                 ", found shape " + A.shapeString() + " whose last axis is " +
                 std::to_string(A.Extents.back()))
          .PointAtDecl = true;
    }
    if (S.Direction == Dir::Addr && Regs > 1 && A.Strides.back() != 1)
      report(DiagCode::VectorNotContiguous, I,
             opName(Op) + " of '" + F.Spelling + "' is a vector access of " +
                 std::to_string(S.Regs) +
                 " consecutive elements, but its group axis has stride " +
                 std::to_string(A.Strides.back()));
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
          Problem &P = report(DiagCode::ImplicitBroadcast, I,
                              opName(Op) + " has extent 1 on repeat axis " + std::to_string(Ax) +
                                  " where '" + RefName + "' has " + std::to_string(RefRep[Ax]) +
                                  "; tileapply never broadcasts implicitly");
          SmallVector<int64_t, 4> Shape(RefRep.begin(), RefRep.end());
          Shape.push_back(A.Extents.back());
          SmallVector<int64_t, 4> Str(A.Strides.begin(), A.Strides.end());
          for (unsigned K = 0; K < Rep.size(); ++K)
            if (Rep[K] == 1 && RefRep[K] > 1)
              Str[K] = 0;
          std::string Sh = listString(Shape), St = listString(Str);
          Sh = Sh.substr(1, Sh.size() - 2);
          St = St.substr(1, St.size() - 2);
          P.Notes.push_back("pass a scalar, or broadcast explicitly with a zero-stride view: "
                            "tile::view<tile::shape<" + Sh + ">, tile::stride<" + St + ">>(...)");
          P.PointAtDecl = true;
          return;
        }
    }
    report(DiagCode::RepeatMismatch, I,
           "repeat extents differ: '" + RefName + "' has shape " + Args[argOf(Ref)].shapeString() +
                " (repeats " + listString(RefRep) + ") but '" + S.Name + "' has shape " +
               A.shapeString() + " (repeats " + listString(Rep) + ")")
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
             "the predicate tensor has shape " + P.shapeString() + "; one predicate per repeat "
             "needs shape " + listString(Want))
          .PointAtDecl = true;
    if (P.Elem != TILEAPPLY_DT_BOOL && P.Elem != TILEAPPLY_DT_U32)
      report(DiagCode::PredicateType, B.PredArg,
             "predicate tensor elements must be bool or uint32_t, found " +
                 dtypeName(P.Elem).str())
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
    report(DiagCode::ViewOutOfBounds, ArgIdx,
           What.str() + " reaches element " + std::to_string(Lo) +
               ", before the first element of its storage")
        .PointAtDecl = true;
  else if (A.Storage > 0 && Hi >= A.Storage)
    report(DiagCode::ViewOutOfBounds, ArgIdx,
           What.str() + " with shape " + A.shapeString() + " and strides " +
               listString(A.Strides) + " reaches element " + std::to_string(Hi) + " of a " +
               std::to_string(A.Storage) + "-element storage")
        .PointAtDecl = true;
}

void Checker::checkDestinations() {
  for (unsigned Op = 0; Op < F.Operands.size(); ++Op) {
    if (argOf(Op) < 0)
      continue;
    const unsigned I = argOf(Op);
    const OperandSpec &S = F.Operands[Op];
    const ArgDesc &A = Args[I];
    if (!isShaped(A))
      continue;
    checkBounds(I, opName(Op));
    if (!S.isWritten())
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
        bool Zero = llvm::any_of(llvm::zip(A.Extents, A.Strides), [](auto P) {
          return std::get<0>(P) > 1 && std::get<1>(P) == 0;
        });
        report(DiagCode::OverlappingDestination, I,
               opName(Op) + " of '" + F.Spelling + "' writes storage element " +
                   std::to_string(Off) + " more than once (shape " + A.shapeString() +
                   ", strides " + listString(A.Strides) + ")" +
                   (Zero ? "; a broadcast (stride 0) view is for inputs only" : ""))
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
    checkBounds(B.PredArg, "the predicate tensor");
}

void Checker::checkTarget() {
  if (!T)
    return;
  // A call that passes the optional operands may need a newer floor.
  bool WithOptional = false;
  for (unsigned I = 0; I < B.OperandArg.size(); ++I)
    WithOptional |= F.Operands[I].Optional && B.OperandArg[I] >= 0;
  std::string What = "'" + F.Spelling + "'";
  if (WithOptional && F.optionalRaisesFloor())
    What += " with its optional operand" +
            std::string(F.Operands.size() - F.numRequiredOperands() > 1 ? "s" : "");
  if (!F.runsOn(*T, WithOptional)) {
    std::string Where = F.targetsText(WithOptional);
    if (F.OnlyOn.empty()) {
      Problem &P = report(DiagCode::TargetTooOld, -1,
                          What + " needs " + Where + " or newer, but this compilation targets " +
                              T->name());
      P.Notes.push_back("compile for a newer GPU (--cuda-gpu-arch=" + Where +
                        ") or choose a form that " + T->name() + " has");
    } else {
      Problem &P = report(DiagCode::TargetTooOld, -1,
                          What + " exists only on " + Where + ", but this compilation targets " +
                              T->name());
      P.Notes.push_back(std::string("an arch-specific target (sm_XXa) has its own GPU's "
                                    "features only; a family-specific one (sm_XXf) those of "
                                    "its family; a plain sm_XX has neither"));
    }
  } else if (T->PtxVersion && F.minPtx(WithOptional) > T->PtxVersion) {
    report(DiagCode::PtxTooOld, -1,
           What + " needs PTX ISA " + ptxVersionName(F.minPtx(WithOptional)) +
               ", but this compilation emits PTX ISA " + ptxVersionName(T->PtxVersion));
  }
}

std::vector<Problem> Checker::run(BoundCall *Out) {
  if (splitOptions()) {
    for (unsigned I = 0; I < F.Operands.size(); ++I)
      checkOperand(I);
    // PTX has `mov.b64 d, {a, b}` and `mov.b64 {a, b}, d`, not both at once.
    if (llvm::count_if(B.Split, [](unsigned S) { return S > 1; }) > 1)
      report(DiagCode::GroupMismatch, -1,
             "'" + F.Spelling + "' packs or unpacks one register group at a time: give "
             "either the destination or the source as a group of narrower registers, "
             "not both");
    if (checkSizes()) {
      checkShapes();
      checkDestinations();
    }
  }
  checkTarget();
  bool Errors = llvm::any_of(Problems, [](const Problem &P) {
    return P.severity() == Severity::Error;
  });
  if (Out && !Errors)
    *Out = std::move(B);
  return std::move(Problems);
}

} // namespace

std::vector<Problem> checkCall(const Form &F, ArrayRef<ArgDesc> Args,
                               const Target *T, BoundCall *Out) {
  return Checker(F, Args, T).run(Out);
}

Problem spellingProblem(const SpellingProblem &SP) {
  DiagCode C = DiagCode::InvalidForm;
  switch (SP.K) {
  case SpellingProblem::UnknownInstruction: C = DiagCode::UnknownInstruction; break;
  case SpellingProblem::Unsupported: C = DiagCode::UnsupportedOpcode; break;
  case SpellingProblem::UnknownQualifier: C = DiagCode::UnknownQualifier; break;
  case SpellingProblem::WrongOrder: C = DiagCode::QualifierOrder; break;
  case SpellingProblem::MissingType: C = DiagCode::MissingType; break;
  case SpellingProblem::InvalidForm: C = DiagCode::InvalidForm; break;
  }
  return Problem{C, -1, SP.Message, {}, SP.Suggestion, false};
}

int64_t elementOffset(const ArgDesc &A, ArrayRef<int64_t> RepeatExtents,
                      int64_t Repeat, int64_t Group) {
  if (!isShaped(A) || A.Extents.empty())
    return 0;
  int64_t Off = Group * A.Strides.back();
  // Row-major: the last repeat axis varies fastest.
  for (int Ax = static_cast<int>(RepeatExtents.size()) - 1; Ax >= 0; --Ax) {
    int64_t E = RepeatExtents[Ax];
    int64_t Idx = Repeat % E;
    Repeat /= E;
    if (static_cast<size_t>(Ax) < A.Strides.size() - 1)
      Off += Idx * A.Strides[Ax];
  }
  return Off;
}

} // namespace tileapply
