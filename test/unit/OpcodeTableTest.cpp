//===- OpcodeTableTest.cpp - The PTX table: lookup, floors, structure -----===//
#include "tileapply/core/OpcodeTable.h"
#include "gtest/gtest.h"
#include <map>
#include <set>

using namespace tileapply;

namespace {

const OpcodeTable &T() { return OpcodeTable::get(); }

TEST(OpcodeTable, FindsSeedOpcodes) {
  for (const char *S :
       {"ld.global.b32", "add.rn.f16x2", "st.global.b32", "abs.f32", "neg.f32", "ld.global.f32", "st.global.f32"}) {
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
  EXPECT_FALSE(T().lookup("ld.shared.v4.b64")); // 256-bit vectors are global only
  EXPECT_FALSE(T().lookup("ld.volatile.global.ca.b32")); // volatile takes no cache op
  EXPECT_FALSE(T().lookup("st.global.lu.b32")); // .lu is a load operator
}

// Memory families, hand-derived from the PTX ISA's ld / st / ldu sections.
TEST(OpcodeTable, MemoryQualifiersAndFloors) {
  // Non-coherent load with an L2 prefetch size: PTX 7.4, sm_75.
  LookupResult Nc = T().lookup("ld.global.nc.L2::128B.v4.f32");
  ASSERT_TRUE(Nc) << Nc.Problem.Message;
  EXPECT_EQ(Nc.Found->MinSm, 75u);
  EXPECT_EQ(Nc.Found->Operands[0].Regs, 4u);
  EXPECT_EQ(Nc.Found->Operands[1].AddrSpace, TILEAPPLY_SPACE_GLOBAL);
  // Release store at gpu scope: PTX 6.0, sm_70; address first, value second.
  LookupResult Rel = T().lookup("st.release.gpu.global.b32");
  ASSERT_TRUE(Rel) << Rel.Problem.Message;
  EXPECT_EQ(Rel.Found->MinSm, 70u);
  EXPECT_EQ(Rel.Found->MinPtx, 60u);
  EXPECT_EQ(Rel.Found->Operands[0].Direction, Dir::Addr);
  // L2::cache_hint adds the 64-bit cache-policy operand: sm_80.
  LookupResult Hint = T().lookup("ld.global.L2::cache_hint.b32");
  ASSERT_TRUE(Hint) << Hint.Problem.Message;
  ASSERT_EQ(Hint.Found->Operands.size(), 3u);
  EXPECT_EQ(Hint.Found->Operands[2].Direction, Dir::Read);
  EXPECT_EQ(Hint.Found->MinSm, 80u);
  // ldu: global only, v2 of f32.
  LookupResult Ldu = T().lookup("ldu.global.v2.f32");
  ASSERT_TRUE(Ldu) << Ldu.Problem.Message;
  EXPECT_EQ(Ldu.Found->Operands[0].Regs, 2u);
  // 256-bit accesses: sm_100, PTX 8.8, global only.
  LookupResult V8 = T().lookup("st.global.v8.f32");
  ASSERT_TRUE(V8) << V8.Problem.Message;
  EXPECT_EQ(V8.Found->MinSm, 100u);
  EXPECT_EQ(V8.Found->MinPtx, 88u);
  EXPECT_EQ(V8.Found->Operands[1].Regs, 8u);
  LookupResult V4 = T().lookup("ld.global.L2::evict_last.v4.b64");
  ASSERT_TRUE(V4) << V4.Problem.Message;
  EXPECT_EQ(V4.Found->MinSm, 100u);
  // .cluster scope needs sm_90; constant memory loads are everywhere.
  EXPECT_EQ(T().lookup("ld.acquire.cluster.shared.b32").Found->MinSm, 90u);
  EXPECT_EQ(T().lookup("ld.const.v2.u32").Found->Operands[1].AddrSpace, TILEAPPLY_SPACE_CONST);
  EXPECT_FALSE(T().lookup("ld.global.L2::evict_last.b32")); // L2 priorities: 256-bit only
  EXPECT_FALSE(T().lookup("ld.shared.v8.b32"));              // 256-bit: global only
  EXPECT_FALSE(T().lookup("ld.weak.global.nc.b32"));         // .weak excludes .nc
  EXPECT_FALSE(T().lookup("ld.acquire.gpu.local.b32"));      // no acquire on local
  EXPECT_FALSE(T().lookup("st.global.L2::128B.b32"));        // prefetch is load-only
  EXPECT_FALSE(T().lookup("ldu.global.v8.b32"));
}

TEST(OpcodeTable, RefusesWithReasons) {
  auto Kind = [](const char *S) { return T().lookup(S).Problem.K; };
  EXPECT_EQ(Kind("adx.s32"), SpellingProblem::UnknownInstruction);
  EXPECT_EQ(Kind("addc.u32"), SpellingProblem::Unsupported); // add.cc is a carry chain
  EXPECT_EQ(Kind("tex.1d.v4.s32.f32"), SpellingProblem::Unsupported);
  EXPECT_EQ(Kind("ld.b32.param"), SpellingProblem::Unsupported); // a prefix's qualifiers, any order
  EXPECT_EQ(Kind("add.rn.foo.f32"), SpellingProblem::UnknownQualifier);
  EXPECT_EQ(Kind("mul.s32.wide"), SpellingProblem::WrongOrder);
  EXPECT_EQ(Kind("add.rn"), SpellingProblem::MissingType);
  EXPECT_EQ(Kind("mul.s32"), SpellingProblem::InvalidForm); // needs .lo/.hi/.wide
  EXPECT_EQ(Kind(""), SpellingProblem::InvalidForm);
  EXPECT_EQ(Kind("add..f32"), SpellingProblem::InvalidForm);
}

// Qualifier orders (docs/spec.md section 6): any order ptxas accepts is a form,
// spelled as written; the form's data is the canonical one's.
TEST(OpcodeTable, AcceptsTheQualifierOrdersPtxasAccepts) {
  auto Same = [](const char *Written, const char *Canonical) {
    LookupResult R = T().lookup(Written);
    ASSERT_TRUE(R) << Written << ": " << R.Problem.Message;
    EXPECT_EQ(R.Found->Spelling, Written);
    EXPECT_EQ(R.Found->Canonical, Canonical);
    LookupResult C = T().lookup(Canonical);
    ASSERT_TRUE(C);
    EXPECT_EQ(R.Found->MinSm, C.Found->MinSm);
    EXPECT_EQ(R.Found->MinPtx, C.Found->MinPtx);
    EXPECT_EQ(R.Found->Operands.size(), C.Found->Operands.size());
    EXPECT_EQ(R.Found->PatternIndex, C.Found->PatternIndex);
    EXPECT_TRUE(T().find(Written).has_value());
  };
  Same("ld.global.acquire.gpu.b32", "ld.acquire.gpu.global.b32");
  Same("ld.b32.gpu.global.acquire", "ld.acquire.gpu.global.b32");
  Same("cvt.rn.e4m3x2.f32.satfinite", "cvt.rn.satfinite.e4m3x2.f32");
  Same("cvt.satfinite.rn.e4m3x2.f16x2", "cvt.rn.satfinite.e4m3x2.f16x2");
  Same("add.f32.rn", "add.rn.f32");
  Same("shfl.sync.b32.bfly", "shfl.sync.bfly.b32");
  Same("mul.wide.s32", "mul.wide.s32");
  Same("st.b32.release.sys", "st.release.sys.b32");
  Same("atom.add.global.gpu.relaxed.u32", "atom.relaxed.gpu.global.add.u32");
  // Refused by ptxas: a word of the instruction name moved, the types of a
  // conversion swapped; the fix-it is the ISA's order.
  for (const char *Bad : {"mul.s32.wide", "cvta.shared.to.u64", "cvt.rn.satfinite.f32.e4m3x2", "mad.lo.cc.u32x"})
    EXPECT_FALSE(T().find(Bad)) << Bad;
  EXPECT_EQ(T().lookup("cvta.shared.to.u64").Problem.K, SpellingProblem::WrongOrder);
  // Two types of one role swapped are another form, not a reordering.
  EXPECT_EQ(T().lookup("cvt.u8.u16").Found->Canonical, "cvt.u8.u16");
  EXPECT_EQ(T().lookup("cvt.u16.u8").Found->Canonical, "cvt.u16.u8");
  // A repeated qualifier is refused (ptxas accepts it; the ISA does not).
  EXPECT_FALSE(T().lookup("add.sat.sat.s32"));
  EXPECT_EQ(T().nameTokens(splitSpelling("cp.async.bulk.tensor.2d.shared::cluster.global")), 4u);
  EXPECT_EQ(T().nameTokens(splitSpelling("ld.global.b32")), 1u);
}

TEST(OpcodeTable, SuggestsTheNearestForm) {
  EXPECT_EQ(T().lookup("add.rn.f16x").Problem.Suggestion, "add.rn.f16x2");
  EXPECT_EQ(T().lookup("mul.s32.wide").Problem.Suggestion, "mul.wide.s32");
  EXPECT_EQ(T().lookup("cvt.rn.satfinite.f32.e4m3x2").Problem.Suggestion, "cvt.rn.satfinite.e4m3x2.f32");
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

// Structural gate: every form re-parses to itself, and a spelling several
// rows make comes back with all of them (the first as the form, the others
// as its overloads), never hiding one.
TEST(OpcodeTable, EverySpellingFindsEveryRowThatMakesIt) {
  std::map<std::string, std::set<unsigned>> Rows;
  size_t N = 0;
  T().forEachForm([&](const Form &F) {
    ++N;
    EXPECT_TRUE(Rows[F.Spelling].insert(F.PatternIndex).second) << F.Spelling << " twice from row " << F.PatternIndex;
  });
  EXPECT_GT(N, 1000u);
  for (const auto &[S, Want] : Rows) {
    LookupResult R = T().lookup(S);
    ASSERT_TRUE(R) << S;
    EXPECT_EQ(R.Found->Spelling, S);
    std::set<unsigned> Got{R.Found->PatternIndex};
    for (const Form &O : R.Overloads) Got.insert(O.PatternIndex);
    EXPECT_EQ(Got, Want) << S;
  }
}

TEST(OpcodeTable, EveryFormHasOperandsAndAFloor) {
  T().forEachForm([&](const Form &F) {
    // Only a memory-ordering form may have no operands (fence.proxy.async):
    // an instruction without operands computes nothing.
    EXPECT_TRUE(!F.Operands.empty() || F.Kind == FormKind::Memory) << F.Spelling;
    EXPECT_GE(F.MinSm, 10u) << F.Spelling;
    EXPECT_GE(F.MinPtx, 10u) << F.Spelling;
    for (const OperandSpec &O : F.Operands) {
      EXPECT_TRUE(O.Regs >= 1 && O.Regs <= 256) << F.Spelling;
      EXPECT_EQ(O.Direction == Dir::Addr, O.AddrSpace != TILEAPPLY_SPACE_NONE) << F.Spelling;
    }
  });
}

TEST(OpcodeTable, SplitsSpellings) {
  auto Toks = splitSpelling("ld.global.L2::128B.b32");
  ASSERT_EQ(Toks.size(), 4u);
  EXPECT_EQ(Toks[2], "L2::128B");
}

// ---- hand-checked lookups of the widened families (PTX ISA 9.0 text) ---------------

Form must(const char *S) {
  LookupResult R = T().lookup(S);
  EXPECT_TRUE(R) << S << ": " << R.Problem.Message;
  return R ? *R.Found : Form{};
}

TEST(OpcodeTableFamilies, FmaMadDivRem) {
  Form F = must("fma.rn.ftz.sat.f32"); // fma.f32 is sm_20, PTX 2.0
  ASSERT_EQ(F.Operands.size(), 4u);
  EXPECT_EQ(F.Operands[3].Type, PtxType::f32);
  EXPECT_EQ(F.MinSm, 20u);
  EXPECT_EQ(must("fma.rn.f64").MinSm, 13u);
  Form R = must("fma.rn.relu.bf16x2"); // PTX 7.0, sm_80
  EXPECT_EQ(R.Operands[0].Type, PtxType::bf16x2);
  EXPECT_EQ(R.MinSm, 80u);
  EXPECT_EQ(R.MinPtx, 70u);
  EXPECT_EQ(must("fma.rn.oob.relu.f16").MinPtx, 81u);
  EXPECT_FALSE(T().lookup("fma.f32"));          // rounding is required
  EXPECT_FALSE(T().lookup("fma.rn.sat.f32x2")); // no .sat on f32x2
  Form W = must("mad.wide.s32"); // c and d are the wide type
  EXPECT_EQ(W.Operands[3].Type, PtxType::s64);
  EXPECT_EQ(W.Operands[1].Type, PtxType::s32);
  EXPECT_EQ(must("mad.hi.sat.s32").Operands.size(), 4u);
  EXPECT_FALSE(T().lookup("mad.lo.sat.s32")); // .sat only with .hi
  EXPECT_EQ(must("div.full.ftz.f32").Operands.size(), 3u);
  EXPECT_EQ(must("div.rn.f32").MinSm, 20u);
  EXPECT_EQ(must("rem.s64").Operands[0].Type, PtxType::s64);
  // mad.lo.cc is a carry chain; ptxas refuses .cc before .lo (mad.lo is the name).
  EXPECT_TRUE(must("mad.lo.cc.u32").isChain());
  EXPECT_EQ(T().lookup("mad.cc.lo.u32").Problem.K, SpellingProblem::WrongOrder);
  EXPECT_EQ(T().lookup("mad.cc.lo.u32").Problem.Suggestion, "mad.lo.cc.u32");
  EXPECT_EQ(T().lookup("madc.lo.u32").Problem.K, SpellingProblem::Unsupported);
}

TEST(OpcodeTableFamilies, ThreeSourceMinMaxHasItsOwnFloor) {
  Form M = must("min.NaN.f32");
  ASSERT_EQ(M.Operands.size(), 4u);
  EXPECT_TRUE(M.Operands[3].Optional);
  EXPECT_EQ(M.minSm(false), 80u);
  EXPECT_EQ(M.minPtx(false), 70u);
  EXPECT_EQ(M.minSm(true), 100u);
  EXPECT_EQ(M.minPtx(true), 88u);
  EXPECT_FALSE(M.runsOn(Target{90, 'a', 0}, true));
  EXPECT_TRUE(M.runsOn(Target{90, 'a', 0}, false));
  // Not for the xorsign.abs forms, nor integers (ptxas refuses both).
  EXPECT_EQ(must("min.xorsign.abs.f32").Operands.size(), 3u);
  EXPECT_EQ(must("max.s32").Operands.size(), 3u);
}

TEST(OpcodeTableFamilies, MinMax) {
  EXPECT_EQ(must("min.u16x2").MinSm, 90u);
  EXPECT_EQ(must("max.relu.s32").MinPtx, 80u);
  EXPECT_FALSE(T().lookup("max.relu.u32")); // .relu only on signed types
  EXPECT_EQ(must("min.NaN.f32").MinSm, 80u);
  Form X = must("max.ftz.NaN.xorsign.abs.f32"); // PTX 7.2, sm_86
  EXPECT_EQ(X.MinSm, 86u);
  EXPECT_EQ(X.MinPtx, 72u);
  EXPECT_EQ(must("min.NaN.bf16x2").MinSm, 80u);
  EXPECT_EQ(must("max.f64").MinSm, 13u);
}

TEST(OpcodeTableFamilies, IntegerBitsAndDotProducts) {
  Form P = must("popc.b64"); // d is always .u32
  EXPECT_EQ(P.Operands[0].Type, PtxType::u32);
  EXPECT_EQ(P.Operands[1].Type, PtxType::b64);
  EXPECT_EQ(must("bfind.shiftamt.s64").Operands[0].Type, PtxType::u32);
  Form Bfe = must("bfe.s64"); // b, c are .u32
  EXPECT_EQ(Bfe.Operands[2].Type, PtxType::u32);
  EXPECT_EQ(Bfe.Operands[0].Type, PtxType::s64);
  Form Bfi = must("bfi.b32"); // bfi.type f, a, b, c, d
  ASSERT_EQ(Bfi.Operands.size(), 5u);
  EXPECT_EQ(Bfi.Operands[0].Name, "f");
  EXPECT_EQ(must("szext.clamp.s32").MinPtx, 76u);
  EXPECT_EQ(must("bmsk.wrap.b32").MinSm, 70u);
  Form D = must("dp4a.u32.s32"); // one signed input: d and c are .s32
  EXPECT_EQ(D.Operands[0].Type, PtxType::s32);
  EXPECT_EQ(D.Operands[1].Type, PtxType::u32);
  EXPECT_EQ(D.Operands[2].Type, PtxType::s32);
  EXPECT_EQ(D.MinSm, 61u);
  EXPECT_EQ(must("dp2a.hi.u32.u32").Operands[3].Type, PtxType::u32);
  EXPECT_EQ(must("mul24.hi.s32").Operands.size(), 3u);
  EXPECT_EQ(must("sad.u16").Operands.size(), 4u);
}

TEST(OpcodeTableFamilies, FloatFunctions) {
  EXPECT_EQ(must("rcp.approx.ftz.f64").MinPtx, 21u);
  EXPECT_EQ(must("sqrt.rn.f64").MinSm, 13u);
  EXPECT_EQ(must("ex2.approx.f16x2").MinSm, 75u);
  EXPECT_EQ(must("ex2.approx.ftz.bf16").MinSm, 90u);
  EXPECT_EQ(must("tanh.approx.f32").MinPtx, 70u);
  EXPECT_FALSE(T().lookup("sin.f32")); // .approx is required
  Form Tp = must("testp.notanumber.f64");
  EXPECT_EQ(Tp.Operands[0].Type, PtxType::pred);
  EXPECT_EQ(Tp.Operands[1].Type, PtxType::f64);
  EXPECT_EQ(must("copysign.f64").Operands.size(), 3u);
}

TEST(OpcodeTableFamilies, CompareAndSelect) {
  Form S = must("setp.lt.s32"); // setp.CmpOp.type p[|q], a, b
  ASSERT_EQ(S.Operands.size(), 4u);
  EXPECT_EQ(S.Operands[0].Type, PtxType::pred);
  EXPECT_TRUE(S.Operands[1].Optional);
  EXPECT_TRUE(S.Operands[1].JoinedByBar);
  EXPECT_EQ(S.Operands[2].Type, PtxType::s32);
  EXPECT_EQ(S.numRequiredOperands(), 3u);
  Form C = must("setp.gtu.or.ftz.f32"); // .BoolOp adds the predicate c
  ASSERT_EQ(C.Operands.size(), 5u);
  EXPECT_EQ(C.Operands[4].Type, PtxType::pred);
  EXPECT_EQ(C.Operands[4].Direction, Dir::Read);
  EXPECT_FALSE(T().lookup("setp.lo.s32"));     // lo/ls/hi/hs are unsigned
  EXPECT_FALSE(T().lookup("setp.lt.b32"));     // bit types compare eq/ne only
  EXPECT_FALSE(T().lookup("setp.lt.ftz.s32")); // .ftz only for floating types
  Form H = must("setp.ne.f16x2"); // one predicate per lane: p|q required
  EXPECT_FALSE(H.Operands[1].Optional);
  EXPECT_EQ(H.MinSm, 53u);
  EXPECT_EQ(must("set.lt.u32.f16").MinPtx, 65u); // integer result of a half set
  EXPECT_EQ(must("set.lt.f16.f16").MinPtx, 42u);
  Form St = must("set.gt.f32.s64"); // set.CmpOp.dtype.stype
  EXPECT_EQ(St.Operands[0].Type, PtxType::f32);
  EXPECT_EQ(St.Operands[1].Type, PtxType::s64);
  Form Sel = must("selp.u64");
  EXPECT_EQ(Sel.Operands[3].Type, PtxType::pred);
  Form Sl = must("slct.ftz.s16.f32"); // c is the .f32 selector
  EXPECT_EQ(Sl.Operands[0].Type, PtxType::s16);
  EXPECT_EQ(Sl.Operands[3].Type, PtxType::f32);
}

TEST(OpcodeTableFamilies, LogicShiftsMovPrmt) {
  EXPECT_EQ(must("and.pred").Operands[0].Type, PtxType::pred);
  EXPECT_FALSE(T().lookup("cnot.pred"));
  Form L = must("lop3.b32"); // lop3.b32 d, a, b, c, immLut; sm_50, PTX 4.3
  ASSERT_EQ(L.Operands.size(), 5u);
  EXPECT_EQ(L.Operands[4].Direction, Dir::Imm);
  EXPECT_EQ(L.Operands[4].ImmLo, 0);
  EXPECT_EQ(L.Operands[4].ImmHi, 255);
  EXPECT_EQ(L.MinSm, 50u);
  EXPECT_EQ(L.MinPtx, 43u);
  Form Lp = must("lop3.and.b32"); // d|p, a, b, c, immLut, q; PTX 8.2
  ASSERT_EQ(Lp.Operands.size(), 7u);
  EXPECT_TRUE(Lp.Operands[1].JoinedByBar);
  EXPECT_EQ(Lp.Operands[6].Type, PtxType::pred);
  EXPECT_EQ(Lp.MinPtx, 82u);
  Form Sh = must("shf.r.clamp.b32");
  EXPECT_EQ(Sh.Operands[3].Type, PtxType::u32);
  EXPECT_EQ(Sh.MinSm, 32u);
  EXPECT_EQ(must("shr.s16").Operands[2].Type, PtxType::u32);
  EXPECT_EQ(must("mov.pred").Operands[1].Type, PtxType::pred);
  EXPECT_EQ(must("prmt.b32.rc16").Operands.size(), 4u);
  EXPECT_EQ(must("prmt.b32").MinSm, 20u);
}

// mov.b128: an alternative of mov.b32 and mov.b64's row with its own floor
// (sm_70, PTX ISA 8.3), which raises that of its form alone; both operands
// split like theirs.
TEST(OpcodeTableFamilies, MovB128) {
  Form M = must("mov.b128");
  EXPECT_EQ(M.MinSm, 70u);
  EXPECT_EQ(M.MinPtx, 83u);
  ASSERT_EQ(M.Operands.size(), 2u);
  for (const OperandSpec &O : M.Operands) {
    EXPECT_EQ(O.Type, PtxType::b128);
    EXPECT_EQ(O.Regs, 1u);
    EXPECT_TRUE(O.Splittable);
  }
  EXPECT_EQ(M.Operands[0].Direction, Dir::Write);
  EXPECT_EQ(must("mov.b64").PatternIndex, M.PatternIndex);
  EXPECT_EQ(must("mov.b64").MinPtx, 10u);
  // PTX has only the bit-size .b128, and no conversions or arithmetic on it.
  EXPECT_FALSE(T().lookup("mov.u128"));
  EXPECT_FALSE(T().lookup("mov.s128"));
  EXPECT_FALSE(T().lookup("add.b128"));
}

// The 128-bit type: a bit-size type of its own register class, with no PTX
// immediates, whose natural carrier is unsigned __int128.
TEST(PtxTypes, B128) {
  ASSERT_TRUE(parsePtxType(".b128"));
  EXPECT_EQ(*parsePtxType("b128"), PtxType::b128);
  EXPECT_EQ(ptxTypeBits(PtxType::b128), 128u);
  EXPECT_EQ(ptxTypeClass(PtxType::b128), TypeClass::Bits);
  EXPECT_FALSE(ptxTypeTakesImmediate(PtxType::b128));
  EXPECT_EQ(ptxRegisterType(PtxType::b128), "b128");
  EXPECT_EQ(naturalCarrier(PtxType::b128), TILEAPPLY_DT_U128);
  EXPECT_TRUE(carrierMatches(TILEAPPLY_DT_U128, PtxType::b128));
  EXPECT_TRUE(carrierMatches(TILEAPPLY_DT_S128, PtxType::b128));
  EXPECT_FALSE(carrierMatches(TILEAPPLY_DT_U64, PtxType::b128));
  EXPECT_FALSE(carrierMatches(TILEAPPLY_DT_F32X2, PtxType::b128));
  EXPECT_FALSE(carrierMatches(TILEAPPLY_DT_U128, PtxType::b64));
  EXPECT_FALSE(carrierMatches(TILEAPPLY_DT_U128, PtxType::u64));
  EXPECT_EQ(expectedCarriers(PtxType::b128), "any 128-bit type (unsigned __int128, __int128)");
  EXPECT_EQ(dtypeName(TILEAPPLY_DT_U128), "unsigned __int128");
  EXPECT_EQ(dtypeName(TILEAPPLY_DT_S128), "__int128");
  EXPECT_EQ(dtypeBits(TILEAPPLY_DT_S128), 128u);
  EXPECT_TRUE(dtypeIsSigned(TILEAPPLY_DT_S128));
  EXPECT_FALSE(dtypeIsSigned(TILEAPPLY_DT_U128));
  EXPECT_FALSE(dtypeIsFloat(TILEAPPLY_DT_U128));
  EXPECT_EQ(TILEAPPLY_DT_LAST, TILEAPPLY_DT_TENSORMAP);
}

// The split rule: halves or quarters of a bit-size type, never below 16 bits.
TEST(PtxTypes, SplitPartType) {
  auto Part = [](PtxType T, int64_t N) { return splitPartType(T, N); };
  EXPECT_EQ(Part(PtxType::b128, 2), PtxType::b64);
  EXPECT_EQ(Part(PtxType::b128, 4), PtxType::b32);
  EXPECT_EQ(Part(PtxType::b64, 2), PtxType::b32);
  EXPECT_EQ(Part(PtxType::b64, 4), PtxType::b16);
  EXPECT_EQ(Part(PtxType::b32, 2), PtxType::b16);
  EXPECT_FALSE(Part(PtxType::b32, 4)); // 8-bit parts: PTX has no 8-bit registers
  EXPECT_FALSE(Part(PtxType::b16, 2));
  EXPECT_FALSE(Part(PtxType::b128, 8)); // only pairs and quads
  EXPECT_FALSE(Part(PtxType::b128, 3));
  EXPECT_FALSE(Part(PtxType::b128, 1));
  EXPECT_FALSE(Part(PtxType::u64, 2)); // only bit-size types split
  EXPECT_FALSE(Part(PtxType::f32x2, 2));
}

TEST(OpcodeTableFamilies, Cvt) {
  Form A = must("cvt.rzi.s32.f64"); // cvt.irnd.dtype.atype
  EXPECT_EQ(A.Operands[0].Type, PtxType::s32);
  EXPECT_EQ(A.Operands[1].Type, PtxType::f64);
  EXPECT_EQ(A.MinSm, 13u);
  EXPECT_FALSE(T().lookup("cvt.s32.f32"));   // float to int needs a rounding
  EXPECT_FALSE(T().lookup("cvt.rn.f32.f16")); // widening takes none
  EXPECT_EQ(must("cvt.f32.f16").Operands[1].Type, PtxType::f16);
  EXPECT_EQ(must("cvt.sat.u8.s32").Operands[0].Type, PtxType::u8);
  EXPECT_FALSE(T().lookup("cvt.sat.u32.u16")); // cannot overflow: no .sat
  Form P = must("cvt.rn.f16x2.f32"); // d, a, b; sm_80, PTX 7.0
  ASSERT_EQ(P.Operands.size(), 3u);
  EXPECT_EQ(P.Operands[0].Type, PtxType::f16x2);
  EXPECT_EQ(P.Operands[2].Type, PtxType::f32);
  EXPECT_EQ(P.MinSm, 80u);
  EXPECT_EQ(P.MinPtx, 70u);
  EXPECT_EQ(must("cvt.rn.relu.satfinite.bf16x2.f32").MinPtx, 81u);
  Form E = must("cvt.rn.satfinite.e4m3x2.f32"); // a 16-bit pair of FP8
  EXPECT_EQ(E.Operands[0].Type, PtxType::b16);
  EXPECT_EQ(E.MinSm, 89u);
  EXPECT_EQ(must("cvt.rn.f16x2.e5m2x2").Operands[1].Type, PtxType::b16);
  EXPECT_EQ(must("cvt.rna.tf32.f32").MinSm, 80u);
  EXPECT_EQ(must("cvt.rn.bf16.s32").MinSm, 90u);
  Form Pk = must("cvt.pack.sat.u4.s32.b32"); // d, a, b, c; sm_72, PTX 6.5
  ASSERT_EQ(Pk.Operands.size(), 4u);
  EXPECT_EQ(Pk.Operands[3].Type, PtxType::b32);
  EXPECT_EQ(Pk.MinSm, 72u);
  EXPECT_EQ(must("cvt.pack.sat.s16.s32").MinPtx, 65u);
  EXPECT_FALSE(T().lookup("cvt.pack.sat.u16.u32")); // sources are s32
  // FP4 pairs need an 8-bit register: multi-instruction forms with a .b8
  // scratch register, a 16-bit operand for the pair.
  Form Fp4 = must("cvt.rn.satfinite.e2m1x2.f32");
  EXPECT_TRUE(Fp4.isMultiInstruction());
  EXPECT_FALSE(Fp4.isChain());
  EXPECT_EQ(Fp4.Operands[0].Type, PtxType::b16);
  EXPECT_EQ(must("cvt.rn.f16x2.e2m1x2").Operands[1].Type, PtxType::b16);
}

// Forms of arch- and family-specific targets: only those targets have them.
TEST(OpcodeTableFamilies, TargetSpecificCvt) {
  Form Rs = must("cvt.rs.relu.satfinite.e4m3x4.f32"); // d, {a, b, e, f}, rbits
  ASSERT_EQ(Rs.Operands.size(), 3u);
  EXPECT_EQ(Rs.Operands[1].Type, PtxType::f32);
  EXPECT_EQ(Rs.Operands[1].Regs, 4u);
  EXPECT_EQ(Rs.MinSm, 100u);
  EXPECT_EQ(Rs.MinPtx, 87u);
  EXPECT_EQ(Rs.targetsText(false), "sm_100a or sm_103a");
  EXPECT_TRUE(Rs.runsOn(Target{100, 'a', 0}, false));
  EXPECT_TRUE(Rs.runsOn(Target{103, 'a', 0}, false));
  EXPECT_FALSE(Rs.runsOn(Target{100, 0, 0}, false));   // plain
  EXPECT_FALSE(Rs.runsOn(Target{100, 'f', 0}, false)); // family, not arch
  EXPECT_FALSE(Rs.runsOn(Target{120, 'a', 0}, false)); // another GPU
  Form F6 = must("cvt.rn.satfinite.e2m3x2.f32");
  EXPECT_EQ(F6.targetsText(false), "sm_100f, sm_110f or sm_120f");
  for (Target T :
       {Target{100, 'f', 0}, Target{103, 'f', 0}, Target{100, 'a', 0}, Target{110, 'a', 0}, Target{121, 'f', 0}})
    EXPECT_TRUE(F6.runsOn(T, false)) << T.name();
  for (Target T : {Target{100, 0, 0}, Target{120, 0, 0}, Target{90, 'a', 0}})
    EXPECT_FALSE(F6.runsOn(T, false)) << T.name();
  EXPECT_TRUE(must("add.rn.f32").runsOn(Target{75, 0, 0}, false));
  EXPECT_TRUE(must("add.rn.f32").OnlyOn.empty());
}

TEST(OpcodeTableFamilies, NegatablePredicateSource) {
  Form S = must("setp.lt.and.s32");
  EXPECT_TRUE(S.Operands.back().Negatable);
  EXPECT_FALSE(S.Operands[2].Negatable);
  EXPECT_TRUE(must("set.ge.or.u32.s32").Operands.back().Negatable);
  EXPECT_FALSE(must("selp.b32").Operands.back().Negatable); // PTX: plain c
  EXPECT_FALSE(must("lop3.or.b32").Operands.back().Negatable);
  size_t Negatable = 0;
  T().forEachForm([&](const Form &F) {
    for (const OperandSpec &O : F.Operands)
      if (O.Negatable) {
        ++Negatable;
        // PTX's {!}c: the combining predicate of setp/set, vote's source,
        // and the predicate of bar.red / barrier.red.
        EXPECT_TRUE(F.Family == "setp" || F.Family == "set" || F.Family == "vote" ||
                    ((F.Family == "bar" || F.Family == "barrier") && F.Spelling.find(".red.") != std::string::npos))
            << F.Spelling;
        EXPECT_EQ(O.Type, PtxType::pred) << F.Spelling;
      }
  });
  EXPECT_GT(Negatable, 100u);
  EXPECT_TRUE(must("bar.red.popc.u32").Operands.back().Negatable);
  EXPECT_TRUE(must("barrier.red.and.aligned.pred").Operands.back().Negatable);
}

// The asynchronous group's operand shapes: windows, sinks, overloads,
// coordinates sized by the dimension, immediates.
TEST(OpcodeTableFamilies, AsyncOperands) {
  Form L = must("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster");
  ASSERT_EQ(L.Operands.size(), 5u);
  EXPECT_EQ(L.Operands[0].AddrSpace, TILEAPPLY_SPACE_SHARED_CLUSTER);
  EXPECT_TRUE(L.Operands[0].WritesMemory);
  EXPECT_EQ(L.Operands[1].Type, PtxType::tmap);
  EXPECT_FALSE(L.Operands[1].WritesMemory);
  EXPECT_TRUE(L.Operands[2].InBrackets);
  EXPECT_EQ(L.Operands[2].Regs, 3u);
  EXPECT_EQ(L.Operands[2].Type, PtxType::s32);
  EXPECT_EQ(L.Operands[3].AddrSpace, TILEAPPLY_SPACE_SHARED_CLUSTER);
  EXPECT_EQ(L.Operands[4].Type, PtxType::b16);
  EXPECT_EQ(L.MinSm, 90u);
  EXPECT_EQ(L.MinPtx, 80u);
  Form C = must("cp.async.bulk.tensor.5d.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint");
  EXPECT_EQ(C.Operands[0].AddrSpace, TILEAPPLY_SPACE_SHARED);
  EXPECT_EQ(C.Operands[2].Regs, 5u);
  EXPECT_EQ(C.Operands.back().Type, PtxType::b64);
  EXPECT_EQ(C.MinPtx, 86u);
  // A store reads the map: not a written address.
  Form S = must("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group");
  EXPECT_FALSE(S.Operands[0].WritesMemory);
  EXPECT_EQ(S.Operands[1].Regs, 1u);
  // No state space: a generic mbarrier; PTX 7.8's .shared::cta.
  EXPECT_EQ(must("mbarrier.init.b64").Operands[0].AddrSpace, TILEAPPLY_SPACE_GENERIC);
  EXPECT_EQ(must("mbarrier.init.shared::cta.b64").MinPtx, 78u);
  // arrive: with the state token, or the sink (an overload).
  LookupResult A = T().lookup("mbarrier.arrive.release.cta.shared::cta.b64");
  ASSERT_TRUE(A);
  ASSERT_EQ(A.Overloads.size(), 1u);
  EXPECT_EQ(A.Found->Operands[0].Direction, Dir::Write);
  EXPECT_EQ(A.Overloads[0].Operands[0].Direction, Dir::Sink);
  EXPECT_EQ(must("mbarrier.arrive.release.cluster.shared::cluster.b64").Operands[1].AddrSpace,
            TILEAPPLY_SPACE_SHARED_CLUSTER);
  // Operand-less forms, and immediates.
  EXPECT_TRUE(must("fence.proxy.async.shared::cta").Operands.empty());
  EXPECT_TRUE(must("griddepcontrol.wait").Operands.empty());
  Form W = must("cp.async.bulk.wait_group.read");
  EXPECT_EQ(W.Operands[0].Direction, Dir::Imm);
  EXPECT_EQ(W.Operands[0].ImmHi, 63);
  EXPECT_EQ(must("fence.acquire.cluster").MinSm, 90u);
  EXPECT_EQ(must("fence.acquire.gpu").MinSm, 75u); // ptxas's floor, see async.def
  EXPECT_TRUE(must("bar.sync").isAligned());
  EXPECT_FALSE(must("barrier.sync").isAligned());
  EXPECT_EQ(must("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64").Operands.size(), 4u);
}

// The matrix families: register counts computed from the shape and types,
// wgmma's two operand lists for one spelling, immediates with ranges.
TEST(OpcodeTableFamilies, MatrixFragments) {
  Form M = must("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  ASSERT_EQ(M.Operands.size(), 4u);
  EXPECT_EQ(M.Operands[0].Regs, 4u);
  EXPECT_EQ(M.Operands[0].Type, PtxType::f32);
  EXPECT_EQ(M.Operands[1].Regs, 4u);
  EXPECT_EQ(M.Operands[1].Type, PtxType::f16x2);
  EXPECT_EQ(M.Operands[2].Regs, 2u);
  EXPECT_TRUE(M.Operands[2].Braced);
  EXPECT_TRUE(M.isAligned());
  EXPECT_EQ(must("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64.rn").Operands[1].Regs, 8u);
  EXPECT_EQ(must("ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16").Operands[0].Regs, 4u);
  // ptxas takes no immediate for movmatrix's source: `%a` in the row.
  EXPECT_TRUE(must("movmatrix.sync.aligned.m8n8.trans.b16").Operands[1].RegisterOnly);
  EXPECT_FALSE(must("movmatrix.sync.aligned.m8n8.trans.b16").Operands[0].RegisterOnly);
  EXPECT_EQ(must("ldmatrix.sync.aligned.m8n8.x2.b16").Operands[1].AddrSpace, TILEAPPLY_SPACE_GENERIC);
  for (int N = 8; N <= 256; N += 8) {
    std::string S = "wgmma.mma_async.sync.aligned.m64n" + std::to_string(N) + "k16.f32.bf16.bf16";
    LookupResult R = T().lookup(S);
    ASSERT_TRUE(R) << S;
    ASSERT_EQ(R.Overloads.size(), 1u) << S;
    EXPECT_EQ(R.Found->Operands[0].Regs, unsigned(N / 2));
    EXPECT_EQ(R.Found->Operands[0].Direction, Dir::ReadWrite);
    EXPECT_EQ(R.Found->Operands[1].Name, "a-desc");
    EXPECT_EQ(R.Found->Operands[1].Type, PtxType::b64);
    EXPECT_EQ(R.Overloads[0].Operands[1].Name, "a");
    EXPECT_EQ(R.Overloads[0].Operands[1].Regs, 4u);
    EXPECT_EQ(R.Found->Operands.size(), 8u);     // imm-trans-a and -b
    EXPECT_EQ(R.Overloads[0].Operands.size(), 7u); // imm-trans-b only
    EXPECT_EQ(R.Found->OnlyOn.size(), 1u);
  }
  const Form W = must("wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16");
  EXPECT_EQ(W.Operands[0].Regs, 16u); // N / 4 .f16x2
  EXPECT_EQ(W.Operands[3].Type, PtxType::pred);
  EXPECT_EQ(W.Operands[4].ImmLo, -1);
  EXPECT_EQ(W.Operands[4].ImmHi, 1);
  EXPECT_EQ(W.Operands[4].ImmStep, 2);
  EXPECT_FALSE(T().lookup("wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16"));
  // Families whose forms do not all name a type: no "missing type" diagnosis.
  EXPECT_EQ(T().lookup("wgmma.fence.sync").Problem.K, SpellingProblem::InvalidForm);
  // ptxas accepts .x8; the ISA does not have it.
  EXPECT_EQ(T().lookup("ldmatrix.sync.aligned.m8n8.x8.shared.b16").Problem.K, SpellingProblem::UnknownQualifier);
}

// tcgen05: Tensor Memory addresses in brackets, overloads told apart by A's
// carrier and disable-output-lane, an optional immediate that only some of
// the form's targets have, register counts from .num and the shape.
TEST(OpcodeTableFamilies, Tcgen05) {
  LookupResult R = T().lookup("tcgen05.mma.cta_group::2.kind::f16");
  ASSERT_TRUE(R);
  ASSERT_EQ(R.Overloads.size(), 3u);
  const Form &M = *R.Found;
  EXPECT_TRUE(M.Operands[0].Bracketed);
  EXPECT_EQ(M.Operands[0].Type, PtxType::b32);
  EXPECT_EQ(M.Operands[1].Name, "a-desc");
  EXPECT_FALSE(M.Operands[1].Bracketed);
  EXPECT_EQ(R.Overloads[0].Operands[4].Name, "disable-output-lane");
  EXPECT_EQ(R.Overloads[0].Operands[4].Regs, 8u); // .cta_group::2
  EXPECT_EQ(must("tcgen05.mma.cta_group::1.kind::f16").Operands.size(), 6u);
  EXPECT_TRUE(R.Overloads[1].Operands[1].Bracketed); // A from Tensor Memory
  const OperandSpec &Scale = M.Operands.back();
  EXPECT_EQ(Scale.Name, "scale-input-d");
  EXPECT_EQ(Scale.Direction, Dir::Imm);
  EXPECT_TRUE(Scale.Optional);
  EXPECT_EQ(Scale.ImmHi, 15);
  ASSERT_EQ(M.OptionalOnlyOn.size(), 1u);
  EXPECT_EQ(M.OptionalOnlyOn[0].name(), "sm_100f");
  EXPECT_TRUE(M.optionalRaisesFloor());
  EXPECT_TRUE(M.runsOn(Target{110, 'a', 0}, false));
  EXPECT_FALSE(M.runsOn(Target{110, 'a', 0}, true));
  EXPECT_TRUE(M.runsOn(Target{103, 'a', 0}, true));
  EXPECT_EQ(M.targetsText(true), "sm_100f");
  EXPECT_EQ(M.targetsText(false), "sm_100f or sm_110f");
  // .kind::i8 on sm_100a and sm_110a only.
  EXPECT_FALSE(must("tcgen05.mma.cta_group::1.kind::i8").runsOn(Target{103, 'a', 0}, false));
  EXPECT_EQ(must("tcgen05.ld.sync.aligned.16x256b.x32.b32").Operands[0].Regs, 128u);
  EXPECT_EQ(must("tcgen05.ld.sync.aligned.16x128b.x4.pack::16b.b32").Operands[0].Regs, 8u);
  EXPECT_TRUE(must("tcgen05.st.sync.aligned.32x32b.x1.b32").Operands[0].Bracketed);
  EXPECT_EQ(must("tcgen05.ld.red.sync.aligned.32x32b.x2.min.s32").Operands[1].Type, PtxType::s32);
  EXPECT_TRUE(
      must("tcgen05.commit.cta_group::1.mbarrier::arrive::one.multicast::cluster.b64").Operands[1].RegisterOnly);
  EXPECT_EQ(must("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64").Operands[0].AddrSpace,
            TILEAPPLY_SPACE_SHARED_CLUSTER);
  EXPECT_FALSE(must("tcgen05.mma.cta_group::1.kind::f16").isAligned()); // issued by one thread
  EXPECT_TRUE(must("tcgen05.wait::ld.sync.aligned").isAligned());
  // The sparse mma metadata and block-scale data are registers only.
  Form Sp = must("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32");
  EXPECT_TRUE(Sp.Operands[4].RegisterOnly);
  EXPECT_EQ(Sp.Operands[5].ImmHi, 1);
}

// Rows win over a broader TA_UNSUPPORTED prefix (red.async under "red");
// immediates of disjoint ranges make overloads (tensormap.replace's elemtype).
TEST(OpcodeTableFamilies, AsyncRowsUnsupportedAndImmediateOverloads) {
  EXPECT_TRUE(T().lookup("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32"));
  EXPECT_TRUE(T().lookup("red.async.release.gpu.global.add.s64"));
  EXPECT_TRUE(T().lookup("red.global.add.u32")); // atomic.def
  EXPECT_EQ(T().lookup("prefetch.param.tensormap").Problem.K, SpellingProblem::Unsupported);
  EXPECT_EQ(T().lookup("prefetch.const.tensormap").Problem.K, SpellingProblem::Unsupported);
  EXPECT_TRUE(T().lookup("prefetch.tensormap"));
  LookupResult E = T().lookup("tensormap.replace.tile.elemtype.shared::cta.b1024.b32");
  ASSERT_TRUE(E);
  ASSERT_EQ(E.Overloads.size(), 1u);
  EXPECT_EQ(E.Found->Operands[1].ImmHi, 12);
  EXPECT_EQ(E.Overloads[0].Operands[1].ImmLo, 13);
  EXPECT_EQ(E.Overloads[0].MinPtx, 87u);
  // Left out: 8-bit registers.
  EXPECT_FALSE(T().lookup("st.async.release.gpu.global.b8"));
  EXPECT_FALSE(T().lookup("multimem.st.global.v4.e5m2"));
  EXPECT_TRUE(T().lookup("multimem.st.global.v4.e5m2x4"));
  // cp.async: the cp-size list, and src-size or ignore-src as overloads.
  LookupResult C = T().lookup("cp.async.ca.shared.global");
  ASSERT_TRUE(C);
  EXPECT_EQ(C.Found->Operands[2].ImmValues, (std::vector<int64_t>{4, 8, 16}));
  ASSERT_EQ(C.Overloads.size(), 1u);
  EXPECT_EQ(C.Found->Operands[3].Type, PtxType::u32);
  EXPECT_TRUE(C.Found->Operands[3].Optional);
  EXPECT_EQ(C.Overloads[0].Operands[3].Type, PtxType::pred);
  EXPECT_EQ(C.Overloads[0].MinPtx, 75u);
  // Modes: im2col offsets in braces, gather4's five coordinates, the
  // family-only .cta_group.
  Form I = must("cp.async.bulk.tensor.5d.shared::cta.global.im2col.mbarrier::complete_tx::bytes");
  EXPECT_TRUE(I.Operands[4].Braced);
  EXPECT_EQ(I.Operands[4].Regs, 3u);
  EXPECT_EQ(
      must("cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes").Operands[2].Regs,
      5u);
  EXPECT_EQ(must("cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes").MinSm, 100u);
  EXPECT_FALSE(
      must("cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::complete_tx::bytes.cta_group::1").OnlyOn.empty());
  // Typed reductions: the buffers take the operation's type.
  Form R = must("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.bf16");
  EXPECT_EQ(R.Operands[0].Type, PtxType::bf16);
  EXPECT_EQ(R.Operands[1].Type, PtxType::bf16);
  // multimem vectors: N registers of the element type.
  Form M = must("multimem.ld_reduce.acquire.gpu.global.add.acc::f32.v8.bf16");
  EXPECT_EQ(M.Operands[0].Type, PtxType::bf16);
  EXPECT_EQ(M.Operands[0].Regs, 8u);
  EXPECT_EQ(M.MinPtx, 82u);
}

} // namespace

// An immediate may allow a list of values rather than a range: cp.async's
// cp-size takes 4, 8 or 16 (`cp-size:imm:u32[4|8|16]`).
TEST(OperandSpec, ImmediateValueListsRangesAndSteps) {
  OperandSpec Range;
  Range.Direction = Dir::Imm;
  Range.ImmLo = 0;
  Range.ImmHi = 255;
  EXPECT_TRUE(Range.immAllows(0));
  EXPECT_TRUE(Range.immAllows(255));
  EXPECT_FALSE(Range.immAllows(256));
  EXPECT_EQ(Range.immText(), "[0..255]");
  OperandSpec Step = Range;
  Step.ImmLo = 24;
  Step.ImmHi = 256;
  Step.ImmStep = 8;
  EXPECT_TRUE(Step.immAllows(240));
  EXPECT_FALSE(Step.immAllows(100));
  EXPECT_EQ(Step.immText(), "[24..256], in steps of 8 from 24");
  OperandSpec Few = Range; // wgmma's imm-scale-a: few values, listed
  Few.ImmLo = -1;
  Few.ImmHi = 1;
  Few.ImmStep = 2;
  EXPECT_EQ(Few.immText(), "{-1, 1}");
  OperandSpec List = Range;
  List.ImmValues = {4, 8, 16};
  List.ImmLo = 4;
  List.ImmHi = 16;
  EXPECT_TRUE(List.immAllows(8));
  EXPECT_FALSE(List.immAllows(12));
  EXPECT_FALSE(List.immAllows(32));
  EXPECT_EQ(List.immText(), "{4, 8, 16}");
}

// bar{.cta} is barrier{.cta}.aligned written short: its forms are .aligned
// (a per-repeat predicate tensor is refused there); bar.warp.sync is not.
TEST(Form, BarIsAligned) {
  Form F;
  F.Spelling = "bar.sync";
  EXPECT_TRUE(F.isAligned());
  F.Spelling = "bar.cta.red.popc.u32";
  EXPECT_TRUE(F.isAligned());
  F.Spelling = "bar.warp.sync";
  EXPECT_FALSE(F.isAligned());
  F.Spelling = "barrier.sync";
  EXPECT_FALSE(F.isAligned());
  F.Spelling = "barrier.sync.aligned";
  EXPECT_TRUE(F.isAligned());
}
