//===- RowForms.cpp - The forms a table row makes -------------------------===//
//
// A Form is a Pattern (a parsed row) with one choice per item: its spelling
// is the family and the chosen tokens, its floor the row's raised by each
// chosen alternative's, its operands' types, register counts and state
// spaces decided by the choices. Enumerating a row is the cartesian product
// of its items' choices (an optional item may also be left out).
//
//===----------------------------------------------------------------------===//
#include "OpcodeTableImpl.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include <algorithm>
#include <functional>

using namespace llvm;

namespace tileapply {

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

std::optional<Form> OpcodeTable::Impl::tryMakeForm(unsigned PIdx, const ChoiceVec &C,
                                                   std::string *Why) const {
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

Form OpcodeTable::Impl::makeForm(unsigned PIdx, const ChoiceVec &C) const {
  std::string Why;
  std::optional<Form> F = tryMakeForm(PIdx, C, &Why);
  if (!F)
    report_fatal_error(Twine("tileapply: bad row in the PTX table: ") + Why);
  return std::move(*F);
}

void OpcodeTable::Impl::enumerate(unsigned PIdx, function_ref<void(const Form &)> Fn) const {
  enumerateChoices(PIdx, [&](const ChoiceVec &C) { Fn(makeForm(PIdx, C)); });
}

void OpcodeTable::Impl::enumerateChoices(unsigned PIdx,
                                         function_ref<void(const ChoiceVec &)> Fn) const {
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

} // namespace tileapply
