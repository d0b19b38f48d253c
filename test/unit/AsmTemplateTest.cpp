//===- AsmTemplateTest.cpp - Splitting asm templates, matching them --------===//
#include "tileapply/core/AsmTemplate.h"
#include "tileapply/core/AsmMatch.h"
#include "gtest/gtest.h"

using namespace tileapply;

namespace {

TEST(AsmTemplate, OffsetsOfOpcodeAndOperands) {
  std::string S = "add.u32 %0, %1, 4;";
  AsmTemplate T = splitAsmTemplate(S);
  ASSERT_EQ(T.Instructions.size(), 1u);
  const AsmInstruction &I = T.Instructions[0];
  EXPECT_EQ(I.Opcode, "add.u32");
  EXPECT_EQ(I.OpcodeOffset, 0u);
  ASSERT_EQ(I.Operands.size(), 3u);
  EXPECT_EQ(I.Operands[1].Refs[0].K, AsmRef::StmtOperand);
  EXPECT_EQ(I.Operands[1].Refs[0].Index, 1u);
  EXPECT_EQ(S.substr(I.Operands[1].Offset, I.Operands[1].Length), "%1");
  EXPECT_EQ(I.Operands[2].Refs[0].K, AsmRef::Immediate);
  EXPECT_TRUE(T.fullyRead());
}

TEST(AsmTemplate, ScopesDeclarationsGuardsLabelsComments) {
  std::string S = "{\n\t.reg .pred p, q; // two\n\t.reg .b32 r<2>;\n"
                  "/* a\n block */ setp.ne.b32 p|q, %1, 0;\n"
                  "@!p bra.uni L%=;\nL%=: mov.u32 %0, %%laneid;\n}";
  AsmTemplate T = splitAsmTemplate(S);
  EXPECT_TRUE(T.fullyRead());
  ASSERT_EQ(T.Instructions.size(), 3u);
  EXPECT_EQ(T.Instructions[0].Opcode, "setp.ne.b32");
  ASSERT_EQ(T.Instructions[0].Operands.size(), 4u);
  EXPECT_TRUE(T.Instructions[0].Operands[1].JoinedByBar);
  EXPECT_EQ(T.Instructions[0].Operands[0].Refs[0].K, AsmRef::Declared);
  ASSERT_TRUE(T.Instructions[1].Guard.has_value());
  EXPECT_TRUE(T.Instructions[1].Guard->Negated);
  EXPECT_EQ(T.Instructions[1].Operands[0].Refs[0].K, AsmRef::Symbol);
  EXPECT_EQ(T.Instructions[2].Opcode, "mov.u32");
  EXPECT_EQ(T.Instructions[2].Operands[1].Refs[0].K, AsmRef::Special);
  EXPECT_EQ(T.Instructions[2].Operands[1].Refs[0].Name, "%laneid");
  ASSERT_NE(T.findDecl("r1"), nullptr);
  EXPECT_EQ(T.findDecl("r2"), nullptr);
  EXPECT_EQ(T.findDecl("q")->Type, PtxType::pred);
}

TEST(AsmTemplate, AddressesGroupsAndNames) {
  std::string S = "ld.global.v2.f32 {%[x], %[y]}, [%2+8]; cp.async.bulk.tensor.2d.shared::cluster."
                  "global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];";
  AsmTemplate T = splitAsmTemplate(S, {"x", "y", "", "", ""});
  ASSERT_EQ(T.Instructions.size(), 2u);
  const AsmOperandText &G = T.Instructions[0].Operands[0];
  EXPECT_EQ(G.S, AsmOperandText::Vector);
  EXPECT_EQ(G.Refs[1].Index, 1u);
  const AsmOperandText &A = T.Instructions[0].Operands[1];
  EXPECT_EQ(A.S, AsmOperandText::Address);
  EXPECT_TRUE(A.HasOffset);
  const AsmOperandText &M = T.Instructions[1].Operands[1];
  ASSERT_EQ(M.Inner.size(), 1u);
  EXPECT_EQ(M.Inner[0].S, AsmOperandText::Vector);
}

TEST(AsmTemplate, OperandsRightAfterTheName) {
  // No blank between the name and a group or an address: ptxas 13.0 reads it.
  std::string S = "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64{%0, %1, %2, %3},"
                  "{%4, %5},{%6},{%7, %8, %9, %10}; st.global.b32[%11], %12;";
  AsmTemplate T = splitAsmTemplate(S);
  EXPECT_TRUE(T.fullyRead());
  ASSERT_EQ(T.Instructions.size(), 2u);
  EXPECT_EQ(T.Instructions[0].Opcode, "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64");
  EXPECT_TRUE(T.Instructions[0].NotUnderstood.empty());
  ASSERT_EQ(T.Instructions[0].Operands.size(), 4u);
  EXPECT_EQ(T.Instructions[0].Operands[0].S, AsmOperandText::Vector);
  EXPECT_EQ(T.Instructions[1].Opcode, "st.global.b32");
  ASSERT_EQ(T.Instructions[1].Operands.size(), 2u);
  EXPECT_EQ(T.Instructions[1].Operands[0].S, AsmOperandText::Address);
  EXPECT_FALSE(splitAsmTemplate("add.u32%0, %1, %2;").Instructions[0].NotUnderstood.empty());
}

TEST(AsmTemplate, WhatItCannotReadIsMarked) {
  EXPECT_FALSE(splitAsmTemplate("add.u32 %0, %1, %2").fullyRead());      // no ';'
  EXPECT_FALSE(splitAsmTemplate("add.u32 %0, %c1, %2;").fullyRead());    // a modifier
  EXPECT_FALSE(splitAsmTemplate("{ add.u32 %0, %1, %2;").fullyRead());   // unclosed
  EXPECT_FALSE(splitAsmTemplate(".shared .b32 s; mov.u32 %0, s;").fullyRead());
  EXPECT_FALSE(splitAsmTemplate("add.u32 %0, %[nope], %2;", {"a"}).fullyRead());
}

AsmStatementInfo info(std::initializer_list<const char *> Cs) {
  AsmStatementInfo St;
  for (const char *C : Cs) St.Operands.push_back(parseAsmConstraint(C));
  St.Volatile = true;
  St.MemoryClobber = true;
  return St;
}

TEST(AsmMatch, BindsOperandsToTheForm) {
  AsmTemplate T = splitAsmTemplate("add.rn.f32 %0, %1, %2;");
  AsmCheckResult R = checkAsmStatement(T, info({"=f", "f", "f"}), nullptr);
  EXPECT_TRUE(R.Findings.empty());
  EXPECT_TRUE(R.FullyUnderstood);
  ASSERT_EQ(R.Matches.size(), 1u);
  ASSERT_TRUE(R.Matches[0].F.has_value());
  EXPECT_EQ(R.Matches[0].F->Spelling, "add.rn.f32");
  ASSERT_EQ(R.Matches[0].Bound.size(), 3u);
  EXPECT_EQ(R.Matches[0].Bound[2]->Refs[0].Index, 2u);
}

TEST(AsmMatch, WidthMismatchPointsAtTheOperand) {
  std::string S = "add.u32 %0, %1, %2;";
  AsmCheckResult R = checkAsmStatement(splitAsmTemplate(S), info({"=r", "l", "r"}), nullptr);
  ASSERT_EQ(R.Findings.size(), 1u);
  EXPECT_EQ(R.Findings[0].Code, DiagCode::AsmOperandMismatch);
  EXPECT_EQ(S.substr(R.Findings[0].Offset, R.Findings[0].Length), "%1");
}

TEST(AsmMatch, OutsideTheTableIsLeftAlone) {
  AsmCheckResult R =
      checkAsmStatement(splitAsmTemplate("suld.b.1d.b32.trap {%0}, [%1, {%2}];"), info({"=r", "l", "r"}), nullptr);
  EXPECT_TRUE(R.Findings.empty());
  EXPECT_FALSE(R.FullyUnderstood);
}

TEST(AsmMatch, FloorAgainstTheTarget) {
  AsmTemplate T = splitAsmTemplate("add.rn.f32x2 %0, %1, %2;");
  Target Hopper = *parseTarget("sm_90a");
  Target Blackwell = *parseTarget("sm_100a");
  AsmStatementInfo St = info({"=l", "l", "l"});
  AsmCheckResult Old = checkAsmStatement(T, St, &Hopper);
  ASSERT_EQ(Old.Findings.size(), 1u);
  EXPECT_EQ(Old.Findings[0].Code, DiagCode::TargetTooOld);
  EXPECT_TRUE(checkAsmStatement(T, St, &Blackwell).Findings.empty());
}

// Issue 22's mutation test: each kind of miss it found, fixed at the root.
const std::optional<DiagCode> Clean;

std::optional<DiagCode> firstError(const std::string &S, std::initializer_list<const char *> Cs,
                                   const AsmStatementInfo *With = nullptr) {
  AsmCheckResult R = checkAsmStatement(splitAsmTemplate(S), With ? *With : info(Cs), nullptr);
  for (const AsmFinding &F : R.Findings)
    if (F.severity() == Severity::Error) return F.Code;
  return Clean;
}

TEST(AsmMatch, QualifierTheFamilyDoesNotUse) {
  // .rn is real PTX, but no setp form uses it (ptxas: Unknown modifier).
  EXPECT_EQ(firstError("setp.ne.b32.rn %0, %1, %2;", {"=b", "r", "r"}), DiagCode::UnknownQualifier);
  // No form of the instruction name tcgen05.ld uses .shared::cta.
  EXPECT_EQ(firstError("tcgen05.ld.sync.aligned.16x64b.x1.b32.shared::cta {%0}, [%1];", {"=r", "r"}),
            DiagCode::UnknownQualifier);
  // A prefix the table leaves out on purpose (TA_UNSUPPORTED) is left alone.
  EXPECT_EQ(firstError("st.bulk.weak.shared::cta [%0], %1, 0;", {"r", "l"}), Clean);
  EXPECT_EQ(firstError("mov.v4.u32 %0, %1;", {"=r", "r"}), Clean);
}

TEST(AsmMatch, SetpBarDecidesTheCount) {
  EXPECT_EQ(firstError("setp.ne.b32 %0, %1, 0;", {"=b", "r"}), Clean);
  EXPECT_EQ(firstError("setp.ne.b32 %0|%1, %2, 0;", {"=b", "=b", "r"}), Clean);
  EXPECT_EQ(firstError("setp.ne.b32 %0, %1, 0, 0;", {"=b", "r"}), DiagCode::OperandCount);
}

TEST(AsmMatch, ImmediateRangesPtxasChecks) {
  AsmStatementInfo St = info({"=r", "r", "n"});
  St.Operands[2].Value = 16;
  // tcgen05.mma's scale-input-d is [0..15]! in the table; bfe's b [0..255]!.
  EXPECT_EQ(firstError("bfe.u32 %0, %1, 256, 8;", {"=r", "r"}), DiagCode::ImmediateRequired);
  EXPECT_EQ(firstError("bfe.u32 %0, %1, 255, 8;", {"=r", "r"}), Clean);
  EXPECT_EQ(firstError("bfe.u32 %0, %1, 8, %2;", {}, &St), Clean);
  St.Operands[2].Value = 300;
  EXPECT_EQ(firstError("bfe.u32 %0, %1, 8, %2;", {}, &St), DiagCode::ImmediateRequired);
  EXPECT_EQ(firstError("setmaxnreg.inc.sync.aligned.u32 25;", {}), DiagCode::ImmediateRequired);
  EXPECT_EQ(firstError("setmaxnreg.inc.sync.aligned.u32 240;", {}), Clean);
  // ptxas assembles lop3's immLut 300: the range is the ISA's alone.
  EXPECT_EQ(firstError("lop3.b32 %0, %1, %1, %1, 300;", {"=r", "r"}), Clean);
}

TEST(AsmMatch, TensorMemoryAddressWidth) {
  EXPECT_EQ(firstError("tcgen05.ld.sync.aligned.16x64b.x1.b32 {%0}, [%1];", {"=r", "r"}), Clean);
  EXPECT_EQ(firstError("tcgen05.ld.sync.aligned.16x64b.x1.b32 {%0}, [%1];", {"=r", "l"}), DiagCode::AsmOperandMismatch);
  EXPECT_EQ(firstError("tcgen05.ld.sync.aligned.16x64b.x1.b32 {%0}, [%1];", {"=r", "h"}), DiagCode::AsmOperandMismatch);
}

TEST(AsmMatch, NameRunningIntoARegister) {
  EXPECT_EQ(firstError("tcgen05.st.sync.aligned.16x64b.x1.b32%0, {%1};", {"r", "r"}), DiagCode::InvalidForm);
  EXPECT_EQ(firstError("tcgen05.st.sync.aligned.16x64b.x1.b32[%0], {%1};", {"r", "r"}), Clean);
}

} // namespace
