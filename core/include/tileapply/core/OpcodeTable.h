//===- OpcodeTable.h - The one PTX opcode table ------------------*- C++ -*-===//
//
// Every spelling tileapply accepts comes from core/ptx/Opcodes.def (and the
// files it includes): a list of patterns such as
// `add{@frnd}?{.ftz}?{.sat}?.f32` with their operands and floors, and the
// named sets they share (`@frnd` is `.rn|.rz|.rm|.rp`). This class parses
// those patterns once, answers "is this spelling a form, and which one" (a
// Form, Form.h) for the plugin and the pass, says why a spelling is no form,
// and enumerates every form for the listing, the certification and the
// did-you-mean search.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_OPCODETABLE_H
#define TILEAPPLY_CORE_OPCODETABLE_H

#include "tileapply/core/Form.h"
#include "tileapply/core/Target.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tileapply {

/// Why a spelling is not a form. The message is complete and user-facing.
struct SpellingProblem {
  enum Kind {
    UnknownInstruction, // no such family
    Unsupported,        // real PTX, outside tileapply's per-thread set
    UnknownQualifier,   // a token no form of the family uses
    WrongOrder,         // right tokens in an order ptxas refuses
    MissingType,        // no type token
    InvalidForm         // otherwise not a form
  } K = InvalidForm;
  std::string Message;
  std::string Suggestion; // a canonical spelling to offer as a fix-it, or ""
};

/// A qualifier the instruction does not take (OpcodeTable::foreignQualifier).
struct ForeignQualifier {
  std::string Token; // "rn"
  std::string Owner; // the family ("setp") or instruction name ("tcgen05.ld")
};

/// Two qualifiers of one instruction that no form writes together
/// (OpcodeTable::qualifierClash).
struct QualifierClash {
  std::string First, Second; // "ftz", "b32", in the order written
  std::string Family;        // "setp"
};

/// "no form of 'setp' writes '.ftz' together with '.b32'".
std::string clashText(const QualifierClash &C);

/// The answer to a lookup: a form, or why not.
struct LookupResult {
  std::optional<Form> Found;
  /// Further forms with the same spelling and other operands (an overload:
  /// wgmma's A from a descriptor or from registers). The call's arguments
  /// choose among Found and these (checkCall).
  std::vector<Form> Overloads;
  SpellingProblem Problem;
  explicit operator bool() const { return Found.has_value(); }
};

/// An alternative of a group and its own floor (0, 0: none): a form that
/// chooses it needs at least sm_<Sm> and PTX ISA <Ptx>/10.
struct AlternativeFloor {
  std::string Spelling; // ".L2::64B", ".v4.b32"
  unsigned Sm = 0, Ptx = 0;
};

/// A named set of the table (TA_SET), for the reference page.
struct NamedSetInfo {
  std::string Name;
  std::string Definition; // as written: "@mem_b32|@mem_b64|.b128(70,83)"
  std::vector<AlternativeFloor> Alternatives; // the sets it names spliced in
};

/// A row of the table as written, for the reference page.
struct RowInfo {
  std::string Text;
  unsigned MinSm = 0, MinPtx = 0; // the row's floor (that of its oldest forms)
  std::vector<Target> OnlyOn;
  /// The alternatives of the row (its own and its sets') whose floor is above
  /// the row's in sm or PTX ISA version, in order of appearance.
  std::vector<AlternativeFloor> Raising;
};

class OpcodeTable {
public:
  /// The table built from core/ptx/*.def (parsed once, thread-safe).
  static const OpcodeTable &get();

  /// A spelling is a form when a row makes it as written, or when it is a
  /// row's spelling with its qualifiers in another order that ptxas accepts
  /// (core/ptx/GRAMMAR.md, "Qualifier order": the instruction name first, then the
  /// other qualifiers in any order, the positional ones (TA_POSITIONAL) in
  /// their relative order). The form is the row's, spelled as written.
  /// With `Suggest` false the problem carries no did-you-mean (which costs a
  /// search over the family's forms): for tools that only need the verdict.
  LookupResult lookup(llvm::StringRef Spelling, bool Suggest = true) const;
  /// The form a spelling names, or nothing; no diagnosis of why not (cheap).
  std::optional<Form> find(llvm::StringRef Spelling) const;

  /// Calls `Fn` with every form of every row (or of one family).
  void forEachForm(llvm::function_ref<void(const Form &)> Fn) const;
  void forEachForm(llvm::StringRef Family, llvm::function_ref<void(const Form &)> Fn) const;

  std::vector<std::string> families() const;
  size_t numPatterns() const;
  /// The pattern text of row `Index`, as written in the table.
  llvm::StringRef patternText(unsigned Index) const;
  /// Row `Index`: its text, its floor and the alternatives that raise it.
  RowInfo rowInfo(unsigned Index) const;
  /// The named sets, in order of definition.
  std::vector<NamedSetInfo> namedSets() const;
  /// Every problem with the table's rows ("row: why"): malformed rows, forms
  /// a row cannot make, spellings two rows make. Empty for a good table; the
  /// build runs it (tileapply-opcodes --check-table).
  static std::vector<std::string> checkRows();
  /// The number of tokens of the instruction name a spelling starts with: its
  /// longest TA_NAME prefix ("mul.wide.s32": 2), or 1 (the family alone).
  unsigned nameTokens(llvm::ArrayRef<llvm::StringRef> Tokens) const;

  /// The first qualifier of `Spelling` that no form of its family uses, or
  /// (for a multi-token instruction name, TA_NAME: "tcgen05.ld") no form of
  /// that name: ptxas refuses such a spelling whatever else the table lacks.
  /// Nothing for an unknown family or a spelling under a TA_UNSUPPORTED
  /// prefix (forms the table leaves out on purpose).
  std::optional<ForeignQualifier> foreignQualifier(llvm::StringRef Spelling) const;

  /// The first two qualifiers of `Spelling` that no form of its family
  /// writes together (`setp.ne.b32.ftz`: `.ftz` only comes with `.f32`), or a
  /// qualifier written twice. The same exclusions as foreignQualifier; a
  /// qualifier no form uses is foreignQualifier's to report and skipped here.
  std::optional<QualifierClash> qualifierClash(llvm::StringRef Spelling) const;

  struct Impl;
  ~OpcodeTable();

private:
  OpcodeTable();
  std::unique_ptr<Impl> P;
};

} // namespace tileapply

#endif
