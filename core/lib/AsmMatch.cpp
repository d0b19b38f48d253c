//===- AsmMatch.cpp - An asm statement's PTX checked against the table ----===//
//
// What ptxas accepts for a register operand was measured with ptxas 13.0
// (docs/asm-check.md lists the experiments): a register must have exactly the
// width of the operand's register type, except the data operands of ld, ldu,
// st and cvt, which may be wider; a global or generic address needs 64 bits;
// an .f32/.f64 immediate must be a floating-point literal, an integer
// operand's an integer. Clang 22 declares every register of an asm statement
// as .b16/.b32/.b64/.b128 (never .f32), so the letter's width is what counts:
// "r" and "f" are the same to ptxas.
//
//===----------------------------------------------------------------------===//
#include "tileapply/core/AsmMatch.h"
#include "tileapply/core/CallRules.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace tileapply {

AsmConstraint parseAsmConstraint(StringRef Text) {
  AsmConstraint C;
  C.Text = Text.str();
  StringRef L = Text;
  while (!L.empty() && (L[0] == '=' || L[0] == '+' || L[0] == '&' || L[0] == '%')) {
    C.Output |= L[0] == '=' || L[0] == '+';
    L = L.drop_front();
  }
  if (L.size() != 1)
    return C;
  // clang-format off: one constraint letter class a line
  switch (L[0]) {
  case 'h': case 'c': C.C = AsmConstraint::Register; C.Bits = 16; break;
  case 'r': case 'f': C.C = AsmConstraint::Register; C.Bits = 32; break;
  case 'l': case 'd': C.C = AsmConstraint::Register; C.Bits = 64; break;
  case 'q': C.C = AsmConstraint::Register; C.Bits = 128; break;
  case 'b': C.C = AsmConstraint::Predicate; C.Bits = 1; break;
  case 'n': case 'i': C.C = AsmConstraint::Immediate; break;
  default: break;
  }
  // clang-format on
  return C;
}

std::string constraintLetterFor(PtxType T, unsigned Bits) {
  if (ptxTypeClass(T) == TypeClass::Pred)
    return "b";
  if (T == PtxType::f32 && Bits == 32)
    return "f";
  if (T == PtxType::f64 && Bits == 64)
    return "d";
  switch (Bits) {
  case 16: return "h";
  case 32: return "r";
  case 64: return "l";
  case 128: return "q";
  default: return "";
  }
}

bool AsmStatementInfo::hasOutputs() const {
  return any_of(Operands, [](const AsmConstraint &C) { return C.Output; });
}

namespace {

/// Families whose generic address ptxas refuses in a 32-bit register (with
/// .address_size 64). Not every instruction: cp.async.mbarrier.arrive, whose
/// address the ISA writes without a state space, takes a 32-bit one.
bool genericNeeds64(StringRef Family) {
  return Family == "ld" || Family == "ldu" || Family == "st" || Family == "atom" ||
         Family == "red" || Family == "prefetch" || Family == "mbarrier";
}

/// The width of the register PTX wants for an operand of type T (1: a
/// predicate; 0: none).
unsigned registerBits(PtxType T) {
  if (ptxTypeClass(T) == TypeClass::Pred)
    return 1;
  std::optional<PtxType> R = parsePtxType(ptxRegisterType(T));
  return R ? ptxTypeBits(*R) : 0;
}

/// A special register of the PTX ISA: its width (1: a predicate; 0 for a
/// name the checker does not know) and the first GPU that has it (0: every
/// target CUDA 13 compiles for).
struct SpecialRegister {
  unsigned Bits = 0;
  unsigned MinSm = 0;
};

SpecialRegister specialRegister(StringRef N) {
  if (!N.consume_front("%"))
    return {};
  static const char *const Bits64[] = {"gridid", "clock64", "globaltimer", "current_graph_exec"};
  for (const char *X : Bits64)
    if (N == X)
      return {64};
  // The cluster registers came with Hopper (ptxas: "Feature '%clusterid'
  // requires .target sm_90 or higher").
  if (N == "is_explicit_cluster")
    return {1, 90};
  if (N.starts_with("pm") && N.ends_with("_64"))
    return {64};
  StringRef Base = N.split('.').first;
  // clang-format off: the special registers as the ISA's table lists them
  static const char *const Bits32[] = {
      "tid", "ntid", "laneid", "warpid", "nwarpid", "ctaid", "nctaid", "smid", "nsmid",
      "lanemask_eq", "lanemask_le", "lanemask_lt", "lanemask_ge", "lanemask_gt", "clock",
      "clock_hi", "total_smem_size", "dynamic_smem_size", "globaltimer_lo", "globaltimer_hi",
      "reserved_smem_offset_begin", "reserved_smem_offset_end", "reserved_smem_offset_cap",
      "reserved_smem_offset_0", "reserved_smem_offset_1"};
  // clang-format on
  for (const char *X : Bits32)
    if (Base == X)
      return {32};
  static const char *const Bits32Sm90[] = {"clusterid",      "nclusterid",      "cluster_ctaid",
                                           "cluster_nctaid", "cluster_ctarank", "cluster_nctarank",
                                           "aggr_smem_size"};
  for (const char *X : Bits32Sm90)
    if (Base == X)
      return {32, 90};
  unsigned K;
  if ((Base.consume_front("envreg") || Base.consume_front("pm")) && !Base.getAsInteger(10, K))
    return {32};
  return {};
}

/// What a written reference is, as far as ptxas is concerned.
struct RefView {
  enum Kind { Register, Predicate, Immediate, Unknown } K = Unknown;
  unsigned Bits = 0;
  std::string Found; // how a message says what it is
  const AsmConstraint *C = nullptr;
};

class Matcher {
public:
  Matcher(const AsmTemplate &T, const AsmStatementInfo &St, const Target *Tgt)
      : T(T), St(St), Tgt(Tgt), Table(OpcodeTable::get()) {}

  AsmCheckResult run() {
    AsmCheckResult R;
    for (const auto &U : T.Unread)
      notUnderstood(R, U.second);
    for (const AsmInstruction &I : T.Instructions)
      R.Matches.push_back(instruction(I, R));
    warnings(R);
    for (const AsmMatch &M : R.Matches)
      if (!M.Unchecked.empty())
        notUnderstood(R, M.Unchecked);
    return R;
  }

private:
  static void notUnderstood(AsmCheckResult &R, const std::string &Why) {
    if (R.FullyUnderstood)
      R.Why = Why;
    R.FullyUnderstood = false;
  }

  RefView view(const AsmRef &R) const {
    RefView V;
    switch (R.K) {
    case AsmRef::StmtOperand: {
      if (R.Index >= St.Operands.size())
        return V;
      const AsmConstraint &C = St.Operands[R.Index];
      V.C = &C;
      if (C.C == AsmConstraint::Register) {
        V.K = RefView::Register;
        V.Bits = C.Bits;
        V.Found = text(Text::AsmConstraintRegister, {C.Text, std::to_string(C.Bits)});
      } else if (C.C == AsmConstraint::Predicate) {
        V.K = RefView::Predicate;
        V.Bits = 1;
        V.Found = text(Text::AsmConstraintPredicate, {C.Text});
      } else if (C.C == AsmConstraint::Immediate) {
        V.K = RefView::Immediate;
        V.Found = text(Text::AsmConstraintImmediate, {C.Text});
      }
      return V;
    }
    case AsmRef::Declared: {
      const AsmRegDecl *D = T.findDecl(R.Name);
      if (!D || !D->Type)
        return V;
      V.Found = text(Text::AsmDeclaredAs, {ptxTypeName(*D->Type).str()});
      if (ptxTypeClass(*D->Type) == TypeClass::Pred) {
        V.K = RefView::Predicate;
        V.Bits = 1;
      } else {
        V.K = RefView::Register;
        V.Bits = ptxTypeBits(*D->Type);
      }
      return V;
    }
    case AsmRef::Special: {
      unsigned B = specialRegister(R.Name).Bits;
      if (!B)
        return V;
      V.K = B == 1 ? RefView::Predicate : RefView::Register;
      V.Bits = B;
      V.Found = text(Text::AsmSpecialBits, {std::to_string(B)});
      return V;
    }
    case AsmRef::Immediate:
      V.K = RefView::Immediate;
      V.Found = text(Text::AsmIsImmediate, {R.Text});
      return V;
    default: return V;
    }
  }

  // ---- one instruction ----------------------------------------------------
  struct Attempt {
    std::vector<AsmFinding> Findings;
    std::vector<const AsmOperandText *> Bound;
    std::string Unchecked;
    bool CountFits = false;
    bool hasError() const {
      return any_of(Findings, [](const AsmFinding &F) { return F.severity() == Severity::Error; });
    }
  };

  AsmMatch instruction(const AsmInstruction &I, AsmCheckResult &R) {
    AsmMatch M;
    M.Instr = &I;
    if (!I.NotUnderstood.empty()) {
      if (I.NameRunsIntoOperand)
        R.Findings.push_back(
            {DiagCode::InvalidForm,
             I.OpcodeOffset,
             I.Opcode.size(),
             text(Text::AsmRejects, {text(Text::AsmNameRunsIntoOperand, {I.Opcode})}),
             {}});
      M.Unchecked = I.NotUnderstood;
      return M;
    }
    // The did-you-mean search only for a spelling about to be reported.
    LookupResult L = Table.lookup(I.Opcode, /*Suggest=*/false);
    if (!L) {
      if (std::optional<Problem> P = spellingWrong(L, I.Opcode)) {
        R.Findings.push_back({P->Code, I.OpcodeOffset, I.Opcode.size(),
                              text(Text::AsmRejects, {P->Message}), P->Notes});
        M.Unchecked = "a misspelled instruction";
      } else {
        M.Unchecked = (L.Problem.K == SpellingProblem::Unsupported ||
                               L.Problem.K == SpellingProblem::UnknownInstruction
                           ? "an instruction outside the table: "
                           : "a spelling the table does not have: ") +
                      I.Opcode;
      }
      return M;
    }
    std::vector<const Form *> Forms{&*L.Found};
    for (const Form &F : L.Overloads)
      Forms.push_back(&F);
    std::vector<Attempt> Attempts;
    for (const Form *F : Forms)
      Attempts.push_back(attempt(*F, I));
    unsigned Pick = 0;
    auto Chosen = find_if(Attempts, [](const Attempt &A) { return A.CountFits && !A.hasError(); });
    if (Chosen == Attempts.end())
      Chosen = find_if(Attempts, [](const Attempt &A) { return A.CountFits; });
    if (Chosen != Attempts.end())
      Pick = Chosen - Attempts.begin();
    Attempt &A = Attempts[Pick];
    M.F = *Forms[Pick];
    M.Bound = A.Bound;
    M.Unchecked = A.Unchecked;
    for (AsmFinding &F : A.Findings)
      R.Findings.push_back(std::move(F));
    return M;
  }

  /// What ptxas would refuse in a spelling the table does not have. The
  /// table does not hold every PTX form, so only three verdicts are sure: a
  /// qualifier that no form of the instruction's family (or of its
  /// multi-token name, tcgen05.ld) uses, outside the prefixes the table
  /// leaves out on purpose (TA_UNSUPPORTED); two qualifiers no form of the
  /// family writes together (a type twice, `.ftz` on an integer compare);
  /// and the qualifiers of a form in an order ptxas refuses.
  std::optional<Problem> spellingWrong(const LookupResult &L, StringRef Spelling) const {
    if (L.Problem.K == SpellingProblem::WrongOrder)
      return spellingProblem(Table.lookup(Spelling, /*Suggest=*/true).Problem);
    if (L.Problem.K != SpellingProblem::UnknownQualifier &&
        L.Problem.K != SpellingProblem::InvalidForm && L.Problem.K != SpellingProblem::MissingType)
      return std::nullopt;
    std::string Msg;
    DiagCode Code = DiagCode::UnknownQualifier;
    if (std::optional<ForeignQualifier> Q = Table.foreignQualifier(Spelling)) {
      Msg = text(Text::UnknownQualifier, {Q->Token, Q->Owner});
    } else if (std::optional<QualifierClash> C = Table.qualifierClash(Spelling)) {
      Code = DiagCode::InvalidForm;
      Msg = clashText(*C);
    } else {
      return std::nullopt;
    }
    LookupResult S = Table.lookup(Spelling, /*Suggest=*/true);
    if (!S.Problem.Suggestion.empty())
      Msg += text(Text::DidYouMean, {S.Problem.Suggestion});
    return Problem{Code, -1, Msg, {}, S.Problem.Suggestion, false};
  }

  Attempt attempt(const Form &F, const AsmInstruction &I) {
    Attempt A;
    A.Bound.assign(F.Operands.size(), nullptr);
    // The operands written outside brackets, and those the call may leave out.
    std::vector<unsigned> Top;
    for (unsigned K = 0; K < F.Operands.size(); ++K)
      if (!F.Operands[K].InBrackets)
        Top.push_back(K);
    unsigned Required = count_if(Top, [&](unsigned K) { return !F.Operands[K].Optional; });
    size_t N = I.Operands.size();
    bool All = N == Top.size();
    // Optional operands PTX joins with `|` (setp's `p|q`) are there exactly
    // when the bar is written: `setp.ne.b32 p, a, b, c` is one too many.
    bool BarOptional =
        Required < Top.size() &&
        all_of(
            Top, [&](unsigned K) { return !F.Operands[K].Optional || F.Operands[K].JoinedByBar; });
    if (BarOptional)
      All = any_of(I.Operands, [](const AsmOperandText &O) { return O.JoinedByBar; });
    if (N != (All ? Top.size() : Required)) {
      std::string List;
      for (unsigned K : Top)
        List += (List.empty()                ? ""
                 : F.Operands[K].JoinedByBar ? "|"
                                             : ", ") +
                F.Operands[K].Name + (F.Operands[K].Optional ? "?" : "");
      std::string Count =
          Required == Top.size() || BarOptional
              ? std::to_string(All ? Top.size() : Required)
              : text(Text::CountEither, {std::to_string(Required), std::to_string(Top.size())});
      A.Findings.push_back(
          {DiagCode::OperandCount,
           I.OpcodeOffset,
           I.Opcode.size(),
           text(Text::AsmRejects,
                {text(Top.size() == 1 && Required == 1 ? Text::OperandCountOne : Text::OperandCount,
                      {F.Spelling, Count, List, std::to_string(N)})}),
           {}});
      return A;
    }
    A.CountFits = true;
    unsigned W = 0;
    for (unsigned K : Top) {
      if (!All && F.Operands[K].Optional)
        continue;
      A.Bound[K] = &I.Operands[W++];
    }
    // Coordinates inside an address's brackets: [tmap, {x, y}].
    for (unsigned K = 0; K < F.Operands.size(); ++K) {
      if (!F.Operands[K].InBrackets)
        continue;
      int Owner = K;
      unsigned Nth = 0;
      while (Owner > 0 && F.Operands[Owner].InBrackets) {
        --Owner;
        if (F.Operands[Owner].InBrackets)
          ++Nth;
      }
      const AsmOperandText *Addr = A.Bound[Owner];
      if (Addr && Addr->S == AsmOperandText::Address && Nth < Addr->Inner.size())
        A.Bound[K] = &Addr->Inner[Nth];
      else
        unchecked(A, "an address whose inner operands it cannot match");
    }
    for (unsigned K = 0; K < F.Operands.size(); ++K)
      if (A.Bound[K])
        operand(F, F.Operands[K], *A.Bound[K], A);
    if (I.Guard)
      guard(F, *I.Guard, A);
    if (Tgt) {
      bool WithOptional = false;
      for (unsigned K = 0; K < F.Operands.size(); ++K)
        WithOptional |= F.Operands[K].Optional && A.Bound[K];
      if (std::optional<Problem> P = targetProblem(F, WithOptional, *Tgt))
        A.Findings.push_back({P->Code, I.OpcodeOffset, I.Opcode.size(),
                              text(Text::AsmRejects, {P->Message}), P->Notes});
    }
    return A;
  }

  static void unchecked(Attempt &A, StringRef Why) {
    if (A.Unchecked.empty())
      A.Unchecked = Why.str();
  }
  static void error(Attempt &A, DiagCode C, size_t Off, size_t Len, std::string Msg,
                    std::vector<std::string> Notes = {}) {
    A.Findings.push_back({C, Off, Len, text(Text::AsmRejects, {Msg}), std::move(Notes)});
  }

  /// The constraint to write instead of `C` for a register of `Bits` bits.
  static std::string replacement(const AsmConstraint &C, PtxType T, unsigned Bits) {
    std::string Letter = constraintLetterFor(T, Bits);
    if (Letter.empty())
      return "";
    StringRef Text = C.Text;
    size_t Pre = Text.find_first_not_of("=+&%");
    return "\"" + Text.substr(0, Pre == StringRef::npos ? 0 : Pre).str() + Letter + "\"";
  }

  void operand(const Form &F, const OperandSpec &S, const AsmOperandText &W, Attempt &A) {
    if (W.JoinedByBar != (S.JoinedByBar && !S.InBrackets)) {
      unchecked(A, "operands joined in a way it does not match");
      return;
    }
    switch (S.Direction) {
    case Dir::Sink:
      if (W.S != AsmOperandText::Plain || W.Refs[0].K != AsmRef::Sink)
        unchecked(A, "a register where PTX names no result");
      return;
    case Dir::Addr: address(F, S, W, A); return;
    case Dir::Imm: immediate(F, S, W, A); return;
    default: break;
    }
    if (S.Bracketed) {
      address(F, S, W, A);
      return;
    }
    if (W.S == AsmOperandText::Address) {
      error(A, DiagCode::AsmAddressMismatch, W.Offset, W.Length,
            text(Text::AsmAddressUnexpected, {opText(W), S.Name, F.Spelling}));
      return;
    }
    bool Group = S.Regs > 1;
    if (W.S == AsmOperandText::Vector) {
      size_t N = W.Refs.size();
      if (Group || N == 1) {
        if (N != (Group ? S.Regs : 1)) {
          error(A, DiagCode::AsmVectorMismatch, W.Offset, W.Length,
                text(Text::AsmVectorSize,
                     {opText(W), S.Name, F.Spelling, std::to_string(S.Regs), std::to_string(N)}));
          return;
        }
        for (const AsmRef &R : W.Refs)
          reg(F, S, S.Type, R, A);
        return;
      }
      std::optional<PtxType> Part =
          S.Splittable ? splitPartType(S.Type, static_cast<int64_t>(N)) : std::nullopt;
      if (!Part && (S.Splittable || F.Family == "mov")) {
        // PTX also packs 8-bit registers (mov.b16 d, {b8, b8}); the table's
        // split forms stop at 16 bits.
        unchecked(A, "a register group the table does not split");
        return;
      }
      if (!Part) {
        error(A, DiagCode::AsmVectorMismatch, W.Offset, W.Length,
              text(Text::AsmVectorUnexpected, {opText(W), S.Name, F.Spelling}));
        return;
      }
      for (const AsmRef &R : W.Refs)
        reg(F, S, *Part, R, A);
      return;
    }
    if (Group) {
      std::string Example;
      for (unsigned K = 0; K < S.Regs; ++K)
        Example += (K ? ", " : "") + std::string("%") + std::to_string(K);
      error(A, DiagCode::AsmVectorMismatch, W.Offset, W.Length,
            text(Text::AsmVectorExpected,
                 {opText(W), S.Name, F.Spelling, std::to_string(S.Regs), Example}));
      return;
    }
    reg(F, S, S.Type, W.Refs[0], A);
  }

  static std::string opText(const AsmOperandText &W) {
    std::string S;
    for (const AsmRef &R : W.Refs)
      S += (S.empty() ? "" : ", ") + R.Text;
    return W.S == AsmOperandText::Plain    ? S
           : W.S == AsmOperandText::Vector ? "{" + S + "}"
                                           : "[" + S + "]";
  }

  void reg(const Form &F, const OperandSpec &S, PtxType Ty, const AsmRef &R, Attempt &A) {
    if (R.K == AsmRef::Sink) {
      unchecked(A, "a '_' where PTX names a register");
      return;
    }
    RefView V = view(R);
    if (V.K == RefView::Unknown) {
      unchecked(A, R.K == AsmRef::Symbol    ? "a symbol as an operand"
                   : R.K == AsmRef::Special ? "a special register it does not know"
                                            : "a constraint it does not read");
      return;
    }
    if (R.K == AsmRef::Special && Tgt) {
      unsigned MinSm = specialRegister(R.Name).MinSm;
      if (MinSm && !targetHas(*Tgt, Target{MinSm}))
        error(A, DiagCode::TargetTooOld, R.Offset, R.Length,
              text(Text::TargetTooOld, {"'" + R.Name + "'", smName(MinSm), Tgt->name()}),
              {text(Text::NoteNewerGpu, {smName(MinSm), Tgt->name()})});
    }
    std::string Tn = ptxTypeName(Ty).str();
    unsigned Expected = registerBits(Ty);
    if (Expected == 0) {
      unchecked(A, "an operand type without a register");
      return;
    }
    if (V.K == RefView::Immediate) {
      if (Expected == 1 && S.Direction == Dir::Read)
        return; // ptxas reads `selp.b32 d, a, b, 1` as a constant predicate
      immediateForRegister(F, S, Ty, R, V, A);
      return;
    }
    if (Expected == 1) {
      if (V.K == RefView::Predicate)
        return;
      std::vector<std::string> Notes{text(Text::NoteAsmPredicate, {R.Text})};
      error(A, DiagCode::AsmOperandMismatch, R.Offset, R.Length,
            text(Text::AsmPredicate, {R.Text, S.Name, F.Spelling, V.Found}), Notes);
      return;
    }
    bool Wider = dataMayBeWider(F.Family, F.Spelling) && S.Direction != Dir::Addr;
    bool Ok = V.K == RefView::Register && (Wider ? V.Bits >= Expected : V.Bits == Expected);
    if (Ok)
      return;
    std::vector<std::string> Notes;
    if (V.C && R.K == AsmRef::StmtOperand) {
      std::string Rep = replacement(*V.C, Ty, Expected);
      if (!Rep.empty())
        Notes.push_back(text(Text::NoteAsmWrite, {Rep}));
    }
    error(A, DiagCode::AsmOperandMismatch, R.Offset, R.Length,
          text(Wider ? Text::AsmWidthAtLeast : Text::AsmWidth,
               {R.Text, S.Name, F.Spelling, std::to_string(Expected), Tn, V.Found}),
          Notes);
  }

  void immediateForRegister(const Form &F, const OperandSpec &S, PtxType Ty, const AsmRef &R,
                            const RefView &V, Attempt &A) {
    std::string Tn = ptxTypeName(Ty).str();
    if (S.Direction != Dir::Read || S.RegisterOnly || !ptxTypeTakesImmediate(Ty)) {
      error(A, DiagCode::AsmImmediateMismatch, R.Offset, R.Length,
            text(Text::AsmImmediateRefused, {R.Text, S.Name, F.Spelling, Tn}));
      return;
    }
    TypeClass C = ptxTypeClass(Ty);
    bool IntegerValue = R.K == AsmRef::StmtOperand || !R.FloatLiteral;
    if (C == TypeClass::Float && IntegerValue) {
      std::string What =
          R.K == AsmRef::StmtOperand && V.C ? R.Text + " (\"" + V.C->Text + "\")" : R.Text;
      error(A, DiagCode::AsmImmediateMismatch, R.Offset, R.Length,
            text(Text::AsmIntegerForFloat, {R.Text, S.Name, F.Spelling, Tn, What}));
      return;
    }
    if ((C == TypeClass::Unsigned || C == TypeClass::Signed) && R.K == AsmRef::Immediate &&
        R.FloatLiteral) {
      error(A, DiagCode::AsmImmediateMismatch, R.Offset, R.Length,
            text(Text::AsmFloatForInteger, {R.Text, S.Name, F.Spelling, Tn}));
      return;
    }
    if (S.ImmRangeOnRegister)
      immediateRange(F, S, R, V, A);
  }

  void address(const Form &F, const OperandSpec &S, const AsmOperandText &W, Attempt &A) {
    std::string Space = spaceName(S.AddrSpace).str();
    if (W.S != AsmOperandText::Address) {
      const AsmRef &R = W.Refs[0];
      if (W.S == AsmOperandText::Plain && (R.K == AsmRef::StmtOperand || R.K == AsmRef::Declared) &&
          view(R).K == RefView::Register)
        error(A, DiagCode::AsmAddressMismatch, W.Offset, W.Length,
              text(Text::AsmAddressExpected, {R.Text, S.Name, F.Spelling, Space}));
      else
        unchecked(A, "an address it cannot read");
      return;
    }
    const AsmRef &Base = W.Refs[0];
    RefView V = view(Base);
    if (V.K == RefView::Unknown && Base.K != AsmRef::Symbol) {
      unchecked(A, "an address it cannot read");
      return;
    }
    if (S.Bracketed && (V.K == RefView::Register || V.K == RefView::Predicate)) {
      // A Tensor Memory address (tcgen05's [taddr]): a value of the operand's
      // type in brackets, so its register has exactly that width (ptxas
      // refuses a 16- or 64-bit one).
      reg(F, S, S.Type, Base, A);
    }
    bool Needs64 = S.Direction == Dir::Addr &&
                   (S.AddrSpace == TILEAPPLY_SPACE_GLOBAL ||
                    (S.AddrSpace == TILEAPPLY_SPACE_GENERIC && genericNeeds64(F.Family)));
    if (Needs64 && V.K == RefView::Register && V.Bits < 64) {
      std::vector<std::string> Notes;
      if (V.C && Base.K == AsmRef::StmtOperand) {
        std::string Rep = replacement(*V.C, PtxType::b64, 64);
        if (!Rep.empty())
          Notes.push_back(text(Text::NoteAsmWrite, {Rep}));
      }
      error(A, DiagCode::AsmOperandMismatch, Base.Offset, Base.Length,
            text(Text::AsmAddressWidth, {Base.Text, S.Name, F.Spelling, Space, V.Found}), Notes);
    }
    if (W.HasOffset && W.Refs.size() > 1 && view(W.Refs[1]).K != RefView::Immediate)
      unchecked(A, "an address offset it cannot read");
    if (!W.Inner.empty() && none_of(F.Operands, [](const OperandSpec &O) { return O.InBrackets; }))
      unchecked(A, "an address with inner operands the form does not have");
  }

  /// The value of an immediate: an integer literal of the template, or an
  /// "n" operand the caller evaluated.
  static std::optional<int64_t> immediateValue(const AsmRef &R, const RefView &V) {
    if (R.K == AsmRef::StmtOperand)
      return V.C ? V.C->Value : std::nullopt;
    if (R.K != AsmRef::Immediate || R.FloatLiteral)
      return std::nullopt;
    StringRef T = R.Text;
    bool Neg = T.consume_front("-");
    T.consume_back("U");
    uint64_t U;
    if (T.getAsInteger(0, U) || U > uint64_t(INT64_MAX))
      return std::nullopt;
    return Neg ? -int64_t(U) : int64_t(U);
  }

  /// An immediate outside a range ptxas checks (the table's `[LO..HI]!`, the
  /// same range the call checker holds a constant to).
  void immediateRange(const Form &F, const OperandSpec &S, const AsmRef &R, const RefView &V,
                      Attempt &A) {
    std::optional<int64_t> Value = immediateValue(R, V);
    if (!Value || !S.ptxasRefusesImmediate(*Value))
      return;
    std::string Found = R.K == AsmRef::StmtOperand && V.C
                            ? R.Text + " (\"" + V.C->Text + "\"(" + std::to_string(*Value) + "))"
                            : R.Text;
    error(A, DiagCode::ImmediateRequired, R.Offset, R.Length,
          text(Text::AsmImmediateRange, {R.Text, S.Name, F.Spelling, S.immText(), Found}));
  }

  void immediate(const Form &F, const OperandSpec &S, const AsmOperandText &W, Attempt &A) {
    if (W.S != AsmOperandText::Plain) {
      unchecked(A, "an immediate it cannot read");
      return;
    }
    const AsmRef &R = W.Refs[0];
    RefView V = view(R);
    if (V.K == RefView::Immediate) {
      immediateRange(F, S, R, V, A);
      return;
    }
    if (V.K == RefView::Unknown) {
      unchecked(A, "an immediate it cannot read");
      return;
    }
    std::vector<std::string> Notes;
    if (R.K == AsmRef::StmtOperand)
      Notes.push_back(text(Text::NoteAsmImmediate, {"..."}));
    error(A, DiagCode::AsmImmediateMismatch, R.Offset, R.Length,
          text(Text::AsmImmediateExpected, {R.Text, S.Name, F.Spelling, S.immText(), V.Found}),
          Notes);
  }

  void guard(const Form &F, const AsmRef &G, Attempt &A) {
    RefView V = view(G);
    if (V.K == RefView::Predicate)
      return;
    if (V.K == RefView::Unknown) {
      unchecked(A, "a guard it cannot read");
      return;
    }
    error(A, DiagCode::AsmOperandMismatch, G.Offset, G.Length,
          text(Text::AsmGuard, {G.Text, F.Spelling, V.Found}),
          {text(Text::NoteAsmPredicate, {G.Text})});
  }

  // ---- what ptxas accepts but is suspect ------------------------------------
  void warnings(AsmCheckResult &R) {
    if (!St.MemoryClobber) {
      for (const AsmMatch &M : R.Matches) {
        if (!M.F || M.F->Kind != FormKind::Memory)
          continue;
        bool Names = any_of(M.F->Operands, [](const OperandSpec &O) {
          return O.Direction == Dir::Addr && !O.Bracketed;
        });
        bool Orders = M.F->Family == "fence" || M.F->Family == "membar";
        if (!Names && !Orders)
          continue;
        R.Findings.push_back(
            {DiagCode::AsmMemoryClobber,
             M.Instr->OpcodeOffset,
             M.Instr->Opcode.size(),
             text(Text::AsmMemoryClobber,
                  {M.F->Spelling, text(Names ? Text::AsmAccessesMemory : Text::AsmOrdersMemory)}),
             {text(Text::NoteAsmMemoryClobber)}});
        break;
      }
    }
    if (!St.Volatile && !St.MemoryClobber && St.hasOutputs()) {
      for (const AsmMatch &M : R.Matches) {
        if (!M.F || none_of(M.F->Operands, [](const OperandSpec &O) {
              return O.WritesMemory || O.ReadModifyWrite;
            }))
          continue;
        R.Findings.push_back({DiagCode::AsmNotVolatile,
                              M.Instr->OpcodeOffset,
                              M.Instr->Opcode.size(),
                              text(Text::AsmNotVolatile, {M.F->Spelling}),
                              {text(Text::NoteAsmVolatile)}});
        break;
      }
    }
  }

  const AsmTemplate &T;
  const AsmStatementInfo &St;
  const Target *Tgt;
  const OpcodeTable &Table;
};

} // namespace

AsmCheckResult checkAsmStatement(const AsmTemplate &T, const AsmStatementInfo &St,
                                 const Target *Tgt) {
  return Matcher(T, St, Tgt).run();
}

} // namespace tileapply
