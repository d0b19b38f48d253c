//===- fuzz-opcode.cpp - libFuzzer target for the table and the rules -----===//
//
// Arbitrary bytes -> an opcode spelling and a layout (FuzzInput.h) -> core's
// OpcodeTable::lookup, decodeLayout, checkCall, elementOffset and renderAsm,
// with the invariants the plugin and the pass rely on checked after each:
//
//  - a found form's canonical Spelling looks up to a form of that spelling;
//  - a spelling problem has a message, and its suggestion (if any) is a form;
//  - a layout error and every rule Problem have a message and a valid Arg;
//  - a call without errors is bound completely: every operand to an argument
//    of a fitting kind, repeats positive and at most 2^16;
//  - every element offset of a bound register tensor lies in its storage,
//    and a destination's elements are distinct across repeats and groups;
//  - the rendered asm names the form, and every $N refers to a slot.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"
#include "tileapply/core/AsmRender.h"
#include "tileapply/core/Target.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Error.h"
#include <cmath>

using namespace tileapply;
using namespace tileapply::fuzz;

namespace {

void checkSpelling(const std::string &Opcode, const LookupResult &L) {
  const OpcodeTable &T = OpcodeTable::get();
  if (L) {
    const Form &F = *L.Found;
    TA_FUZZ_CHECK(!F.Spelling.empty(), Opcode);
    LookupResult Again = T.lookup(F.Spelling);
    TA_FUZZ_CHECK(Again && Again.Found->Spelling == F.Spelling,
                  "'" + Opcode + "' found '" + F.Spelling + "', which does not look up to itself");
    TA_FUZZ_CHECK(Again.Found->Operands.size() == F.Operands.size(), F.Spelling);
    return;
  }
  TA_FUZZ_CHECK(!L.Problem.Message.empty(), "no message for '" + Opcode + "'");
  if (!L.Problem.Suggestion.empty()) {
    LookupResult S = T.lookup(L.Problem.Suggestion);
    TA_FUZZ_CHECK(S && S.Found->Spelling == L.Problem.Suggestion,
                  "suggestion '" + L.Problem.Suggestion + "' for '" + Opcode +
                      "' is not a canonical form");
  }
  Problem P = spellingProblem(L.Problem);
  TA_FUZZ_CHECK(!P.Message.empty(), Opcode);
  if (!P.FixIt.empty())
    TA_FUZZ_CHECK(T.lookup(P.FixIt), "fix-it '" + P.FixIt + "' is no form");
}

std::optional<Target> targetFrom(Bytes &In) {
  uint8_t C = In.u8();
  if (C < 16)
    return std::nullopt; // the pass on hand-written IR: no target known
  static const unsigned Sms[] = {50, 60, 70, 75, 80, 86, 89, 90, 100, 103, 120};
  Target T;
  T.Sm = Sms[C % (sizeof(Sms) / sizeof(Sms[0]))];
  T.Suffix = "\0af"[(C >> 4) % 3];
  T.PtxVersion = (C & 0x80) ? 0 : 60 + In.below(30);
  return T;
}

void fillConstants(std::vector<ArgDesc> &Args, Bytes &In) {
  for (ArgDesc &A : Args) {
    if (A.Kind != TILEAPPLY_KIND_SCALAR)
      continue;
    uint8_t C = In.u8();
    if (C & 1)
      continue; // not a compile-time constant
    ScalarConst K;
    K.IsFloat = C & 2;
    K.IsIntegerLiteral = !K.IsFloat && (C & 4);
    uint64_t Bits = (C & 8) ? In.u64() : In.u8();
    if (K.IsFloat) {
      double D;
      std::memcpy(&D, &Bits, sizeof D);
      K.F = (C & 16) ? D : static_cast<double>(static_cast<int8_t>(Bits)) / 2;
    } else {
      K.I = static_cast<int64_t>(Bits);
    }
    A.Constant = K;
  }
}

void checkBound(const Form &F, const std::vector<ArgDesc> &Args, const BoundCall &B) {
  const std::string &Op = F.Spelling;
  TA_FUZZ_CHECK(B.OperandArg.size() == F.Operands.size(), Op);
  TA_FUZZ_CHECK(B.PredArg >= -1 && B.PredArg < int(Args.size()), Op);
  for (int64_t E : B.RepeatExtents)
    TA_FUZZ_CHECK(E > 0, Op + ": repeat extent " + std::to_string(E));
  int64_t Repeats = B.numRepeats();
  TA_FUZZ_CHECK(Repeats >= 1 && Repeats <= (int64_t(1) << 16),
                Op + ": " + std::to_string(Repeats) + " repeats");

  std::vector<AsmOperandBinding> Bindings(F.Operands.size());
  bool AllBound = true;
  for (unsigned I = 0; I < F.Operands.size(); ++I) {
    int AI = B.OperandArg[I];
    // -1: an optional operand the call leaves out (setp's q).
    TA_FUZZ_CHECK(AI >= -1 && AI < int(Args.size()), Op + ": operand bound out of range");
    if (AI < 0) {
      AllBound = false;
      continue;
    }
    const ArgDesc &A = Args[AI];
    const OperandSpec &S = F.Operands[I];
    AsmOperandBinding &Bd = Bindings[I];
    Bd.Carrier = A.Elem;
    if (S.Direction == Dir::Addr) {
      TA_FUZZ_CHECK(A.Kind == TILEAPPLY_KIND_MEMORY, Op + ": address not memory");
      Bd.K = AsmOperandBinding::Address;
    } else if (A.Kind == TILEAPPLY_KIND_SCALAR) {
      TA_FUZZ_CHECK(!S.isWritten(), Op + ": scalar destination accepted");
      std::string Imm = A.Constant && S.Regs == 1 ? immediateText(S.Type, *A.Constant) : "";
      if (!Imm.empty()) {
        Bd.K = AsmOperandBinding::Immediate;
        Bd.ImmText = Imm;
      }
    } else {
      TA_FUZZ_CHECK(A.Kind == TILEAPPLY_KIND_REGISTER,
                    Op + ": operand " + S.Name + " bound to kind " + std::to_string(A.Kind));
    }
    if (!A.isTensor() || Repeats > 4096)
      continue;
    // Offsets stay within known storage; a destination never repeats one.
    llvm::DenseSet<int64_t> Seen;
    for (int64_t R = 0; R < Repeats; ++R)
      for (unsigned G = 0; G < S.Regs; ++G) {
        int64_t Off = elementOffset(A, B.RepeatExtents, R, G);
        if (A.Storage > 0)
          TA_FUZZ_CHECK(Off >= 0 && Off < A.Storage, Op + ": operand " + S.Name + " offset " +
                                                         std::to_string(Off) + " outside storage " +
                                                         std::to_string(A.Storage) + " of shape " +
                                                         A.shapeString());
        if (S.isWritten())
          TA_FUZZ_CHECK(Seen.insert(Off).second, Op + ": destination element " +
                                                     std::to_string(Off) +
                                                     " written twice, shape " + A.shapeString());
      }
  }

  if (!AllBound)
    return; // the pass binds omitted operands itself
  AsmStatement St = renderAsm(F, Bindings, B.PredArg >= 0, B.PreserveDst);
  TA_FUZZ_CHECK(St.Text.find(F.Spelling) != std::string::npos, St.Text);
  TA_FUZZ_CHECK(St.HasSideEffects == (F.Kind == FormKind::Memory), Op);
  for (size_t At = St.Text.find('$'); At != std::string::npos; At = St.Text.find('$', At + 1)) {
    unsigned N = std::strtoul(St.Text.c_str() + At + 1, nullptr, 10);
    TA_FUZZ_CHECK(N < St.Slots.size(), St.Text + " / " + St.Constraints);
  }
  size_t Commas = std::count(St.Constraints.begin(), St.Constraints.end(), ',');
  size_t Entries = St.Constraints.empty() ? 0 : Commas + 1;
  TA_FUZZ_CHECK(Entries == St.Slots.size() + (St.HasSideEffects ? 1 : 0),
                St.Text + " / " + St.Constraints);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Bytes In(Data, Size);
  CallInput C = readCall(In);
  LookupResult L = OpcodeTable::get().lookup(C.Opcode);
  checkSpelling(C.Opcode, L);

  llvm::Expected<std::vector<ArgDesc>> Args = decodeLayout(C.Words);
  if (!Args) {
    std::string Msg = llvm::toString(Args.takeError());
    TA_FUZZ_CHECK(!Msg.empty(), "empty layout error");
    return 0;
  }
  if (!L)
    return 0;
  const Form &F = *L.Found;
  fillConstants(*Args, In);
  std::optional<Target> T = targetFrom(In);

  BoundCall B;
  bool Errors = false;
  for (const Problem &P : checkCall(F, *Args, T ? &*T : nullptr, &B)) {
    TA_FUZZ_CHECK(!P.Message.empty(), F.Spelling + ": " + diagName(P.Code).str());
    TA_FUZZ_CHECK(P.Arg >= -1 && P.Arg < int(Args->size()),
                  F.Spelling + ": problem at argument " + std::to_string(P.Arg));
    Errors |= P.severity() == Severity::Error;
  }
  if (!Errors)
    checkBound(F, *Args, B);
  return 0;
}
