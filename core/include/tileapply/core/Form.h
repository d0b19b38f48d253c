//===- Form.h - One concrete PTX form and its operands ----------*- C++ -*-===//
//
// What the table says of one fully spelled PTX form (`add.rn.ftz.f32`): its
// operands with their direction, type, register count and state space, its
// floor and targets, and, for the few forms of more than one instruction,
// their templates. OpcodeTable (OpcodeTable.h) makes Forms from its rows; the
// call rules, the renderer and the asm checker read them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_FORM_H
#define TILEAPPLY_CORE_FORM_H

#include "tileapply/core/PtxTypes.h"
#include "tileapply/core/Target.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tileapply {

/// What the instruction does with an operand.
enum class Dir : uint8_t {
  Read,      // a source register (or an immediate)
  Write,     // a destination register
  ReadWrite, // a destination that is also read (e.g. `bfi`-style updates)
  Addr,      // `[address]`: a memory tensor in the given state space
  Imm,       // an immediate PTX requires (`lop3`'s immLut): a constant scalar
             // in [ImmLo, ImmHi], spliced into the instruction text
  Sink       // PTX's `_`: a result the instruction must name and nobody
             // reads (mbarrier.arrive's state of a remote arrive); no argument
};
llvm::StringRef dirName(Dir D); // "r", "w", "rw", "addr", "imm", "sink"

/// One PTX operand of a concrete form.
struct OperandSpec {
  std::string Name;  // as the PTX ISA names it: "d", "a", "b", ...
  Dir Direction = Dir::Read;
  PtxType Type = PtxType::b32; // for Addr: the type of the accessed elements
  unsigned Regs = 1;           // register-group size: 1, 2, 4 or 8
  Space AddrSpace = TILEAPPLY_SPACE_NONE; // only for Addr
  bool WritesMemory = false; // Addr of a store: the memory it names is written
  /// Addr read and written in one indivisible step (rwaddr: an atom, a red,
  /// an mbarrier): repeats may name one element again, each its own step.
  bool ReadModifyWrite = false;
  /// A Read operand whose immediates PTX accepts only in [ImmLo, ImmHi]
  /// (bfe's `b` and `c`): a constant outside the range goes in a register.
  bool ImmRangeOnRegister = false;
  int64_t ImmLo = 0, ImmHi = 0; // for Imm (and ImmRangeOnRegister): the allowed values,
  int64_t ImmStep = 1;          // every ImmStep-th from ImmLo (setmaxnreg: 8)
  /// ptxas 13.0 refuses an immediate outside the range (`[LO..HI]!`, each
  /// measured): the asm checker reports one. Not every range is: ptxas
  /// assembles lop3's immLut 300 and wgmma.wait_group 2^31.
  bool ImmRangeChecked = false;
  /// Only for Imm, when not empty: the only values allowed, ascending
  /// (cp.async's cp-size: 4, 8, 16); ImmLo and ImmHi are the first and last.
  std::vector<int64_t> ImmValues;
  /// Whether an immediate operand allows V.
  bool immAllows(int64_t V) const;
  /// Whether ptxas refuses immediate V here: a measured range it is outside.
  bool ptxasRefusesImmediate(int64_t V) const { return ImmRangeChecked && !immAllows(V); }
  /// The allowed values as the diagnostics write them: "[0..255]",
  /// "[24..256], in steps of 8 from 24" or "{4, 8, 16}".
  std::string immText() const;
  /// May be left out of a call (the `q` of setp's `p|q`). A form's optional
  /// operands are given all together or not at all.
  bool Optional = false;
  /// PTX joins this operand to the previous one with `|` (`p|q`), not `, `.
  bool JoinedByBar = false;
  /// Written inside the previous operand's brackets, in braces: the
  /// coordinates of a tensor-map address, `[tmap, {x, y}]`.
  bool InBrackets = false;
  /// Written in braces even as one register (`{%rs1}`: im2col offsets).
  bool Braced = false;
  /// A register written in brackets (`[%r1]`): a value that is an address
  /// in no state space of ours, a Tensor Memory address of tcgen05. The call
  /// passes the address itself, a 32-bit scalar or register tensor.
  bool Bracketed = false;
  /// PTX takes only a register here, never an immediate (mma.sp's metadata,
  /// movmatrix's source): a constant argument is passed in a register.
  bool RegisterOnly = false;
  /// PTX lets the call negate it (`{!}c`): a `tile::negated(c)` argument is
  /// written `!c` into the instruction.
  bool Negatable = false;
  /// May be given as a group `{a, b}` / `{a, b, c, d}` of narrower registers
  /// that together fill its width (mov's pack and unpack): the tensor's group
  /// axis decides. At most one operand of a call is split.
  bool Splittable = false;

  /// A destination: its storage must be writable and distinct across repeats.
  bool isWritten() const {
    return Direction == Dir::Write || Direction == Dir::ReadWrite || WritesMemory;
  }
};

/// Whether the instruction touches memory (volatile asm, memory clobber).
enum class FormKind : uint8_t { Arith, Memory };

/// One concrete, fully spelled PTX form, e.g. `add.rn.ftz.f32`.
struct Form {
  /// The spelling emitted: as the call wrote it (a lookup of
  /// `ld.global.acquire.gpu.b32` keeps that order), or, for the forms the
  /// table enumerates, the canonical one.
  std::string Spelling;
  /// The canonical spelling: the table row's (the PTX ISA's) qualifier order.
  std::string Canonical;
  llvm::StringRef Family;
  FormKind Kind = FormKind::Arith;
  std::vector<OperandSpec> Operands; // in PTX order, destination first
  unsigned MinSm = 0;                // e.g. 90 for sm_90
  unsigned MinPtx = 0;               // ISA version * 10, e.g. 78 for 7.8
  /// Empty: every target from sm_<MinSm> on. Otherwise only these
  /// arch-specific ({100, 'a'}: sm_100a alone) or family-specific ({100,
  /// 'f'}: sm_100f and the newer members of its family, and their 'a'
  /// targets) targets have the form; MinSm is then the lowest of them.
  std::vector<Target> OnlyOn;
  /// The floor when the call passes the optional operands, where PTX added
  /// them later than the form (min.f32's third source: sm_100, PTX 8.8);
  /// 0 = the form's own.
  unsigned OptionalMinSm = 0, OptionalMinPtx = 0;
  /// Where only some arch- or family-specific targets of the form have its
  /// optional operands (tcgen05.mma's scale-input-d: the sm_100f family, not
  /// sm_110f): those targets; empty otherwise.
  std::vector<Target> OptionalOnlyOn;
  unsigned PatternIndex = 0;         // row of the table it came from
  /// The numeric parameters of the row and their values in this form
  /// (wgmma's n: {"N", 128}).
  llvm::SmallVector<std::pair<llvm::StringRef, int64_t>, 2> Params;

  /// A form that needs more than one instruction (docs/spec.md section 6, the
  /// only exceptions to one instruction per repeat). Body (TA_MULTI): one
  /// repeat is these instructions, `;`-separated, with `.reg` scratch
  /// declarations, in braces; `{op}` is the spelling, `{q}` its qualifiers,
  /// `{q-TOK}` them without .TOK, `{NAME}` operand NAME. ChainMiddle and
  /// ChainLast (TA_CHAIN): the call's repeats form one carry chain in one
  /// asm statement: repeat 0 is the form, the last repeat is spelled
  /// ChainLast and those in between ChainMiddle (templates of the spelling,
  /// `addc{q}`), each with the form's operands.
  std::string Body, ChainMiddle, ChainLast;
  bool isChain() const { return !ChainMiddle.empty(); }
  bool isMultiInstruction() const { return !Body.empty() || isChain(); }
  /// A template with {op}, {q} and {q-TOK} filled in from Spelling.
  std::string expandSpelling(llvm::StringRef Template) const;

  bool hasDestination() const;
  /// Operand counts a call may pass: all of them, or all but the optional ones.
  unsigned numRequiredOperands() const;
  /// Operands a call passes an argument for: all but the sinks (`_`).
  unsigned numArgumentOperands() const;
  /// Whether the spelling has `.aligned`, or is a `bar{.cta}` barrier (the
  /// ISA's barrier.aligned written short): every thread of the warp (or
  /// warpgroup) executes it together.
  bool isAligned() const;
  /// Index of the first written operand, or -1.
  int destinationIndex() const;

  /// The floor of a call that passes (or leaves out) the optional operands.
  unsigned minSm(bool WithOptional) const;
  unsigned minPtx(bool WithOptional) const;
  /// Whether passing the optional operands needs a newer floor than the form.
  bool optionalRaisesFloor() const {
    return minSm(true) > MinSm || minPtx(true) > MinPtx || !OptionalOnlyOn.empty();
  }
  /// Whether target `T` has the form (its sm part; the PTX version is
  /// minPtx's business).
  bool runsOn(const Target &T, bool WithOptional) const;
  /// The arch- or family-specific targets that have the form (with or
  /// without its optional operands); empty for a form of every newer sm.
  const std::vector<Target> &targets(bool WithOptional) const;
  /// The targets that have it, for messages and listings: "sm_90" (meaning
  /// sm_90 and newer), "sm_100a or sm_103a", "sm_100f, sm_110f or sm_120f".
  std::string targetsText(bool WithOptional) const;
};

/// Tokens of a spelling: "ld.global.L2::128B.b32" -> {ld, global, L2::128B, b32}.
llvm::SmallVector<llvm::StringRef, 8> splitSpelling(llvm::StringRef Spelling);

} // namespace tileapply

#endif
