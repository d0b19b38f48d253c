//===- FragmentTest.cpp - runtime/include/tileapply/fragment.h ----------===//
//
// The fragment layouts are checked three ways, none of which reuses the
// header's formulas:
//  1. against transcriptions of the PTX ISA's own formula text (9.7.14.5.x,
//     9.7.14.6.2.x), written out case by case the way the ISA states them
//     ("row = groupID for ai where 0 <= i < 2 || 4 <= i < 6, groupID + 8
//     otherwise"), while the header uses a few parametrised formulas;
//  2. where the ISA has only a figure (wgmma, ldmatrix .m16n16 / stmatrix
//     .m16n8, tcgen05.ld/st), against CUTLASS's CuTe layouts for the same
//     instruction, transcribed as (shape, stride) tuples and evaluated here;
//  3. structurally: every element of every matrix is held by exactly one
//     (thread, register, element), and the register counts are the ISA's.
//
//===----------------------------------------------------------------------===//
#include "tileapply/fragment.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using namespace tile::frag;

namespace {

// ---- helpers -----------------------------------------------------------------

struct RC {
  int row, col, matrix = 0;
};
using Ref = std::function<RC(int lane, int i)>;

std::string name(shape s, operand op, type t) {
  return "m" + std::to_string(s.m) + "n" + std::to_string(s.n) + "k" + std::to_string(s.k) + " op" +
         std::to_string(int(op)) + " type" + std::to_string(int(t));
}

// Every (thread, reg, elem) of `l` against `ref(thread, i)` where i is the
// ISA's element index reg * elems_per_reg + elem.
void expectMatches(const layout &l, const Ref &ref, const std::string &what) {
  ASSERT_TRUE(l.ok()) << what << ": " << l.error();
  int bad = 0;
  for (int th = 0; th < l.threads(); ++th)
    for (int r = 0; r < l.regs(); ++r)
      for (int e = 0; e < l.elems_per_reg(); ++e) {
        const pos p = l.coord(th, r, e);
        const RC want = ref(th, r * l.elems_per_reg() + e);
        if ((p.row != want.row || p.col != want.col || p.matrix != want.matrix) && bad++ < 3)
          ADD_FAILURE() << what << ": thread " << th << " reg " << r << " elem " << e << ": got (" << p.row << ", "
                        << p.col << ", m" << p.matrix << "), ISA (" << want.row << ", " << want.col << ", m"
                        << want.matrix << ")";
      }
  EXPECT_EQ(bad, 0) << what;
}

// Every element of every matrix held exactly once, and nothing outside.
void expectBijective(const layout &l, const std::string &what) {
  ASSERT_TRUE(l.ok()) << what << ": " << l.error();
  std::map<std::tuple<int, int, int>, int> seen;
  for (int th = 0; th < l.threads(); ++th)
    for (int r = 0; r < l.regs(); ++r)
      for (int e = 0; e < l.elems_per_reg(); ++e) {
        const pos p = l.coord(th, r, e);
        ASSERT_TRUE(p.row >= 0 && p.row < l.rows() && p.col >= 0 && p.col < l.cols() && p.matrix >= 0 &&
                    p.matrix < l.matrices())
            << what << ": thread " << th << " reg " << r << " elem " << e << " -> (" << p.row << ", " << p.col << ", "
            << p.matrix << ") outside " << l.rows() << " x " << l.cols() << " x " << l.matrices();
        ++seen[{p.matrix, p.row, p.col}];
      }
  EXPECT_EQ(int(seen.size()), l.rows() * l.cols() * l.matrices()) << what << ": elements not covered";
  for (auto &kv : seen)
    if (kv.second != 1) {
      ADD_FAILURE() << what << ": (" << std::get<1>(kv.first) << ", " << std::get<2>(kv.first) << ") held " << kv.second
                    << " times";
      break;
    }
}

// ---- ISA transcriptions (PTX ISA 9.1, section 9.7.14.5) ------------------------
// groupID = %laneid >> 2, threadID_in_group = %laneid % 4, as the ISA writes.
#define ISA_IDS                                                                                                        \
  const int groupID = lane >> 2;                                                                                       \
  const int threadID_in_group = lane % 4;                                                                              \
  (void)groupID;                                                                                                       \
  (void)threadID_in_group

// 9.7.14.5.1 m8n8k4 .f16: four MMAs; MMA computation c is lanes 4c..4c+3
// (low group) and 16+4c..16+4c+3 (high group).
int quadpair(int lane) { return (lane % 16) / 4; }
RC isa884_a_row(int lane, int i) { return {lane < 16 ? lane % 4 : lane % 4 + 4, i, quadpair(lane)}; }
RC isa884_a_col(int lane, int i) { return {lane < 16 ? i % 4 : i % 4 + 4, lane % 4, quadpair(lane)}; }
RC isa884_b_row(int lane, int i) { return {lane % 4, lane < 16 ? i : i + 4, quadpair(lane)}; }
RC isa884_b_col(int lane, int i) { return {i, lane < 16 ? lane % 4 : lane % 4 + 4, quadpair(lane)}; }
RC isa884_c_f16(int lane, int i) { return {lane < 16 ? lane % 4 : lane % 4 + 4, i, quadpair(lane)}; }
RC isa884_c_f32(int lane, int i) {
  const int X = (lane & 0b1) + (i & 0b10);
  return {lane < 16 ? X : X + 4, (i & 0b100) + (lane & 0b10) + (i & 0b1), quadpair(lane)};
}
// 9.7.14.5.2 m8n8k4 .f64
RC isa884_a_f64(int lane, int) { return {lane >> 2, lane % 4}; }
RC isa884_b_f64(int lane, int) { return {lane % 4, lane >> 2}; }
RC isa884_c_f64(int lane, int i) {
  ISA_IDS;
  return {groupID, (threadID_in_group * 2) + (i & 0x1)};
}
// 9.7.14.5.3 - 5: m8n8k16 / k32 / k128 (w = 4, 8, 32 elements per thread)
Ref isa88_a(int w) {
  return [w](int lane, int i) {
    ISA_IDS;
    return RC{groupID, (threadID_in_group * w) + i};
  };
}
Ref isa88_b(int w) {
  return [w](int lane, int i) {
    ISA_IDS;
    return RC{(threadID_in_group * w) + i, groupID};
  };
}
RC isa88_c(int lane, int i) {
  ISA_IDS;
  return {groupID, (threadID_in_group * 2) + i};
}
// 9.7.14.5.6 m16n8k4 (.tf32 and .f64 alike)
RC isa1684_a(int lane, int i) {
  ISA_IDS;
  return {i == 0 ? groupID : groupID + 8, threadID_in_group};
}
RC isa1684_b(int lane, int) {
  ISA_IDS;
  return {threadID_in_group, groupID};
}
// The m16n8 accumulator (9.7.14.5.6 - 13 all state it the same way).
RC isa168_c(int lane, int i) {
  ISA_IDS;
  return {i < 2 ? groupID : groupID + 8, (threadID_in_group * 2) + (i & 0x1)};
}
// 9.7.14.5.7 m16n8k8
RC isa1688_a_f16(int lane, int i) {
  ISA_IDS;
  return {i < 2 ? groupID : groupID + 8, threadID_in_group * 2 + (i & 0x1)};
}
RC isa1688_a_tf32(int lane, int i) { // also .f64
  ISA_IDS;
  return {(i == 0 || i == 2) ? groupID : groupID + 8, i < 2 ? threadID_in_group : threadID_in_group + 4};
}
RC isa1688_b_f16(int lane, int i) {
  ISA_IDS;
  return {(threadID_in_group * 2) + i, groupID};
}
RC isa1688_b_tf32(int lane, int i) { // also .f64
  ISA_IDS;
  return {i == 0 ? threadID_in_group : threadID_in_group + 4, groupID};
}
// 9.7.14.5.8 m16n8k16 floating point
RC isa16816_a_f16(int lane, int i) {
  ISA_IDS;
  const int row = ((0 <= i && i < 2) || (4 <= i && i < 6)) ? groupID : groupID + 8;
  const int col = i < 4 ? (threadID_in_group * 2) + (i & 0x1) : (threadID_in_group * 2) + (i & 0x1) + 8;
  return {row, col};
}
RC isa16816_a_f64(int lane, int i) {
  ISA_IDS;
  // "col = (i * 2) + threadID_in_group for ai where i % 2 = 0,
  //        (i * 2) - 2 + (threadID_in_group  Otherwise"
  return {i % 2 == 0 ? groupID : groupID + 8,
          i % 2 == 0 ? (i * 2) + threadID_in_group : (i * 2) - 2 + threadID_in_group};
}
RC isa16816_b_f16(int lane, int i) {
  ISA_IDS;
  return {i < 2 ? (threadID_in_group * 2) + (i & 0x1) : (threadID_in_group * 2) + (i & 0x1) + 8, groupID};
}
RC isa16816_b_f64(int lane, int i) {
  ISA_IDS;
  return {threadID_in_group + (i * 4), groupID};
}
// 9.7.14.5.9 m16n8k16 integer (and .e4m3 / .e5m2)
RC isa16816_a_i8(int lane, int i) {
  ISA_IDS;
  return {i < 4 ? groupID : groupID + 8, (threadID_in_group * 4) + (i & 0x3)};
}
RC isa16816_b_i8(int lane, int i) {
  ISA_IDS;
  return {(threadID_in_group * 4) + i, groupID};
}
// 9.7.14.5.10 m16n8k32
RC isa16832_a_i4(int lane, int i) {
  ISA_IDS;
  return {i < 8 ? groupID : groupID + 8, (threadID_in_group * 8) + (i & 0x7)};
}
RC isa16832_a_i8(int lane, int i) {
  ISA_IDS;
  const int row = ((0 <= i && i < 4) || (8 <= i && i < 12)) ? groupID : groupID + 8;
  const int col = i < 8 ? (threadID_in_group * 4) + (i & 0x3) : (threadID_in_group * 4) + (i & 0x3) + 16;
  return {row, col};
}
RC isa16832_b_i4(int lane, int i) {
  ISA_IDS;
  return {(threadID_in_group * 8) + (i & 0x7), groupID};
}
RC isa16832_b_i8(int lane, int i) {
  ISA_IDS;
  return {i < 4 ? (threadID_in_group * 4) + (i & 0x3) : (threadID_in_group * 4) + (i & 0x3) + 16, groupID};
}
// 9.7.14.5.11 m16n8k64
RC isa16864_a(int lane, int i) {
  ISA_IDS;
  const int row = ((0 <= i && i < 8) || (16 <= i && i < 24)) ? groupID : groupID + 8;
  const int col = i < 16 ? (threadID_in_group * 8) + (i & 0x7) : (threadID_in_group * 8) + (i & 0x7) + 32;
  return {row, col};
}
RC isa16864_b(int lane, int i) {
  ISA_IDS;
  return {i < 8 ? (threadID_in_group * 8) + (i & 0x7) : (threadID_in_group * 8) + (i & 0x7) + 32, groupID};
}
// 9.7.14.5.12 m16n8k128
RC isa168128_a(int lane, int i) {
  ISA_IDS;
  return {i < 32 ? groupID : groupID + 8, (threadID_in_group * 32) + (i & 0x1F)};
}
RC isa168128_b(int lane, int i) {
  ISA_IDS;
  return {(threadID_in_group * 32) + i, groupID};
}
// 9.7.14.5.13 m16n8k256. The A column formula's first branch is printed
// "(threadID_in_group * 32) + i for ai where i < 64"; with the row switching
// at i = 32 (its own row formula) only (i & 0x1F) keeps the 32 columns of a
// thread distinct, which is what Figure 100 draws.
RC isa168256_a(int lane, int i) {
  ISA_IDS;
  const int row = ((0 <= i && i < 32) || (64 <= i && i < 96)) ? groupID : groupID + 8;
  const int col = i < 64 ? (threadID_in_group * 32) + (i & 0x1F) : (threadID_in_group * 32) + (i & 0x1F) + 128;
  return {row, col};
}
RC isa168256_b(int lane, int i) {
  ISA_IDS;
  return {i < 32 ? (threadID_in_group * 32) + (i & 0x1F) : (threadID_in_group * 32) + (i & 0x1F) + 128, groupID};
}

// ---- a tiny CuTe layout evaluator, for CUTLASS transcriptions ------------------
// A flat mode list: index i decomposes colexicographically over the shapes.
struct Modes {
  std::vector<long> shape, stride;
  long operator()(long i) const {
    long r = 0;
    for (size_t k = 0; k < shape.size(); ++k) {
      r += (i % shape[k]) * stride[k];
      i /= shape[k];
    }
    return r;
  }
};

} // namespace

// ============================================================================
// mma.sync against the ISA's formulas
// ============================================================================

TEST(FragmentMma, M8N8K4F16AgainstIsa) {
  expectMatches(mma(m8n8k4, operand::a, type::f16), isa884_a_row, "m8n8k4 A row (natural)");
  expectMatches(mma(m8n8k4, operand::a, type::f16, major::row), isa884_a_row, "m8n8k4 A .row");
  expectMatches(mma(m8n8k4, operand::a, type::f16, major::col), isa884_a_col, "m8n8k4 A .col");
  expectMatches(mma(m8n8k4, operand::b, type::f16, major::row), isa884_b_row, "m8n8k4 B .row");
  expectMatches(mma(m8n8k4, operand::b, type::f16), isa884_b_col, "m8n8k4 B col (natural)");
  expectMatches(mma(m8n8k4, operand::c, type::f16), isa884_c_f16, "m8n8k4 C .f16");
  expectMatches(mma(m8n8k4, operand::d, type::f32), isa884_c_f32, "m8n8k4 D .f32");
  expectMatches(mma(m8n8k4, operand::a, type::f64), isa884_a_f64, "m8n8k4 A .f64");
  expectMatches(mma(m8n8k4, operand::b, type::f64), isa884_b_f64, "m8n8k4 B .f64");
  expectMatches(mma(m8n8k4, operand::c, type::f64), isa884_c_f64, "m8n8k4 C .f64");
}

TEST(FragmentMma, M8N8IntegerAgainstIsa) {
  for (type t : {type::s8, type::u8}) {
    expectMatches(mma(m8n8k16, operand::a, t), isa88_a(4), "m8n8k16 A");
    expectMatches(mma(m8n8k16, operand::b, t), isa88_b(4), "m8n8k16 B");
  }
  for (type t : {type::s4, type::u4}) {
    expectMatches(mma(m8n8k32, operand::a, t), isa88_a(8), "m8n8k32 A");
    expectMatches(mma(m8n8k32, operand::b, t), isa88_b(8), "m8n8k32 B");
  }
  expectMatches(mma(m8n8k128, operand::a, type::b1), isa88_a(32), "m8n8k128 A");
  expectMatches(mma(m8n8k128, operand::b, type::b1), isa88_b(32), "m8n8k128 B");
  for (shape s : {m8n8k16, m8n8k32, m8n8k128})
    expectMatches(mma(s, operand::c, type::s32), isa88_c, name(s, operand::c, type::s32));
}

TEST(FragmentMma, M16N8K4AndK8AgainstIsa) {
  for (type t : {type::tf32, type::f64}) {
    expectMatches(mma(m16n8k4, operand::a, t), isa1684_a, "m16n8k4 A");
    expectMatches(mma(m16n8k4, operand::b, t), isa1684_b, "m16n8k4 B");
    expectMatches(mma(m16n8k8, operand::a, t), isa1688_a_tf32, "m16n8k8 A tf32/f64");
    expectMatches(mma(m16n8k8, operand::b, t), isa1688_b_tf32, "m16n8k8 B tf32/f64");
  }
  for (type t : {type::f16, type::bf16}) {
    expectMatches(mma(m16n8k8, operand::a, t), isa1688_a_f16, "m16n8k8 A f16");
    expectMatches(mma(m16n8k8, operand::b, t), isa1688_b_f16, "m16n8k8 B f16");
  }
  expectMatches(mma(m16n8k4, operand::c, type::f32), isa168_c, "m16n8k4 C f32");
  expectMatches(mma(m16n8k4, operand::d, type::f64), isa168_c, "m16n8k4 D f64");
  expectMatches(mma(m16n8k8, operand::c, type::f16), isa168_c, "m16n8k8 C f16");
  expectMatches(mma(m16n8k8, operand::d, type::f32), isa168_c, "m16n8k8 D f32");
}

TEST(FragmentMma, M16N8K16AgainstIsa) {
  for (type t : {type::f16, type::bf16}) {
    expectMatches(mma(m16n8k16, operand::a, t), isa16816_a_f16, "m16n8k16 A f16/bf16");
    expectMatches(mma(m16n8k16, operand::b, t), isa16816_b_f16, "m16n8k16 B f16/bf16");
  }
  expectMatches(mma(m16n8k16, operand::a, type::f64), isa16816_a_f64, "m16n8k16 A f64");
  expectMatches(mma(m16n8k16, operand::b, type::f64), isa16816_b_f64, "m16n8k16 B f64");
  for (type t : {type::s8, type::u8, type::e4m3, type::e5m2}) {
    expectMatches(mma(m16n8k16, operand::a, t), isa16816_a_i8, "m16n8k16 A 8-bit");
    expectMatches(mma(m16n8k16, operand::b, t), isa16816_b_i8, "m16n8k16 B 8-bit");
  }
  for (type t : {type::f16, type::f32, type::s32, type::f64})
    expectMatches(mma(m16n8k16, operand::c, t), isa168_c, "m16n8k16 C");
}

TEST(FragmentMma, M16N8K32ToK256AgainstIsa) {
  for (type t : {type::s4, type::u4}) {
    expectMatches(mma(m16n8k32, operand::a, t), isa16832_a_i4, "m16n8k32 A 4-bit");
    expectMatches(mma(m16n8k32, operand::b, t), isa16832_b_i4, "m16n8k32 B 4-bit");
  }
  for (type t : {type::s8, type::u8, type::e4m3, type::e5m2, type::e3m2, type::e2m3, type::e2m1}) {
    expectMatches(mma(m16n8k32, operand::a, t), isa16832_a_i8, "m16n8k32 A 8-bit containers");
    expectMatches(mma(m16n8k32, operand::b, t), isa16832_b_i8, "m16n8k32 B 8-bit containers");
  }
  for (type t : {type::s4, type::u4, type::e2m1}) {
    expectMatches(mma(m16n8k64, operand::a, t), isa16864_a, "m16n8k64 A");
    expectMatches(mma(m16n8k64, operand::b, t), isa16864_b, "m16n8k64 B");
  }
  expectMatches(mma(m16n8k128, operand::a, type::b1), isa168128_a, "m16n8k128 A");
  expectMatches(mma(m16n8k128, operand::b, type::b1), isa168128_b, "m16n8k128 B");
  expectMatches(mma(m16n8k256, operand::a, type::b1), isa168256_a, "m16n8k256 A");
  expectMatches(mma(m16n8k256, operand::b, type::b1), isa168256_b, "m16n8k256 B");
  for (shape s : {m16n8k32, m16n8k64, m16n8k128, m16n8k256})
    expectMatches(mma(s, operand::d, type::s32), isa168_c, name(s, operand::d, type::s32));
  expectMatches(mma(m16n8k32, operand::c, type::f16), isa168_c, "m16n8k32 C f16");
  expectMatches(mma(m16n8k64, operand::c, type::f32), isa168_c, "m16n8k64 C f32");
}

// Values read off the ISA's figures for m16n8k16 (Figures 79, 81, 83).
TEST(FragmentMma, M16N8K16FigureSpotValues) {
  constexpr layout A = mma(m16n8k16, operand::a, type::f16);
  constexpr layout B = mma(m16n8k16, operand::b, type::f16);
  constexpr layout C = mma(m16n8k16, operand::c, type::f32);
  // A: T0 holds a0,a1 at row 0 cols 0,1; a2,a3 at row 8; a4..a7 at cols 8,9.
  static_assert(A.coord(0, 0, 0).row == 0 && A.coord(0, 0, 1).col == 1, "");
  static_assert(A.coord(0, 1, 0).row == 8 && A.coord(0, 1, 0).col == 0, "");
  static_assert(A.coord(0, 2, 0).row == 0 && A.coord(0, 2, 0).col == 8, "");
  static_assert(A.coord(0, 3, 1).row == 8 && A.coord(0, 3, 1).col == 9, "");
  // T31 (groupID 7, threadID_in_group 3): a7 at (15, 15).
  static_assert(A.coord(31, 3, 1).row == 15 && A.coord(31, 3, 1).col == 15, "");
  // B: T1 holds b0,b1 at rows 2,3 of column 0; b2,b3 at rows 10,11.
  static_assert(B.coord(1, 0, 0).row == 2 && B.coord(1, 0, 1).row == 3 && B.coord(1, 0, 0).col == 0, "");
  static_assert(B.coord(1, 1, 0).row == 10 && B.coord(1, 1, 1).row == 11, "");
  // C: T5 holds c0,c1 at (1, 2), (1, 3) and c2,c3 at (9, 2), (9, 3).
  static_assert(C.coord(5, 0, 0).row == 1 && C.coord(5, 0, 0).col == 2, "");
  static_assert(C.coord(5, 3, 0).row == 9 && C.coord(5, 3, 0).col == 3, "");
  EXPECT_TRUE(A.ok() && B.ok() && C.ok());
}

// Register counts of every form, from the ISA's fragment tables.
TEST(FragmentMma, RegisterCounts) {
  struct Row {
    shape s;
    operand op;
    type t;
    int regs, per, reg_bits;
  };
  const Row rows[] = {
      {m8n8k4, operand::a, type::f16, 2, 2, 32},    {m8n8k4, operand::b, type::f16, 2, 2, 32},
      {m8n8k4, operand::c, type::f16, 4, 2, 32},    {m8n8k4, operand::d, type::f32, 8, 1, 32},
      {m8n8k4, operand::a, type::f64, 1, 1, 64},    {m8n8k4, operand::c, type::f64, 2, 1, 64},
      {m8n8k16, operand::a, type::s8, 1, 4, 32},    {m8n8k16, operand::d, type::s32, 2, 1, 32},
      {m8n8k32, operand::b, type::u4, 1, 8, 32},    {m8n8k128, operand::a, type::b1, 1, 32, 32},
      {m16n8k4, operand::a, type::tf32, 2, 1, 32},  {m16n8k4, operand::b, type::tf32, 1, 1, 32},
      {m16n8k4, operand::a, type::f64, 2, 1, 64},   {m16n8k4, operand::c, type::f64, 4, 1, 64},
      {m16n8k8, operand::a, type::f16, 2, 2, 32},   {m16n8k8, operand::b, type::bf16, 1, 2, 32},
      {m16n8k8, operand::a, type::tf32, 4, 1, 32},  {m16n8k8, operand::b, type::tf32, 2, 1, 32},
      {m16n8k8, operand::a, type::f64, 4, 1, 64},   {m16n8k8, operand::c, type::f16, 2, 2, 32},
      {m16n8k16, operand::a, type::bf16, 4, 2, 32}, {m16n8k16, operand::b, type::f16, 2, 2, 32},
      {m16n8k16, operand::c, type::f32, 4, 1, 32},  {m16n8k16, operand::c, type::f16, 2, 2, 32},
      {m16n8k16, operand::a, type::f64, 8, 1, 64},  {m16n8k16, operand::b, type::f64, 4, 1, 64},
      {m16n8k16, operand::a, type::s8, 2, 4, 32},   {m16n8k16, operand::b, type::e4m3, 1, 4, 32},
      {m16n8k32, operand::a, type::s8, 4, 4, 32},   {m16n8k32, operand::b, type::e5m2, 2, 4, 32},
      {m16n8k32, operand::a, type::e2m1, 4, 4, 32}, {m16n8k32, operand::a, type::s4, 2, 8, 32},
      {m16n8k32, operand::b, type::u4, 1, 8, 32},   {m16n8k64, operand::a, type::s4, 4, 8, 32},
      {m16n8k64, operand::b, type::e2m1, 2, 8, 32}, {m16n8k128, operand::a, type::b1, 2, 32, 32},
      {m16n8k128, operand::b, type::b1, 1, 32, 32}, {m16n8k256, operand::a, type::b1, 4, 32, 32},
      {m16n8k256, operand::b, type::b1, 2, 32, 32}, {m16n8k256, operand::d, type::s32, 4, 1, 32},
  };
  for (const Row &r : rows) {
    const layout l = mma(r.s, r.op, r.t);
    ASSERT_TRUE(l.ok()) << name(r.s, r.op, r.t) << ": " << l.error();
    EXPECT_EQ(l.regs(), r.regs) << name(r.s, r.op, r.t);
    EXPECT_EQ(l.elems_per_reg(), r.per) << name(r.s, r.op, r.t);
    EXPECT_EQ(l.reg_bits(), r.reg_bits) << name(r.s, r.op, r.t);
  }
  static_assert(mma(m16n8k16, operand::a, type::bf16).regs() == 4, "usable in constant expressions");
}

TEST(FragmentMma, EveryFormIsABijection) {
  const shape shapes[] = {m8n8k4,   m8n8k16,  m8n8k32,  m8n8k128,  m16n8k4,  m16n8k8,
                          m16n8k16, m16n8k32, m16n8k64, m16n8k128, m16n8k256};
  const type types[] = {type::f16, type::bf16, type::tf32, type::f32,  type::f64,  type::s32,  type::s8,   type::u8,
                        type::s4,  type::u4,   type::b1,   type::e4m3, type::e5m2, type::e3m2, type::e2m3, type::e2m1};
  int forms = 0;
  for (shape s : shapes)
    for (operand op : {operand::a, operand::b, operand::c, operand::d})
      for (type t : types) {
        const layout l = mma(s, op, t);
        if (!l.ok()) continue;
        ++forms;
        expectBijective(l, name(s, op, t));
        // the sizes are the ISA's matrix sizes
        const bool a = op == operand::a, b = op == operand::b;
        EXPECT_EQ(l.rows(), a || !b ? s.m : s.k) << name(s, op, t);
        EXPECT_EQ(l.cols(), a ? s.k : s.n) << name(s, op, t);
        EXPECT_EQ(l.elems() * l.threads(), l.rows() * l.cols() * l.matrices()) << name(s, op, t);
      }
  for (operand op : {operand::a, operand::b})
    for (major m : {major::row, major::col}) expectBijective(mma(m8n8k4, op, type::f16, m), "m8n8k4 f16 layout");
  EXPECT_GE(forms, 60);
}

TEST(FragmentMma, RefusesFormsTheIsaLacks) {
  EXPECT_FALSE(mma(m16n8k16, operand::a, type::tf32).ok());
  EXPECT_FALSE(mma(m16n8k8, operand::a, type::s8).ok());
  EXPECT_FALSE(mma(m16n8k64, operand::a, type::s8).ok());
  EXPECT_FALSE(mma(m8n8k4, operand::a, type::bf16).ok());
  EXPECT_FALSE(mma(m8n8k4, operand::a, type::f64, major::col).ok());
  EXPECT_FALSE(mma(m16n8k16, operand::a, type::f16, major::col).ok());
  EXPECT_FALSE(mma(m16n8k4, operand::c, type::f16).ok());
  EXPECT_FALSE(mma(m16n8k128, operand::c, type::f32).ok());
  EXPECT_FALSE(mma(shape{32, 8, 16}, operand::a, type::f16).ok());
  const layout bad = mma(m16n8k16, operand::a, type::tf32);
  EXPECT_NE(bad.error(), nullptr);
  EXPECT_EQ(bad.regs(), 0);
  EXPECT_EQ(bad.coord(0, 0, 0).row, -1);
  // out-of-range arguments of a valid layout
  constexpr layout A = mma(m16n8k16, operand::a, type::f16);
  EXPECT_EQ(A.coord(32, 0, 0).row, -1);
  EXPECT_EQ(A.coord(0, 4, 0).row, -1);
  EXPECT_EQ(A.coord(0, 0, 2).row, -1);
}

TEST(FragmentMma, FindInvertsCoord) {
  constexpr layout C = mma(m16n8k16, operand::c, type::f32);
  constexpr holder h = C.find(9, 3);
  static_assert(h.thread == 5 && h.reg == 3 && h.elem == 0, "");
  const layout A = mma(m8n8k4, operand::a, type::f16);
  const holder q = A.find(6, 3, 2); // MMA 2 (lanes 8-11, 24-27), high group
  EXPECT_EQ(q.thread, 26);
  EXPECT_EQ(q.reg * 2 + q.elem, 3);
  EXPECT_EQ(C.find(16, 0).thread, -1);
}

// ============================================================================
// Sparse A (9.7.14.6.2): rows and the chunk [firstcol, lastcol] per element
// ============================================================================

namespace {
struct SparseRef {
  int row, firstcol, lastcol;
};
using SRef = std::function<SparseRef(int lane, int i)>;

void expectSparse(const layout &l, const SRef &ref, const std::string &what) {
  ASSERT_TRUE(l.ok()) << what << ": " << l.error();
  ASSERT_TRUE(l.sparse()) << what;
  int bad = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < l.regs(); ++r)
      for (int e = 0; e < l.elems_per_reg(); ++e) {
        const pos p = l.coord(lane, r, e);
        const SparseRef w = ref(lane, r * l.elems_per_reg() + e);
        if ((p.row != w.row || l.sparse_first_col(p.col) != w.firstcol || l.sparse_last_col(p.col) != w.lastcol) &&
            bad++ < 3)
          ADD_FAILURE() << what << ": lane " << lane << " a" << r * l.elems_per_reg() + e << ": row " << p.row
                        << " chunk [" << l.sparse_first_col(p.col) << ", " << l.sparse_last_col(p.col) << "], ISA row "
                        << w.row << " chunk [" << w.firstcol << ", " << w.lastcol << "]";
      }
  EXPECT_EQ(bad, 0) << what;
  expectBijective(l, what + " (compressed)");
}
} // namespace

TEST(FragmentSparse, AAgainstIsa) {
  // 9.7.14.6.2.1 m16n8k16 .f16/.bf16
  expectSparse(
      mma_sp(m16n8k16, operand::a, type::f16),
      [](int lane, int i) {
        ISA_IDS;
        return SparseRef{i < 2 ? groupID : groupID + 8, threadID_in_group * 4, threadID_in_group * 4 + 3};
      },
      "sp m16n8k16 f16");
  // 9.7.14.6.2.2 m16n8k32 .f16/.bf16
  expectSparse(
      mma_sp(m16n8k32, operand::a, type::bf16),
      [](int lane, int i) {
        ISA_IDS;
        const int first = i < 4 ? threadID_in_group * 4 : (threadID_in_group * 4) + 16;
        return SparseRef{((0 <= i && i < 2) || (4 <= i && i < 6)) ? groupID : groupID + 8, first, first + 3};
      },
      "sp m16n8k32 bf16");
  // 9.7.14.6.2.3 m16n8k16 .tf32
  expectSparse(
      mma_sp(m16n8k16, operand::a, type::tf32),
      [](int lane, int i) {
        ISA_IDS;
        const int first = i < 2 ? threadID_in_group * 2 : (threadID_in_group * 2) + 8;
        return SparseRef{(i == 0 || i == 2) ? groupID : groupID + 8, first, first + 1};
      },
      "sp m16n8k16 tf32");
  // 9.7.14.6.2.4 m16n8k8 .tf32
  expectSparse(
      mma_sp(m16n8k8, operand::a, type::tf32),
      [](int lane, int i) {
        ISA_IDS;
        return SparseRef{i == 0 ? groupID : groupID + 8, threadID_in_group * 2, threadID_in_group * 2 + 1};
      },
      "sp m16n8k8 tf32");
  // 9.7.14.6.2.5 m16n8k32 .u8/.s8: [firstcol, lastcol] = [8t, 8t + 7] holds
  // two 2:4 chunks; a_i with i % 4 < 2 sit in the first, the others in the second
  expectSparse(
      mma_sp(m16n8k32, operand::a, type::s8),
      [](int lane, int i) {
        ISA_IDS;
        const int chunk = threadID_in_group * 8 + 4 * ((i % 4) / 2);
        return SparseRef{i < 4 ? groupID : groupID + 8, chunk, chunk + 3};
      },
      "sp m16n8k32 s8");
  // 9.7.14.6.2.6 m16n8k64 8-bit (the chunk of 8 holds two 2:4 chunks)
  for (type t : {type::u8, type::e4m3, type::e2m1})
    expectSparse(
        mma_sp(m16n8k64, operand::a, t),
        [](int lane, int i) {
          ISA_IDS;
          const int first = i < 8 ? threadID_in_group * 8 : (threadID_in_group * 8) + 32;
          const int row = ((0 <= i && i < 4) || (8 <= i && i < 12)) ? groupID : groupID + 8;
      // the ISA's [firstcol, firstcol + 7] spans two 4-wide chunks: a_i with
      // i % 4 < 2 in the first, the others in the second
          const int chunk = first + 4 * ((i % 4) / 2);
          return SparseRef{row, chunk, chunk + 3};
        },
        "sp m16n8k64 8-bit");
  // 9.7.14.6.2.7 m16n8k64 .u4/.s4 (pairwise 4:8)
  expectSparse(
      mma_sp(m16n8k64, operand::a, type::u4),
      [](int lane, int i) {
        ISA_IDS;
        const int first = threadID_in_group * 16 + 8 * ((i % 8) / 4); // [16t, 16t+15] = two 8-wide chunks
        return SparseRef{i < 8 ? groupID : groupID + 8, first, first + 7};
      },
      "sp m16n8k64 u4");
  // 9.7.14.6.2.8 m16n8k128 .u4/.s4/.e2m1
  for (type t : {type::s4, type::e2m1})
    expectSparse(
        mma_sp(m16n8k128, operand::a, t),
        [](int lane, int i) {
          ISA_IDS;
          const int base = i < 16 ? threadID_in_group * 16 : (threadID_in_group * 16) + 64;
          const int first = base + 8 * ((i % 8) / 4);
          return SparseRef{((0 <= i && i < 8) || (16 <= i && i < 24)) ? groupID : groupID + 8, first, first + 7};
        },
        "sp m16n8k128 4-bit");
}

TEST(FragmentSparse, BAndAccumulators) {
  // Where the ISA says B is the dense shape's B.
  expectMatches(mma_sp(m16n8k16, operand::b, type::f16), isa16816_b_f16, "sp m16n8k16 B f16");
  expectMatches(mma_sp(m16n8k8, operand::b, type::tf32), isa1688_b_tf32, "sp m16n8k8 B tf32");
  expectMatches(mma_sp(m16n8k32, operand::b, type::s8), isa16832_b_i8, "sp m16n8k32 B s8");
  expectMatches(mma_sp(m16n8k64, operand::b, type::s4), isa16864_b, "sp m16n8k64 B s4");
  expectMatches(mma_sp(m16n8k32, operand::d, type::f32), isa168_c, "sp m16n8k32 D");
  // Figure-only B layouts: sizes from the ISA's tables, and bijective.
  struct Row {
    shape s;
    type t;
    int regs, per, rows;
  };
  for (const Row &r : {Row{m16n8k32, type::f16, 4, 2, 32}, Row{m16n8k16, type::tf32, 4, 1, 16},
                       Row{m16n8k64, type::e4m3, 4, 4, 64}, Row{m16n8k128, type::e2m1, 4, 8, 128}}) {
    const layout l = mma_sp(r.s, operand::b, r.t);
    ASSERT_TRUE(l.ok()) << name(r.s, operand::b, r.t);
    EXPECT_EQ(l.regs(), r.regs);
    EXPECT_EQ(l.elems_per_reg(), r.per);
    EXPECT_EQ(l.rows(), r.rows);
    expectBijective(l, "sparse B " + name(r.s, operand::b, r.t));
  }
  // Compressed A register counts (9.7.14.6.2.x tables).
  EXPECT_EQ(mma_sp(m16n8k16, operand::a, type::f16).regs(), 2);
  EXPECT_EQ(mma_sp(m16n8k32, operand::a, type::f16).regs(), 4);
  EXPECT_EQ(mma_sp(m16n8k16, operand::a, type::tf32).regs(), 4);
  EXPECT_EQ(mma_sp(m16n8k8, operand::a, type::tf32).regs(), 2);
  EXPECT_EQ(mma_sp(m16n8k32, operand::a, type::u8).regs(), 2);
  EXPECT_EQ(mma_sp(m16n8k64, operand::a, type::e5m2).regs(), 4);
  EXPECT_EQ(mma_sp(m16n8k64, operand::a, type::s4).regs(), 2);
  EXPECT_EQ(mma_sp(m16n8k128, operand::a, type::u4).regs(), 4);
  EXPECT_FALSE(mma_sp(m16n8k16, operand::a, type::s8).ok());
  EXPECT_FALSE(mma_sp(m8n8k16, operand::a, type::s8).ok());
}

// ============================================================================
// wgmma against CUTLASS's GMMA layouts (cute/atom/mma_traits_sm90_gmma.hpp):
// (thread, value) -> m + 64 * (k or n), thread in 0..127.
// ============================================================================

namespace {
void expectCute(const layout &l, const Modes &thr, const Modes &val, int ld, const std::string &what) {
  expectMatches(
      l,
      [&](int th, int i) {
        const long off = thr(th) + val(i);
        return RC{int(off % ld), int(off / ld)};
      },
      what);
}
} // namespace

TEST(FragmentWgmma, AgainstCutlass) {
  const Modes thr128{{4, 8, 4}, {128, 1, 16}};
  // ALayout_64x16 ((4,8,4),(2,2,2)):((128,1,16),(64,8,512))
  expectCute(wgmma(64, 16, operand::a, type::bf16), thr128, Modes{{2, 2, 2}, {64, 8, 512}}, 64, "wgmma A k16");
  // ALayout_64x8 ((4,8,4),(2,2)):((64,1,16),(8,256))
  expectCute(wgmma(64, 8, operand::a, type::tf32), Modes{{4, 8, 4}, {64, 1, 16}}, Modes{{2, 2}, {8, 256}}, 64,
             "wgmma A k8");
  // ALayout_64x32 ((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))
  expectCute(wgmma(64, 32, operand::a, type::e4m3), Modes{{4, 8, 4}, {256, 1, 16}}, Modes{{4, 2, 2}, {64, 8, 1024}}, 64,
             "wgmma A k32");
  // CLayout_64xN ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))
  for (int n : {8, 16, 24, 64, 128, 200, 256}) {
    expectCute(wgmma(n, 16, operand::d, type::f32), thr128, Modes{{2, 2, n / 8}, {64, 8, 512}}, 64,
               "wgmma D f32 n" + std::to_string(n));
    expectCute(wgmma(n, 16, operand::d, type::f16), thr128, Modes{{2, 2, n / 8}, {64, 8, 512}}, 64,
               "wgmma D f16 n" + std::to_string(n));
  }
  // Sparse A from registers (ALayout_64x16 is also "sparse 32-bit"): the
  // compressed 64 x 16 .f16 A of k32 has the dense k16 pattern.
  expectCute(wgmma_sp(64, 32, operand::a, type::f16), thr128, Modes{{2, 2, 2}, {64, 8, 512}}, 64, "wgmma.sp A k32");
}

TEST(FragmentWgmma, CountsAndShapes) {
  // Register counts (9.7.15.5.1.1 tables): A 4 registers, D N/2 (.f32/.s32) or N/4 (.f16).
  for (int n = 8; n <= 256; n += 8) {
    EXPECT_EQ(wgmma(n, 16, operand::d, type::f32).regs(), n / 2);
    EXPECT_EQ(wgmma(n, 16, operand::d, type::f16).regs(), n / 4);
    EXPECT_EQ(wgmma(n, 32, operand::d, type::s32).ok(), n <= 32 || n % 16 == 0) << n;
  }
  EXPECT_EQ(wgmma(64, 16, operand::a, type::f16).regs(), 4);
  EXPECT_EQ(wgmma(64, 8, operand::a, type::tf32).regs(), 4);
  EXPECT_EQ(wgmma(64, 32, operand::a, type::s8).regs(), 4);
  EXPECT_EQ(wgmma(64, 256, operand::a, type::b1).regs(), 4);
  EXPECT_EQ(wgmma(64, 16, operand::a, type::f16).threads(), 128);
  expectBijective(wgmma(64, 256, operand::a, type::b1), "wgmma A b1");
  expectBijective(wgmma(256, 256, operand::d, type::s32), "wgmma D s32");
  EXPECT_FALSE(wgmma(64, 16, operand::b, type::f16).ok());
  EXPECT_FALSE(wgmma(12, 16, operand::d, type::f32).ok());
  EXPECT_FALSE(wgmma(264, 16, operand::d, type::f32).ok());
  EXPECT_FALSE(wgmma(40, 32, operand::d, type::s32).ok());
  EXPECT_FALSE(wgmma(64, 8, operand::d, type::f16).ok()); // .tf32 accumulates in .f32
  EXPECT_FALSE(wgmma(64, 16, operand::a, type::tf32).ok());
  EXPECT_EQ(wgmma_sp(64, 64, operand::a, type::s8).regs(), 4);
  EXPECT_TRUE(wgmma_sp(64, 16, operand::a, type::tf32).sparse());
  EXPECT_FALSE(wgmma_sp(64, 16, operand::a, type::f16).ok());
}

// ============================================================================
// ldmatrix / stmatrix / movmatrix
// ============================================================================

TEST(FragmentLdmatrix, M8N8FromIsaText) {
  // "Each thread in a warp loads fragments of a row, with thread 0 receiving
  // the first fragment in its register r, and so on. A group of four threads
  // loads an entire row" (Figure 104): lane l gets row l/4, elements
  // 2*(l%4), 2*(l%4)+1 of every matrix, one register per matrix.
  for (int num : {1, 2, 4}) {
    const layout l = ldmatrix(m8n8, num, false);
    ASSERT_TRUE(l.ok());
    EXPECT_EQ(l.regs(), num);
    EXPECT_EQ(l.matrices(), num);
    expectMatches(l, [](int lane, int i) { return RC{lane / 4, 2 * (lane % 4) + i % 2, i / 2}; }, "ldmatrix m8n8");
    // .trans: the matrix is read column-major: the same register positions
    // hold the transpose.
    expectMatches(
        ldmatrix(m8n8, num, true), [](int lane, int i) { return RC{2 * (lane % 4) + i % 2, lane / 4, i / 2}; },
        "ldmatrix m8n8 .trans");
    expectBijective(ldmatrix(m8n8, num, true), "ldmatrix m8n8 .trans");
    // addresses: threads 0-7 matrix 0, 8-15 matrix 1, ... (the .num table)
    for (int m = 0; m < num; ++m)
      for (int r = 0; r < 8; ++r) EXPECT_EQ(l.address_lane(m, r), 8 * m + r);
  }
  // spot values: lane 6 -> row 1, elements 4 and 5; with .trans rows 4 and 5 of column 1
  constexpr layout N = ldmatrix(m8n8, 4, false), T = ldmatrix(m8n8, 4, true);
  static_assert(N.coord(6, 3, 1).row == 1 && N.coord(6, 3, 1).col == 5 && N.coord(6, 3, 1).matrix == 3, "");
  static_assert(T.coord(6, 0, 0).row == 4 && T.coord(6, 0, 1).row == 5 && T.coord(6, 0, 0).col == 1, "");
  // stmatrix .m8n8 is the same picture (Figure 107)
  expectMatches(
      stmatrix(m8n8, 2, false), [](int lane, int i) { return RC{lane / 4, 2 * (lane % 4) + i % 2, i / 2}; },
      "stmatrix m8n8");
  // movmatrix (Figures 109, 110): source row-wise, destination the transpose
  expectMatches(movmatrix(operand::a), [](int lane, int i) { return RC{lane / 4, 2 * (lane % 4) + i}; }, "movmatrix a");
  expectMatches(movmatrix(operand::d), [](int lane, int i) { return RC{2 * (lane % 4) + i, lane / 4}; }, "movmatrix d");
}

TEST(FragmentLdmatrix, M8N16FromIsaText) {
  // "Each thread in a warp loads 4 consecutive columns" (Figure 106), and
  // CUTLASS's SM100_SU4_DU8x16_x{1,2,4}_LDSM_N: (32,(32,num)):(32,(1,1024)).
  for (int num : {1, 2, 4}) {
    const layout l = ldmatrix(m8n16, num, false, type::b8);
    expectMatches(l, [](int lane, int i) { return RC{lane / 4, 4 * (lane % 4) + i % 4, i / 4}; }, "ldmatrix m8n16");
    expectBijective(l, "ldmatrix m8n16");
  }
}

namespace {
// CUTLASS copy traits map (thread, value bit) to a bit of a logical tile of
// 128-bit rows; `src` says which lane supplies the address of each logical
// row. Returns, per (lane, byte), the memory (matrix, row, byte) it touches,
// with rows_per_matrix address lanes per matrix.
void expectCopyTraits(const layout &l, const Modes &regThr, const Modes &regVal, const Modes &addrThr,
                      int rows_per_matrix, const std::string &what) {
  ASSERT_TRUE(l.ok()) << what << ": " << l.error();
  std::map<long, int> rowOwner; // logical 128-bit row -> first lane supplying it
  for (int t = 31; t >= 0; --t) rowOwner[addrThr(t) / 128] = t;
  expectMatches(
      l,
      [&](int lane, int i) {
        const long bit = regThr(lane) + regVal(8L * i);
        const int t = rowOwner.at(bit / 128);
        return RC{t % rows_per_matrix, int(bit % 128 / 8), t / rows_per_matrix};
      },
      what);
}
} // namespace

TEST(FragmentLdmatrix, M16N16AndStmatrixM16N8AgainstCutlass) {
  // SM100_U8x8_LDSM_T  (x1): src ((2,2,4,2),128):((128,1024,256,0),1),
  //                          dst ((4,8),(8,2,2,2)):((256,8),(1,128,64,1024))
  expectCopyTraits(ldmatrix(m16n16, 1, true, type::b8), Modes{{4, 8}, {256, 8}},
                   Modes{{8, 2, 2, 2}, {1, 128, 64, 1024}}, Modes{{2, 2, 4, 2}, {128, 1024, 256, 0}}, 16,
                   "ldmatrix m16n16 x1");
  // SM100_U8x16_LDSM_T (x2): src stride of the last mode 2048, dst (8,2,2,4)
  expectCopyTraits(ldmatrix(m16n16, 2, true, type::b8), Modes{{4, 8}, {256, 8}},
                   Modes{{8, 2, 2, 4}, {1, 128, 64, 1024}}, Modes{{2, 2, 4, 2}, {128, 1024, 256, 2048}}, 16,
                   "ldmatrix m16n16 x2");
  // SM100_U8x4_STSM_T (x1): src ((4,8),(8,2,2)):((256,8),(1,128,64)), dst ((8,4),128):((128,0),1)
  expectCopyTraits(stmatrix(m16n8, 1, true, type::b8), Modes{{4, 8}, {256, 8}}, Modes{{8, 2, 2}, {1, 128, 64}},
                   Modes{{8, 4}, {128, 0}}, 8, "stmatrix m16n8 x1");
  // SM100_U8x8_STSM_T (x2) and U8x16_STSM_T (x4)
  expectCopyTraits(stmatrix(m16n8, 2, true, type::b8), Modes{{4, 8}, {256, 8}}, Modes{{8, 2, 2, 2}, {1, 128, 64, 1024}},
                   Modes{{16, 2}, {128, 0}}, 8, "stmatrix m16n8 x2");
  expectCopyTraits(stmatrix(m16n8, 4, true, type::b8), Modes{{4, 8}, {256, 8}}, Modes{{8, 2, 2, 4}, {1, 128, 64, 1024}},
                   Modes{{32}, {128}}, 8, "stmatrix m16n8 x4");
  // and the ISA's sentence for .m16n16: 4 consecutive columns across 2 rows
  // (of the transposed tile): lane 0 holds columns 0-3 of rows 0 and 8.
  const layout l = ldmatrix(m16n16, 1, true, type::b8);
  for (int r = 0; r < 2; ++r)
    for (int e = 0; e < 4; ++e) {
      const pos p = l.coord(0, r, e); // memory (row, col) = transposed (col, row)
      EXPECT_TRUE(p.col == 0 || p.col == 8);
      EXPECT_TRUE(p.row >= 0 && p.row < 4);
    }
  EXPECT_EQ(l.address_lane(0, 15), 15);
  EXPECT_EQ(ldmatrix(m16n16, 2, true, type::b8).address_lane(1, 0), 16);
}

TEST(FragmentLdmatrix, Refusals) {
  EXPECT_FALSE(ldmatrix(m8n8, 3, false).ok());
  EXPECT_FALSE(ldmatrix(m8n8, 1, false, type::b8).ok());
  EXPECT_FALSE(ldmatrix(m16n16, 1, false, type::b8).ok());
  EXPECT_FALSE(ldmatrix(m16n16, 4, true, type::b8).ok());
  EXPECT_FALSE(ldmatrix(m8n16, 1, true, type::b8).ok());
  EXPECT_FALSE(stmatrix(m16n8, 1, false, type::b8).ok());
  EXPECT_FALSE(stmatrix(m16n16, 1, true, type::b8).ok());
  EXPECT_FALSE(movmatrix(operand::b).ok());
  EXPECT_EQ(ldmatrix(m16n16, 2, true, type::b8).regs(), 4);
  EXPECT_EQ(stmatrix(m16n8, 4, true, type::b8).regs(), 4);
}

// ============================================================================
// tcgen05.ld / st against CUTLASS's SM100_TMEM_LOAD_* copy traits
// (cute/atom/copy_traits_sm100.hpp): DstLayout (thread, value bit) -> logical
// bit b = column bit + bits_per_lane * lane (ValID ((bits, lanes)):(1, DP)).
// ============================================================================

namespace {
void expectTmem(const layout &l, const Modes &thr, const Modes &val, long bits_per_lane, const std::string &what) {
  expectMatches(
      l,
      [&](int lane, int i) {
        const long b = thr(lane) + val(32L * i);
        return RC{int(b / bits_per_lane), int(b % bits_per_lane / 32)};
      },
      what);
}
} // namespace

TEST(FragmentTcgen05, AgainstCutlass) {
  using S = tmem_shape;
  // 32dp32b1x / 2x: (32,32):(32,1) / (32,64):(64,1)
  expectTmem(tcgen05(S::s32x32b, 1), Modes{{32}, {32}}, Modes{{32}, {1}}, 32, "32x32b x1");
  expectTmem(tcgen05(S::s32x32b, 2), Modes{{32}, {64}}, Modes{{64}, {1}}, 64, "32x32b x2");
  // 16dp64b1x: ((2,2,8),32):((512,32,64),1); 2x: ((2,2,8),(32,2)):((1024,32,128),(1,64))
  expectTmem(tcgen05(S::s16x64b, 1), Modes{{2, 2, 8}, {512, 32, 64}}, Modes{{32}, {1}}, 64, "16x64b x1");
  expectTmem(tcgen05(S::s16x64b, 2), Modes{{2, 2, 8}, {1024, 32, 128}}, Modes{{32, 2}, {1, 64}}, 128, "16x64b x2");
  // 16dp128b1x: ((4,8),(32,2)):((32,128),(1,1024)); 2x: ((4,8),(32,2,2)):((32,256),(1,2048,128))
  expectTmem(tcgen05(S::s16x128b, 1), Modes{{4, 8}, {32, 128}}, Modes{{32, 2}, {1, 1024}}, 128, "16x128b x1");
  expectTmem(tcgen05(S::s16x128b, 2), Modes{{4, 8}, {32, 256}}, Modes{{32, 2, 2}, {1, 2048, 128}}, 256, "16x128b x2");
  // 16dp256b1x: ((4,8),(64,2)):((64,256),(1,2048)); 2x: ((4,8),(64,2,2)):((64,512),(1,4096,256))
  expectTmem(tcgen05(S::s16x256b, 1), Modes{{4, 8}, {64, 256}}, Modes{{64, 2}, {1, 2048}}, 256, "16x256b x1");
  expectTmem(tcgen05(S::s16x256b, 2), Modes{{4, 8}, {64, 512}}, Modes{{64, 2, 2}, {1, 4096, 256}}, 512, "16x256b x2");
  // 16dp32b1x (16x32bx2, the second half at column 1): ((16,2),32):((64,32),1);
  // 2x: ((16,2),64):((128,64),1), second half at columns 2-3.
  expectTmem(tcgen05(S::s16x32bx2, 1, false, 1), Modes{{16, 2}, {64, 32}}, Modes{{32}, {1}}, 64, "16x32bx2 x1");
  expectTmem(tcgen05(S::s16x32bx2, 2, false, 2), Modes{{16, 2}, {128, 64}}, Modes{{64}, {1}}, 128, "16x32bx2 x2");
}

TEST(FragmentTcgen05, PackAndCounts) {
  using S = tmem_shape;
  // 32dp32b1x_16b: ValID ((16,2),32):((1,32),DP): one register takes the low
  // 16 bits of columns 0 and 1 (element 0 = low half = column 0).
  const layout p = tcgen05(S::s32x32b, 1, true);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.regs(), 1);
  EXPECT_EQ(p.elems_per_reg(), 2);
  EXPECT_EQ(p.coord(7, 0, 0).row, 7);
  EXPECT_EQ(p.coord(7, 0, 0).col, 0);
  EXPECT_EQ(p.coord(7, 0, 1).col, 1);
  // Table 49: registers per .num
  for (int num = 1; num <= 128; num *= 2) {
    EXPECT_EQ(tcgen05(S::s32x32b, num).regs(), num);
    EXPECT_EQ(tcgen05(S::s16x64b, num).regs(), num);
    EXPECT_EQ(tcgen05(S::s16x32bx2, num, false, num).regs(), num);
    EXPECT_EQ(tcgen05(S::s16x128b, num).ok(), num <= 64);
    EXPECT_EQ(tcgen05(S::s16x256b, num).ok(), num <= 32);
    if (num <= 64) EXPECT_EQ(tcgen05(S::s16x128b, num).regs(), 2 * num);
    if (num <= 32) EXPECT_EQ(tcgen05(S::s16x256b, num).regs(), 4 * num);
  }
  for (int num : {1, 4, 32})
    for (bool pk : {false, true}) {
      for (S s : {S::s32x32b, S::s16x64b, S::s16x128b, S::s16x256b})
        expectBijective(tcgen05(s, num, pk), "tcgen05 shape " + std::to_string(int(s)));
      expectBijective(tcgen05(S::s16x32bx2, num, pk, pk ? 2 * num : num), "tcgen05 16x32bx2");
    }
  // with a gap between the halves, lanes 16-31 start at the offset
  const layout h = tcgen05(S::s16x32bx2, 2, false, 16);
  EXPECT_EQ(h.coord(3, 1, 0).col, 1);
  EXPECT_EQ(h.coord(19, 1, 0).col, 17);
  EXPECT_EQ(h.coord(19, 1, 0).row, 3);
  EXPECT_FALSE(tcgen05(S::s16x32bx2, 4, false, 2).ok()); // halves overlap
  EXPECT_FALSE(tcgen05(S::s32x32b, 3).ok());
  EXPECT_FALSE(tcgen05(S::s32x32b, 256).ok());
  EXPECT_FALSE(tcgen05(S::s32x32b, 1, false, 4).ok());
  EXPECT_EQ(tcgen05_lane_base(5), 32);
  EXPECT_EQ(tcgen05_lane_base(3), 96);
}
