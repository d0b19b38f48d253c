//===- TableParser.h - The PTX table's rows, parsed -------------*- C++ -*-===//
//
// Internal to core. The rows of core/ptx/*.def are strings in a small
// language; its grammar: core/ptx/GRAMMAR.md (the one description).
// parseTable() turns them into Patterns: a family name and a list of Items,
// each a set of Choices (a choice is one or more qualifier tokens, may raise
// the form's floor and may bind numeric parameters), plus the operand
// descriptions whose type, register count and state space a form's choices
// decide. A Form is a Pattern with one choice per Item
// (OpcodeTable::Impl::makeForm, RowForms.cpp).
//
// Every problem with a row is collected with the row's text, never fatal:
// the build runs `tileapply-opcodes --check-table`, which fails on any, so a
// malformed row stops the build of tileapply, never a user's compile.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_LIB_TABLEPARSER_H
#define TILEAPPLY_CORE_LIB_TABLEPARSER_H

#include "tileapply/core/Form.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tileapply {
namespace table {

/// One alternative of an item: its tokens ("relaxed", "gpu"), the floor it
/// raises the form to when chosen (0 = none), and the numeric parameters its
/// token binds (`.m64n<N:8..256:8>k16` -> "m64n96k16" binds N = 96).
struct Choice {
  llvm::SmallVector<std::string, 2> Tokens;
  unsigned Sm = 0, Ptx = 0;
  llvm::SmallVector<std::pair<unsigned, int64_t>, 1> Params; // param index -> value
};

struct Item {
  std::vector<Choice> Choices;
  bool Optional = false;
  int Group = -1; // >= 0 for {...} items: $Group in operand specs
};

/// An integer expression of an operand's register count, in reverse Polish
/// notation: numbers, parameters and `$k` (the vector size of group k).
struct Expr {
  enum OpKind : uint8_t { Number, Param, GroupVector, Add, Sub, Mul, Div };
  struct Op {
    OpKind K;
    int64_t V = 0; // Number: the value; Param: its index; GroupVector: the group
  };
  std::vector<Op> Ops;
};

/// A reference in an operand spec: a literal ("f32", "global"), or the
/// choice of group $k (its last token).
struct Ref {
  int Group = -1;
  std::string Literal;
};

/// An operand as its row states it: everything but what a form's choices
/// decide (type, register count, state space).
struct OperandPattern {
  OperandSpec Spec;
  Ref Type, Space;
  Expr Regs;
};

struct Pattern {
  std::string Text; // as written in the row
  std::string Family;
  FormKind Kind = FormKind::Arith;
  std::vector<Item> Items;
  std::vector<OperandPattern> Operands;
  unsigned MinSm = 0, MinPtx = 0;
  std::vector<Target> OnlyOn;
  unsigned OptionalMinSm = 0, OptionalMinPtx = 0;
  /// `?(sm_100f,86)`: the optional operands exist only on these targets.
  std::vector<Target> OptionalOnlyOn;
  std::vector<int> GroupItem;          // group k -> index into Items
  std::vector<std::string> ParamNames; // parameter index -> name
  /// Multi-instruction rows (Form::Body, Form::ChainMiddle/ChainLast).
  std::string Body, ChainMiddle, ChainLast;
};

/// A named set (TA_SET) as written, and its alternatives with the sets it
/// names spliced in (for the reference page).
struct NamedSet {
  std::string Name;
  std::string Definition;
  std::vector<Choice> Choices;
};

struct Unsupported {
  llvm::SmallVector<std::string, 4> Prefix; // tokens
  std::string Reason;
};

/// A class of qualifiers that name the type or the state space of a
/// particular operand (TA_POSITIONAL): ptxas matches them by position among
/// themselves, so a spelling keeps their relative order.
struct PositionalClass {
  std::string Name;
  llvm::SmallVector<std::string, 32> Tokens;
};

struct Table {
  std::vector<Pattern> Patterns;
  std::vector<Unsupported> UnsupportedRows;
  /// Instruction names of more than one word (TA_NAME), as tokens:
  /// {"mul", "wide"}. ptxas reads them first, in this order.
  std::vector<llvm::SmallVector<std::string, 4>> Names;
  std::vector<PositionalClass> Positional;
  std::vector<NamedSet> Sets; // in order of definition
  /// "row: why" for every malformed row (and every set that is malformed
  /// or used by no row); empty for a good table.
  std::vector<std::string> Errors;
};

/// Parses every row of core/ptx/Opcodes.def (and the files it includes).
Table parseTable();

/// The N of a ".vN" token among the choice's tokens, if it has one.
std::optional<int64_t> vectorSize(const Choice &C);

/// Evaluates a register-count expression for one choice of every item:
/// Params[i] is the value of parameter i, GroupVector(k) the .vN of group k
/// (1 when that optional group is absent). Nothing on division by zero, a
/// remainder, or a result below 1.
std::optional<int64_t> evaluate(const Expr &E, llvm::ArrayRef<int64_t> Params,
                                llvm::function_ref<int64_t(int)> GroupVector);

} // namespace table
} // namespace tileapply

#endif
