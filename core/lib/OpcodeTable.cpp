//===- OpcodeTable.cpp - Parsing, matching and enumerating PTX forms ------===//
//
// Opcodes.def is parsed once into Patterns. A Pattern is a family name and a
// list of Items (each a set of alternatives, each alternative a sequence of
// qualifier tokens); a Form is a Pattern with one choice per Item. Matching a
// spelling walks the items with backtracking over optional ones; enumeration is
// the cartesian product of the choices.
//
//===----------------------------------------------------------------------===//
#include "tileapply/core/OpcodeTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <functional>
#include <mutex>

using namespace llvm;

namespace tileapply {

StringRef dirName(Dir D) {
  switch (D) {
  case Dir::Read: return "r";
  case Dir::Write: return "w";
  case Dir::ReadWrite: return "rw";
  case Dir::Addr: return "addr";
  case Dir::Imm: return "imm";
  }
  return "?";
}

bool Form::hasDestination() const { return destinationIndex() >= 0; }
unsigned Form::numRequiredOperands() const {
  unsigned N = 0;
  for (const OperandSpec &O : Operands)
    N += !O.Optional;
  return N;
}
unsigned Form::minSm(bool WithOptional) const {
  return WithOptional ? std::max(MinSm, OptionalMinSm) : MinSm;
}
unsigned Form::minPtx(bool WithOptional) const {
  return WithOptional ? std::max(MinPtx, OptionalMinPtx) : MinPtx;
}
bool Form::runsOn(const Target &T, bool WithOptional) const {
  if (OnlyOn.empty())
    return T.Sm >= minSm(WithOptional);
  return llvm::any_of(OnlyOn, [&](const Target &Need) { return targetHas(T, Need); });
}
std::string Form::targetsText(bool WithOptional) const {
  if (OnlyOn.empty())
    return smName(minSm(WithOptional));
  std::string S;
  for (size_t I = 0; I < OnlyOn.size(); ++I)
    S += (I == 0 ? "" : I + 1 == OnlyOn.size() ? " or " : ", ") + OnlyOn[I].name();
  return S;
}
int Form::destinationIndex() const {
  for (unsigned I = 0; I < Operands.size(); ++I)
    if (Operands[I].Direction == Dir::Write ||
        Operands[I].Direction == Dir::ReadWrite)
      return static_cast<int>(I);
  return -1;
}

SmallVector<StringRef, 8> splitSpelling(StringRef Spelling) {
  SmallVector<StringRef, 8> Tokens;
  Spelling.split(Tokens, '.', -1, /*KeepEmpty=*/true);
  return Tokens;
}

namespace {

/// A reference in an operand spec: a literal, or group $k.
struct Ref {
  int Group = -1;     // >= 0: taken from group k
  std::string Literal;
};

// An operand as its row states it. Spec is final except for what a group may
// decide: the type, the register count and the state space (the Refs).
struct OperandPattern {
  OperandSpec Spec;
  Ref Type, Regs, Space;
};

struct Item {
  std::vector<SmallVector<std::string, 2>> Choices; // each: token sequence
  bool Optional = false;
  int Group = -1; // >= 0 for {...} items
};

struct Pattern {
  std::string Text;
  std::string Family;
  FormKind Kind;
  std::vector<Item> Items;
  std::vector<OperandPattern> Operands;
  unsigned MinSm, MinPtx;
  std::vector<Target> OnlyOn;
  unsigned OptionalMinSm = 0, OptionalMinPtx = 0;
  std::vector<int> GroupItem; // group k -> index into Items
};

struct RawRow {
  FormKind Kind;
  const char *Pattern;
  const char *Operands;
  unsigned Sm, Ptx;
  const char *OnlyOn; // "" or "sm_100a sm_103a"
};
const RawRow RawRows[] = {
#define TA_FORM(Kind, Pat, Ops, Sm, Ptx) {FormKind::Kind, Pat, Ops, Sm, Ptx, ""},
#define TA_FORM_ON(Kind, Pat, Ops, Targets, Ptx) {FormKind::Kind, Pat, Ops, 0, Ptx, Targets},
#include "Opcodes.def"
};
struct RawUnsupported {
  const char *Prefix;
  const char *Reason;
};
const RawUnsupported RawUnsupportedRows[] = {
#define TA_UNSUPPORTED(Prefix, Reason) {Prefix, Reason},
#include "Opcodes.def"
};

// A malformed row is a bug in the table itself; the unit tests parse every
// row, so this never reaches a user.
[[noreturn]] void tableError(const Twine &Row, const Twine &Why) {
  report_fatal_error(Twine("tileapply: bad row in Opcodes.def: '") + Row + "': " + Why);
}

Ref parseRef(StringRef S, StringRef Row) {
  Ref R;
  if (S.consume_front("$")) {
    if (S.getAsInteger(10, R.Group))
      tableError(Row, "bad group reference");
  } else {
    R.Literal = S.str();
  }
  return R;
}

Pattern parsePattern(const RawRow &Raw) {
  Pattern P;
  P.Text = Raw.Pattern;
  P.Kind = Raw.Kind;
  P.MinSm = Raw.Sm;
  P.MinPtx = Raw.Ptx;
  SmallVector<StringRef, 4> Only;
  StringRef(Raw.OnlyOn).split(Only, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef Name : Only) {
    auto T = parseTarget(Name);
    if (!T || !T->Suffix)
      tableError(Raw.Pattern, "'" + Name + "' is not an arch- or family-specific target");
    P.OnlyOn.push_back(*T);
    P.MinSm = P.MinSm ? std::min(P.MinSm, T->Sm) : T->Sm;
  }
  StringRef S(Raw.Pattern);
  size_t FamEnd = S.find_first_of(".{");
  P.Family = S.substr(0, FamEnd).str();
  S = S.substr(std::min(FamEnd, S.size()));
  int NextGroup = 0;
  while (!S.empty()) {
    Item It;
    if (S.front() == '.') {
      size_t End = S.find_first_of(".{", 1);
      StringRef Tok = S.substr(1, End == StringRef::npos ? StringRef::npos : End - 1);
      It.Choices.push_back({Tok.str()});
      S = S.substr(std::min(End, S.size()));
    } else if (S.front() == '{') {
      size_t Close = S.find('}');
      if (Close == StringRef::npos)
        tableError(Raw.Pattern, "unclosed '{'");
      SmallVector<StringRef, 8> Alts;
      S.substr(1, Close - 1).split(Alts, '|');
      for (StringRef Alt : Alts) {
        if (!Alt.consume_front("."))
          tableError(Raw.Pattern, "alternative must start with '.'");
        SmallVector<StringRef, 2> Toks;
        Alt.split(Toks, '.');
        SmallVector<std::string, 2> Choice;
        for (StringRef T : Toks)
          Choice.push_back(T.str());
        It.Choices.push_back(std::move(Choice));
      }
      S = S.substr(Close + 1);
      if (S.consume_front("?"))
        It.Optional = true;
      It.Group = NextGroup++;
      P.GroupItem.push_back(static_cast<int>(P.Items.size()));
    } else {
      tableError(Raw.Pattern, "unexpected character");
    }
    P.Items.push_back(std::move(It));
  }

  SmallVector<StringRef, 6> Ops;
  StringRef(Raw.Operands).split(Ops, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef Op : Ops) {
    OperandPattern O;
    // "|q:w:pred?": joined to the previous operand by '|', optional.
    if (Op.consume_front("|")) {
      if (P.Operands.empty())
        tableError(Raw.Pattern, "'|' before the first operand");
      O.Spec.JoinedByBar = true;
    }
    // "!c:r:pred": PTX's `{!}c`, the call may pass it negated.
    if (Op.consume_front("!"))
      O.Spec.Negatable = true;
    // "c:r:f32?(100,88)": optional, and PTX added it later than the form.
    if (Op.ends_with(")")) {
      size_t Open = Op.rfind("?(");
      unsigned Sm = 0, Ptx = 0;
      auto [SmText, PtxText] =
          Open == StringRef::npos ? std::pair<StringRef, StringRef>() :
          Op.slice(Open + 2, Op.size() - 1).split(',');
      if (Open == StringRef::npos || SmText.getAsInteger(10, Sm) ||
          PtxText.getAsInteger(10, Ptx))
        tableError(Raw.Pattern, "operand '" + Op + "' has a bad floor ?(SM,PTX)");
      P.OptionalMinSm = std::max(P.OptionalMinSm, Sm);
      P.OptionalMinPtx = std::max(P.OptionalMinPtx, Ptx);
      Op = Op.substr(0, Open + 1);
    }
    if (Op.consume_back("?"))
      O.Spec.Optional = true;
    // "n:imm:b32[0..255]": an immediate and its allowed range.
    bool HasRange = Op.ends_with("]");
    if (HasRange) {
      size_t Open = Op.rfind('[');
      StringRef Range = Op.slice(Open + 1, Op.size() - 1);
      auto [Lo, Hi] = Range.split("..");
      if (Open == StringRef::npos || Lo.getAsInteger(0, O.Spec.ImmLo) ||
          Hi.getAsInteger(0, O.Spec.ImmHi) || O.Spec.ImmLo > O.Spec.ImmHi)
        tableError(Raw.Pattern, "operand '" + Op + "' has a bad range [LO..HI]");
      Op = Op.substr(0, Open);
    }
    if (Op.consume_back("~"))
      O.Spec.Splittable = true;
    SmallVector<StringRef, 3> F;
    Op.split(F, ':');
    if (F.size() != 3)
      tableError(Raw.Pattern, "operand '" + Op + "' is not NAME:DIR:TYPE");
    O.Spec.Name = F[0].str();
    if (F[1] == "r") O.Spec.Direction = Dir::Read;
    else if (F[1] == "w") O.Spec.Direction = Dir::Write;
    else if (F[1] == "rw") O.Spec.Direction = Dir::ReadWrite;
    else if (F[1] == "addr") O.Spec.Direction = Dir::Addr;
    else if (F[1] == "waddr") { O.Spec.Direction = Dir::Addr; O.Spec.WritesMemory = true; }
    else if (F[1] == "imm") O.Spec.Direction = Dir::Imm;
    else tableError(Raw.Pattern, "bad direction '" + F[1] + "'");
    StringRef Rest = F[2];
    auto [TypeAndRegs, SpacePart] = Rest.split('@');
    auto [TypePart, RegsPart] = TypeAndRegs.split('x');
    // "f16x2" is a type, not "f16" x "2": split on x$, after a $-reference,
    // or on a digit-only tail that leaves a PTX type ("f32x4": four f32).
    if (!TypePart.starts_with("$")) {
      TypePart = TypeAndRegs;
      RegsPart = "";
      size_t X = TypeAndRegs.find("x$");
      if (X == StringRef::npos && !parsePtxType(TypeAndRegs)) {
        X = TypeAndRegs.rfind('x');
        if (X != StringRef::npos && !parsePtxType(TypeAndRegs.substr(0, X)))
          X = StringRef::npos;
      }
      if (X != StringRef::npos) {
        TypePart = TypeAndRegs.substr(0, X);
        RegsPart = TypeAndRegs.substr(X + 1);
      }
    }
    O.Type = parseRef(TypePart, Raw.Pattern);
    O.Regs = RegsPart.empty() ? Ref{-1, "1"} : parseRef(RegsPart, Raw.Pattern);
    if (!SpacePart.empty())
      O.Space = parseRef(SpacePart, Raw.Pattern);
    auto CheckGroup = [&](const Ref &R) {
      if (R.Group >= NextGroup)
        tableError(Raw.Pattern, "operand refers to a group that does not exist");
    };
    CheckGroup(O.Type);
    CheckGroup(O.Regs);
    CheckGroup(O.Space);
    if (O.Spec.Direction == Dir::Addr && O.Space.Group < 0 && O.Space.Literal.empty())
      tableError(Raw.Pattern, "address operand without a state space");
    if ((O.Spec.Direction == Dir::Imm) != HasRange)
      tableError(Raw.Pattern, "an immediate operand, and only one, has a range [LO..HI]");
    if (O.Spec.Optional && (O.Spec.Direction == Dir::Imm || O.Spec.Direction == Dir::Addr))
      tableError(Raw.Pattern, "only register operands can be optional");
    if (O.Spec.Negatable && (O.Spec.Direction != Dir::Read || O.Type.Literal != "pred"))
      tableError(Raw.Pattern, "only predicate sources can be negated");
    P.Operands.push_back(std::move(O));
  }
  return P;
}

/// Tokens of one item choice joined ("relaxed.gpu").
std::string joinChoice(const SmallVector<std::string, 2> &C) {
  std::string S;
  for (const auto &T : C)
    S += "." + T;
  return S;
}

} // namespace

struct OpcodeTable::Impl {
  std::vector<Pattern> Patterns;
  StringMap<std::vector<unsigned>> ByFamily; // family -> pattern indices
  std::vector<std::pair<SmallVector<StringRef, 4>, StringRef>> Unsupported;
  StringMap<StringSet<>> FamilyTokens; // every qualifier a family uses

  /// Every spelling of one family, tokenized, for the did-you-mean search and
  /// the wrong-order check; built the first time a family is asked about.
  struct FamilyIndex {
    std::vector<std::string> Spellings;
    std::vector<SmallVector<StringRef, 8>> Tokens; // point into Spellings
    StringMap<std::string> BySortedQualifiers;     // "f32.ftz.rn" -> spelling
  };
  mutable std::mutex IndexMutex;
  mutable StringMap<std::unique_ptr<FamilyIndex>> Indexes;
  const FamilyIndex &index(StringRef Family) const;

  // choice per item: -1 absent (optional), else index into Item::Choices.
  using Choice = SmallVector<int, 12>;

  Form makeForm(unsigned PIdx, const Choice &C) const {
    const Pattern &P = Patterns[PIdx];
    Form F;
    F.Family = P.Family;
    F.Kind = P.Kind;
    F.MinSm = P.MinSm;
    F.MinPtx = P.MinPtx;
    F.OnlyOn = P.OnlyOn;
    F.OptionalMinSm = P.OptionalMinSm;
    F.OptionalMinPtx = P.OptionalMinPtx;
    F.PatternIndex = PIdx;
    F.Spelling = P.Family;
    for (unsigned I = 0; I < P.Items.size(); ++I)
      if (C[I] >= 0)
        F.Spelling += joinChoice(P.Items[I].Choices[C[I]]);
    auto GroupText = [&](int G) -> std::string {
      int It = P.GroupItem[G];
      if (C[It] < 0)
        return "";
      return P.Items[It].Choices[C[It]].back();
    };
    for (const OperandPattern &OP : P.Operands) {
      OperandSpec S = OP.Spec;
      std::string TypeText = OP.Type.Group >= 0 ? GroupText(OP.Type.Group) : OP.Type.Literal;
      auto T = parsePtxType(TypeText);
      if (!T)
        tableError(P.Text, "'" + TypeText + "' is not a PTX type");
      S.Type = *T;
      if (OP.Regs.Group >= 0) {
        std::string V = GroupText(OP.Regs.Group);
        S.Regs = 1;
        if (!V.empty() && (V[0] != 'v' || StringRef(V).drop_front().getAsInteger(10, S.Regs)))
          tableError(P.Text, "'" + V + "' is not a vector size");
      } else if (StringRef(OP.Regs.Literal).getAsInteger(10, S.Regs)) {
        tableError(P.Text, "bad register count");
      }
      if (S.Direction == Dir::Addr) {
        std::string SpText = OP.Space.Group >= 0 ? GroupText(OP.Space.Group) : OP.Space.Literal;
        auto Sp = parseSpace(SpText);
        if (!Sp)
          tableError(P.Text, "'" + SpText + "' is not a state space");
        S.AddrSpace = *Sp;
      }
      F.Operands.push_back(std::move(S));
    }
    return F;
  }

  // Match Tokens[Pos..] against Items[It..]; on success fill C.
  bool match(const Pattern &P, ArrayRef<StringRef> Tokens, unsigned Pos,
             unsigned It, Choice &C) const {
    if (It == P.Items.size())
      return Pos == Tokens.size();
    const Item &I = P.Items[It];
    for (unsigned K = 0; K < I.Choices.size(); ++K) {
      const auto &Seq = I.Choices[K];
      if (Pos + Seq.size() > Tokens.size())
        continue;
      bool Eq = true;
      for (unsigned J = 0; J < Seq.size() && Eq; ++J)
        Eq = Tokens[Pos + J] == Seq[J];
      if (!Eq)
        continue;
      C[It] = static_cast<int>(K);
      if (match(P, Tokens, Pos + Seq.size(), It + 1, C))
        return true;
    }
    if (I.Optional) {
      C[It] = -1;
      return match(P, Tokens, Pos, It + 1, C);
    }
    return false;
  }

  void enumerate(unsigned PIdx, function_ref<void(const Form &)> Fn) const {
    const Pattern &P = Patterns[PIdx];
    Choice C(P.Items.size(), 0);
    std::function<void(unsigned)> Rec = [&](unsigned It) {
      if (It == P.Items.size()) {
        Fn(makeForm(PIdx, C));
        return;
      }
      const Item &I = P.Items[It];
      if (I.Optional) {
        C[It] = -1;
        Rec(It + 1);
      }
      for (unsigned K = 0; K < I.Choices.size(); ++K) {
        C[It] = static_cast<int>(K);
        Rec(It + 1);
      }
    };
    Rec(0);
  }
};

static std::string sortedQualifiers(ArrayRef<StringRef> Quals) {
  SmallVector<StringRef, 8> Sorted(Quals.begin(), Quals.end());
  llvm::sort(Sorted);
  std::string Key;
  for (StringRef Q : Sorted)
    Key += Q.str() + ".";
  return Key;
}

const OpcodeTable::Impl::FamilyIndex &OpcodeTable::Impl::index(StringRef Family) const {
  std::lock_guard<std::mutex> Lock(IndexMutex);
  std::unique_ptr<FamilyIndex> &Slot = Indexes[Family];
  if (Slot)
    return *Slot;
  auto Idx = std::make_unique<FamilyIndex>();
  auto It = ByFamily.find(Family);
  if (It != ByFamily.end())
    for (unsigned PIdx : It->second)
      enumerate(PIdx, [&](const Form &F) { Idx->Spellings.push_back(F.Spelling); });
  for (const std::string &S : Idx->Spellings) {
    Idx->Tokens.push_back(splitSpelling(S));
    Idx->BySortedQualifiers.try_emplace(
        sortedQualifiers(ArrayRef<StringRef>(Idx->Tokens.back()).drop_front()), S);
  }
  Slot = std::move(Idx);
  return *Slot;
}

OpcodeTable::OpcodeTable() : P(std::make_unique<Impl>()) {
  for (const RawRow &R : RawRows) {
    P->Patterns.push_back(parsePattern(R));
    const Pattern &Pat = P->Patterns.back();
    P->ByFamily[Pat.Family].push_back(P->Patterns.size() - 1);
    auto &Toks = P->FamilyTokens[Pat.Family];
    for (const Item &I : Pat.Items)
      for (const auto &Ch : I.Choices)
        for (const auto &T : Ch)
          Toks.insert(T);
  }
  for (const RawUnsupported &U : RawUnsupportedRows) {
    SmallVector<StringRef, 4> Toks;
    StringRef(U.Prefix).split(Toks, '.');
    P->Unsupported.push_back({Toks, U.Reason});
  }
}
OpcodeTable::~OpcodeTable() = default;

const OpcodeTable &OpcodeTable::get() {
  static const OpcodeTable Table;
  return Table;
}

size_t OpcodeTable::numPatterns() const { return P->Patterns.size(); }
StringRef OpcodeTable::patternText(unsigned I) const { return P->Patterns[I].Text; }

std::vector<std::string> OpcodeTable::families() const {
  std::vector<std::string> Out;
  for (const Pattern &Pat : P->Patterns)
    if (Out.empty() || std::find(Out.begin(), Out.end(), Pat.Family) == Out.end())
      Out.push_back(Pat.Family);
  return Out;
}

std::optional<StringRef> OpcodeTable::unsupportedReason(StringRef Family) const {
  for (const auto &U : P->Unsupported)
    if (U.first.size() == 1 && U.first[0] == Family)
      return U.second;
  return std::nullopt;
}

void OpcodeTable::forEachForm(function_ref<void(const Form &)> Fn) const {
  for (unsigned I = 0; I < P->Patterns.size(); ++I)
    P->enumerate(I, Fn);
}

void OpcodeTable::forEachForm(StringRef Family,
                              function_ref<void(const Form &)> Fn) const {
  auto It = P->ByFamily.find(Family);
  if (It == P->ByFamily.end())
    return;
  for (unsigned I : It->second)
    P->enumerate(I, Fn);
}

namespace {

/// Edit distance over qualifier tokens, from what the user wrote (A) to a
/// form (B), in half-steps. Inserting or dropping a qualifier costs 6. A
/// replacement costs 2 per changed character when one character changed (one
/// less when the user's token is a truncation of the form's: "f16x" is nearer
/// to "f16x2" than to "f16"), and more than a drop otherwise: a suggestion
/// never swaps a qualifier for an unrelated one, nor one type for another
/// ("mul.s32" suggests "mul.lo.s32", not "mul.f32").
unsigned tokenDistance(ArrayRef<StringRef> A, ArrayRef<StringRef> B) {
  constexpr unsigned InsDel = 6, Unrelated = InsDel + 1;
  auto SubCost = [](StringRef U, StringRef F) -> unsigned {
    if (U == F)
      return 0;
    if (parsePtxType(U) && parsePtxType(F))
      return Unrelated;
    unsigned Ed = U.edit_distance(F, true, InsDel);
    if (Ed > 1)
      return Unrelated;
    return F.starts_with(U) ? 1 : 2;
  };
  std::vector<unsigned> Prev(B.size() + 1), Cur(B.size() + 1);
  for (unsigned J = 0; J <= B.size(); ++J)
    Prev[J] = InsDel * J;
  for (unsigned I = 1; I <= A.size(); ++I) {
    Cur[0] = InsDel * I;
    for (unsigned J = 1; J <= B.size(); ++J)
      Cur[J] = std::min({Prev[J] + InsDel, Cur[J - 1] + InsDel,
                         Prev[J - 1] + SubCost(A[I - 1], B[J - 1])});
    std::swap(Prev, Cur);
  }
  return Prev[B.size()];
}

/// Suggestions further than this (two inserted qualifiers) are noise.
constexpr unsigned MaxSuggestionDistance = 12;

} // namespace

std::optional<Form> OpcodeTable::find(StringRef Spelling) const {
  SmallVector<StringRef, 8> Tokens = splitSpelling(Spelling);
  auto FamIt = P->ByFamily.find(Tokens[0]);
  if (FamIt == P->ByFamily.end())
    return std::nullopt;
  ArrayRef<StringRef> Quals = ArrayRef<StringRef>(Tokens).drop_front();
  for (unsigned PIdx : FamIt->second) {
    const Pattern &Pat = P->Patterns[PIdx];
    Impl::Choice C(Pat.Items.size(), -1);
    if (P->match(Pat, Quals, 0, 0, C))
      return P->makeForm(PIdx, C);
  }
  return std::nullopt;
}

LookupResult OpcodeTable::lookup(StringRef Spelling, bool Suggest) const {
  LookupResult R;
  SmallVector<StringRef, 8> Tokens = splitSpelling(Spelling);
  auto Fail = [&](SpellingProblem::Kind K, std::string Msg,
                  std::string Suggestion = "") {
    R.Problem.K = K;
    R.Problem.Message = std::move(Msg);
    R.Problem.Suggestion = std::move(Suggestion);
    return R;
  };
  if (Spelling.empty())
    return Fail(SpellingProblem::InvalidForm, "the opcode is an empty string");
  for (StringRef T : Tokens)
    if (T.empty() || T.find_first_of(" \t\n,;{}[]") != StringRef::npos)
      return Fail(SpellingProblem::InvalidForm,
                  "'" + Spelling.str() + "' is not a PTX opcode spelling: "
                  "qualifiers are separated by single dots and contain no spaces or punctuation");

  // Deliberately unsupported PTX (prefix match on tokens).
  for (const auto &U : P->Unsupported) {
    if (U.first.size() > Tokens.size())
      continue;
    if (std::equal(U.first.begin(), U.first.end(), Tokens.begin()))
      return Fail(SpellingProblem::Unsupported,
                  "'" + Spelling.str() + "' is PTX, but outside tileapply's "
                  "per-thread register instructions: " + U.second.str());
  }

  StringRef Family = Tokens[0];
  ArrayRef<StringRef> Quals = ArrayRef<StringRef>(Tokens).drop_front();
  auto FamIt = P->ByFamily.find(Family);

  // The nearest form of some families, by token distance.
  auto Nearest = [&](ArrayRef<std::string> Fams, unsigned MaxDist) {
    std::string Best;
    if (!Suggest)
      return Best;
    unsigned BestD = MaxDist + 1;
    for (const std::string &Fam : Fams) {
      const Impl::FamilyIndex &Idx = P->index(Fam);
      for (size_t I = 0; I < Idx.Spellings.size(); ++I) {
        // Each missing or extra qualifier costs 6: skip forms that cannot win.
        size_t N = Idx.Tokens[I].size();
        size_t Gap = N > Tokens.size() ? N - Tokens.size() : Tokens.size() - N;
        if (6 * Gap >= BestD)
          continue;
        unsigned D = tokenDistance(Tokens, Idx.Tokens[I]);
        if (D < BestD) {
          BestD = D;
          Best = Idx.Spellings[I];
        }
      }
    }
    return Best;
  };

  if (FamIt == P->ByFamily.end()) {
    std::vector<std::string> Close;
    for (const auto &E : P->ByFamily)
      // One typo in a short name, two in a longer one ("foo" is not "mov").
      if (Family.edit_distance(E.getKey(), true, 3) <= (Family.size() > 4 ? 2u : 1u))
        Close.push_back(E.getKey().str());
    std::string Sug = Close.empty() ? "" : Nearest(Close, MaxSuggestionDistance);
    std::string Msg = "'" + Family.str() + "' is not a PTX instruction tileapply knows";
    if (!Sug.empty())
      Msg += "; did you mean '" + Sug + "'?";
    return Fail(SpellingProblem::UnknownInstruction, Msg, Sug);
  }

  for (unsigned PIdx : FamIt->second) {
    const Pattern &Pat = P->Patterns[PIdx];
    Impl::Choice C(Pat.Items.size(), -1);
    if (P->match(Pat, Quals, 0, 0, C)) {
      R.Found = P->makeForm(PIdx, C);
      return R;
    }
  }

  // Not a form: say as precisely as possible why.
  std::vector<std::string> Fam{Family.str()};
  std::string Sug = Nearest(Fam, MaxSuggestionDistance);
  auto WithSuggestion = [&](std::string Msg) {
    if (!Sug.empty())
      Msg += "; did you mean '" + Sug + "'?";
    return Msg;
  };
  const StringSet<> &Known = P->FamilyTokens[Family];
  for (StringRef Q : Quals)
    if (!Known.contains(Q))
      return Fail(SpellingProblem::UnknownQualifier,
                  WithSuggestion("'." + Q.str() + "' is not a qualifier of '" +
                                 Family.str() + "'"),
                  Sug);

  // Same qualifiers in another order?
  std::string Reordered;
  const Impl::FamilyIndex &Idx = P->index(Family);
  auto Same = Idx.BySortedQualifiers.find(sortedQualifiers(Quals));
  if (Same != Idx.BySortedQualifiers.end())
    Reordered = Same->second;
  if (!Reordered.empty())
    return Fail(SpellingProblem::WrongOrder,
                "the qualifiers of '" + Spelling.str() +
                    "' are out of order; PTX spells this form '" + Reordered + "'",
                Reordered);

  bool HasType = llvm::any_of(Quals, [](StringRef Q) { return parsePtxType(Q).has_value(); });
  if (!HasType)
    return Fail(SpellingProblem::MissingType,
                WithSuggestion("'" + Spelling.str() + "' has no type suffix (such as .s32 or .f32)"),
                Sug);
  return Fail(SpellingProblem::InvalidForm,
              WithSuggestion("'" + Spelling.str() + "' is not a valid form of '" +
                             Family.str() + "'"),
              Sug);
}

} // namespace tileapply
