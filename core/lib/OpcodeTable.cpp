//===- OpcodeTable.cpp - Parsing, matching and enumerating PTX forms ------===//
//
// The table (core/ptx/Opcodes.def and the files it includes) is parsed once
// into Patterns by TableParser.cpp. A Pattern is a family name and a
// list of Items (each a set of alternatives, each alternative a sequence of
// qualifier tokens); a Form is a Pattern with one choice per Item. Matching a
// spelling walks the items with backtracking over optional ones; enumeration is
// the cartesian product of the choices.
//
//===----------------------------------------------------------------------===//
#include "tileapply/core/OpcodeTable.h"
#include "TableParser.h"
#include "tileapply/core/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
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
  case Dir::Sink: return "sink";
  }
  return "?";
}

bool Form::hasDestination() const { return destinationIndex() >= 0; }
unsigned Form::numRequiredOperands() const {
  unsigned N = 0;
  for (const OperandSpec &O : Operands)
    N += !O.Optional && O.Direction != Dir::Sink;
  return N;
}
bool Form::isAligned() const {
  SmallVector<StringRef, 8> T = splitSpelling(Spelling);
  // `bar{.cta}` is the ISA's `barrier{.cta}.aligned` written short (all but
  // bar.warp.sync, which is warp-synchronous, not .aligned).
  if (T[0] == "bar" && !(T.size() > 1 && T[1] == "warp"))
    return true;
  return llvm::is_contained(T, "aligned");
}

bool OperandSpec::immAllows(int64_t V) const {
  if (!ImmValues.empty())
    return llvm::is_contained(ImmValues, V);
  return V >= ImmLo && V <= ImmHi && (V - ImmLo) % ImmStep == 0;
}

std::string OperandSpec::immText() const {
  auto Listed = [](auto &&Values) {
    std::string S;
    for (int64_t V : Values)
      S += (S.empty() ? "{" : ", ") + std::to_string(V);
    return S + "}";
  };
  if (!ImmValues.empty())
    return Listed(ImmValues);
  // A stepped range of a few values reads better as the values: {-1, 1}.
  if (ImmStep > 1 && (ImmHi - ImmLo) / ImmStep < 4) {
    std::vector<int64_t> Values;
    for (int64_t V = ImmLo; V <= ImmHi; V += ImmStep)
      Values.push_back(V);
    return Listed(Values);
  }
  std::string S = "[" + std::to_string(ImmLo) + ".." + std::to_string(ImmHi) + "]";
  if (ImmStep > 1)
    S += text(Text::InSteps, {std::to_string(ImmStep), std::to_string(ImmLo)});
  return S;
}
unsigned Form::numArgumentOperands() const {
  unsigned N = 0;
  for (const OperandSpec &O : Operands)
    N += O.Direction != Dir::Sink;
  return N;
}
unsigned Form::minSm(bool WithOptional) const {
  return WithOptional ? std::max(MinSm, OptionalMinSm) : MinSm;
}
unsigned Form::minPtx(bool WithOptional) const {
  return WithOptional ? std::max(MinPtx, OptionalMinPtx) : MinPtx;
}
const std::vector<Target> &Form::targets(bool WithOptional) const {
  return WithOptional && !OptionalOnlyOn.empty() ? OptionalOnlyOn : OnlyOn;
}
bool Form::runsOn(const Target &T, bool WithOptional) const {
  const std::vector<Target> &Only = targets(WithOptional);
  if (Only.empty())
    return T.Sm >= minSm(WithOptional);
  return llvm::any_of(Only, [&](const Target &Need) { return targetHas(T, Need); });
}
std::string Form::targetsText(bool WithOptional) const {
  const std::vector<Target> &Only = targets(WithOptional);
  if (Only.empty())
    return smName(minSm(WithOptional));
  std::string S;
  for (size_t I = 0; I < Only.size(); ++I)
    S += (I == 0 ? "" : I + 1 == Only.size() ? " or " : ", ") + Only[I].name();
  return S;
}
std::string Form::expandSpelling(StringRef Template) const {
  std::string Out;
  StringRef Quals = StringRef(Spelling).drop_until([](char C) { return C == '.'; });
  while (!Template.empty()) {
    size_t Open = Template.find('{');
    Out += Template.substr(0, Open).str();
    if (Open == StringRef::npos)
      break;
    size_t Close = Template.find('}', Open);
    StringRef Name = Template.slice(Open + 1, Close);
    if (Name == "op") {
      Out += Spelling;
    } else if (Name == "q") {
      Out += Quals.str();
    } else if (Name.consume_front("q-")) {
      auto Tokens = splitSpelling(Spelling); // drop_begin of a temporary dangles
      for (StringRef Tok : llvm::drop_begin(Tokens))
        if (Tok != Name)
          Out += "." + Tok.str();
    } else {
      Out += Template.slice(Open, Close + 1).str(); // an operand: the renderer's
    }
    Template = Template.substr(Close + 1);
  }
  return Out;
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
using table::Choice;
using table::Item;
using table::Pattern;

/// Tokens of one item choice joined (".relaxed.gpu").
std::string joinChoice(const Choice &C) {
  std::string S;
  for (const auto &T : C.Tokens)
    S += "." + T;
  return S;
}

} // namespace

struct OpcodeTable::Impl {
  table::Table Parsed;
  std::vector<Pattern> &Patterns = Parsed.Patterns;
  StringMap<std::vector<unsigned>> ByFamily; // family -> pattern indices
  StringMap<StringSet<>> FamilyTokens;       // every qualifier a family uses
  /// Every qualifier the forms of one instruction name use (TA_NAME, joined:
  /// "tcgen05.ld"); a row whose name is not fixed counts for every name its
  /// fixed leading qualifiers may begin.
  StringMap<StringSet<>> NameTokens;

  /// Every spelling of one family, tokenized, for the did-you-mean search and
  /// the wrong-order check; built the first time a family is asked about.
  struct FamilyIndex {
    std::vector<std::string> Spellings;
    std::vector<SmallVector<StringRef, 8>> Tokens; // point into Spellings
    bool AllTyped = true; // every form names a type (wgmma.fence does not)
    /// The pairs of qualifiers some form writes together, as (lower id,
    /// higher id) of TokenId; (A, A) where a form writes A twice
    /// (cvt.rni.f32.f32). The family's own name token has no id.
    StringMap<unsigned> TokenId;
    DenseSet<std::pair<unsigned, unsigned>> Together;
  };
  mutable std::mutex IndexMutex;
  mutable StringMap<std::unique_ptr<FamilyIndex>> Indexes;
  const FamilyIndex &index(StringRef Family) const;

  // choice per item: -1 absent (optional), else index into Item::Choices.
  using ChoiceVec = SmallVector<int, 12>;

  /// The form of pattern PIdx with choices C, or nothing (with Why set) when
  /// the row cannot make it: a register count that is no positive integer,
  /// a group that names no type or state space. The build's table check
  /// enumerates every form, so a user never meets one.
  std::optional<Form> tryMakeForm(unsigned PIdx, const ChoiceVec &C, std::string *Why) const {
    const Pattern &P = Patterns[PIdx];
    Form F;
    F.Family = P.Family;
    F.Kind = P.Kind;
    F.MinSm = P.MinSm;
    F.MinPtx = P.MinPtx;
    F.OnlyOn = P.OnlyOn;
    F.OptionalMinSm = P.OptionalMinSm;
    F.OptionalMinPtx = P.OptionalMinPtx;
    F.OptionalOnlyOn = P.OptionalOnlyOn;
    F.PatternIndex = PIdx;
    F.Spelling = P.Family;
    F.Canonical.clear();
    F.Body = P.Body;
    F.ChainMiddle = P.ChainMiddle;
    F.ChainLast = P.ChainLast;
    SmallVector<int64_t, 4> Params(P.ParamNames.size(), 0);
    for (unsigned I = 0; I < P.Items.size(); ++I) {
      if (C[I] < 0)
        continue;
      const Choice &Ch = P.Items[I].Choices[C[I]];
      F.Spelling += joinChoice(Ch);
      // A qualifier PTX added later raises the form's floor.
      F.MinSm = std::max(F.MinSm, Ch.Sm);
      F.MinPtx = std::max(F.MinPtx, Ch.Ptx);
      for (auto [Index, Value] : Ch.Params)
        Params[Index] = Value;
    }
    F.Canonical = F.Spelling;
    for (unsigned I = 0; I < P.ParamNames.size(); ++I)
      F.Params.push_back({P.ParamNames[I], Params[I]});
    auto GroupText = [&](int G) -> std::string {
      int It = P.GroupItem[G];
      return C[It] < 0 ? "" : P.Items[It].Choices[C[It]].Tokens.back();
    };
    auto Fail = [&](const Twine &Msg) -> std::optional<Form> {
      if (Why)
        *Why = ("'" + P.Text + "': form '" + F.Spelling + "': " + Msg).str();
      return std::nullopt;
    };
    // The register-group size of group k: the .vN among its chosen tokens
    // (".v4" or ".v4.b32"), 1 when it has none or is absent.
    auto GroupVector = [&](int G) -> int64_t {
      int It = P.GroupItem[G];
      if (C[It] < 0)
        return 1;
      return table::vectorSize(P.Items[It].Choices[C[It]]).value_or(1);
    };
    for (const table::OperandPattern &OP : P.Operands) {
      OperandSpec S = OP.Spec;
      std::string TypeText = OP.Type.Group >= 0 ? GroupText(OP.Type.Group) : OP.Type.Literal;
      std::optional<PtxType> T = parsePtxType(TypeText);
      if (!T)
        return Fail("'" + TypeText + "' is not a PTX type (operand " + S.Name + ")");
      S.Type = *T;
      std::optional<int64_t> Regs = table::evaluate(OP.Regs, Params, GroupVector);
      if (!Regs || *Regs > 256)
        return Fail("the register count of operand " + S.Name + " is not an integer in [1, 256]");
      S.Regs = static_cast<unsigned>(*Regs);
      if (S.Direction == Dir::Addr) {
        std::string SpText = OP.Space.Group >= 0 ? GroupText(OP.Space.Group) : OP.Space.Literal;
        // An optional state-space group left out: the address is generic.
        if (OP.Space.Group >= 0 && SpText.empty())
          SpText = "generic";
        std::optional<Space> Sp = parseSpace(SpText);
        if (!Sp)
          return Fail("'" + SpText + "' is not a state space (operand " + S.Name + ")");
        S.AddrSpace = *Sp;
      }
      F.Operands.push_back(std::move(S));
    }
    return F;
  }

  /// The choices with which pattern PIdx makes Spelling.
  std::optional<ChoiceVec> choicesOf(unsigned PIdx, StringRef Spelling) const {
    SmallVector<StringRef, 8> Tokens = splitSpelling(Spelling);
    ChoiceVec C(Patterns[PIdx].Items.size(), -1);
    if (!match(Patterns[PIdx], ArrayRef<StringRef>(Tokens).drop_front(), 0, 0, C))
      return std::nullopt;
    return C;
  }

  Form makeForm(unsigned PIdx, const ChoiceVec &C) const {
    std::string Why;
    std::optional<Form> F = tryMakeForm(PIdx, C, &Why);
    if (!F)
      report_fatal_error(Twine("tileapply: bad row in the PTX table: ") + Why);
    return std::move(*F);
  }

  // Match Tokens[Pos..] against Items[It..]; on success fill C.
  bool match(const Pattern &P, ArrayRef<StringRef> Tokens, unsigned Pos,
             unsigned It, ChoiceVec &C) const {
    if (It == P.Items.size())
      return Pos == Tokens.size();
    const Item &I = P.Items[It];
    for (unsigned K = 0; K < I.Choices.size(); ++K) {
      const auto &Seq = I.Choices[K].Tokens;
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

  // ---- qualifier order ------------------------------------------------------
  StringSet<> Names;              // TA_NAME, joined: "mul.wide"
  unsigned MaxNameTokens = 1;
  StringMap<unsigned> PositionalClass; // token -> class index (TA_POSITIONAL)

  unsigned nameTokens(ArrayRef<StringRef> Tokens) const {
    unsigned Best = 1;
    std::string Prefix = Tokens.empty() ? "" : Tokens[0].str();
    for (unsigned K = 2; K <= std::min<size_t>(MaxNameTokens, Tokens.size()); ++K) {
      Prefix += "." + Tokens[K - 1].str();
      if (Names.contains(Prefix))
        Best = K;
    }
    return Best;
  }

  /// Whether `Written` (the same qualifiers as `Canonical`, in some order)
  /// is an order ptxas accepts: the same instruction name first, then every
  /// positional class in the same relative order.
  bool orderAccepted(ArrayRef<StringRef> Written, ArrayRef<StringRef> Canonical) const {
    unsigned N = nameTokens(Written);
    if (N != nameTokens(Canonical) || N > Written.size() || N > Canonical.size() ||
        !std::equal(Written.begin(), Written.begin() + N, Canonical.begin()))
      return false;
    return positional(Written.drop_front(N)) == positional(Canonical.drop_front(N));
  }

  /// The positional qualifiers of `Toks`, class by class, each class in the
  /// order written.
  SmallVector<StringRef, 8> positional(ArrayRef<StringRef> Toks) const {
    SmallVector<std::tuple<unsigned, unsigned, StringRef>, 8> Found; // class, position
    for (unsigned I = 0; I < Toks.size(); ++I) {
      auto It = PositionalClass.find(Toks[I]);
      if (It != PositionalClass.end())
        Found.push_back({It->second, I, Toks[I]});
    }
    llvm::sort(Found);
    SmallVector<StringRef, 8> Out;
    for (auto &[Class, Pos, Tok] : Found)
      Out.push_back(Tok);
    return Out;
  }

  /// Matches the qualifiers of `Tokens` (family first) against pattern P in
  /// any order: every qualifier used by exactly one chosen alternative. With
  /// `CheckOrder`, only a choice whose canonical spelling ptxas reads as the
  /// same instruction (orderAccepted) counts.
  bool matchAnyOrder(const Pattern &P, ArrayRef<StringRef> Tokens, bool CheckOrder,
                     ChoiceVec &C) const {
    ArrayRef<StringRef> Quals = Tokens.drop_front();
    SmallVector<bool, 16> Used(Quals.size(), false);
    size_t Left = Quals.size();
    std::function<bool(unsigned)> Rec = [&](unsigned It) -> bool {
      if (It == P.Items.size()) {
        if (Left)
          return false;
        if (!CheckOrder)
          return true;
        SmallVector<StringRef, 12> Canon{StringRef(P.Family)};
        for (unsigned I = 0; I < P.Items.size(); ++I)
          if (C[I] >= 0)
            for (const std::string &T : P.Items[I].Choices[C[I]].Tokens)
              Canon.push_back(T);
        return orderAccepted(Tokens, Canon);
      }
      const Item &I = P.Items[It];
      for (unsigned K = 0; K < I.Choices.size(); ++K) {
        const auto &Seq = I.Choices[K].Tokens;
        if (Seq.size() > Left)
          continue;
        SmallVector<unsigned, 4> Claimed;
        for (const std::string &T : Seq) {
          unsigned J = 0;
          while (J < Quals.size() && (Used[J] || Quals[J] != T))
            ++J;
          if (J == Quals.size())
            break;
          Used[J] = true;
          Claimed.push_back(J);
        }
        if (Claimed.size() == Seq.size()) {
          C[It] = static_cast<int>(K);
          Left -= Seq.size();
          if (Rec(It + 1))
            return true;
          Left += Seq.size();
        }
        for (unsigned J : Claimed)
          Used[J] = false;
      }
      if (I.Optional) {
        C[It] = -1;
        return Rec(It + 1);
      }
      return false;
    };
    return Rec(0);
  }

  /// Every form of the family's rows that `Spelling` names, as written
  /// (first the row order; a row's own order before any other).
  std::vector<Form> matchRows(ArrayRef<unsigned> Rows, StringRef Spelling,
                              ArrayRef<StringRef> Tokens, bool FirstOnly) const {
    std::vector<Form> Out;
    for (unsigned PIdx : Rows) {
      const Pattern &Pat = Patterns[PIdx];
      ChoiceVec C(Pat.Items.size(), -1);
      if (!match(Pat, Tokens.drop_front(), 0, 0, C) &&
          !matchAnyOrder(Pat, Tokens, /*CheckOrder=*/true, C))
        continue;
      Out.push_back(makeForm(PIdx, C));
      Out.back().Spelling = Spelling.str(); // emitted as written
      if (FirstOnly)
        break;
    }
    return Out;
  }

  void enumerate(unsigned PIdx, function_ref<void(const Form &)> Fn) const {
    enumerateChoices(PIdx, [&](const ChoiceVec &C) { Fn(makeForm(PIdx, C)); });
  }

  void enumerateChoices(unsigned PIdx, function_ref<void(const ChoiceVec &)> Fn) const {
    const Pattern &P = Patterns[PIdx];
    ChoiceVec C(P.Items.size(), 0);
    std::function<void(unsigned)> Rec = [&](unsigned It) {
      if (It == P.Items.size()) {
        Fn(C);
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
  SmallVector<unsigned, 12> Ids;
  for (const std::string &S : Idx->Spellings) {
    Idx->Tokens.push_back(splitSpelling(S));
    ArrayRef<StringRef> Quals = ArrayRef<StringRef>(Idx->Tokens.back()).drop_front();
    Idx->AllTyped &= llvm::any_of(Quals, [](StringRef Q) { return parsePtxType(Q).has_value(); });
    Ids.clear();
    for (StringRef Q : Quals)
      Ids.push_back(Idx->TokenId.try_emplace(Q, Idx->TokenId.size()).first->second);
    for (size_t I = 0; I < Ids.size(); ++I)
      for (size_t J = I + 1; J < Ids.size(); ++J)
        Idx->Together.insert(std::minmax(Ids[I], Ids[J]));
  }
  Slot = std::move(Idx);
  return *Slot;
}

OpcodeTable::OpcodeTable() : P(std::make_unique<Impl>()) {
  P->Parsed = table::parseTable();
  for (const auto &Name : P->Parsed.Names) {
    P->Names.insert(join(Name, "."));
    P->MaxNameTokens = std::max<unsigned>(P->MaxNameTokens, Name.size());
  }
  for (unsigned K = 0; K < P->Parsed.Positional.size(); ++K)
    for (const std::string &T : P->Parsed.Positional[K].Tokens)
      P->PositionalClass[T] = K;
  for (unsigned I = 0; I < P->Patterns.size(); ++I) {
    const Pattern &Pat = P->Patterns[I];
    P->ByFamily[Pat.Family].push_back(I);
    auto &Toks = P->FamilyTokens[Pat.Family];
    for (const Item &It : Pat.Items)
      for (const Choice &Ch : It.Choices)
        for (const auto &T : Ch.Tokens)
          Toks.insert(T);
    // The row's instruction names: its longest name within the fixed leading
    // tokens, and every longer name those tokens begin (an optional or
    // alternative item may complete it: mbarrier.arrive{.expect_tx}).
    std::vector<std::string> Fixed{Pat.Family};
    for (const Item &It : Pat.Items) {
      if (It.Optional || It.Choices.size() != 1)
        break;
      for (const auto &T : It.Choices[0].Tokens)
        Fixed.push_back(T);
    }
    SmallVector<StringRef, 8> FixedRefs(Fixed.begin(), Fixed.end());
    std::string Own = join(ArrayRef<StringRef>(FixedRefs).take_front(P->nameTokens(FixedRefs)), ".");
    std::string Lead = join(FixedRefs, ".");
    SmallVector<std::string, 2> Owners{Own};
    for (const auto &N : P->Names)
      if (StringRef(N.getKey()).starts_with(Lead + "."))
        Owners.push_back(N.getKey().str());
    for (const std::string &O : Owners) {
      auto &NT = P->NameTokens[O];
      for (const Item &It : Pat.Items)
        for (const Choice &Ch : It.Choices)
          for (const auto &T : Ch.Tokens)
            NT.insert(T);
    }
  }
}
OpcodeTable::~OpcodeTable() = default;

const OpcodeTable &OpcodeTable::get() {
  static const OpcodeTable Table;
  // The build checks every row (tileapply-opcodes --check-table); a table
  // with errors never leaves it.
  if (!Table.P->Parsed.Errors.empty())
    report_fatal_error(Twine("tileapply: bad row in the PTX table: ") +
                       Table.P->Parsed.Errors.front());
  return Table;
}

/// Whether two forms' operands are alike in everything a call's arguments
/// are checked against: then no call could tell the two apart.
static bool sameOperands(const Form &A, const Form &B) {
  if (A.Operands.size() != B.Operands.size())
    return false;
  for (size_t I = 0; I < A.Operands.size(); ++I) {
    const OperandSpec &X = A.Operands[I], &Y = B.Operands[I];
    if (X.Direction != Y.Direction || X.Type != Y.Type || X.Regs != Y.Regs ||
        X.AddrSpace != Y.AddrSpace || X.Optional != Y.Optional)
      return false;
    // Immediates of disjoint ranges: the constant a call passes picks the row
    // (tensormap.replace's elemtype: 0..12 on sm_90a, 13..15 from sm_100).
    if (X.Direction == Dir::Imm && (X.ImmHi < Y.ImmLo || Y.ImmHi < X.ImmLo))
      return false;
  }
  return true;
}

std::vector<std::string> OpcodeTable::checkRows() {
  OpcodeTable Table; // not get(): that one stops on a bad row
  const std::unique_ptr<Impl> &P = Table.P;
  std::vector<std::string> Problems = P->Parsed.Errors;
  // Every form of every row must be makeable, and no spelling may come from
  // two rows (the first would hide the second), nor twice from one row (two
  // choices that spell the same: a set spliced next to a qualifier it holds).
  StringMap<unsigned> RowOf;
  // Two forms that ptxas reads as one instruction (the same name, the same
  // qualifiers, the positional ones in the same order) would make a
  // reordered spelling ambiguous: the key of that reading -> a spelling.
  StringMap<std::string> Reading;
  auto ReadingKey = [&](StringRef Spelling) {
    SmallVector<StringRef, 8> Toks = splitSpelling(Spelling);
    unsigned N = P->nameTokens(Toks);
    std::string Key = join(ArrayRef<StringRef>(Toks).take_front(N), ".") + "|";
    SmallVector<StringRef, 8> Free;
    for (StringRef T : ArrayRef<StringRef>(Toks).drop_front(N))
      if (!P->PositionalClass.count(T))
        Free.push_back(T);
    llvm::sort(Free);
    return Key + join(Free, ".") + "|" +
           join(P->positional(ArrayRef<StringRef>(Toks).drop_front(N)), ".");
  };
  for (unsigned PIdx = 0; PIdx < P->Patterns.size(); ++PIdx) {
    size_t Before = Problems.size();
    P->enumerateChoices(PIdx, [&](const Impl::ChoiceVec &C) {
      if (Problems.size() > Before + 3)
        return; // enough about one row
      std::string Why;
      std::optional<Form> F = P->tryMakeForm(PIdx, C, &Why);
      if (!F) {
        Problems.push_back(Why);
        return;
      }
      auto [RIt, RNew] = Reading.try_emplace(ReadingKey(F->Spelling), F->Spelling);
      if (!RNew && RIt->second != F->Spelling)
        Problems.push_back("'" + P->Patterns[PIdx].Text + "': form '" + F->Spelling +
                           "' is '" + RIt->second +
                           "' with its qualifiers in another order that ptxas accepts");
      auto [It, New] = RowOf.try_emplace(F->Spelling, PIdx);
      // Two rows may make one spelling only as overloads: with operands
      // that a call's arguments tell apart.
      if (!New && It->second != PIdx) {
        std::optional<Form> G = P->tryMakeForm(It->second, *P->choicesOf(It->second, F->Spelling), nullptr);
        if (G && sameOperands(*F, *G))
          Problems.push_back("'" + P->Patterns[PIdx].Text + "': form '" + F->Spelling +
                             "' is also a form of '" + P->Patterns[It->second].Text +
                             "' with the same operands");
      } else if (!New) {
        Problems.push_back("'" + P->Patterns[PIdx].Text + "': form '" + F->Spelling +
                           "' comes from two choices of the row");
      }
    });
  }
  return Problems;
}

size_t OpcodeTable::numPatterns() const { return P->Patterns.size(); }
StringRef OpcodeTable::patternText(unsigned I) const { return P->Patterns[I].Text; }

RowInfo OpcodeTable::rowInfo(unsigned I) const {
  const Pattern &Pat = P->Patterns[I];
  RowInfo R;
  R.Text = Pat.Text;
  R.MinSm = Pat.MinSm;
  R.MinPtx = Pat.MinPtx;
  R.OnlyOn = Pat.OnlyOn;
  StringSet<> Seen;
  for (const Item &It : Pat.Items)
    for (const Choice &Ch : It.Choices)
      if ((Ch.Sm > Pat.MinSm || Ch.Ptx > Pat.MinPtx) && Seen.insert(joinChoice(Ch)).second)
        R.Raising.push_back({joinChoice(Ch), Ch.Sm, Ch.Ptx});
  return R;
}

std::vector<NamedSetInfo> OpcodeTable::namedSets() const {
  std::vector<NamedSetInfo> Out;
  for (const table::NamedSet &S : P->Parsed.Sets) {
    NamedSetInfo N{S.Name, S.Definition, {}};
    for (const Choice &Ch : S.Choices)
      N.Alternatives.push_back({joinChoice(Ch), Ch.Sm, Ch.Ptx});
    Out.push_back(std::move(N));
  }
  return Out;
}

std::vector<std::string> OpcodeTable::families() const {
  std::vector<std::string> Out;
  for (const Pattern &Pat : P->Patterns)
    if (Out.empty() || std::find(Out.begin(), Out.end(), Pat.Family) == Out.end())
      Out.push_back(Pat.Family);
  return Out;
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
  std::vector<Form> Forms = P->matchRows(FamIt->second, Spelling, Tokens, /*FirstOnly=*/true);
  if (Forms.empty())
    return std::nullopt;
  return std::move(Forms.front());
}

unsigned OpcodeTable::nameTokens(ArrayRef<StringRef> Tokens) const {
  return P->nameTokens(Tokens);
}

bool OpcodeTable::orderAccepted(StringRef Spelling, StringRef Canonical) const {
  return P->orderAccepted(splitSpelling(Spelling), splitSpelling(Canonical));
}

/// Whether a TA_UNSUPPORTED prefix covers the spelling: the same family, and
/// each of the prefix's qualifiers somewhere among the spelling's (ptxas
/// reads qualifiers in any order, so "ld.param" covers "ld.b32.param").
static bool unsupportedCovers(const table::Unsupported &U, ArrayRef<StringRef> Tokens);

/// Whether a TA_UNSUPPORTED prefix covers the spelling: PTX the table leaves
/// out on purpose, about which the asm checker's sure verdicts say nothing.
static bool leftOutOnPurpose(const table::Table &T, ArrayRef<StringRef> Tokens) {
  return llvm::any_of(T.UnsupportedRows,
                      [&](const table::Unsupported &U) { return unsupportedCovers(U, Tokens); });
}

static bool unsupportedCovers(const table::Unsupported &U, ArrayRef<StringRef> Tokens) {
  if (U.Prefix.empty() || Tokens.empty() || U.Prefix[0] != Tokens[0])
    return false;
  SmallVector<bool, 8> Used(Tokens.size(), false);
  for (size_t I = 1; I < U.Prefix.size(); ++I) {
    size_t J = 1;
    while (J < Tokens.size() && (Used[J] || Tokens[J] != U.Prefix[I]))
      ++J;
    if (J == Tokens.size())
      return false;
    Used[J] = true;
  }
  return true;
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
    return Fail(SpellingProblem::InvalidForm, text(Text::EmptyOpcode));
  for (StringRef T : Tokens)
    if (T.empty() || T.find_first_of(" \t\n,;{}[]") != StringRef::npos)
      return Fail(SpellingProblem::InvalidForm, text(Text::NotASpelling, {Spelling.str()}));

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

  // Every row that makes the spelling (in its order, or in another order
  // ptxas accepts): the first is the form, the others its overloads (the
  // check tool guarantees their operands differ).
  if (FamIt != P->ByFamily.end()) {
    std::vector<Form> Forms = P->matchRows(FamIt->second, Spelling, Tokens, /*FirstOnly=*/false);
    if (!Forms.empty()) {
      R.Found = std::move(Forms.front());
      R.Overloads.assign(std::make_move_iterator(Forms.begin() + 1),
                         std::make_move_iterator(Forms.end()));
      return R;
    }
  }

  // Deliberately unsupported PTX: the family and the prefix's qualifiers.
  for (const auto &U : P->Parsed.UnsupportedRows)
    if (unsupportedCovers(U, Tokens))
      return Fail(SpellingProblem::Unsupported,
                  text(Text::UnsupportedOpcode, {Spelling.str(), U.Reason}));

  if (FamIt == P->ByFamily.end()) {
    std::vector<std::string> Close;
    for (const auto &E : P->ByFamily)
      // One typo in a short name, two in a longer one ("foo" is not "mov").
      if (Family.edit_distance(E.getKey(), true, 3) <= (Family.size() > 4 ? 2u : 1u))
        Close.push_back(E.getKey().str());
    std::string Sug = Close.empty() ? "" : Nearest(Close, MaxSuggestionDistance);
    std::string Msg = text(Text::UnknownInstruction, {Family.str()});
    if (!Sug.empty())
      Msg += text(Text::DidYouMean, {Sug});
    return Fail(SpellingProblem::UnknownInstruction, Msg, Sug);
  }

  // Not a form: say as precisely as possible why.
  std::vector<std::string> Fam{Family.str()};
  std::string Sug = Nearest(Fam, MaxSuggestionDistance);
  auto WithSuggestion = [&](std::string Msg) {
    if (!Sug.empty())
      Msg += text(Text::DidYouMean, {Sug});
    return Msg;
  };
  const StringSet<> &Known = P->FamilyTokens[Family];
  for (StringRef Q : Quals)
    if (!Known.contains(Q))
      return Fail(SpellingProblem::UnknownQualifier,
                  WithSuggestion(text(Text::UnknownQualifier, {Q.str(), Family.str()})),
                  Sug);

  // The qualifiers of a form in an order ptxas refuses (a qualifier of the
  // instruction name moved, positional qualifiers swapped)?
  std::string Reordered;
  for (unsigned PIdx : FamIt->second) {
    Impl::ChoiceVec C(P->Patterns[PIdx].Items.size(), -1);
    if (P->matchAnyOrder(P->Patterns[PIdx], Tokens, /*CheckOrder=*/false, C)) {
      Reordered = P->makeForm(PIdx, C).Spelling;
      break;
    }
  }
  if (!Reordered.empty())
    return Fail(SpellingProblem::WrongOrder,
                text(Text::QualifierOrder, {Spelling.str(), Reordered}),
                Reordered);

  // "No type suffix" only where every form of the family has one.
  const Impl::FamilyIndex &Idx = P->index(Family);
  bool HasType = llvm::any_of(Quals, [](StringRef Q) { return parsePtxType(Q).has_value(); });
  if (!HasType && Idx.AllTyped)
    return Fail(SpellingProblem::MissingType,
                WithSuggestion(text(Text::MissingType, {Spelling.str()})),
                Sug);
  std::string Msg = text(Text::InvalidForm, {Spelling.str(), Family.str()});
  if (std::optional<QualifierClash> C = qualifierClash(Spelling))
    Msg += ": " + clashText(*C);
  return Fail(SpellingProblem::InvalidForm, WithSuggestion(Msg), Sug);
}

// ---- qualifiers the rows use, for the asm checker (issue 22) ----
std::optional<ForeignQualifier> OpcodeTable::foreignQualifier(StringRef Spelling) const {
  SmallVector<StringRef, 8> Tokens = splitSpelling(Spelling);
  auto Fam = P->FamilyTokens.find(Tokens[0]);
  if (Fam == P->FamilyTokens.end())
    return std::nullopt;
  if (leftOutOnPurpose(P->Parsed, Tokens))
    return std::nullopt;
  unsigned N = P->nameTokens(Tokens);
  std::string Name = join(ArrayRef<StringRef>(Tokens).take_front(N), ".");
  auto Named = N > 1 ? P->NameTokens.find(Name) : P->NameTokens.end();
  for (StringRef Q : ArrayRef<StringRef>(Tokens).drop_front(N)) {
    if (!Fam->second.contains(Q))
      return ForeignQualifier{Q.str(), Tokens[0].str()};
    if (Named != P->NameTokens.end() && !Named->second.contains(Q))
      return ForeignQualifier{Q.str(), Name};
  }
  return std::nullopt;
}

std::string clashText(const QualifierClash &C) {
  return C.First == C.Second ? text(Text::QualifierTwice, {C.First, C.Family})
                             : text(Text::QualifierClash, {C.First, C.Second, C.Family});
}

std::optional<QualifierClash> OpcodeTable::qualifierClash(StringRef Spelling) const {
  SmallVector<StringRef, 8> Tokens = splitSpelling(Spelling);
  if (!P->ByFamily.count(Tokens[0]))
    return std::nullopt;
  if (leftOutOnPurpose(P->Parsed, Tokens))
    return std::nullopt;
  const Impl::FamilyIndex &Idx = P->index(Tokens[0]);
  ArrayRef<StringRef> Quals = ArrayRef<StringRef>(Tokens).drop_front();
  for (size_t I = 0; I < Quals.size(); ++I) {
    auto A = Idx.TokenId.find(Quals[I]);
    if (A == Idx.TokenId.end())
      continue; // foreignQualifier's verdict, not this one's
    for (size_t J = I + 1; J < Quals.size(); ++J) {
      auto B = Idx.TokenId.find(Quals[J]);
      if (B == Idx.TokenId.end())
        continue;
      if (!Idx.Together.contains(std::minmax(A->second, B->second)))
        return QualifierClash{Quals[I].str(), Quals[J].str(), Tokens[0].str()};
    }
  }
  return std::nullopt;
}

} // namespace tileapply
