//===- OpcodeTableImpl.h - What OpcodeTable holds, inside core --*- C++ -*-===//
//
// Internal to core. The state behind OpcodeTable (the parsed rows, the
// lookups by family and instruction name, the qualifier-order classes, the
// per-family spelling index) and the operations on it that the files of the
// class share. Each group of methods is defined in the file of its job:
//   OpcodeTable.cpp        construction, the family index, the accessors
//   RowForms.cpp           a row's choices made into Forms, and enumerated
//   FormMatcher.cpp        spelling -> choices, in order and in any order
//                          that ptxas accepts (the qualifier-order rules)
//   TableCheck.cpp         OpcodeTable::checkRows
//   SpellingDiagnosis.cpp  lookup's "why not" and did-you-mean
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_LIB_OPCODETABLEIMPL_H
#define TILEAPPLY_CORE_LIB_OPCODETABLEIMPL_H

#include "TableParser.h"
#include "tileapply/core/OpcodeTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tileapply {

/// Tokens of one item choice joined (".relaxed.gpu").
std::string joinChoice(const table::Choice &C);

struct OpcodeTable::Impl {
  table::Table Parsed;
  std::vector<table::Pattern> &Patterns = Parsed.Patterns;
  llvm::StringMap<std::vector<unsigned>> ByFamily; // family -> pattern indices
  llvm::StringMap<llvm::StringSet<>> FamilyTokens; // every qualifier a family uses
  /// Every qualifier the forms of one instruction name use (TA_NAME, joined:
  /// "tcgen05.ld"); a row whose name is not fixed counts for every name its
  /// fixed leading qualifiers may begin.
  llvm::StringMap<llvm::StringSet<>> NameTokens;

  // ---- qualifier order (FormMatcher.cpp) ----
  llvm::StringSet<> Names; // TA_NAME, joined: "mul.wide"
  unsigned MaxNameTokens = 1;
  llvm::StringMap<unsigned> PositionalClass; // token -> class index (TA_POSITIONAL)

  /// Every spelling of one family, tokenized, for the did-you-mean search and
  /// the wrong-order check; built the first time a family is asked about.
  struct FamilyIndex {
    std::vector<std::string> Spellings;
    std::vector<llvm::SmallVector<llvm::StringRef, 8>> Tokens; // point into Spellings
    bool AllTyped = true; // every form names a type (wgmma.fence does not)
    /// The pairs of qualifiers some form writes together, as (lower id,
    /// higher id) of TokenId; (A, A) where a form writes A twice
    /// (cvt.rni.f32.f32). The family's own name token has no id.
    llvm::StringMap<unsigned> TokenId;
    llvm::DenseSet<std::pair<unsigned, unsigned>> Together;
  };
  mutable std::mutex IndexMutex;
  mutable llvm::StringMap<std::unique_ptr<FamilyIndex>> Indexes;
  /// The index of `Family`, built under IndexMutex (OpcodeTable.cpp).
  const FamilyIndex &index(llvm::StringRef Family) const;

  // choice per item: -1 absent (optional), else index into Item::Choices.
  using ChoiceVec = llvm::SmallVector<int, 12>;

  // ---- forms of a row (RowForms.cpp) ----
  /// The form of pattern PIdx with choices C, or nothing (with Why set) when
  /// the row cannot make it: a register count that is no positive integer,
  /// a group that names no type or state space. The build's table check
  /// enumerates every form, so a user never meets one.
  std::optional<Form> tryMakeForm(unsigned PIdx, const ChoiceVec &C, std::string *Why) const;
  /// tryMakeForm for a row the table check passed: fatal where it fails.
  Form makeForm(unsigned PIdx, const ChoiceVec &C) const;
  /// Calls Fn with every form of pattern PIdx.
  void enumerate(unsigned PIdx, llvm::function_ref<void(const Form &)> Fn) const;
  /// Calls Fn with every choice vector of pattern PIdx.
  void enumerateChoices(unsigned PIdx, llvm::function_ref<void(const ChoiceVec &)> Fn) const;

  // ---- matching (FormMatcher.cpp) ----
  /// The choices with which pattern PIdx makes Spelling in the row's order.
  std::optional<ChoiceVec> choicesOf(unsigned PIdx, llvm::StringRef Spelling) const;
  /// Matches Tokens[Pos..] against P's items from It on, in the row's order;
  /// on success fills C.
  bool match(const table::Pattern &P, llvm::ArrayRef<llvm::StringRef> Tokens, unsigned Pos,
             unsigned It, ChoiceVec &C) const;
  /// The number of tokens of the instruction name `Tokens` starts with.
  unsigned nameTokens(llvm::ArrayRef<llvm::StringRef> Tokens) const;
  /// Whether `Written` (the same qualifiers as `Canonical`, in some order)
  /// is an order ptxas accepts: the same instruction name first, then every
  /// positional class in the same relative order.
  bool orderAccepted(llvm::ArrayRef<llvm::StringRef> Written,
                     llvm::ArrayRef<llvm::StringRef> Canonical) const;
  /// The positional qualifiers of `Toks`, class by class, each class in the
  /// order written.
  llvm::SmallVector<llvm::StringRef, 8> positional(llvm::ArrayRef<llvm::StringRef> Toks) const;
  /// Matches the qualifiers of `Tokens` (family first) against pattern P in
  /// any order: every qualifier used by exactly one chosen alternative. With
  /// `CheckOrder`, only a choice whose canonical spelling ptxas reads as the
  /// same instruction (orderAccepted) counts.
  bool matchAnyOrder(const table::Pattern &P, llvm::ArrayRef<llvm::StringRef> Tokens,
                     bool CheckOrder, ChoiceVec &C) const;
  /// Every form of the family's rows that `Spelling` names, as written
  /// (first the row order; a row's own order before any other).
  std::vector<Form> matchRows(llvm::ArrayRef<unsigned> Rows, llvm::StringRef Spelling,
                              llvm::ArrayRef<llvm::StringRef> Tokens, bool FirstOnly) const;
};

} // namespace tileapply

#endif
