//===- Diagnostics.h - Every problem tileapply reports ----------*- C++ -*-===//
//
// The codes of core/include/tileapply/core/Diagnostics.def, the Problem a
// rule reports (code, argument, message, notes, fix-it), and the wording of
// every message, which lives in that same file as numbered templates: the
// plugin and the pass print exactly these texts.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_DIAGNOSTICS_H
#define TILEAPPLY_CORE_DIAGNOSTICS_H

#include "tileapply/core/OpcodeTable.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace tileapply {

enum class DiagCode : uint8_t {
#define TA_DIAG(Code, Severity, Summary) Code,
#include "tileapply/core/Diagnostics.def"
};
enum class Severity : uint8_t { Error, Warning, Note };
Severity diagSeverity(DiagCode C);
llvm::StringRef diagName(DiagCode C);    // "CarrierMismatch"
llvm::StringRef diagSummary(DiagCode C); // one line, for docs and listings

/// The message templates of Diagnostics.def (TA_TEXT).
enum class Text : uint16_t {
#define TA_TEXT(Id, Template) Id,
#include "tileapply/core/Diagnostics.def"
};
/// Template `T` with %0, %1, ... replaced by `Args`.
std::string text(Text T, llvm::ArrayRef<std::string> Args = {});

/// One problem with a call. `Arg` is the index of the argument after the
/// opcode it concerns (0 = first operand), or -1 for the opcode / the call.
struct Problem {
  DiagCode Code;
  int Arg = -1;
  std::string Message;
  std::vector<std::string> Notes; // extra explanation lines
  std::string FixIt;              // replacement text for the opcode, if any
  bool PointAtDecl = false;       // a note should show the argument's declaration
  Severity severity() const { return diagSeverity(Code); }
};

/// The problem for an opcode spelling that is not a form.
Problem spellingProblem(const SpellingProblem &SP);

} // namespace tileapply

#endif
