//===- CallRulesTest.cpp - The layout rules, one refusal at a time --------===//
#include "tileapply/core/CallRules.h"
#include "tileapply/core/Immediates.h"
#include "gtest/gtest.h"

using namespace tileapply;

namespace {

Form form(const char *S) {
  LookupResult R = OpcodeTable::get().lookup(S);
  EXPECT_TRUE(R) << S;
  return *R.Found;
}

ArgDesc reg(DType D, std::initializer_list<int64_t> Ext) {
  ArgDesc A;
  A.Kind = TILEAPPLY_KIND_REGISTER;
  A.Elem = D;
  A.Extents.assign(Ext.begin(), Ext.end());
  int64_t S = 1;
  A.Strides.resize(A.Extents.size());
  for (int I = static_cast<int>(A.Extents.size()) - 1; I >= 0; --I) {
    A.Strides[I] = S;
    S *= A.Extents[I];
  }
  A.Storage = S;
  return A;
}
ArgDesc mem(DType D, Space Sp, std::initializer_list<int64_t> Ext) {
  ArgDesc A = reg(D, Ext);
  A.Kind = TILEAPPLY_KIND_MEMORY;
  A.Sp = Sp;
  return A;
}
ArgDesc scalar(DType D) {
  ArgDesc A;
  A.Kind = TILEAPPLY_KIND_SCALAR;
  A.Elem = D;
  A.Storage = 1;
  return A;
}
ArgDesc intLiteral(int64_t V) {
  ArgDesc A = scalar(TILEAPPLY_DT_S32);
  A.Constant = ScalarConst{false, 0, V, true};
  return A;
}
ArgDesc floatConst(DType D, double V) {
  ArgDesc A = scalar(D);
  A.Constant = ScalarConst{true, V, 0, false};
  return A;
}
ArgDesc predScalar() {
  ArgDesc A;
  A.Kind = TILEAPPLY_KIND_PRED_SCALAR;
  A.Elem = TILEAPPLY_DT_BOOL;
  return A;
}
ArgDesc preserve() {
  ArgDesc A;
  A.Kind = TILEAPPLY_KIND_PRESERVE_DST;
  return A;
}

std::vector<DiagCode> codes(const char *Op, std::vector<ArgDesc> Args, const Target *T = nullptr) {
  std::vector<DiagCode> Out;
  for (const Problem &P : checkCall(form(Op), Args, T)) Out.push_back(P.Code);
  return Out;
}
using V = std::vector<DiagCode>;

const DType U32 = TILEAPPLY_DT_U32, F32 = TILEAPPLY_DT_F32, S32 = TILEAPPLY_DT_S32, S64 = TILEAPPLY_DT_S64;

TEST(Layout, SeedCallsAreClean) {
  BoundCall B;
  auto P = checkCall(form("add.rn.f16x2"), {reg(U32, {8, 1}), reg(U32, {8, 1}), reg(U32, {8, 1})}, nullptr, &B);
  EXPECT_TRUE(P.empty());
  EXPECT_EQ(B.numRepeats(), 8);
  EXPECT_EQ(codes("ld.global.b32", {reg(U32, {8, 1}), mem(U32, TILEAPPLY_SPACE_GLOBAL, {8, 1})}), V{});
  EXPECT_EQ(codes("st.global.f32", {mem(F32, TILEAPPLY_SPACE_GLOBAL, {4, 1}), reg(F32, {4, 1})}), V{});
  EXPECT_EQ(codes("add.f32", {reg(F32, {4, 1}), reg(F32, {4, 1}), scalar(F32)}), V{});
}

TEST(Layout, CountAndKinds) {
  EXPECT_EQ(codes("add.rn.f16x2", {reg(U32, {8, 1}), reg(U32, {8, 1})}), V{DiagCode::OperandCount});
  EXPECT_EQ(codes("abs.f32", {scalar(F32), reg(F32, {4, 1})}), V{DiagCode::ScalarDestination});
  ArgDesc C = reg(F32, {4, 1});
  C.IsConst = true;
  EXPECT_EQ(codes("abs.f32", {C, reg(F32, {4, 1})}), V{DiagCode::ConstDestination});
  EXPECT_EQ(codes("abs.f32", {reg(F32, {4, 1}), mem(F32, TILEAPPLY_SPACE_SHARED, {4, 1})}),
            V{DiagCode::MemoryWhereRegister});
  EXPECT_EQ(codes("ld.global.f32", {reg(F32, {4, 1}), reg(F32, {4, 1})}), V{DiagCode::RegisterWhereAddress});
  EXPECT_EQ(codes("ld.global.f32", {reg(F32, {4, 1}), mem(F32, TILEAPPLY_SPACE_SHARED, {4, 1})}),
            V{DiagCode::WrongStateSpace});
}

TEST(Layout, Carriers) {
  EXPECT_EQ(codes("add.rn.f16x2", {reg(U32, {8, 1}), reg(F32, {8, 1}), reg(U32, {8, 1})}),
            V{DiagCode::CarrierMismatch});
  EXPECT_EQ(codes("add.rn.f16x2", {reg(TILEAPPLY_DT_F16X2, {8, 1}), reg(U32, {8, 1}), reg(U32, {8, 1})}), V{});
  // mul.wide.s32 needs a 64-bit destination.
  EXPECT_EQ(codes("mul.wide.s32", {reg(S32, {2, 1}), reg(S32, {2, 1}), reg(S32, {2, 1})}),
            V{DiagCode::CarrierMismatch});
  EXPECT_EQ(codes("mul.wide.s32", {reg(S64, {2, 1}), reg(S32, {2, 1}), reg(S32, {2, 1})}), V{});
  // .b32 takes any 32-bit type; .s32 exactly int.
  EXPECT_EQ(codes("mov.b32", {reg(F32, {2, 1}), reg(U32, {2, 1})}), V{});
  EXPECT_EQ(codes("mov.s32", {reg(U32, {2, 1}), reg(S32, {2, 1})}), V{DiagCode::CarrierMismatch});
}

TEST(Layout, ScalarConstants) {
  // 1.0 (a double) converts exactly to .f32; 0.1 does not.
  EXPECT_EQ(codes("add.f32", {reg(F32, {4, 1}), reg(F32, {4, 1}), floatConst(TILEAPPLY_DT_F64, 1.0)}), V{});
  EXPECT_EQ(codes("add.f32", {reg(F32, {4, 1}), reg(F32, {4, 1}), floatConst(TILEAPPLY_DT_F64, 0.1)}),
            V{DiagCode::ScalarNotExact});
  // A runtime double is a carrier mismatch.
  EXPECT_EQ(codes("add.f32", {reg(F32, {4, 1}), reg(F32, {4, 1}), scalar(TILEAPPLY_DT_F64)}),
            V{DiagCode::CarrierMismatch});
  // An integer literal to a packed floating operand: accepted as bits, warned.
  auto P = checkCall(form("add.rn.f16x2"), {reg(U32, {8, 1}), reg(U32, {8, 1}), intLiteral(2)}, nullptr);
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Code, DiagCode::PackedIntegerLiteral);
  EXPECT_EQ(P[0].severity(), Severity::Warning);
  ASSERT_EQ(P[0].Notes.size(), 1u);
  EXPECT_NE(P[0].Notes[0].find("0x40004000"), std::string::npos) << P[0].Notes[0];
  // A floating constant to a packed operand would need a pack: refused.
  EXPECT_EQ(codes("add.rn.f16x2", {reg(U32, {8, 1}), reg(U32, {8, 1}), floatConst(TILEAPPLY_DT_F64, 2.0)}),
            V{DiagCode::ScalarNotExact});
}

TEST(Layout, Shapes) {
  EXPECT_EQ(codes("add.s32", {reg(S32, {8, 1}), reg(S32, {4, 1}), reg(S32, {8, 1})}), V{DiagCode::RepeatMismatch});
  EXPECT_EQ(codes("add.s32", {reg(S32, {8, 1}), reg(S32, {1, 1}), reg(S32, {8, 1})}), V{DiagCode::ImplicitBroadcast});
  EXPECT_EQ(codes("add.s32", {reg(S32, {8, 2}), reg(S32, {8, 2}), reg(S32, {8, 2})}),
            (V{DiagCode::GroupMismatch, DiagCode::GroupMismatch, DiagCode::GroupMismatch}));
  EXPECT_EQ(codes("ld.global.v4.b32", {reg(U32, {2, 4}), mem(U32, TILEAPPLY_SPACE_GLOBAL, {2, 4})}), V{});
  EXPECT_EQ(codes("ld.global.v4.b32", {reg(U32, {8, 1}), mem(U32, TILEAPPLY_SPACE_GLOBAL, {8, 1})}),
            (V{DiagCode::GroupMismatch, DiagCode::GroupMismatch}));
}

TEST(Layout, ViewsAndDestinations) {
  // A zero-stride input view is an explicit broadcast: fine.
  ArgDesc Bcast = reg(S32, {1, 1});
  Bcast.Extents = {8, 1};
  Bcast.Strides = {0, 1};
  EXPECT_EQ(codes("add.s32", {reg(S32, {8, 1}), reg(S32, {8, 1}), Bcast}), V{});
  // ... but not as a destination.
  EXPECT_EQ(codes("add.s32", {Bcast, reg(S32, {8, 1}), reg(S32, {8, 1})}), V{DiagCode::OverlappingDestination});
  // A gapped destination (every other element) is distinct: fine.
  ArgDesc Gapped = reg(S32, {8, 1});
  Gapped.Extents = {4, 1};
  Gapped.Strides = {2, 1};
  EXPECT_EQ(codes("add.s32", {Gapped, reg(S32, {4, 1}), reg(S32, {4, 1})}), V{});
  // A view past its storage.
  ArgDesc Over = reg(S32, {4, 1});
  Over.Extents = {4, 1};
  Over.Strides = {2, 1};
  EXPECT_EQ(codes("add.s32", {reg(S32, {4, 1}), Over, reg(S32, {4, 1})}), V{DiagCode::ViewOutOfBounds});
}

TEST(Layout, ScalarCannotFillARegisterGroup) {
  EXPECT_EQ(codes("st.global.v2.f32", {mem(F32, TILEAPPLY_SPACE_GLOBAL, {4, 2}), floatConst(F32, 1.0)}),
            V{DiagCode::GroupMismatch});
}

TEST(Layout, StoreAddressIsADestination) {
  ArgDesc ConstOut = mem(F32, TILEAPPLY_SPACE_GLOBAL, {4, 1});
  ConstOut.IsConst = true;
  EXPECT_EQ(codes("st.global.f32", {ConstOut, reg(F32, {4, 1})}), V{DiagCode::ConstDestination});
  ArgDesc Bcast = mem(F32, TILEAPPLY_SPACE_GLOBAL, {4, 1});
  Bcast.Strides = {0, 1};
  EXPECT_EQ(codes("st.global.f32", {Bcast, reg(F32, {4, 1})}), V{DiagCode::OverlappingDestination});
  // A load may read the same element for every repeat.
  EXPECT_EQ(codes("ld.global.f32", {reg(F32, {4, 1}), Bcast}), V{});
}

TEST(Layout, Options) {
  EXPECT_EQ(codes("add.s32", {reg(S32, {4, 1}), reg(S32, {4, 1}), reg(S32, {4, 1}), preserve()}),
            V{DiagCode::PreserveWithoutPred});
  EXPECT_EQ(
      codes("st.global.b32", {mem(U32, TILEAPPLY_SPACE_GLOBAL, {4, 1}), reg(U32, {4, 1}), predScalar(), preserve()}),
      V{DiagCode::PreserveWithoutDst});
  EXPECT_EQ(codes("add.s32", {reg(S32, {4, 1}), reg(S32, {4, 1}), predScalar(), reg(S32, {4, 1})}),
            V{DiagCode::OptionOrder});
  BoundCall B;
  EXPECT_TRUE(checkCall(form("add.s32"),
                        {reg(S32, {4, 1}), reg(S32, {4, 1}), reg(S32, {4, 1}), predScalar(), preserve()}, nullptr, &B)
                  .empty());
  EXPECT_EQ(B.PredArg, 3);
  EXPECT_TRUE(B.PreserveDst);
  ArgDesc PT = reg(TILEAPPLY_DT_BOOL, {4, 1});
  PT.Kind = TILEAPPLY_KIND_PRED_TENSOR;
  EXPECT_EQ(codes("add.s32", {reg(S32, {4, 1}), reg(S32, {4, 1}), reg(S32, {4, 1}), PT}), V{});
  ArgDesc PT8 = reg(TILEAPPLY_DT_BOOL, {8, 1});
  PT8.Kind = TILEAPPLY_KIND_PRED_TENSOR;
  EXPECT_EQ(codes("add.s32", {reg(S32, {4, 1}), reg(S32, {4, 1}), reg(S32, {4, 1}), PT8}), V{DiagCode::PredicateShape});
}

TEST(Layout, Target) {
  Target Hopper = *parseTarget("sm_90a");
  EXPECT_EQ(Hopper.Sm, 90u);
  EXPECT_EQ(Hopper.Suffix, 'a');
  auto P =
      checkCall(form("add.rn.f32x2"),
                {reg(TILEAPPLY_DT_U64, {2, 1}), reg(TILEAPPLY_DT_U64, {2, 1}), reg(TILEAPPLY_DT_U64, {2, 1})}, &Hopper);
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Code, DiagCode::TargetTooOld);
  EXPECT_NE(P[0].Message.find("sm_100"), std::string::npos);
  EXPECT_NE(P[0].Message.find("sm_90a"), std::string::npos);
  Target Old{90, 'a', 70};
  EXPECT_EQ(codes("add.rn.bf16x2", {reg(U32, {1, 1}), reg(U32, {1, 1}), reg(U32, {1, 1})}, &Old),
            V{DiagCode::PtxTooOld});
  EXPECT_EQ(parsePtxFeature("+ptx88,+sm_90a"), 88u);
}

TEST(Layout, RowMajorOffsets) {
  ArgDesc A = reg(S32, {2, 3, 1});
  // Repeat 4 of a [2, 3] repeat shape is (1, 1): offset 1*3 + 1*1.
  EXPECT_EQ(elementOffset(A, {2, 3}, 4, 0), 4);
  ArgDesc G = reg(U32, {2, 4});
  EXPECT_EQ(elementOffset(G, {2}, 1, 3), 7);
  ArgDesc Gapped = reg(S32, {8, 1});
  Gapped.Extents = {4, 1};
  Gapped.Strides = {2, 1};
  EXPECT_EQ(elementOffset(Gapped, {4}, 3, 0), 6);
  EXPECT_EQ(elementOffset(scalar(F32), {4}, 3, 0), 0);
}

TEST(Layout, DecodesTheHeaderFormat) {
  // { version, nargs, {REGISTER, u32, none, 8, rank 2, 8 1, 1 1}, {SCALAR, f64, ...} }
  std::vector<int32_t> W = {1, 2, 1, 6, 0, 8, 2, 8, 1, 1, 1, 3, 13, 0, 1, 0};
  auto Args = decodeLayout(W);
  ASSERT_TRUE(static_cast<bool>(Args)) << llvm::toString(Args.takeError());
  ASSERT_EQ(Args->size(), 2u);
  EXPECT_EQ((*Args)[0].Kind, TILEAPPLY_KIND_REGISTER);
  EXPECT_EQ((*Args)[0].shapeString(), "[8, 1]");
  EXPECT_EQ((*Args)[1].Elem, TILEAPPLY_DT_F64);
  // An empty axis decodes (the rules refuse it at the argument).
  std::vector<int32_t> Empty = {1, 1, 1, 7, 0, 8, 2, 0, 1, 1, 1};
  auto E = decodeLayout(Empty);
  ASSERT_TRUE(static_cast<bool>(E));
  ArgDesc R = reg(S32, {4, 1});
  EXPECT_EQ(codes("abs.s32", {(*E)[0], R}), V{DiagCode::ShapeOutOfRange});
  EXPECT_EQ(codes("abs.s32", {reg(S32, {70000, 1}), reg(S32, {70000, 1})}),
            (V{DiagCode::ShapeOutOfRange, DiagCode::ShapeOutOfRange}));
  for (std::vector<int32_t> Bad : std::vector<std::vector<int32_t>>{{},
                                                                    {2, 0},
                                                                    {1, 1},
                                                                    {1, 1, 1, 6, 0, 8, 100},
                                                                    {1, 1, 1, 6, 0, 8, 1, -4, 1},
                                                                    {1, 1, 99, 6, 0, 8, 0},
                                                                    {1, 0, 7}}) {
    auto R = decodeLayout(Bad);
    EXPECT_FALSE(static_cast<bool>(R));
    if (!R) llvm::consumeError(R.takeError());
  }
}

TEST(Layout, Immediates) {
  EXPECT_EQ(immediateText(PtxType::f32, ScalarConst{true, 1.0, 0, false}), "0f3F800000");
  EXPECT_EQ(immediateText(PtxType::s32, ScalarConst{false, 0, -5, true}), "-5");
  EXPECT_EQ(immediateText(PtxType::u32, ScalarConst{false, 0, -5, true}), "");
  EXPECT_EQ(immediateText(PtxType::f16x2, ScalarConst{false, 0, 5, true}), ""); // no f16x2 immediates
  EXPECT_EQ(immediateText(PtxType::f64, ScalarConst{true, 2.0, 0, false}), "0d4000000000000000");
}

// ---- operand kinds of the comparison, logic and select families -------------------

const DType Bool = TILEAPPLY_DT_BOOL;

TEST(Layout, SetpPairIsOptional) {
  BoundCall B;
  // p, a, b: q left out.
  EXPECT_TRUE(
      checkCall(form("setp.lt.s32"), {reg(Bool, {4, 1}), reg(S32, {4, 1}), reg(S32, {4, 1})}, nullptr, &B).empty());
  EXPECT_EQ(B.OperandArg, (std::vector<int>{0, -1, 1, 2}));
  // p|q, a, b.
  BoundCall B2;
  EXPECT_TRUE(checkCall(form("setp.lt.s32"), {reg(Bool, {4, 1}), reg(Bool, {4, 1}), reg(S32, {4, 1}), reg(S32, {4, 1})},
                        nullptr, &B2)
                  .empty());
  EXPECT_EQ(B2.OperandArg, (std::vector<int>{0, 1, 2, 3}));
  // Two operands: neither count.
  auto P = checkCall(form("setp.lt.s32"), {reg(Bool, {4, 1}), reg(S32, {4, 1})}, nullptr);
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Code, DiagCode::OperandCount);
  EXPECT_NE(P[0].Message.find("takes 3 or 4 operands (p|q?, a, b)"), std::string::npos) << P[0].Message;
  // A predicate destination is a bool tensor.
  EXPECT_EQ(codes("setp.lt.s32", {reg(U32, {4, 1}), reg(S32, {4, 1}), reg(S32, {4, 1})}), V{DiagCode::CarrierMismatch});
}

TEST(Layout, PredicateInputsAreBools) {
  EXPECT_EQ(codes("selp.b32", {reg(U32, {2, 1}), reg(U32, {2, 1}), reg(U32, {2, 1}), reg(Bool, {2, 1})}), V{});
  EXPECT_EQ(codes("selp.b32", {reg(U32, {2, 1}), reg(U32, {2, 1}), reg(U32, {2, 1}), scalar(Bool)}), V{});
  EXPECT_EQ(codes("setp.eq.and.f32", {reg(Bool, {2, 1}), reg(F32, {2, 1}), reg(F32, {2, 1}), scalar(Bool)}), V{});
}

TEST(Layout, NegatedOnlyWherePtxHasIt) {
  ArgDesc C = scalar(Bool);
  C.Negated = true;
  EXPECT_EQ(codes("setp.lt.and.s32", {reg(Bool, {2, 1}), reg(S32, {2, 1}), reg(S32, {2, 1}), C}), V{});
  ArgDesc Ct = reg(Bool, {2, 1});
  Ct.Negated = true;
  EXPECT_EQ(codes("set.lt.or.u32.s32", {reg(U32, {2, 1}), reg(S32, {2, 1}), reg(S32, {2, 1}), Ct}), V{});
  auto P = checkCall(form("selp.b32"), {reg(U32, {2, 1}), reg(U32, {2, 1}), reg(U32, {2, 1}), C}, nullptr);
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Code, DiagCode::NotNegatable);
  EXPECT_EQ(P[0].Arg, 3);
  ArgDesc A = reg(S32, {2, 1});
  A.Negated = true;
  EXPECT_EQ(codes("add.s32", {reg(S32, {2, 1}), A, reg(S32, {2, 1})}), V{DiagCode::NotNegatable});
  // The header's bit decodes.
  std::vector<int32_t> W{
      TILEAPPLY_LAYOUT_VERSION, 1, TILEAPPLY_KIND_SCALAR | TILEAPPLY_QUAL_NEGATE, TILEAPPLY_DT_BOOL, 0, 1, 0};
  auto D = decodeLayout(W);
  ASSERT_TRUE(bool(D));
  EXPECT_TRUE((*D)[0].Negated);
}

TEST(Layout, TargetSpecificAndOptionalFloors) {
  Target Sm100{100, 0, 88}, Sm100a{100, 'a', 88}, Hopper{90, 'a', 88}, Ptx86{100, 'a', 86};
  auto Rs = [&](const Target &T) {
    return codes("cvt.rs.f16x2.f32", {reg(U32, {1, 1}), scalar(F32), scalar(F32), scalar(U32)}, &T);
  };
  EXPECT_EQ(Rs(Sm100a), V{});
  EXPECT_EQ(Rs(Sm100), V{DiagCode::TargetTooOld});
  auto Min = [&](bool Three, const Target &T) {
    std::vector<ArgDesc> Args{reg(F32, {1, 1}), scalar(F32), scalar(F32)};
    if (Three) Args.push_back(scalar(F32));
    return codes("min.f32", Args, &T);
  };
  EXPECT_EQ(Min(false, Hopper), V{});
  EXPECT_EQ(Min(true, Hopper), V{DiagCode::TargetTooOld});
  EXPECT_EQ(Min(true, Sm100), V{});
  EXPECT_EQ(Min(true, Ptx86), V{DiagCode::PtxTooOld});
  EXPECT_EQ(Min(false, Ptx86), V{});
}

TEST(Layout, ImmediateOperands) {
  auto Lop = [](ArgDesc Imm) {
    return codes("lop3.b32", {reg(U32, {2, 1}), reg(U32, {2, 1}), reg(U32, {2, 1}), reg(U32, {2, 1}), Imm});
  };
  EXPECT_EQ(Lop(intLiteral(0xE8)), V{});
  EXPECT_EQ(Lop(intLiteral(0)), V{});
  EXPECT_EQ(Lop(intLiteral(255)), V{});
  EXPECT_EQ(Lop(intLiteral(256)), V{DiagCode::ImmediateRequired});
  EXPECT_EQ(Lop(intLiteral(-1)), V{DiagCode::ImmediateRequired});
  EXPECT_EQ(Lop(scalar(U32)), V{DiagCode::ImmediateRequired}); // not a constant
  EXPECT_EQ(Lop(reg(U32, {2, 1})), V{DiagCode::ImmediateRequired});
  auto P = checkCall(form("lop3.b32"),
                     {reg(U32, {2, 1}), reg(U32, {2, 1}), reg(U32, {2, 1}), reg(U32, {2, 1}), scalar(U32)}, nullptr);
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Arg, 4);
  EXPECT_NE(P[0].Message.find("'immLut'"), std::string::npos) << P[0].Message;
  EXPECT_NE(P[0].Message.find("[0..255]"), std::string::npos) << P[0].Message;
}

TEST(Layout, MovPacksAndUnpacksOneGroup) {
  const DType U64 = TILEAPPLY_DT_U64, U16 = TILEAPPLY_DT_U16;
  BoundCall B;
  // mov.b64 d, {a, b}: the source is two 32-bit registers.
  EXPECT_TRUE(checkCall(form("mov.b64"), {reg(U64, {3, 1}), reg(U32, {3, 2})}, nullptr, &B).empty());
  EXPECT_EQ(B.Split, (std::vector<unsigned>{1, 2}));
  // mov.b64 {a, b, c, d}, s: the destination is four 16-bit registers.
  BoundCall B2;
  EXPECT_TRUE(checkCall(form("mov.b64"), {reg(U16, {3, 4}), reg(U64, {3, 1})}, nullptr, &B2).empty());
  EXPECT_EQ(B2.Split, (std::vector<unsigned>{4, 1}));
  // A plain move is not split.
  EXPECT_EQ(codes("mov.b32", {reg(F32, {2, 1}), reg(U32, {2, 1})}), V{});
  // The parts must fill the width exactly, and only one side is a group.
  EXPECT_EQ(codes("mov.b64", {reg(U64, {3, 1}), reg(U16, {3, 2})}), V{DiagCode::CarrierMismatch});
  EXPECT_EQ(codes("mov.b64", {reg(U64, {3, 1}), reg(U32, {3, 3})}),
            (V{DiagCode::CarrierMismatch, DiagCode::GroupMismatch}));
  EXPECT_EQ(codes("mov.b64", {reg(U32, {3, 2}), reg(U32, {3, 2})}), V{DiagCode::GroupMismatch});
  EXPECT_EQ(codes("mov.u64", {reg(U64, {3, 1}), reg(U32, {3, 2})}),
            (V{DiagCode::CarrierMismatch, DiagCode::GroupMismatch})); // only .bN split
}

TEST(Layout, MovB128PacksAndUnpacks) {
  const DType U64 = TILEAPPLY_DT_U64, U128 = TILEAPPLY_DT_U128, S128 = TILEAPPLY_DT_S128, U16 = TILEAPPLY_DT_U16;
  // A copy between any two 128-bit carriers, not split.
  BoundCall C;
  EXPECT_TRUE(checkCall(form("mov.b128"), {reg(S128, {2, 1}), reg(U128, {2, 1})}, nullptr, &C).empty());
  EXPECT_EQ(C.Split, (std::vector<unsigned>{1, 1}));
  EXPECT_EQ(C.RepeatExtents, (llvm::SmallVector<int64_t, 4>{2}));
  // {a, b} of two 64-bit halves, and {a, b, c, d} of four 32-bit words.
  BoundCall P;
  EXPECT_TRUE(checkCall(form("mov.b128"), {reg(U128, {3, 1}), reg(S64, {3, 2})}, nullptr, &P).empty());
  EXPECT_EQ(P.Split, (std::vector<unsigned>{1, 2}));
  BoundCall U;
  EXPECT_TRUE(checkCall(form("mov.b128"), {reg(F32, {3, 4}), reg(U128, {3, 1})}, nullptr, &U).empty());
  EXPECT_EQ(U.Split, (std::vector<unsigned>{4, 1}));
  // A 128-bit scalar is one register.
  EXPECT_EQ(codes("mov.b128", {reg(U64, {3, 2}), scalar(S128)}), V{});
  // 64 bits where the .b128 needs 128: tensor, scalar, or a group too narrow.
  EXPECT_EQ(codes("mov.b128", {reg(U128, {3, 1}), reg(U64, {3, 1})}), V{DiagCode::CarrierMismatch});
  EXPECT_EQ(codes("mov.b128", {reg(U128, {3, 1}), scalar(U64)}), V{DiagCode::CarrierMismatch});
  EXPECT_EQ(codes("mov.b128", {reg(U128, {3, 1}), reg(U32, {3, 2})}), V{DiagCode::CarrierMismatch});
  EXPECT_EQ(codes("mov.b128", {reg(U128, {3, 1}), reg(U64, {3, 4})}), V{DiagCode::CarrierMismatch});
  // No group of 8 x 16 bits (PTX refuses it), and no group of 3.
  EXPECT_EQ(codes("mov.b128", {reg(U128, {3, 1}), reg(U16, {3, 8})}),
            (V{DiagCode::CarrierMismatch, DiagCode::GroupMismatch}));
  auto G = checkCall(form("mov.b128"), {reg(U32, {3, 3}), reg(U128, {3, 1})}, nullptr);
  ASSERT_EQ(G.size(), 2u);
  EXPECT_EQ(G[1].Code, DiagCode::GroupMismatch);
  EXPECT_NE(G[1].Message.find("or 2 (64-bit) or 4 (32-bit) registers that fill the .b128"), std::string::npos)
      << G[1].Message;
  // One side at a time.
  EXPECT_EQ(codes("mov.b128", {reg(U64, {3, 2}), reg(U32, {3, 4})}), V{DiagCode::GroupMismatch});
  // A 128-bit carrier is not a 64-bit operand, split or not.
  EXPECT_EQ(codes("mov.b64", {reg(U64, {3, 1}), reg(U128, {3, 1})}), V{DiagCode::CarrierMismatch});
  // The floor: sm_70 and PTX ISA 8.3.
  Target Old = *parseTarget("sm_60");
  EXPECT_EQ(codes("mov.b128", {reg(U128, {3, 1}), reg(U128, {3, 1})}, &Old), V{DiagCode::TargetTooOld});
  Target Volta = *parseTarget("sm_70");
  Volta.PtxVersion = 82;
  EXPECT_EQ(codes("mov.b128", {reg(U128, {3, 1}), reg(U128, {3, 1})}, &Volta), V{DiagCode::PtxTooOld});
  Volta.PtxVersion = 83;
  EXPECT_EQ(codes("mov.b128", {reg(U128, {3, 1}), reg(U128, {3, 1})}, &Volta), V{});
}

// A constant fits a .b128 when it is a nonnegative integer (every int64_t
// bit pattern of one fits in 128 bits), but it is never a PTX immediate.
TEST(Layout, ConstantsForB128) {
  ScalarConst Five{false, 0, 5, true}, Big{false, 0, INT64_MAX, false}, Neg{false, 0, -1, true},
      Half{true, 0.5, 0, false};
  EXPECT_TRUE(constantFitsExactly(PtxType::b128, Five));
  EXPECT_TRUE(constantFitsExactly(PtxType::b128, Big));
  EXPECT_FALSE(constantFitsExactly(PtxType::b128, Neg));
  EXPECT_FALSE(constantFitsExactly(PtxType::b128, Half));
  EXPECT_EQ(immediateText(PtxType::b128, Five), "");
  EXPECT_EQ(immediateText(PtxType::b64, Five), "5");
  EXPECT_EQ(codes("mov.b128", {reg(TILEAPPLY_DT_U128, {2, 1}), intLiteral(5)}), V{});
  EXPECT_EQ(codes("mov.b128", {reg(TILEAPPLY_DT_U128, {2, 1}), intLiteral(-1)}), V{DiagCode::ScalarNotExact});
}

} // namespace

// A bool constant never stands for a number (it would make cp.async's
// `..., 16, true` src-size 1); a predicate constant is never an immediate
// (PTX reads an immediate in cp.async's fourth place as src-size).
TEST(Layout, BoolConstantIsNoNumber) {
  ArgDesc True = scalar(TILEAPPLY_DT_BOOL);
  True.Constant = ScalarConst{false, 0, 1, false};
  EXPECT_EQ(codes("add.u32", {reg(U32, {1, 1}), reg(U32, {1, 1}), True}), V{DiagCode::ScalarNotExact});
  EXPECT_EQ(immediateText(PtxType::pred, ScalarConst{false, 0, 1, false}), "");
  // cp.async's two operand lists: the bool goes to ignore-src.
  LookupResult R = OpcodeTable::get().lookup("cp.async.ca.shared.global");
  ASSERT_TRUE(R);
  ArgDesc Dst = mem(TILEAPPLY_DT_U32, TILEAPPLY_SPACE_SHARED, {1});
  ArgDesc Src = mem(TILEAPPLY_DT_U32, TILEAPPLY_SPACE_GLOBAL, {1});
  const Form *Chosen = nullptr;
  BoundCall B;
  EXPECT_TRUE(checkCall(R, {Dst, Src, intLiteral(16), True}, nullptr, &B, &Chosen).empty());
  ASSERT_TRUE(Chosen);
  EXPECT_EQ(Chosen->Operands[3].Type, PtxType::pred);
  EXPECT_TRUE(checkCall(R, {Dst, Src, intLiteral(16), intLiteral(8)}, nullptr, &B, &Chosen).empty());
  EXPECT_EQ(Chosen->Operands[3].Type, PtxType::u32);
}

// issue 17 item 6: misalignment between repeats of a wide memory access
TEST(Layout, MisalignedRepeatOfAVectorAccess) {
  ArgDesc Overlapping = mem(F32, TILEAPPLY_SPACE_GLOBAL, {2, 4});
  Overlapping.Strides = {1, 1};
  EXPECT_EQ(codes("ld.global.v4.f32", {reg(F32, {2, 4}), Overlapping}), V{DiagCode::MisalignedRepeat});
  ArgDesc Apart = mem(F32, TILEAPPLY_SPACE_GLOBAL, {2, 4});
  Apart.Strides = {8, 1};
  Apart.Storage = 12;
  EXPECT_EQ(codes("ld.global.v4.f32", {reg(F32, {2, 4}), Apart}), V{});
  // One element per repeat: any element offset is aligned.
  ArgDesc Narrow = mem(F32, TILEAPPLY_SPACE_GLOBAL, {3, 1});
  Narrow.Strides = {1, 1};
  EXPECT_EQ(codes("ld.global.f32", {reg(F32, {3, 1}), Narrow}), V{});
}

// issue 17 item 5: destinations over the storage of other operands
TEST(Layout, DestinationOverwritingALaterInput) {
  int Storage = 0;
  ArgDesc D = reg(F32, {4, 1}), A = reg(F32, {4, 1});
  D.Base = A.Base = &Storage;
  // In place, each repeat reading the element it writes: legal.
  EXPECT_EQ(codes("mov.f32", {D, A}), V{});
  // Every repeat reads element 0, which repeat 0 wrote.
  A.Strides = {0, 1};
  EXPECT_EQ(codes("mov.f32", {D, A}), V{DiagCode::OverwrittenInput});
  // Unknown storage: nothing is guessed.
  A.Base = nullptr;
  EXPECT_EQ(codes("mov.f32", {D, A}), V{});
}
