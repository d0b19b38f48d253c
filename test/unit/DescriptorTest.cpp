//===- DescriptorTest.cpp - runtime/include/tileapply/descriptor.h --------===//
//
// Descriptors are compared with values encoded by hand from the ISA's bit
// tables (the hex constants below were worked out field by field, not
// printed by the encoder), the canonical layouts with the "exact layout"
// examples the ISA gives for each major-ness and swizzle mode, and every
// range rule with a value just outside it.
//
//===----------------------------------------------------------------------===//
#include "tileapply/descriptor.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <vector>

using namespace tile::desc;

namespace {
// A flat CuTe layout: index i decomposes colexicographically over `shape`.
struct Modes {
  std::vector<long> shape, stride;
  long operator()(long i) const {
    long r = 0;
    for (size_t k = 0; k < shape.size(); ++k) r += (i % shape[k]) * stride[k], i /= shape[k];
    return r;
  }
  long size() const {
    long n = 1;
    for (long s : shape) n *= s;
    return n;
  }
};
bool says(const char *error, const char *word) { return error && std::strstr(error, word); }
} // namespace

// ============================================================================
// wgmma descriptor (9.7.15.5.1.2.2)
// ============================================================================

TEST(WgmmaDescriptor, HandEncoded) {
  // start 1024 -> 64 (bits 0-13), LBO 16 -> 1 (bits 16-29), SBO 1024 -> 64
  // (bits 32-45), 128B swizzle -> 1 (bits 62-63).
  constexpr auto d = encode(wgmma_smem{1024, 16, 1024, 0, swizzle::b128});
  static_assert(d.ok(), "");
  EXPECT_EQ(d.value, 0x4000004000010040ull);
  // The ISA's K-major no-swizzle tf32 example: LBO encodes to 16, SBO to 8.
  EXPECT_EQ(encode(wgmma_smem{0, 64 * 4, 32 * 4, 0, swizzle::none}).value, 0x0000000800100000ull);
  // MN-major 64B bf16 example: LBO 32, SBO 64, 64B swizzle = 2.
  EXPECT_EQ(encode(wgmma_smem{0, 256 * 2, 512 * 2, 0, swizzle::b64}).value, 0x8000004000200000ull);
  // 32B swizzle = 3; base offset 3 at bits 49-51 (pattern starting at 0x1180:
  // (0x1180 >> 7) & 7 = 3).
  EXPECT_EQ(encode(wgmma_smem{0x1180, 0, 0, 3, swizzle::b32}).value, 0xC006000000000118ull);
  // the highest encodable values
  EXPECT_EQ(encode(wgmma_smem{0x3FFF0, 0x3FFF0, 0x3FFF0, 7, swizzle::b128}).value, 0x400E3FFF3FFF3FFFull);
}

TEST(WgmmaDescriptor, RangeChecks) {
  EXPECT_TRUE(says(encode(wgmma_smem{8, 16, 16, 0, swizzle::none}).error, "start address"));
  EXPECT_TRUE(says(encode(wgmma_smem{1u << 18, 16, 16, 0, swizzle::none}).error, "start address"));
  EXPECT_TRUE(says(encode(wgmma_smem{0, 24, 16, 0, swizzle::none}).error, "leading"));
  EXPECT_TRUE(says(encode(wgmma_smem{0, 1u << 18, 16, 0, swizzle::none}).error, "leading"));
  EXPECT_TRUE(says(encode(wgmma_smem{0, 16, 100, 0, swizzle::none}).error, "stride"));
  EXPECT_TRUE(says(encode(wgmma_smem{0, 16, 16, 8, swizzle::b128}).error, "base offset"));
  EXPECT_TRUE(says(encode(wgmma_smem{0, 16, 16, 1, swizzle::none}).error, "base offset"));
  EXPECT_TRUE(says(encode(wgmma_smem{0, 16, 16, 0, swizzle::b128_atom32}).error, "tcgen05"));
  const auto bad = encode(wgmma_smem{8, 16, 16, 0, swizzle::none});
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.value, 0u);
  static_assert(!encode(wgmma_smem{0, 16, 16, 9, swizzle::b64}).ok(), "compile-time refusal");
}

TEST(WgmmaDescriptor, DecodeRoundTripAndStartAddress) {
  std::mt19937 rng(7);
  for (int n = 0; n < 2000; ++n) {
    const swizzle modes[] = {swizzle::none, swizzle::b32, swizzle::b64, swizzle::b128};
    wgmma_smem d{uint32_t(rng() % (1 << 14)) << 4, uint32_t(rng() % (1 << 14)) << 4, uint32_t(rng() % (1 << 14)) << 4,
                 0, modes[rng() % 4]};
    if (d.mode != swizzle::none) d.base_offset = rng() % 8;
    const auto e = encode(d);
    ASSERT_TRUE(e.ok()) << e.error;
    const wgmma_smem back = decode_wgmma_smem(e.value);
    EXPECT_EQ(back.start_address, d.start_address);
    EXPECT_EQ(back.lbo, d.lbo);
    EXPECT_EQ(back.sbo, d.sbo);
    EXPECT_EQ(back.base_offset, d.base_offset);
    EXPECT_EQ(back.mode, d.mode);
  }
  const uint64_t d = encode(wgmma_smem{0, 16, 1024, 0, swizzle::b128}).value;
  EXPECT_EQ(with_start_address(d, 0x2400), d | 0x240);
  EXPECT_EQ(with_start_address(d | 0x3FFF, 0x10), d | 0x1);
}

TEST(WgmmaDescriptor, AdvanceIsWithStartAddressInsideTheField) {
  const uint64_t d = encode(wgmma_smem{0, 16, 1024, 0, swizzle::b128}).value;
  for (uint32_t base = 0; base < (1u << 18); base += 0x1230)
    for (uint32_t step : {0u, 16u, 32u, 0x400u, 0x4000u, 0x10000u})
      if (base + step < (1u << 18)) {
        const uint32_t b = base & ~15u;
        EXPECT_EQ(advance(with_start_address(d, b), step), with_start_address(d, b + step)) << b << " + " << step;
        EXPECT_EQ(decode_wgmma_smem(advance(with_start_address(d, b), step)).start_address, b + step);
      }
  // Past the 14-bit field the add carries into reserved bit 14: not the same.
  EXPECT_NE(advance(with_start_address(d, 0x3FFF0), 0x10), with_start_address(d, 0x40000));
}

// ============================================================================
// tcgen05 shared-memory descriptor (9.7.16.4.1)
// ============================================================================

TEST(Tcgen05SmemDescriptor, HandEncoded) {
  // start 0x2000 -> 0x200, LBO 16 -> 1, SBO 1024 -> 64, bit 46 set (0b001 at
  // 46-48), 128B swizzle -> 2 at bits 61-63.
  EXPECT_EQ(encode(tcgen05_smem{0x2000, 16, 1024, 0, lbo_mode::relative, swizzle::b128}).value, 0x4000404000010200ull);
  EXPECT_EQ(encode(tcgen05_smem{0, 0, 0, 0, lbo_mode::relative, swizzle::none}).value, 0x0000400000000000ull);
  EXPECT_EQ(encode(tcgen05_smem{0, 0, 0, 0, lbo_mode::relative, swizzle::b32}).value, 0xC000400000000000ull);
  EXPECT_EQ(encode(tcgen05_smem{0, 0, 0, 0, lbo_mode::relative, swizzle::b64}).value, 0x8000400000000000ull);
  EXPECT_EQ(encode(tcgen05_smem{0, 0, 0, 0, lbo_mode::relative, swizzle::b128_atom32}).value, 0x2000400000000000ull);
  // base offset 5 at 49-51, absolute leading-dimension address at bit 52
  EXPECT_EQ(encode(tcgen05_smem{0, 0, 0, 5, lbo_mode::relative, swizzle::b128}).value, 0x400A400000000000ull);
  EXPECT_EQ(encode(tcgen05_smem{0x100, 0x4080, 0x400, 0, lbo_mode::absolute, swizzle::b128}).value,
            0x4010404004080010ull);
}

TEST(Tcgen05SmemDescriptor, ChecksAndRoundTrip) {
  EXPECT_TRUE(says(encode(tcgen05_smem{4, 16, 16, 0, lbo_mode::relative, swizzle::none}).error, "start"));
  EXPECT_TRUE(says(encode(tcgen05_smem{0, 16, 16, 8, lbo_mode::relative, swizzle::b128}).error, "base offset"));
  EXPECT_TRUE(says(encode(tcgen05_smem{0, 16, 16, 0, lbo_mode::absolute, swizzle::b64}).error, "absolute"));
  EXPECT_TRUE(says(encode(tcgen05_smem{0, 16, 16, 0, lbo_mode::absolute, swizzle::b128_atom32}).error, "absolute"));
  EXPECT_TRUE(says(encode(tcgen05_smem{0, 16, 16, 1, lbo_mode::absolute, swizzle::b128}).error, "base offset 0"));
  const swizzle modes[] = {swizzle::none, swizzle::b32, swizzle::b64, swizzle::b128, swizzle::b128_atom32};
  for (swizzle m : modes) {
    const tcgen05_smem d{0x1230, 0x80, 0x400, 2, lbo_mode::relative, m};
    const auto e = encode(d);
    ASSERT_TRUE(e.ok()) << e.error;
    EXPECT_EQ(check_tcgen05_smem(e.value), nullptr);
    const tcgen05_smem b = decode_tcgen05_smem(e.value);
    EXPECT_EQ(b.start_address, d.start_address);
    EXPECT_EQ(b.lbo, d.lbo);
    EXPECT_EQ(b.sbo, d.sbo);
    EXPECT_EQ(b.base_offset, d.base_offset);
    EXPECT_EQ(b.mode, m);
    EXPECT_EQ(b.mode_lbo, lbo_mode::relative);
  }
  EXPECT_NE(check_tcgen05_smem(0), nullptr);                                  // bit 46 missing
  EXPECT_NE(check_tcgen05_smem(0x6000400000000000ull), nullptr);             // swizzle code 3
  EXPECT_NE(check_tcgen05_smem(0x0000400000000000ull | (1ull << 53)), nullptr); // fixed zero bits
}

// ============================================================================
// tcgen05 instruction descriptor (9.7.16.4.2) and Table 39 shapes
// ============================================================================

TEST(Tcgen05InstrDescriptor, HandEncoded) {
  tcgen05_instr d;
  d.k = kind::f16;
  d.dtype = type::f32;
  d.atype = d.btype = type::bf16;
  d.m = 128;
  d.n = 256;
  // D f32 (1 << 4), A bf16 (1 << 7), B bf16 (1 << 10), N/8 = 32 << 17, M/16 = 8 << 24
  EXPECT_EQ(encode(d).value, 0x08400490u);
  d.transpose_a = d.transpose_b = true;
  d.negate_a = true;
  EXPECT_EQ(encode(d).value, 0x08400490u | 0x1A000u);

  tcgen05_instr t;
  t.k = kind::tf32;
  t.dtype = type::f32;
  t.atype = t.btype = type::tf32;
  t.m = 64;
  t.n = 8; // 0x10 | 2 << 7 | 2 << 10 | 1 << 17 | 4 << 24
  EXPECT_EQ(encode(t).value, 0x04020910u);

  tcgen05_instr i;
  i.k = kind::i8;
  i.dtype = type::s32;
  i.atype = type::u8;
  i.btype = type::s8;
  i.m = 128;
  i.n = 64;
  i.sparse = true;
  i.sparsity_selector = 2;
  i.saturate = true; // 2 | 1 << 2 | 1 << 3 | 2 << 4 | 0 << 7 | 1 << 10 | 8 << 17 | 8 << 24
  EXPECT_EQ(encode(i).value, 0x0810042Eu);

  tcgen05_instr w = t;
  w.ws = true;
  w.m = 32;
  w.n = 64;
  w.max_shift = 3; // 0x10 | 0x100 | 0x800 | 8 << 17 | 2 << 24 | 3 << 30
  EXPECT_EQ(encode(w).value, 0xC2100910u);

  tcgen05_instr x;
  x.k = kind::mxf8f6f4;
  x.dtype = type::f32;
  x.atype = type::e4m3;
  x.btype = type::e2m1;
  x.m = 128;
  x.n = 128;
  x.scale_a_id = 1;
  x.scale_b_id = 2; // 2 << 4 | 0 << 7 | 5 << 10 | 16 << 17 | 1 << 23 | 1 << 27 | 1 << 29
  EXPECT_EQ(encode(x).value, 0x28A01420u);

  tcgen05_instr f;
  f.k = kind::mxf4nvf4;
  f.dtype = type::f32;
  f.atype = f.btype = type::e2m1;
  f.scale = scale_type::ue4m3;
  f.cta_group = 2;
  f.m = 256;
  f.n = 256;
  f.k96 = true;
  f.scale_a_id = 2;
  f.scale_b_id = 2; // 2 << 4 | 1 << 7 | 1 << 10 | 32 << 17 | 0 << 23 | 2 << 27 | 2 << 29 | 1 << 31
  EXPECT_EQ(encode(f).value, 0xD04004A0u);
}

TEST(Tcgen05InstrDescriptor, Refusals) {
  auto base = [] {
    tcgen05_instr d;
    d.k = kind::f16;
    d.dtype = type::f32;
    d.atype = d.btype = type::f16;
    d.m = 128;
    d.n = 128;
    return d;
  };
  ASSERT_TRUE(encode(base()).ok());
  auto refused = [](tcgen05_instr d, const char *word) {
    const auto e = encode(d);
    EXPECT_FALSE(e.ok()) << word;
    EXPECT_TRUE(says(e.error, word)) << (e.error ? e.error : "(accepted)") << " -- expected: " << word;
  };
  tcgen05_instr d = base();
  d.atype = type::tf32;
  refused(d, "atype");
  d = base(), d.k = kind::tf32, d.atype = d.btype = type::tf32, d.dtype = type::f16;
  refused(d, "dtype");
  d = base(), d.dtype = type::f16, d.atype = type::bf16, d.btype = type::bf16;
  refused(d, ".f16 D");
  d = base(), d.n = 12;
  refused(d, "N");
  d = base(), d.n = 264;
  refused(d, "N");
  d = base(), d.m = 96;
  refused(d, "M");
  d = base(), d.cta_group = 2, d.n = 24;
  refused(d, "N");
  d = base(), d.cta_group = 2, d.m = 64;
  refused(d, "M");
  d = base(), d.cta_group = 3;
  refused(d, "cta_group");
  d = base(), d.ws = true, d.cta_group = 2;
  refused(d, ".ws");
  d = base(), d.ws = true, d.n = 96;
  refused(d, ".ws");
  d = base(), d.ws = true, d.sparse = true, d.n = 256;
  refused(d, ".ws");
  d = base(), d.max_shift = 1;
  refused(d, "max shift");
  d = base(), d.sparsity_selector = 1;
  refused(d, "sparsity");
  d = base(), d.saturate = true;
  refused(d, "saturate");
  d = base(), d.k = kind::i8, d.atype = d.btype = type::s8, d.dtype = type::s32, d.negate_a = true;
  refused(d, "negate");
  d = base(), d.k = kind::i8, d.atype = d.btype = type::s8, d.dtype = type::s32, d.n = 40;
  refused(d, "N");
  d = base(), d.k = kind::i8, d.atype = d.btype = type::s8, d.dtype = type::s32, d.cta_group = 2, d.n = 48;
  refused(d, "N");
  tcgen05_instr m;
  m.k = kind::mxf4;
  m.dtype = type::f32;
  m.atype = m.btype = type::e2m1;
  m.m = 128;
  m.n = 128;
  ASSERT_TRUE(encode(m).ok());
  tcgen05_instr mm = m;
  mm.transpose_a = true;
  refused(mm, "transpose");
  mm = m, mm.scale_a_id = 1;
  refused(mm, "scale factor");
  mm = m, mm.scale = scale_type::ue4m3;
  refused(mm, "ue4m3");
  mm = m, mm.m = 64;
  refused(mm, "M = 128");
  mm = m, mm.k96 = true;
  refused(mm, "K = 96");
  mm = m, mm.ws = true;
  refused(mm, ".ws");
  mm = m, mm.dtype = type::f16;
  refused(mm, ".f32");
  mm = m, mm.cta_group = 2, mm.sparse = true, mm.m = 128;
  refused(mm, "256");
  mm = m, mm.atype = type::e4m3;
  refused(mm, "atype");
}

TEST(Tcgen05InstrDescriptor, DecodeRoundTrip) {
  tcgen05_instr d;
  d.k = kind::f8f6f4;
  d.dtype = type::f16;
  d.atype = type::e3m2;
  d.btype = type::e2m3;
  d.m = 64;
  d.n = 200;
  d.sparse = true;
  d.sparsity_selector = 3;
  d.negate_b = true;
  d.transpose_a = true;
  const auto e = encode(d);
  ASSERT_TRUE(e.ok()) << e.error;
  const tcgen05_instr b = decode_tcgen05_instr(e.value, kind::f8f6f4);
  EXPECT_EQ(b.dtype, type::f16);
  EXPECT_EQ(b.atype, type::e3m2);
  EXPECT_EQ(b.btype, type::e2m3);
  EXPECT_EQ(b.m, 64);
  EXPECT_EQ(b.n, 200);
  EXPECT_TRUE(b.sparse);
  EXPECT_EQ(b.sparsity_selector, 3);
  EXPECT_TRUE(b.negate_b && !b.negate_a && b.transpose_a && !b.transpose_b);
  const tcgen05_instr f = decode_tcgen05_instr(0xD04004A0u, kind::mxf4nvf4);
  EXPECT_EQ(f.m, 256);
  EXPECT_EQ(f.n, 256);
  EXPECT_TRUE(f.k96);
  EXPECT_EQ(f.scale, scale_type::ue4m3);
  EXPECT_EQ(f.scale_a_id, 2);
  EXPECT_EQ(f.scale_b_id, 2);
  EXPECT_EQ(f.atype, type::e2m1);
}

// ============================================================================
// Zero-column mask descriptor (9.7.16.4.3): the ISA's examples 2 and 4
// ============================================================================

TEST(Tcgen05ZeroMask, IsaExamples) {
  // Example 2: start counts 0, first spans 0, non-zero mask 1, skip span
  // field 2, use span field 3, shift 0.
  tcgen05_zero_mask z{{0, 0, 0, 0}, {false, false, false, false}, true, 3, 4, 0};
  EXPECT_EQ(encode(z).value, 0x0003028000000000ull);
  // Example 4: sc = {sc3..sc0} = {1, 2, 1, 0}, fs = {0, 0, 1, 1}, shift 2.
  tcgen05_zero_mask y{{0, 1, 2, 1}, {true, true, false, false}, true, 3, 4, 2};
  EXPECT_EQ(encode(y).value, 0x0203028301020100ull);
  const tcgen05_zero_mask b = decode_tcgen05_zero_mask(0x0203028301020100ull);
  EXPECT_EQ(b.start_count[2], 2u);
  EXPECT_TRUE(b.first_span[1] && !b.first_span[2]);
  EXPECT_EQ(b.skip_span, 3u);
  EXPECT_EQ(b.use_span, 4u);
  EXPECT_EQ(b.column_shift, 2u);
  y.column_shift = 33;
  EXPECT_FALSE(encode(y).ok());
  y.column_shift = 0, y.skip_span = 0;
  EXPECT_FALSE(encode(y).ok());
  y.skip_span = 3, y.start_count[0] = 256;
  EXPECT_FALSE(encode(y).ok());
}

// ============================================================================
// Canonical layouts against the ISA's "exact layout" examples
// (9.7.15.5.1.2.1 / 9.7.16.3.3; element strides, converted to bits here)
// ============================================================================

namespace {
// Compares canonical(mn, k) with an exact CuTe layout ((mn modes),(k modes))
// in elements, over mn < mn_n and k < k_n.
void expectExact(const canonical &c, const Modes &mn, const Modes &k, uint32_t lbo, uint32_t sbo, long mn_n, long k_n,
                 const char *what) {
  ASSERT_TRUE(c.ok()) << what;
  for (long i = 0; i < mn_n; ++i)
    for (long j = 0; j < k_n; ++j)
      ASSERT_EQ(c.offset_bits(uint32_t(i), uint32_t(j), lbo, sbo), uint64_t(mn(i) + k(j)) * c.elem_bits)
          << what << " at (" << i << ", " << j << ")";
}
} // namespace

TEST(CanonicalLayout, IsaExamples) {
  // K-major, no swizzling, tf32: ((8,2),(4,4)):((4,32),(1,64)), LBO 64*4, SBO 32*4 bytes
  expectExact(canonical_layout(major::k, swizzle::none, 32), Modes{{8, 2}, {4, 32}}, Modes{{4, 4}, {1, 64}}, 256, 128,
              16, 16, "K none tf32");
  // K-major, 32B, tf32: ((8,2),(4,4)):((8,64),(1,4)), SBO 64*4 bytes. The
  // example's K extent (16 tf32 = 64 bytes) is two spans wide, which its own
  // strides cannot hold apart; one span (k < 8) is compared.
  expectExact(canonical_layout(major::k, swizzle::b32, 32), Modes{{8, 2}, {8, 64}}, Modes{{4, 2}, {1, 4}}, 16, 256, 16,
              8, "K 32B tf32");
  // MN-major, no swizzling, bf16: ((8,1,2),(8,2)):((1,8,64),(8,128)), LBO 128*2, SBO 64*2
  expectExact(canonical_layout(major::mn, swizzle::none, 16), Modes{{8, 1, 2}, {1, 8, 64}}, Modes{{8, 2}, {8, 128}},
              256, 128, 16, 16, "MN none bf16");
  // MN-major, 32B, bf16: ((8,2,2),(8,2)):((1,8,128),(16,256)), LBO 128*2, SBO 256*2
  expectExact(canonical_layout(major::mn, swizzle::b32, 16), Modes{{8, 2, 2}, {1, 8, 128}}, Modes{{8, 2}, {16, 256}},
              256, 512, 32, 16, "MN 32B bf16");
  // MN-major, 64B, bf16: ((8,4,2),(8,2)):((1,8,256),(32,512)), LBO 256*2, SBO 512*2
  expectExact(canonical_layout(major::mn, swizzle::b64, 16), Modes{{8, 4, 2}, {1, 8, 256}}, Modes{{8, 2}, {32, 512}},
              512, 1024, 64, 16, "MN 64B bf16");
  // MN-major, 128B, bf16, from the table's general form ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO))
  expectExact(canonical_layout(major::mn, swizzle::b128, 16), Modes{{8, 8, 2}, {1, 8, 512}}, Modes{{8, 2}, {64, 1024}},
              1024, 2048, 128, 16, "MN 128B bf16");
  // K-major, 128B, fp8 (T = 16): ((8,m),(T,2k)):((8T,SBO),(1,T)), one span
  expectExact(canonical_layout(major::k, swizzle::b128, 8), Modes{{8, 4}, {128, 1024}}, Modes{{16, 8}, {1, 16}}, 16,
              1024, 32, 128, "K 128B fp8");
  EXPECT_FALSE(canonical_layout(major::k, swizzle::b128_atom32, 16).ok());
  EXPECT_FALSE(canonical_layout(major::k, swizzle::b128, 12).ok());
}

TEST(CanonicalLayout, PackedTilesMatchTheExamplesAndFillTheirBytes) {
  // LBO / SBO of the examples above, as packed tiles
  struct Row {
    major mj;
    swizzle sw;
    uint32_t bits, mn, k, lbo, sbo;
  };
  const Row rows[] = {
      {major::k, swizzle::none, 32, 16, 16, 256, 128},  {major::k, swizzle::b32, 32, 16, 8, 16, 256},
      {major::mn, swizzle::none, 16, 16, 16, 256, 128}, {major::mn, swizzle::b32, 16, 32, 16, 256, 512},
      {major::mn, swizzle::b64, 16, 64, 16, 512, 1024},
  };
  for (const Row &r : rows) {
    const packed p = packed_tile(r.mj, r.sw, r.bits, r.mn, r.k);
    ASSERT_TRUE(p.ok()) << p.error;
    EXPECT_EQ(p.lbo, r.lbo);
    EXPECT_EQ(p.sbo, r.sbo);
  }
  // Every element of a packed tile at its own place inside the tile's bytes.
  for (major mj : {major::k, major::mn})
    for (swizzle sw : {swizzle::none, swizzle::b32, swizzle::b64, swizzle::b128})
      for (uint32_t bits : {8u, 16u, 32u}) {
        const uint32_t span_elems = 128 * 8 / bits; // 128 bytes: fits every mode's multiple rules
        const uint32_t mn = mj == major::mn ? 2 * span_elems : 64, k = mj == major::k ? 2 * span_elems : 32;
        const packed p = packed_tile(mj, sw, bits, mn, k);
        ASSERT_TRUE(p.ok()) << p.error;
        std::set<uint32_t> seen;
        for (uint32_t i = 0; i < mn; ++i)
          for (uint32_t j = 0; j < k; ++j) {
            const uint32_t o = p.offset(i, j);
            ASSERT_LT(o, p.bytes());
            ASSERT_EQ(o % (bits / 8), 0u);
            ASSERT_TRUE(seen.insert(o).second) << "collision at " << i << ", " << j;
          }
        // and the descriptor's view (first K block) is the canonical layout
        for (uint32_t i = 0; i < mn; ++i) ASSERT_EQ(p.offset(i, 1), p.layout.offset(i, 1, p.lbo, p.sbo));
      }
  EXPECT_FALSE(packed_tile(major::k, swizzle::b128, 16, 60, 64).ok());  // rows not a multiple of 8
  EXPECT_FALSE(packed_tile(major::k, swizzle::b128, 16, 64, 48).ok());  // K not whole spans
  EXPECT_FALSE(packed_tile(major::mn, swizzle::b64, 16, 16, 16).ok()); // MN not whole spans
  EXPECT_FALSE(packed_tile(major::mn, swizzle::none, 16, 16, 12).ok()); // K not a multiple of 8
}

TEST(CanonicalLayout, SwizzleAddress) {
  // 128B: the 16-byte chunk index (bits 4-6) ^= the row within 8 (bits 7-9)
  EXPECT_EQ(swizzle_address(swizzle::b128, 0x080), 0x090u);
  EXPECT_EQ(swizzle_address(swizzle::b128, 0x390), 0x3E0u); // row 7, chunk 1 -> chunk 6
  EXPECT_EQ(swizzle_address(swizzle::b128, 0x400), 0x400u); // the pattern repeats every 1024 bytes
  EXPECT_EQ(swizzle_address(swizzle::b128, 0x4C8), 0x4D8u); // second block, row 1, chunk 4 -> chunk 5
  // 64B: bits 4-5 ^= bits 7-8
  EXPECT_EQ(swizzle_address(swizzle::b64, 0x180), 0x1B0u);
  EXPECT_EQ(swizzle_address(swizzle::b64, 0x200), 0x200u);
  // 32B: bit 4 ^= bit 7
  EXPECT_EQ(swizzle_address(swizzle::b32, 0x080), 0x090u);
  EXPECT_EQ(swizzle_address(swizzle::b32, 0x100), 0x100u);
  EXPECT_EQ(swizzle_address(swizzle::none, 0x390), 0x390u);
  // a permutation of each 1024-byte block
  for (swizzle s : {swizzle::b32, swizzle::b64, swizzle::b128}) {
    std::set<uint32_t> seen;
    for (uint32_t a = 0; a < 1024; a += 16) {
      const uint32_t b = swizzle_address(s, a);
      EXPECT_LT(b, 1024u);
      EXPECT_TRUE(seen.insert(b).second);
    }
  }
}
