//===- AsmMatch.h - An asm statement's PTX checked against the table -*- C++ -*-===//
//
// The second half of the inline-asm checker (docs/spec.md section 7): each
// instruction an AsmTemplate holds is looked up in the one OpcodeTable, its
// written operands are bound to the form's operands, and every operand is
// checked against the statement's constraint letters and the template's
// .reg declarations. Only what ptxas would reject is an error; what it
// accepts but is suspect is a warning. The result keeps the binding
// (instruction -> form -> operands), so a migration tool can reuse it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_ASMMATCH_H
#define TILEAPPLY_CORE_ASMMATCH_H

#include "tileapply/core/AsmTemplate.h"
#include "tileapply/core/Diagnostics.h"
#include "tileapply/core/OpcodeTable.h"
#include "tileapply/core/Target.h"
#include <optional>
#include <string>
#include <vector>

namespace tileapply {

/// What a constraint string ("=r", "+l", "n", "=&h") asks the compiler for.
struct AsmConstraint {
  enum Class : uint8_t {
    Unknown,   // a letter or combination the checker does not read
    Register,  // h, c (16-bit), r, f (32), l, d (64), q (128)
    Predicate, // b
    Immediate  // n, i
  } C = Unknown;
  unsigned Bits = 0;  // Register: the width of the register Clang declares
  std::string Text;   // as written
  /// Immediate: the operand's value, where the caller could evaluate it.
  std::optional<int64_t> Value;
  bool Output = false;
};
/// Reads one constraint. A tied input ("0") is Unknown here; the caller
/// resolves it to the output it names.
AsmConstraint parseAsmConstraint(llvm::StringRef Text);
/// The letter to write for a register of `Bits` bits (PtxType for f32/f64
/// picks "f"/"d"): "h", "r", "l", "q"; 'b' for a predicate.
std::string constraintLetterFor(PtxType T, unsigned Bits);

/// What the checker needs of the statement besides its template.
struct AsmStatementInfo {
  std::vector<AsmConstraint> Operands; // outputs first, then inputs (%N order)
  bool Volatile = false;
  bool MemoryClobber = false;
  bool hasOutputs() const;
};

/// One finding, at a byte range of the template.
struct AsmFinding {
  DiagCode Code;
  size_t Offset = 0, Length = 0;
  std::string Message;
  std::vector<std::string> Notes;
  Severity severity() const { return diagSeverity(Code); }
};

/// One instruction and the form it was matched with.
struct AsmMatch {
  const AsmInstruction *Instr = nullptr;
  std::optional<Form> F; // the form its spelling and operands name
  /// Per form operand: the written operand bound to it, or null (an optional
  /// operand left out). An InBrackets operand is bound to an element of the
  /// address's Inner list.
  std::vector<const AsmOperandText *> Bound;
  /// Empty when every operand was checked; otherwise why not (the statement
  /// then does not count as fully understood).
  std::string Unchecked;
};

struct AsmCheckResult {
  std::vector<AsmFinding> Findings;
  std::vector<AsmMatch> Matches; // one per instruction of the template
  /// Every instruction found in the table and every operand checked.
  bool FullyUnderstood = true;
  std::string Why; // the first reason it is not
};

/// Checks a split template against the table, the statement's constraints and
/// (if given) the target.
AsmCheckResult checkAsmStatement(const AsmTemplate &T, const AsmStatementInfo &St,
                                 const Target *Tgt);

} // namespace tileapply

#endif
