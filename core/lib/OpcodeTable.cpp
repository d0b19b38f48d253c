//===- OpcodeTable.cpp - The one PTX opcode table -------------------------===//
//
// The table (core/ptx/Opcodes.def and the files it includes), parsed once
// by TableParser.cpp into Patterns, and what OpcodeTable keeps beside them:
// the rows by family, the qualifiers of each family and instruction name,
// the qualifier-order classes, the per-family spelling index (built on first
// use, under a mutex); the singleton; the accessors of the listing and the
// reference page. The other jobs of the class have files of their own
// (OpcodeTableImpl.h lists them).
//
//===----------------------------------------------------------------------===//
#include "OpcodeTableImpl.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include <algorithm>

using namespace llvm;

namespace tileapply {

using table::Choice;
using table::Item;
using table::Pattern;

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
    std::string Own =
        join(ArrayRef<StringRef>(FixedRefs).take_front(P->nameTokens(FixedRefs)), ".");
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

void OpcodeTable::forEachForm(StringRef Family, function_ref<void(const Form &)> Fn) const {
  auto It = P->ByFamily.find(Family);
  if (It == P->ByFamily.end())
    return;
  for (unsigned I : It->second)
    P->enumerate(I, Fn);
}

} // namespace tileapply
