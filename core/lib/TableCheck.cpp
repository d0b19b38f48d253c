//===- TableCheck.cpp - What --check-table finds wrong with the rows ------===//
//
// OpcodeTable::checkRows: every row parses, every form of every row can be
// made, no spelling comes twice from one row, two rows make one spelling
// only as overloads a call's arguments tell apart, and no two forms are
// one instruction for ptxas with their qualifiers reordered.
//
//===----------------------------------------------------------------------===//
#include "OpcodeTableImpl.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tileapply {

using table::Choice;
using table::Item;
using table::Pattern;

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
        Problems.push_back("'" + P->Patterns[PIdx].Text + "': form '" + F->Spelling + "' is '" +
                           RIt->second +
                           "' with its qualifiers in another order that ptxas accepts");
      auto [It, New] = RowOf.try_emplace(F->Spelling, PIdx);
      // Two rows may make one spelling only as overloads: with operands
      // that a call's arguments tell apart.
      if (!New && It->second != PIdx) {
        std::optional<Form> G =
            P->tryMakeForm(It->second, *P->choicesOf(It->second, F->Spelling), nullptr);
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

} // namespace tileapply
