//===- OpcodeTableTest.cpp - The PTX table: lookup, floors, structure -----===//
#include "tileapply/core/OpcodeTable.h"
#include "gtest/gtest.h"
#include <map>
#include <set>

using namespace tileapply;

namespace {

const OpcodeTable &T() { return OpcodeTable::get(); }

TEST(OpcodeTable, FindsSeedOpcodes) {
  for (const char *S : {"ld.global.b32", "add.rn.f16x2", "st.global.b32", "abs.f32",
                        "neg.f32", "ld.global.f32", "st.global.f32"}) {
    LookupResult R = T().lookup(S);
    ASSERT_TRUE(R) << S << ": " << R.Problem.Message;
    EXPECT_EQ(R.Found->Spelling, S);
  }
}

TEST(OpcodeTable, OperandsOfPackedAdd) {
  LookupResult R = T().lookup("add.rn.f16x2");
  ASSERT_TRUE(R);
  const Form &F = *R.Found;
  ASSERT_EQ(F.Operands.size(), 3u);
  EXPECT_EQ(F.Operands[0].Name, "d");
  EXPECT_EQ(F.Operands[0].Direction, Dir::Write);
  EXPECT_EQ(F.Operands[1].Direction, Dir::Read);
  EXPECT_EQ(F.Operands[2].Type, PtxType::f16x2);
  EXPECT_EQ(F.Kind, FormKind::Arith);
  EXPECT_EQ(F.MinSm, 53u);
  EXPECT_EQ(F.MinPtx, 42u);
}

TEST(OpcodeTable, PerFormFloorsDifferWithinAFamily) {
  EXPECT_EQ(T().lookup("add.rn.f32").Found->MinSm, 10u);
  EXPECT_EQ(T().lookup("add.rn.bf16x2").Found->MinSm, 90u);
  EXPECT_EQ(T().lookup("add.rn.f32x2").Found->MinSm, 100u);
  EXPECT_EQ(T().lookup("add.u16x2").Found->MinSm, 90u);
}

TEST(OpcodeTable, WideMultiplyDoublesTheDestination) {
  LookupResult R = T().lookup("mul.wide.s32");
  ASSERT_TRUE(R);
  EXPECT_EQ(R.Found->Operands[0].Type, PtxType::s64);
  EXPECT_EQ(R.Found->Operands[1].Type, PtxType::s32);
  EXPECT_EQ(T().lookup("mul.wide.u16").Found->Operands[0].Type, PtxType::u32);
}

TEST(OpcodeTable, LoadVectorGroupAndSpace) {
  LookupResult R = T().lookup("ld.shared.v4.f32");
  ASSERT_TRUE(R) << R.Problem.Message;
  const Form &F = *R.Found;
  EXPECT_EQ(F.Kind, FormKind::Memory);
  ASSERT_EQ(F.Operands.size(), 2u);
  EXPECT_EQ(F.Operands[0].Regs, 4u);
  EXPECT_EQ(F.Operands[1].Direction, Dir::Addr);
  EXPECT_EQ(F.Operands[1].AddrSpace, TILEAPPLY_SPACE_SHARED);
  EXPECT_EQ(F.Operands[1].Regs, 4u);
  EXPECT_EQ(T().lookup("st.local.cg.v2.b64").Found->Operands[0].AddrSpace, TILEAPPLY_SPACE_LOCAL);
  EXPECT_FALSE(T().lookup("ld.global.v4.b64")); // 64-bit vectors stop at .v2
  EXPECT_FALSE(T().lookup("ld.volatile.global.ca.b32")); // volatile takes no cache op
  EXPECT_FALSE(T().lookup("st.global.lu.b32")); // .lu is a load operator
}

TEST(OpcodeTable, RefusesWithReasons) {
  auto Kind = [](const char *S) { return T().lookup(S).Problem.K; };
  EXPECT_EQ(Kind("adx.s32"), SpellingProblem::UnknownInstruction);
  EXPECT_EQ(Kind("add.cc.u32"), SpellingProblem::Unsupported);
  EXPECT_EQ(Kind("atom.global.add.u32"), SpellingProblem::Unsupported);
  EXPECT_EQ(Kind("add.rn.foo.f32"), SpellingProblem::UnknownQualifier);
  EXPECT_EQ(Kind("add.ftz.rn.f32"), SpellingProblem::WrongOrder);
  EXPECT_EQ(Kind("add.rn"), SpellingProblem::MissingType);
  EXPECT_EQ(Kind("mul.s32"), SpellingProblem::InvalidForm); // needs .lo/.hi/.wide
  EXPECT_EQ(Kind(""), SpellingProblem::InvalidForm);
  EXPECT_EQ(Kind("add..f32"), SpellingProblem::InvalidForm);
}

TEST(OpcodeTable, SuggestsTheNearestForm) {
  EXPECT_EQ(T().lookup("add.rn.f16x").Problem.Suggestion, "add.rn.f16x2");
  EXPECT_EQ(T().lookup("add.ftz.rn.f32").Problem.Suggestion, "add.rn.ftz.f32");
  EXPECT_EQ(T().lookup("ad.rn.f16x2").Problem.Suggestion, "add.rn.f16x2");
  // An inserted qualifier beats swapping the type (integer code stays integer).
  EXPECT_EQ(T().lookup("mul.s32").Problem.Suggestion.substr(0, 4), "mul.");
  EXPECT_NE(T().lookup("mul.s32").Problem.Suggestion, "mul.f32");
  EXPECT_EQ(T().lookup("mul.s32").Problem.Suggestion, "mul.lo.s32");
  // Volatile loads take no cache operator: drop one of the two, never swap
  // .cg for an unrelated qualifier such as .v2.
  std::string Ld = T().lookup("ld.volatile.global.cg.f32").Problem.Suggestion;
  EXPECT_TRUE(Ld == "ld.volatile.global.f32" || Ld == "ld.global.cg.f32") << Ld;
  // Nothing close: no suggestion.
  EXPECT_EQ(T().lookup("frobnicate.x.y.z").Problem.Suggestion, "");
}

// Structural gate: no two rows accept the same spelling, and every form
// re-parses to itself.
TEST(OpcodeTable, NoTwoRowsAcceptTheSameSpelling) {
  std::map<std::string, unsigned> Seen;
  size_t N = 0;
  T().forEachForm([&](const Form &F) {
    ++N;
    auto [It, New] = Seen.emplace(F.Spelling, F.PatternIndex);
    EXPECT_TRUE(New) << F.Spelling << " from rows " << It->second << " and "
                     << F.PatternIndex;
  });
  EXPECT_GT(N, 1000u);
  for (const auto &[S, Row] : Seen) {
    LookupResult R = T().lookup(S);
    ASSERT_TRUE(R) << S;
    EXPECT_EQ(R.Found->Spelling, S);
    EXPECT_EQ(R.Found->PatternIndex, Row);
  }
}

TEST(OpcodeTable, EveryFormHasOperandsAndAFloor) {
  T().forEachForm([&](const Form &F) {
    EXPECT_FALSE(F.Operands.empty()) << F.Spelling;
    EXPECT_GE(F.MinSm, 10u) << F.Spelling;
    EXPECT_GE(F.MinPtx, 10u) << F.Spelling;
    for (const OperandSpec &O : F.Operands) {
      EXPECT_TRUE(O.Regs == 1 || O.Regs == 2 || O.Regs == 4 || O.Regs == 8) << F.Spelling;
      EXPECT_EQ(O.Direction == Dir::Addr, O.AddrSpace != TILEAPPLY_SPACE_NONE) << F.Spelling;
    }
  });
}

TEST(OpcodeTable, SplitsSpellings) {
  auto Toks = splitSpelling("ld.global.L2::128B.b32");
  ASSERT_EQ(Toks.size(), 4u);
  EXPECT_EQ(Toks[2], "L2::128B");
}

} // namespace
