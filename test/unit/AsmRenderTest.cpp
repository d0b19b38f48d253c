//===- AsmRenderTest.cpp - Inline-asm text and constraints ----------------===//
#include "tileapply/core/AsmRender.h"
#include "gtest/gtest.h"

using namespace tileapply;

namespace {

Form form(const char *S) { return *OpcodeTable::get().lookup(S).Found; }

AsmOperandBinding regOf(DType D) { return {AsmOperandBinding::Register, D, ""}; }
AsmOperandBinding addr() { return {AsmOperandBinding::Address, TILEAPPLY_DT_UNKNOWN, ""}; }

TEST(AsmRender, ThreeRegisterArithmetic) {
  auto S = renderAsm(form("add.rn.f16x2"), {regOf(TILEAPPLY_DT_U32), regOf(TILEAPPLY_DT_U32), regOf(TILEAPPLY_DT_U32)},
                     false, false);
  EXPECT_EQ(S.Text, "add.rn.f16x2 $0, $1, $2;");
  EXPECT_EQ(S.Constraints, "=r,r,r");
  EXPECT_FALSE(S.HasSideEffects);
}

TEST(AsmRender, ImmediateOperand) {
  AsmOperandBinding Imm{AsmOperandBinding::Immediate, TILEAPPLY_DT_F32, "0f3F800000"};
  auto S = renderAsm(form("add.f32"), {regOf(TILEAPPLY_DT_F32), regOf(TILEAPPLY_DT_F32), Imm}, false, false);
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
  auto S = renderAsm(form("add.s32"), {regOf(TILEAPPLY_DT_S32), regOf(TILEAPPLY_DT_S32), regOf(TILEAPPLY_DT_S32)}, true,
                     true);
  EXPECT_EQ(S.Text, "@$3 add.s32 $0, $1, $2;");
  EXPECT_EQ(S.Constraints, "=r,r,r,b,0");
  ASSERT_EQ(S.Slots.size(), 5u);
  EXPECT_EQ(S.Slots[3].R, AsmSlot::Predicate);
  EXPECT_EQ(S.Slots[4].R, AsmSlot::TiedOldValue);
  auto U = renderAsm(form("add.s32"), {regOf(TILEAPPLY_DT_S32), regOf(TILEAPPLY_DT_S32), regOf(TILEAPPLY_DT_S32)}, true,
                     false);
  EXPECT_EQ(U.Constraints, "=r,r,r,b");
}

TEST(AsmRender, ConstraintLetters) {
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_U8), 'c');
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_F16), 'h');
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_F16X2), 'r');
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_F32X2), 'l');
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_F64), 'd');
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_U128), 'q');
  EXPECT_EQ(constraintFor(TILEAPPLY_DT_S128), 'q');
}

// A .pred operand is an i1 ('b') whatever its carrier (a bool is an i8 in
// memory; the pass converts).
TEST(AsmRender, PredicateOperandsUseB) {
  auto Bool = regOf(TILEAPPLY_DT_BOOL);
  auto S = renderAsm(form("setp.lt.s32"), {Bool, Bool, regOf(TILEAPPLY_DT_S32), regOf(TILEAPPLY_DT_S32)}, false, false);
  EXPECT_EQ(S.Text, "setp.lt.s32 $0|$1, $2, $3;");
  EXPECT_EQ(S.Constraints, "=b,=b,r,r");
  AsmOperandBinding Omit{AsmOperandBinding::Omitted, TILEAPPLY_DT_UNKNOWN, ""};
  auto P = renderAsm(form("setp.lt.s32"), {Bool, Omit, regOf(TILEAPPLY_DT_S32), regOf(TILEAPPLY_DT_S32)}, true, true);
  EXPECT_EQ(P.Text, "@$3 setp.lt.s32 $0, $1, $2;");
  EXPECT_EQ(P.Constraints, "=b,r,r,b,0");
  auto Sel = renderAsm(form("selp.f32"),
                       {regOf(TILEAPPLY_DT_F32), regOf(TILEAPPLY_DT_F32), regOf(TILEAPPLY_DT_F32), Bool}, false, false);
  EXPECT_EQ(Sel.Text, "selp.f32 $0, $1, $2, $3;");
  EXPECT_EQ(Sel.Constraints, "=f,f,f,b");
  EXPECT_EQ(constraintFor(form("selp.f32").Operands[3], TILEAPPLY_DT_BOOL), 'b');
  EXPECT_EQ(constraintFor(form("selp.f32").Operands[0], TILEAPPLY_DT_F32), 'f');
}

TEST(AsmRender, NegatedPredicateSource) {
  auto Bool = regOf(TILEAPPLY_DT_BOOL);
  auto C = Bool;
  C.Negated = true;
  AsmOperandBinding Omit{AsmOperandBinding::Omitted, TILEAPPLY_DT_UNKNOWN, ""};
  auto S = renderAsm(form("setp.lt.and.s32"), {Bool, Omit, regOf(TILEAPPLY_DT_S32), regOf(TILEAPPLY_DT_S32), C}, true,
                     false);
  EXPECT_EQ(S.Text, "@$4 setp.lt.and.s32 $0, $1, $2, !$3;");
  EXPECT_EQ(S.Constraints, "=b,r,r,b,b");
}

TEST(AsmRender, ImmediateOperandIsText) {
  auto R = regOf(TILEAPPLY_DT_U32);
  AsmOperandBinding Lut{AsmOperandBinding::Immediate, TILEAPPLY_DT_S32, "232"};
  auto S = renderAsm(form("lop3.b32"), {R, R, R, R, Lut}, false, false);
  EXPECT_EQ(S.Text, "lop3.b32 $0, $1, $2, $3, 232;");
  EXPECT_EQ(S.Constraints, "=r,r,r,r");
  // Bound as a register (as the certification binds everything): the
  // lowest value of its range.
  auto C = renderAsm(form("lop3.b32"), {R, R, R, R, R}, false, false);
  EXPECT_EQ(C.Text, "lop3.b32 $0, $1, $2, $3, 0;");
  auto Or = renderAsm(form("lop3.or.b32"), {R, regOf(TILEAPPLY_DT_BOOL), R, R, R, Lut, regOf(TILEAPPLY_DT_BOOL)}, false,
                      false);
  EXPECT_EQ(Or.Text, "lop3.or.b32 $0|$1, $2, $3, $4, 232, $5;");
  EXPECT_EQ(Or.Constraints, "=r,=b,r,r,r,b");
}

TEST(AsmRender, SplitOperandIsARegisterGroup) {
  AsmOperandBinding Pair = regOf(TILEAPPLY_DT_U32);
  Pair.Split = 2;
  auto S = renderAsm(form("mov.b64"), {regOf(TILEAPPLY_DT_U64), Pair}, false, false);
  EXPECT_EQ(S.Text, "mov.b64 $0, {$1, $2};");
  EXPECT_EQ(S.Constraints, "=l,r,r");
  AsmOperandBinding Quad = regOf(TILEAPPLY_DT_U16);
  Quad.Split = 4;
  auto U = renderAsm(form("mov.b64"), {Quad, regOf(TILEAPPLY_DT_U64)}, true, true);
  EXPECT_EQ(U.Text, "@$5 mov.b64 {$0, $1, $2, $3}, $4;");
  EXPECT_EQ(U.Constraints, "=h,=h,=h,=h,l,b,0,1,2,3");
}

// mov.b128: a .b128 register is 'q' (an i128); its groups are 64- or 32-bit.
TEST(AsmRender, MovB128) {
  AsmOperandBinding Q = regOf(TILEAPPLY_DT_U128);
  auto C = renderAsm(form("mov.b128"), {regOf(TILEAPPLY_DT_S128), Q}, true, true);
  EXPECT_EQ(C.Text, "@$2 mov.b128 $0, $1;");
  EXPECT_EQ(C.Constraints, "=q,q,b,0");
  AsmOperandBinding Pair = regOf(TILEAPPLY_DT_U64);
  Pair.Split = 2;
  auto P = renderAsm(form("mov.b128"), {Q, Pair}, false, false);
  EXPECT_EQ(P.Text, "mov.b128 $0, {$1, $2};");
  EXPECT_EQ(P.Constraints, "=q,l,l");
  AsmOperandBinding Quad = regOf(TILEAPPLY_DT_U32);
  Quad.Split = 4;
  auto U = renderAsm(form("mov.b128"), {Quad, Q}, false, false);
  EXPECT_EQ(U.Text, "mov.b128 {$0, $1, $2, $3}, $4;");
  EXPECT_EQ(U.Constraints, "=r,=r,=r,=r,q");
}

} // namespace

// Structural gate (issue 3): every form of the table, in every variant the
// pass can emit, renders to exactly one PTX instruction: its own spelling,
// once, then operands, one terminating ';', no statement block ({ ... } other
// than register groups), and no second guard.
// The multi-instruction forms (docs/spec.md section 6) are the exceptions; they
// have tests of their own below.
TEST(AsmRender, EveryFormIsExactlyOneInstruction) {
  size_t Forms = 0;
  OpcodeTable::get().forEachForm([&](const Form &F) {
    if (F.isMultiInstruction()) return;
    ++Forms;
    std::vector<AsmOperandBinding> B;
    for (const OperandSpec &O : F.Operands)
      B.push_back(O.Direction == Dir::Addr ? AsmOperandBinding{AsmOperandBinding::Address, TILEAPPLY_DT_UNKNOWN, ""}
                                           : AsmOperandBinding{AsmOperandBinding::Register, TILEAPPLY_DT_U32, ""});
    for (int Variant = 0; Variant < 3; ++Variant) {
      bool Pred = Variant > 0, Preserve = Variant == 2 && F.hasDestination();
      std::string T = renderAsm(F, B, Pred, Preserve).Text;
      llvm::StringRef S(T);
      ASSERT_TRUE(S.ends_with(";")) << T;
      ASSERT_EQ(S.count(';'), 1u) << T;
      if (Pred) {
        ASSERT_TRUE(S.starts_with("@$")) << T;
        S = S.split(' ').second;
      }
      ASSERT_TRUE(S.starts_with(F.Spelling + " ") || S == F.Spelling + ";") << T;
      ASSERT_EQ(S.count('@'), 0u) << T;
      // Braces only around register groups: "{$1, $2}".
      for (size_t P = S.find('{'); P != llvm::StringRef::npos; P = S.find('{', P + 1)) ASSERT_EQ(S[P + 1], '$') << T;
    }
  });
  EXPECT_GT(Forms, 50000u);
}

// An FP4 pair conversion: one statement per repeat, a .b8 scratch register,
// every instruction (not the declaration) predicated.
TEST(AsmRender, MultiInstructionBody) {
  Form F = form("cvt.rn.satfinite.e2m1x2.f32");
  ASSERT_TRUE(F.isMultiInstruction());
  auto S = renderAsm(F, {regOf(TILEAPPLY_DT_U16), regOf(TILEAPPLY_DT_F32), regOf(TILEAPPLY_DT_F32)}, true, true);
  EXPECT_EQ(S.Text, "{\n\t.reg .b8 %fp4pair;\n\t@$3 cvt.rn.satfinite.e2m1x2.f32 %fp4pair, $1, $2;"
                    "\n\t@$3 cvt.u16.u8 $0, %fp4pair;\n\t}");
  // Several instructions in one statement: the output is early-clobber, so it
  // never shares a register with an input a later instruction reads.
  EXPECT_EQ(S.Constraints, "=&h,f,f,b,0");
  // Written in another order: emitted as written.
  Form R = *OpcodeTable::get().lookup("cvt.satfinite.rn.e2m1x2.f32").Found;
  EXPECT_NE(renderAsm(R, {regOf(TILEAPPLY_DT_U16), regOf(TILEAPPLY_DT_F32), regOf(TILEAPPLY_DT_F32)}, false, false)
                .Text.find("cvt.satfinite.rn.e2m1x2.f32 %fp4pair, $1, $2;"),
            std::string::npos);
}

// A carry chain: the whole call in one statement, outputs of every repeat
// first, the later words spelled from the call's own spelling.
TEST(AsmRender, CarryChain) {
  Form F = *OpcodeTable::get().lookup("add.u32.cc").Found;
  ASSERT_TRUE(F.isChain());
  std::vector<AsmOperandBinding> B(3, regOf(TILEAPPLY_DT_U32));
  auto One = renderAsm(F, B, false, false, 1);
  EXPECT_EQ(One.Text, "add.u32.cc $0, $1, $2;");
  auto S = renderAsm(F, B, false, false, 3);
  EXPECT_EQ(S.Text, "add.u32.cc $0, $3, $4;\n\taddc.u32.cc $1, $5, $6;\n\taddc.u32 $2, $7, $8;");
  // Word 0's output must not take the register of word 1's or 2's inputs.
  EXPECT_EQ(S.Constraints, "=&r,=&r,=&r,r,r,r,r,r,r");
  EXPECT_EQ(One.Constraints, "=r,r,r"); // one instruction: no early clobber needed
  ASSERT_EQ(S.Slots.size(), 9u);
  EXPECT_EQ(S.Slots[2].Repeat, 2u);
  EXPECT_EQ(S.Slots[5].Repeat, 1u);
  auto P = renderAsm(*OpcodeTable::get().lookup("mad.hi.cc.s64").Found,
                     std::vector<AsmOperandBinding>(4, regOf(TILEAPPLY_DT_S64)), true, false, 2);
  EXPECT_EQ(P.Text, "@$8 mad.hi.cc.s64 $0, $2, $3, $4;\n\t@$8 madc.hi.s64 $1, $5, $6, $7;");
}
