//===- SpellingDiagnosis.cpp - Why a spelling is no form ------------------===//
//
// OpcodeTable::lookup and what it says when the spelling is no form: an
// unknown instruction, PTX left out on purpose (TA_UNSUPPORTED), a foreign
// qualifier, a wrong order, a missing type, two qualifiers no form writes
// together; and the did-you-mean, the nearest form by token distance.
// foreignQualifier and qualifierClash also serve the asm checker.
//
//===----------------------------------------------------------------------===//
#include "OpcodeTableImpl.h"
#include "tileapply/core/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

using namespace llvm;

namespace tileapply {

using table::Choice;
using table::Item;
using table::Pattern;

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
      Cur[J] = std::min(
          {Prev[J] + InsDel, Cur[J - 1] + InsDel, Prev[J - 1] + SubCost(A[I - 1], B[J - 1])});
    std::swap(Prev, Cur);
  }
  return Prev[B.size()];
}

/// Suggestions further than this (two inserted qualifiers) are noise.
constexpr unsigned MaxSuggestionDistance = 12;

} // namespace

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
  auto Fail = [&](SpellingProblem::Kind K, std::string Msg, std::string Suggestion = "") {
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
                  WithSuggestion(text(Text::UnknownQualifier, {Q.str(), Family.str()})), Sug);

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
                text(Text::QualifierOrder, {Spelling.str(), Reordered}), Reordered);

  // "No type suffix" only where every form of the family has one.
  const Impl::FamilyIndex &Idx = P->index(Family);
  bool HasType = llvm::any_of(Quals, [](StringRef Q) { return parsePtxType(Q).has_value(); });
  if (!HasType && Idx.AllTyped)
    return Fail(SpellingProblem::MissingType,
                WithSuggestion(text(Text::MissingType, {Spelling.str()})), Sug);
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
