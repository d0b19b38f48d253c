//===- FragmentReuseTest.cpp - tile::frag::acc_to_a ------------------------===//
//
// acc_to_a names the accumulator register of a wgmma D that holds each
// element of a k16 A fragment taken from the accumulator's columns (the P of
// attention reused as A). Checked against the layouts' own coordinates: for
// every accumulator width, step, thread, register and element, the named
// accumulator holds the same row and the column 16 * step + the A column;
// and the refusals.
//
//===----------------------------------------------------------------------===//
#include "tileapply/fragment.h"

#include <gtest/gtest.h>

using namespace tile::frag;

namespace {

TEST(FragmentAccToA, EveryElementOfEveryStep) {
  for (type at : {type::bf16, type::f16})
    for (int n = 16; n <= 256; n += 16) {
      const layout acc = wgmma(n, 16, operand::d, type::f32);
      const layout a = wgmma(64, 16, operand::a, at);
      ASSERT_TRUE(acc.ok() && a.ok());
      for (int kk = 0; kk < n / 16; ++kk)
        for (int t = 0; t < 128; ++t)
          for (int r = 0; r < 4; ++r)
            for (int e = 0; e < 2; ++e) {
              const int i = acc_to_a(acc, a, kk, r, e);
              ASSERT_GE(i, 0);
              const pos pa = a.coord(t, r, e), pd = acc.coord(t, i, 0);
              EXPECT_EQ(pd.row, pa.row) << "n " << n << " kk " << kk << " t " << t << " r " << r << " e " << e;
              EXPECT_EQ(pd.col, 16 * kk + pa.col) << "n " << n << " kk " << kk << " t " << t << " r " << r;
            }
    }
}

TEST(FragmentAccToA, ClosedForm) {
  constexpr layout acc = wgmma(128, 16, operand::d, type::f32);
  constexpr layout a = wgmma(128, 16, operand::a, type::bf16);
  static_assert(acc_to_a(acc, a, 0, 0, 0) == 0 && acc_to_a(acc, a, 0, 0, 1) == 1, "first pair");
  static_assert(acc_to_a(acc, a, 3, 2, 1) == 8 * 3 + 2 * 2 + 1, "8 kk + 2 r + e");
  static_assert(acc_to_a(acc, a, 7, 3, 1) == 63, "last register");
}

TEST(FragmentAccToA, Refusals) {
  const layout acc = wgmma(64, 16, operand::d, type::f32);
  const layout a = wgmma(64, 16, operand::a, type::bf16);
  EXPECT_EQ(acc_to_a(acc, a, 4, 0, 0), -1);                                   // past the accumulator's columns
  EXPECT_EQ(acc_to_a(acc, a, -1, 0, 0), -1);
  EXPECT_EQ(acc_to_a(acc, a, 0, 4, 0), -1);
  EXPECT_EQ(acc_to_a(acc, a, 0, 0, 2), -1);
  EXPECT_EQ(acc_to_a(wgmma(64, 16, operand::d, type::f16), a, 0, 0, 0), -1); // f16x2 accumulators
  EXPECT_EQ(acc_to_a(acc, wgmma(64, 8, operand::a, type::tf32), 0, 0, 0), -1);
  EXPECT_EQ(acc_to_a(acc, wgmma(64, 32, operand::a, type::e4m3), 0, 0, 0), -1);
  EXPECT_EQ(acc_to_a(mma(m16n8k16, operand::d, type::f32), mma(m16n8k16, operand::a, type::bf16), 0, 0, 0), -1);
  EXPECT_EQ(acc_to_a(a, acc, 0, 0, 0), -1);                                   // swapped
}

} // namespace
