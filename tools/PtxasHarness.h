//===- PtxasHarness.h - Assemble rendered forms with ptxas ------*- C++ -*-===//
//
// What the certification tools share: the instruction text of a form exactly
// as the pass renders it (with registers of the classes LLVM's NVPTX backend
// declares substituted for $N), PTX files of many such lines, and ptxas runs
// whose errors are mapped back to the line that caused them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_TOOLS_PTXASHARNESS_H
#define TILEAPPLY_TOOLS_PTXASHARNESS_H

#include "tileapply/core/AsmRender.h"
#include "tileapply/core/OpcodeTable.h"
#include "tileapply/core/Target.h"
#include "llvm/Support/Regex.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tileapply {

/// The PTX ISA version a target needs at least (ptxas refuses older ones).
unsigned ptxForTarget(const Target &T);
/// The plain targets ptxas 13.0 knows, oldest first (sm_75 ... sm_121), and
/// the PTX ISA versions it reads (6.3 ... 9.0), times ten.
llvm::ArrayRef<unsigned> plainTargets();
llvm::ArrayRef<unsigned> ptxVersions();

/// One instruction of `F`, registers substituted, e.g.
/// "@%p4 add.rn.f16x2 %r1, %r2, %r3;".
std::string renderInstruction(const Form &F, bool Predicated, bool PreserveDst);

/// The operands as a call can shape them: each operand one register group
/// (the shape renderInstruction(F, ...) renders), or optional operands left
/// out, or a splittable operand given as 2 / 4 narrower registers.
struct CallShape {
  std::string
      Name; // "" for every operand as written; else "without q", "a as 2 x b32", "c negated"
  std::vector<AsmOperandBinding> Bindings;
  unsigned ChainLength = 1; // a carry chain's repeats in its one statement ("chain of 3")
};
std::vector<CallShape> callShapes(const Form &F);
std::string renderInstruction(const Form &F, const CallShape &Shape, bool Predicated,
                              bool PreserveDst);

/// Lines to assemble for one target.
struct PtxBatch {
  std::string Arch;        // "sm_90a"
  unsigned PtxVersion = 0; // ISA * 10
  std::vector<std::string> Lines;
};

/// Assembles every batch (Jobs ptxas processes at a time, Chunk lines per
/// file, files under Dir) and returns, per batch, the ptxas error of each
/// refused line (index -> message); lines absent from the map assembled.
/// A line is only called accepted once a file without the refused lines
/// assembles cleanly, so an error that stops ptxas early cannot hide others;
/// a file that fails with no line to blame (ptxas crashes on some inputs) is
/// bisected down to the line that makes it fail.
/// Returns false (with Err set) if ptxas cannot be run at all.
bool assembleBatches(const std::string &Ptxas, const std::string &Dir,
                     const std::vector<PtxBatch> &Batches, unsigned Jobs, unsigned Chunk,
                     std::vector<std::map<size_t, std::string>> &Refused, std::string &Err,
                     size_t *FilesRun = nullptr);

/// One entry of a list of what ptxas is known to do differently
/// (core/ptx/ptxas-floors.txt, core/ptx/ptxas-disagreements.txt): a line
/// that is neither blank nor a '#' comment, its first tab-separated field the
/// entry and its second the note (both trimmed).
struct KnownEntry {
  std::string Line, Key, Note;
};
/// Reads such a list; false, with Err set, when the file cannot be read.
bool readKnownList(const std::string &Path, std::vector<KnownEntry> &Out, std::string &Err);
/// `Pattern` matched against a whole string ("^(Pattern)$"), or null, with
/// Err set, when it is not a valid regular expression.
std::unique_ptr<llvm::Regex> wholeMatch(llvm::StringRef Pattern, std::string &Err);

} // namespace tileapply

#endif
