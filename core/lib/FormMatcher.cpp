//===- FormMatcher.cpp - Which row makes a spelling -----------------------===//
//
// A spelling names a form when a row makes it as written (the items walked
// in order, with backtracking over optional ones), or when it is a row's
// spelling with its qualifiers in another order that ptxas accepts: the
// instruction name (TA_NAME) first, then the other qualifiers in any order,
// the positional ones (TA_POSITIONAL) in their relative order.
//
//===----------------------------------------------------------------------===//
#include "OpcodeTableImpl.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <functional>
#include <tuple>

using namespace llvm;

namespace tileapply {

using table::Choice;
using table::Item;
using table::Pattern;

std::optional<OpcodeTable::Impl::ChoiceVec> OpcodeTable::Impl::choicesOf(unsigned PIdx,
                                                                         StringRef Spelling) const {
  SmallVector<StringRef, 8> Tokens = splitSpelling(Spelling);
  ChoiceVec C(Patterns[PIdx].Items.size(), -1);
  if (!match(Patterns[PIdx], ArrayRef<StringRef>(Tokens).drop_front(), 0, 0, C))
    return std::nullopt;
  return C;
}

bool OpcodeTable::Impl::match(const Pattern &P, ArrayRef<StringRef> Tokens, unsigned Pos,
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

unsigned OpcodeTable::Impl::nameTokens(ArrayRef<StringRef> Tokens) const {
  unsigned Best = 1;
  std::string Prefix = Tokens.empty() ? "" : Tokens[0].str();
  for (unsigned K = 2; K <= std::min<size_t>(MaxNameTokens, Tokens.size()); ++K) {
    Prefix += "." + Tokens[K - 1].str();
    if (Names.contains(Prefix))
      Best = K;
  }
  return Best;
}

bool OpcodeTable::Impl::orderAccepted(ArrayRef<StringRef> Written,
                                      ArrayRef<StringRef> Canonical) const {
  unsigned N = nameTokens(Written);
  if (N != nameTokens(Canonical) || N > Written.size() || N > Canonical.size() ||
      !std::equal(Written.begin(), Written.begin() + N, Canonical.begin()))
    return false;
  return positional(Written.drop_front(N)) == positional(Canonical.drop_front(N));
}

SmallVector<StringRef, 8> OpcodeTable::Impl::positional(ArrayRef<StringRef> Toks) const {
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

bool OpcodeTable::Impl::matchAnyOrder(const Pattern &P, ArrayRef<StringRef> Tokens, bool CheckOrder,
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

std::vector<Form> OpcodeTable::Impl::matchRows(ArrayRef<unsigned> Rows, StringRef Spelling,
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

unsigned OpcodeTable::nameTokens(ArrayRef<StringRef> Tokens) const { return P->nameTokens(Tokens); }

} // namespace tileapply
