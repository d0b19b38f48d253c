//===- AsmRender.h - The inline-asm text of one expanded repeat -*- C++ -*-===//
//
// One form, bound to concrete operands, rendered as the LLVM inline-asm
// template and constraint string the pass emits. The certification tools
// render through the same function, so what ptxas proves is what the pass
// writes.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_ASMRENDER_H
#define TILEAPPLY_CORE_ASMRENDER_H

#include "tileapply/core/OpcodeTable.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace tileapply {

/// How one PTX operand of the form is supplied.
struct AsmOperandBinding {
  /// Omitted: an optional operand the call leaves out (no text, no slot).
  /// Sink: PTX's `_` (text, no slot).
  enum Kind { Register, Immediate, Address, Omitted, Sink } K = Register;
  DType Carrier = TILEAPPLY_DT_UNKNOWN; // Register: picks the constraint letter
  std::string ImmText;                  // Immediate: the literal, e.g. "5"
  int64_t AddrOffset = 0; // Address: constant bytes past the register, "[$4+16]"
  unsigned Split = 1; // Register: each register given as this many (`{a, b}`)
  bool Negated = false; // Register: PTX's `!c` for a negatable predicate source
};

/// One inline-asm operand ($N), in LLVM order: outputs, then inputs.
struct AsmSlot {
  enum Role { Output, Input, Predicate, TiedOldValue } R = Input;
  unsigned FormOperand = 0; // index into Form::Operands (unused for Predicate)
  unsigned Element = 0;     // register-group element
  char Constraint = 'r';    // 'h', 'r', 'l', 'q', 'f', 'd', 'b', 'c'
  unsigned Repeat = 0;      // the repeat within a carry chain's statement
};

struct AsmStatement {
  std::string Text;        // e.g. "@$3 add.rn.f16x2 $0, $1, $2;"
  std::string Constraints; // e.g. "=r,r,r,b,0"
  std::vector<AsmSlot> Slots;
  bool HasSideEffects = false; // memory forms: volatile, with ~{memory}
};

/// An inline-asm register letter of the NVPTX back end: the LLVM type it
/// binds and the PTX register LLVM 22 declares for it (tileapply/dtypes.def).
struct AsmRegister {
  char Letter;
  llvm::StringRef IRType;   // "i1", "i8", ..., "i128", "float", "double"
  llvm::StringRef PtxClass; // "pred", "b16", "b32", "b64", "b128"
  llvm::StringRef Prefix;   // "%p", "%rs", "%r", "%rd", "%rq"
};
llvm::ArrayRef<AsmRegister> asmRegisters();
/// The row of `Letter`, or null for a letter the table does not have.
const AsmRegister *asmRegister(char Letter);

/// The inline-asm constraint letter for a register of this carrier.
char constraintFor(DType Carrier);
/// The letter of an address in state space `S`: a 32-bit window address
/// ('r') for .shared::cluster, a 64-bit one ('l') for every other space.
char addressConstraint(Space S);
/// The letter for a register operand: 'b' (an i1) for a `.pred` operand,
/// whatever its carrier (a bool is stored as i8 and converted around the asm);
/// otherwise the carrier's letter.
char constraintFor(const OperandSpec &O, DType Carrier);

/// The text and constraints of one repeat. A Dir::Imm operand takes its
/// binding's ImmText; bound as anything else (the certification tools bind
/// every operand as a register) it gets ImmLo, a value PTX accepts.
/// A multi-instruction form (Form::Body) gives its instructions in braces,
/// scratch registers declared, each instruction predicated; a carry chain
/// (Form::isChain) gives the whole chain of `ChainLength` repeats, the
/// slots of repeat r marked Repeat = r (outputs of every repeat first, then
/// inputs), one predicate for all. Instructions are separated by "\n\t".
AsmStatement renderAsm(const Form &F, llvm::ArrayRef<AsmOperandBinding> Bindings, bool Predicated,
                       bool PreserveDst, unsigned ChainLength = 1);

} // namespace tileapply

#endif
