//===- AsmRenderTest.cpp - Inline-asm text and constraints ----------------===//
#include "tileapply/core/AsmRender.h"
#include "gtest/gtest.h"

using namespace tileapply;

namespace {

Form form(const char *S) { return *OpcodeTable::get().lookup(S).Found; }

AsmOperandBinding regOf(DType D) { return {AsmOperandBinding::Register, D, ""}; }
AsmOperandBinding addr() { return {AsmOperandBinding::Address, TILEAPPLY_DT_UNKNOWN, ""}; }

TEST(AsmRender, ThreeRegisterArithmetic) {
  auto S = renderAsm(form("add.rn.f16x2"), {regOf(TILEAPPLY_DT_U32), regOf(TILEAPPLY_DT_U32),
                                            regOf(TILEAPPLY_DT_U32)}, false, false);
  EXPECT_EQ(S.Text, "add.rn.f16x2 $0, $1, $2;");
  EXPECT_EQ(S.Constraints, "=r,r,r");
  EXPECT_FALSE(S.HasSideEffects);
}

TEST(AsmRender, ImmediateOperand) {
  AsmOperandBinding Imm{AsmOperandBinding::Immediate, TILEAPPLY_DT_F32, "0f3F800000"};
  auto S = renderAsm(form("add.f32"), {regOf(TILEAPPLY_DT_F32), regOf(TILEAPPLY_DT_F32), Imm},
                     false, false);
  EXPECT_EQ(S.Text, "add.f32 $0, $1, 0f3F800000;");
  EXPECT_EQ(S.Constraints, "=f,f");
}

TEST(AsmRender, VectorLoadIsVolatileWithClobber) {
  auto S = renderAsm(form("ld.global.v4.b32"), {regOf(TILEAPPLY_DT_F32), addr()}, false, false);
  EXPECT_EQ(S.Text, "ld.global.v4.b32 {$0, $1, $2, $3}, [$4];");
  EXPECT_EQ(S.Constraints, "=f,=f,=f,=f,l,~{memory}");
  EXPECT_TRUE(S.HasSideEffects);
}

TEST(AsmRender, StoreHasNoOutputs) {
  auto S = renderAsm(form("st.shared.b16"), {addr(), regOf(TILEAPPLY_DT_F16)}, false, false);
  EXPECT_EQ(S.Text, "st.shared.b16 [$0], $1;");
  EXPECT_EQ(S.Constraints, "l,h,~{memory}");
}

TEST(AsmRender, PredicatedAndPreserved) {
  auto S = renderAsm(form("add.s32"), {regOf(TILEAPPLY_DT_S32), regOf(TILEAPPLY_DT_S32),
                                       regOf(TILEAPPLY_DT_S32)}, true, true);
  EXPECT_EQ(S.Text, "@$3 add.s32 $0, $1, $2;");
  EXPECT_EQ(S.Constraints, "=r,r,r,b,0");
  ASSERT_EQ(S.Slots.size(), 5u);
  EXPECT_EQ(S.Slots[3].R, AsmSlot::Predicate);
  EXPECT_EQ(S.Slots[4].R, AsmSlot::TiedOldValue);
  auto U = renderAsm(form("add.s32"), {regOf(TILEAPPLY_DT_S32), regOf(TILEAPPLY_DT_S32),
                                       regOf(TILEAPPLY_DT_S32)}, true, false);
  EXPECT_EQ(U.Constraints, "=r,r,r,b");
}

TEST(AsmRender, ConstraintLetters) {
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_U8), 'c');
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_F16), 'h');
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_F16X2), 'r');
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_F32X2), 'l');
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_F64), 'd');
}

} // namespace
