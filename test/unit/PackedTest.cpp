//===- PackedTest.cpp - runtime/include/tileapply/{packed,host}.h ---===//
//
// The float <-> half / bfloat16 conversions are checked against references
// built a different way: a nearest-value search over the target format's
// encodings (decoded with ldexp, distances compared in double), and, where the
// host compiler has it, the compiler's own _Float16 conversion.
//
//===----------------------------------------------------------------------===//
#include "tileapply/packed.h"
#include "tileapply/core/Immediates.h"
#include "tileapply/host.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

using namespace tile::packed;

namespace {

// ---- references -------------------------------------------------------------

float bitsToFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
uint32_t floatToBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// Value of a finite, non-negative encoding, from its fields.
double refHalfValue(uint16_t h) {
  int e = (h >> 10) & 0x1F, m = h & 0x3FF;
  return e == 0 ? std::ldexp(double(m), -24) : std::ldexp(double(1024 + m), e - 25);
}
double refBf16Value(uint16_t b) {
  int e = (b >> 7) & 0xFF, m = b & 0x7F;
  return e == 0 ? std::ldexp(double(m), -133) : std::ldexp(double(128 + m), e - 134);
}

struct Format {
  double (*value)(uint16_t); // of a finite non-negative encoding
  uint16_t maxFinite;        // largest finite positive encoding
  uint16_t inf;              // +inf; maxFinite + 1
  double infAsIfFinite;      // where the next binade would start (for ties)
};
const Format Half{refHalfValue, 0x7BFF, 0x7C00, 65536.0};
const Format Bf16{refBf16Value, 0x7F7F, 0x7F80, std::ldexp(1.0, 128)};

// Nearest encoding of a non-NaN float, ties to the even encoding, by search.
uint16_t refNearest(const Format &F, float f) {
  uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  double a = std::fabs(double(f));
  if (std::isinf(a)) return sign | F.inf;
  // Largest encoding whose value is <= a.
  uint32_t lo = 0, hi = F.maxFinite;
  if (F.value(F.maxFinite) <= a) {
    lo = F.maxFinite;
  } else {
    while (lo < hi) { // invariant: value(lo) <= a < value(hi + ...)
      uint32_t mid = (lo + hi + 1) / 2;
      if (F.value(uint16_t(mid)) <= a)
        lo = mid;
      else
        hi = mid - 1;
    }
  }
  double below = F.value(uint16_t(lo));
  if (below == a) return sign | uint16_t(lo);
  double above = lo == F.maxFinite ? F.infAsIfFinite : F.value(uint16_t(lo + 1));
  double dLo = a - below, dHi = above - a; // exact: nearby values, few bits
  uint32_t pick = dLo < dHi ? lo : dHi < dLo ? lo + 1 : ((lo & 1) ? lo + 1 : lo);
  return sign | uint16_t(pick);
}

bool halfIsNaN(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF); }
bool bf16IsNaN(uint16_t b) { return (b & 0x7F80) == 0x7F80 && (b & 0x7F); }

#if defined(__FLT16_MANT_DIG__)
#define HAVE_FLOAT16 1
uint16_t viaFloat16(float f) {
  volatile float v = f; // keep the conversion at run time
  _Float16 h = static_cast<_Float16>(v);
  uint16_t b;
  std::memcpy(&b, &h, sizeof b);
  return b;
}
float fromFloat16(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, sizeof h);
  return static_cast<float>(h);
}
#endif

// Random floats: raw bit patterns (every class, including NaN and inf), and
// values whose exponent lies around the target format's range.
std::vector<float> randomFloats(size_t n, int minExp, int maxExp, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<uint32_t> bits;
  std::uniform_int_distribution<int> exps(minExp, maxExp);
  std::vector<float> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t b = bits(gen);
    if (i % 2) // replace the exponent field
      b = (b & 0x807FFFFFu) | (uint32_t(exps(gen) + 127) << 23);
    out.push_back(bitsToFloat(b));
  }
  return out;
}

// ---- compile-time use -------------------------------------------------------

static_assert(f16_bits(2.0f) == 0x4000, "");
static_assert(f16x2(2.0f) == 0x40004000u, "");
static_assert(f16x2(0.0f, 1.0f) == 0x3C000000u, "lo is lane 0");
static_assert(bf16_bits(1.0f) == 0x3F80, "");
static_assert(bf16x2(-1.0f, 1.0f) == 0x3F80BF80u, "");
static_assert(f32x2(2.0f) == 0x4000000040000000ull, "");
static_assert(f16_to_float(0x3C00) == 1.0f, "");
static_assert(bf16_to_float(0xC040) == -3.0f, "");
static_assert(f16x2_hi(f16x2(0.5f, -8.0f)) == -8.0f, "");
constexpr uint32_t kTwoHalves = f16x2(2.0f); // usable as a constant
static_assert(kTwoHalves == 0x40004000u, "");

// ---- half: known values ------------------------------------------------------

TEST(PackedHalf, KnownValues) {
  EXPECT_EQ(f16_bits(0.0f), 0x0000);
  EXPECT_EQ(f16_bits(-0.0f), 0x8000);
  EXPECT_EQ(f16_bits(1.0f), 0x3C00);
  EXPECT_EQ(f16_bits(2.0f), 0x4000);
  EXPECT_EQ(f16_bits(-2.0f), 0xC000);
  EXPECT_EQ(f16_bits(0.5f), 0x3800);
  EXPECT_EQ(f16_bits(0.1f), 0x2E66);
  EXPECT_EQ(f16_bits(1.0f / 3.0f), 0x3555);
  EXPECT_EQ(f16_bits(65504.0f), 0x7BFF);              // largest finite
  EXPECT_EQ(f16_bits(65519.996f), 0x7BFF);            // just below the tie
  EXPECT_EQ(f16_bits(65520.0f), 0x7C00);              // tie to even: inf
  EXPECT_EQ(f16_bits(-65520.0f), 0xFC00);
  EXPECT_EQ(f16_bits(1e10f), 0x7C00);
  EXPECT_EQ(f16_bits(FLT_MAX), 0x7C00);
  EXPECT_EQ(f16_bits(INFINITY), 0x7C00);
  EXPECT_EQ(f16_bits(-INFINITY), 0xFC00);
  EXPECT_EQ(f16_bits(std::ldexp(1.0f, -14)), 0x0400); // smallest normal
  EXPECT_EQ(f16_bits(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
  EXPECT_EQ(f16_bits(std::ldexp(1.0f, -25)), 0x0000); // tie to even: 0
  EXPECT_EQ(f16_bits(-std::ldexp(1.0f, -25)), 0x8000);
  EXPECT_EQ(f16_bits(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
  EXPECT_EQ(f16_bits(3 * std::ldexp(1.0f, -25)), 0x0002); // tie 1|2 -> 2
  EXPECT_EQ(f16_bits(5 * std::ldexp(1.0f, -25)), 0x0002); // tie 2|3 -> 2
  EXPECT_EQ(f16_bits(1023 * std::ldexp(1.0f, -24)), 0x03FF);
  EXPECT_EQ(f16_bits(2047 * std::ldexp(1.0f, -25)), 0x0400); // carry to normal
  EXPECT_EQ(f16_bits(FLT_MIN), 0x0000);                      // float's tiny normal
  EXPECT_EQ(f16_bits(std::ldexp(1.0f, -149)), 0x0000);       // float subnormal
  EXPECT_EQ(f16_bits(1.0f + std::ldexp(1.0f, -11)), 0x3C00); // tie -> even
  EXPECT_EQ(f16_bits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  EXPECT_EQ(f16_bits(2049.0f), 0x6800);                      // tie -> 2048
  EXPECT_EQ(f16_bits(2051.0f), 0x6802);                      // tie -> 2052
  EXPECT_TRUE(halfIsNaN(f16_bits(NAN)));
  EXPECT_TRUE(halfIsNaN(f16_bits(-NAN)));
  EXPECT_EQ(f16_bits(-NAN) & 0x8000, 0x8000);
  // A signalling NaN whose payload sits below half's mantissa stays a NaN.
  EXPECT_TRUE(halfIsNaN(f16_bits(bitsToFloat(0x7F800001u))));
  EXPECT_TRUE(halfIsNaN(f16_bits(bitsToFloat(0xFF800001u))));

  EXPECT_EQ(f16_to_float(0x3C00), 1.0f);
  EXPECT_EQ(f16_to_float(0xC000), -2.0f);
  EXPECT_EQ(f16_to_float(0x7BFF), 65504.0f);
  EXPECT_EQ(f16_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(f16_to_float(0x03FF), 1023 * std::ldexp(1.0f, -24));
  EXPECT_EQ(f16_to_float(0x7C00), INFINITY);
  EXPECT_EQ(f16_to_float(0xFC00), -INFINITY);
  EXPECT_TRUE(std::isnan(f16_to_float(0x7E00)));
  EXPECT_TRUE(std::isnan(f16_to_float(0x7C01)));
  EXPECT_EQ(floatToBits(f16_to_float(0x8000)), 0x80000000u);
}

// ---- half: exhaustive and random ---------------------------------------------

TEST(PackedHalf, AllEncodingsDecodeAndRoundTrip) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    uint16_t b = uint16_t(h);
    float f = f16_to_float(b);
    uint16_t back = f16_bits(f);
    if (halfIsNaN(b)) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << h;
      ASSERT_TRUE(halfIsNaN(back)) << std::hex << h;
      ASSERT_EQ(back & 0x8000, b & 0x8000) << std::hex << h;
      if (b & 0x0200) { // a quiet NaN keeps its whole encoding
        ASSERT_EQ(back, b) << std::hex << h;
      }
      continue;
    }
    ASSERT_EQ(back, b) << std::hex << h;
    double want = refHalfValue(b & 0x7FFF);
    if ((b & 0x7C00) == 0x7C00) want = INFINITY;
    if (b & 0x8000) want = -want;
    ASSERT_EQ(double(f), want) << std::hex << h;
    ASSERT_EQ(std::signbit(f), bool(b & 0x8000)) << std::hex << h;
#ifdef HAVE_FLOAT16
    ASSERT_EQ(floatToBits(f), floatToBits(fromFloat16(b))) << std::hex << h;
#endif
  }
}

// Every half-way point between neighbouring halves, and one float ulp either
// side of it: where rounding mistakes show.
TEST(PackedHalf, EveryMidpointAgainstReference) {
  for (uint32_t h = 0; h < 0x7C00; ++h) {
    double lo = refHalfValue(uint16_t(h));
    double hi = h == 0x7BFF ? 65536.0 : refHalfValue(uint16_t(h + 1));
    float mid = float((lo + hi) / 2); // exact: 12 significant bits
    ASSERT_EQ(double(mid), (lo + hi) / 2);
    for (float f : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY), float(lo), -mid,
                    -std::nextafter(mid, INFINITY)}) {
      ASSERT_EQ(f16_bits(f), refNearest(Half, f)) << f;
#ifdef HAVE_FLOAT16
      ASSERT_EQ(f16_bits(f), viaFloat16(f)) << f;
#endif
    }
  }
}

TEST(PackedHalf, RandomFloatsAgainstReferences) {
  for (float f : randomFloats(1000000, -27, 17, 12345)) {
    uint16_t got = f16_bits(f);
    if (std::isnan(f)) {
      ASSERT_TRUE(halfIsNaN(got)) << std::hex << floatToBits(f);
      continue;
    }
    ASSERT_EQ(got, refNearest(Half, f)) << std::hex << floatToBits(f);
#ifdef HAVE_FLOAT16
    ASSERT_EQ(got, viaFloat16(f)) << std::hex << floatToBits(f);
#endif
  }
}

#ifdef HAVE_FLOAT16
TEST(PackedHalf, ReferencesAgreeWithEachOther) {
  // Guards the test itself: the search reference and _Float16 must agree.
  for (float f : randomFloats(100000, -27, 17, 777))
    if (!std::isnan(f)) {
      ASSERT_EQ(refNearest(Half, f), viaFloat16(f)) << std::hex << floatToBits(f);
    }
}
#endif

// ---- bfloat16 -----------------------------------------------------------------

TEST(PackedBf16, KnownValues) {
  EXPECT_EQ(bf16_bits(1.0f), 0x3F80);
  EXPECT_EQ(bf16_bits(-2.0f), 0xC000);
  EXPECT_EQ(bf16_bits(0.0f), 0x0000);
  EXPECT_EQ(bf16_bits(-0.0f), 0x8000);
  EXPECT_EQ(bf16_bits(3.14159265f), 0x4049);
  EXPECT_EQ(bf16_bits(INFINITY), 0x7F80);
  EXPECT_EQ(bf16_bits(-INFINITY), 0xFF80);
  EXPECT_EQ(bf16_bits(FLT_MAX), 0x7F80);                   // rounds past the top
  EXPECT_EQ(bf16_bits(-FLT_MAX), 0xFF80);
  EXPECT_EQ(bf16_bits(bitsToFloat(0x7F7F7FFFu)), 0x7F7F);  // below the tie
  EXPECT_EQ(bf16_bits(bitsToFloat(0x7F7F8000u)), 0x7F80);  // tie, odd -> up: inf
  EXPECT_EQ(bf16_bits(bitsToFloat(0x3F808000u)), 0x3F80);  // tie, even -> down
  EXPECT_EQ(bf16_bits(bitsToFloat(0x3F818000u)), 0x3F82);  // tie, odd -> up
  EXPECT_EQ(bf16_bits(bitsToFloat(0x3F808001u)), 0x3F81);  // above the tie
  EXPECT_EQ(bf16_bits(bitsToFloat(0x00008000u)), 0x0000);  // subnormal tie -> 0
  EXPECT_EQ(bf16_bits(bitsToFloat(0x00018000u)), 0x0002);  // subnormal tie -> 2
  EXPECT_EQ(bf16_bits(bitsToFloat(0x007FFFFFu)), 0x0080);  // carry into normal
  EXPECT_EQ(bf16_bits(bitsToFloat(0x80000001u)), 0x8000);
  EXPECT_EQ(bf16_bits(NAN) & 0x7FC0, 0x7FC0);
  EXPECT_TRUE(bf16IsNaN(bf16_bits(bitsToFloat(0x7F800001u)))); // payload below
  EXPECT_TRUE(bf16IsNaN(bf16_bits(bitsToFloat(0xFFFFFFFFu))));
  EXPECT_EQ(bf16_bits(bitsToFloat(0xFF800001u)) & 0x8000, 0x8000);

  EXPECT_EQ(bf16_to_float(0x3F80), 1.0f);
  EXPECT_EQ(bf16_to_float(0xFF80), -INFINITY);
  EXPECT_TRUE(std::isnan(bf16_to_float(0x7FC0)));
}

TEST(PackedBf16, AllEncodingsDecodeAndRoundTrip) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    uint16_t b = uint16_t(h);
    float f = bf16_to_float(b);
    uint16_t back = bf16_bits(f);
    if (bf16IsNaN(b)) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << h;
      ASSERT_TRUE(bf16IsNaN(back)) << std::hex << h;
      ASSERT_EQ(back & 0x8000, b & 0x8000) << std::hex << h;
      if (b & 0x0040) {
        ASSERT_EQ(back, b) << std::hex << h;
      }
      continue;
    }
    ASSERT_EQ(back, b) << std::hex << h;
    if ((b & 0x7F80) != 0x7F80) {
      double want = refBf16Value(b & 0x7FFF);
      ASSERT_EQ(double(f), (b & 0x8000) ? -want : want) << std::hex << h;
    }
  }
}

TEST(PackedBf16, EveryMidpointAgainstReference) {
  for (uint32_t h = 0; h < 0x7F80; ++h) {
    uint32_t midBits = (h << 16) | 0x8000u; // the float half way to h + 1
    for (uint32_t b : {midBits, midBits - 1, midBits + 1, h << 16}) {
      float f = bitsToFloat(b);
      ASSERT_EQ(bf16_bits(f), refNearest(Bf16, f)) << std::hex << b;
      ASSERT_EQ(bf16_bits(-f), refNearest(Bf16, -f)) << std::hex << b;
    }
  }
}

TEST(PackedBf16, RandomFloatsAgainstReference) {
  for (float f : randomFloats(1000000, -135, 127, 54321)) {
    uint16_t got = bf16_bits(f);
    if (std::isnan(f)) {
      ASSERT_TRUE(bf16IsNaN(got)) << std::hex << floatToBits(f);
    } else {
      ASSERT_EQ(got, refNearest(Bf16, f)) << std::hex << floatToBits(f);
    }
  }
}

// ---- packed carriers ------------------------------------------------------------

TEST(PackedCarriers, LaneOrderAndSplats) {
  EXPECT_EQ(f16x2(2.0f), 0x40004000u);
  EXPECT_EQ(f16x2(1.0f, 2.0f), 0x40003C00u);
  EXPECT_EQ(f16x2(-0.0f, 0.0f), 0x00008000u);
  EXPECT_EQ(f16x2(65520.0f, NAN) & 0xFFFFu, 0x7C00u);
  EXPECT_EQ(bf16x2(1.0f), 0x3F803F80u);
  EXPECT_EQ(bf16x2(1.0f, -2.0f), 0xC0003F80u);
  EXPECT_EQ(f32x2(1.0f, 2.0f), 0x400000003F800000ull);
  EXPECT_EQ(f32x2(-0.0f), 0x8000000080000000ull);
  EXPECT_EQ(f16x2_lo(0x40003C00u), 1.0f);
  EXPECT_EQ(f16x2_hi(0x40003C00u), 2.0f);
  EXPECT_EQ(bf16x2_lo(0xC0003F80u), 1.0f);
  EXPECT_EQ(bf16x2_hi(0xC0003F80u), -2.0f);
  EXPECT_EQ(f32x2_lo(0x400000003F800000ull), 1.0f);
  EXPECT_EQ(f32x2_hi(0x400000003F800000ull), 2.0f);
  // f32x2 is a pure bit copy: a signalling NaN's payload survives.
  EXPECT_EQ(f32x2(bitsToFloat(0x7F800001u), 0.0f), 0x000000007F800001ull);
}

#ifdef HAVE_FLOAT16
// The diagnostics quote packed constants computed by core (packedSplatBits,
// through LLVM's APFloat), which does not include the runtime header: both
// must give the same bits for every value a diagnostic can show (the
// integers of a literal) and for a sweep of other floats.
TEST(PackedCarriers, CoreAgreesWithTheRuntimeHeader) {
  using tileapply::packedSplatBits;
  using tileapply::PtxType;
  std::vector<float> values;
  for (int i = -70000; i <= 70000; i += 7) values.push_back(static_cast<float>(i));
  std::mt19937 rng(18);
  for (int i = 0; i < 20000; ++i) values.push_back(bitsToFloat(static_cast<uint32_t>(rng())));
  for (float v : values) {
    if (std::isnan(v)) continue; // NaN payloads: both quiet them, but the spelling is not quoted
    SCOPED_TRACE(v);
    ASSERT_EQ(packedSplatBits(PtxType::f16, v), f16_bits(v));
    ASSERT_EQ(packedSplatBits(PtxType::bf16, v), bf16_bits(v));
    ASSERT_EQ(packedSplatBits(PtxType::f16x2, v), f16x2(v));
    ASSERT_EQ(packedSplatBits(PtxType::bf16x2, v), bf16x2(v));
    ASSERT_EQ(packedSplatBits(PtxType::f32x2, v), f32x2(v));
  }
}

TEST(PackedCarriers, MatchesInMemoryLayoutOfTwoHalves) {
  // Two halves stored consecutively (lane 0 first) read as one little-endian
  // word equal the packed carrier.
  _Float16 pair[2] = {static_cast<_Float16>(0.25f), static_cast<_Float16>(-3.0f)};
  uint32_t word;
  std::memcpy(&word, pair, sizeof word);
  EXPECT_EQ(f16x2(0.25f, -3.0f), word);
}
#endif

// ---- host.h -------------------------------------------------------------------

TEST(HostHelpers, PackAndUnpackArrays) {
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = float(i);
  std::vector<uint32_t> w = tile::host::pack_f16x2(x);
  ASSERT_EQ(w.size(), 8u);
  EXPECT_EQ(w[0], f16x2(0.0f, 1.0f));
  EXPECT_EQ(w[7], f16x2(14.0f, 15.0f));
  EXPECT_EQ(tile::host::unpack_f16x2(w), x);

  std::vector<float> odd = {1.5f, -2.0f, 3.0f};
  std::vector<uint32_t> wb = tile::host::pack_bf16x2(odd);
  ASSERT_EQ(wb.size(), 2u);
  EXPECT_EQ(wb[1], bf16x2(3.0f, 0.0f)); // padded with +0
  std::vector<float> back = tile::host::unpack_bf16x2(wb);
  EXPECT_EQ(back, (std::vector<float>{1.5f, -2.0f, 3.0f, 0.0f}));

  // Rounding happens on the way in: 1/3 is not a half.
  std::vector<float> third = tile::host::unpack_f16x2(tile::host::pack_f16x2({1.0f / 3, 0}));
  EXPECT_NE(third[0], 1.0f / 3);
  EXPECT_TRUE(tile::host::is_close(third[0], 1.0f / 3, 0, 1e-3f));
}

TEST(HostHelpers, Comparisons) {
  using tile::host::all_close;
  using tile::host::is_close;
  EXPECT_TRUE(is_close(1.0f, 1.0f));
  EXPECT_FALSE(is_close(1.0f, std::nextafter(1.0f, 2.0f)));
  EXPECT_TRUE(is_close(1.0f, 1.001f, 0.01f));
  EXPECT_TRUE(is_close(100.0f, 101.0f, 0.0f, 0.02f));
  EXPECT_FALSE(is_close(100.0f, 103.0f, 0.0f, 0.02f));
  EXPECT_TRUE(is_close(NAN, NAN));
  EXPECT_FALSE(is_close(NAN, 1.0f, 1e30f));
  EXPECT_FALSE(is_close(1.0f, NAN, 1e30f));
  EXPECT_TRUE(is_close(INFINITY, INFINITY));
  EXPECT_FALSE(is_close(INFINITY, -INFINITY, 1e30f));
  EXPECT_FALSE(is_close(FLT_MAX, INFINITY, 1e30f));
  EXPECT_TRUE(all_close({1.0f, 2.0f}, {1.0f, 2.0f}));
  testing::internal::CaptureStderr();
  EXPECT_FALSE(all_close({1.0f, 2.0f}, {1.0f, 2.5f}, 0.0f, 0.0f, "mine"));
  EXPECT_FALSE(all_close({1.0f}, {1.0f, 2.0f}, 0.0f, 0.0f, "short"));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "mine[1]: got 2, want 2.5\nmine: 1 of 2 values differ\n"
                                                    "short: got 1 values, want 2\n");
}

TEST(HostHelpers, Report) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(tile::host::report(true, "a"), 0);
  EXPECT_EQ(tile::host::report(false, "b"), 1);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "PASS a\nFAIL b\n");
}

} // namespace
