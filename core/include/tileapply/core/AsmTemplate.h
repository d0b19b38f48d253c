//===- AsmTemplate.h - A GCC-style asm template read as PTX -----*- C++ -*-===//
//
// Splits the template string of an inline `asm` statement (as written in the
// source, with GCC's `%N`, `%[name]`, `%=` and `%%`) into PTX instructions
// and their operands, keeping for every piece its byte offset in the template
// so a diagnostic can point at it. No Clang here: the plugin's asm checker
// and a migration tool both read templates through this.
//
// What the splitter cannot read is marked "not understood" (with a reason)
// and left alone by whatever uses it: it never guesses.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_ASMTEMPLATE_H
#define TILEAPPLY_CORE_ASMTEMPLATE_H

#include "tileapply/core/PtxTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace tileapply {

/// One name or value inside an operand: `%1`, `%[x]`, `p`, `%%laneid`, `4`.
struct AsmRef {
  enum Kind : uint8_t {
    StmtOperand, // %N or %[name]: operand N of the asm statement
    Declared,    // a register or predicate the template declares (.reg)
    Special,     // %%name not declared by the template: a special register
    Immediate,   // an integer or floating-point literal
    Sink,        // `_`
    Symbol       // another identifier: a label, a variable of the module
  } K = Symbol;
  unsigned Index = 0;   // StmtOperand: the operand number
  std::string Text;     // as written in the template ("%%laneid", "%1")
  std::string Name;     // as PTX will see it ("%laneid"; `%%` read as `%`)
  bool Negated = false; // `!p`
  bool FloatLiteral = false; // Immediate: 1.0, 0f3F800000, 0d...
  size_t Offset = 0, Length = 0; // in the template
};

/// One operand of an instruction, as written.
struct AsmOperandText {
  enum Shape : uint8_t {
    Plain,   // one reference
    Vector,  // `{a, b, ...}`: Refs are the elements
    Address  // `[base]`, `[base+imm]`, `[base, {x, y}]`: Refs[0] is the base
  } S = Plain;
  std::vector<AsmRef> Refs;
  /// Address only: what follows the base after a comma inside the brackets
  /// (a tensor map's coordinates), each an operand of its own.
  std::vector<AsmOperandText> Inner;
  /// Address only: the base has a `+ offset`.
  bool HasOffset = false;
  /// Written after a `|` (setp's `p|q`): joined to the operand before.
  bool JoinedByBar = false;
  size_t Offset = 0, Length = 0;
};

/// One PTX instruction of the template.
struct AsmInstruction {
  std::string Opcode;      // "add.rn.f32"
  size_t OpcodeOffset = 0; // in the template
  std::optional<AsmRef> Guard; // `@p` / `@!p`
  std::vector<AsmOperandText> Operands;
  /// Empty when every piece was read; otherwise why not. Such an instruction
  /// is left alone.
  std::string NotUnderstood;
  /// The name runs into a register (`add.u32%0, ...`), which ptxas refuses.
  bool NameRunsIntoOperand = false;
};

/// A `.reg` declaration of the template: `.reg .pred p, q;`, `.reg .b32 r<4>;`.
struct AsmRegDecl {
  std::string Name; // as PTX sees it; `r<4>` is declared as r0 .. r3
  std::optional<PtxType> Type;
  unsigned Count = 0; // the `<N>` of a parameterized name, or 0
  size_t Offset = 0;
};

/// A whole template.
struct AsmTemplate {
  std::vector<AsmInstruction> Instructions;
  std::vector<AsmRegDecl> Decls;
  /// Pieces outside any instruction that were not read (a directive other
  /// than .reg, an unbalanced brace): offset and why.
  std::vector<std::pair<size_t, std::string>> Unread;

  /// The declaration of `Name` (`r2` finds `.reg .b32 r<4>`), or null.
  const AsmRegDecl *findDecl(llvm::StringRef Name) const;
  /// Whether every instruction and every piece between them was read.
  bool fullyRead() const;
};

/// Splits `Template`. `OperandNames` are the statement's `[name]`s in operand
/// order ("" for an unnamed operand), for `%[name]`.
AsmTemplate splitAsmTemplate(llvm::StringRef Template,
                             llvm::ArrayRef<std::string> OperandNames = {});

} // namespace tileapply

#endif
