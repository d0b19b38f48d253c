//===- tileapply/packed.h - Packed half / bfloat16 / f32x2 constants -*- C++ -*-===//
//
// Packed PTX opcodes (`add.rn.f16x2`, `mul.rn.bf16x2`, `add.rn.f32x2`, ...)
// take their operands as raw-bit carriers: a `uint32_t` holding two halves or
// two bfloat16s, a `uint64_t` holding two floats. tileapply never packs or
// unpacks for you, so a constant handed to such an opcode must already be the
// whole carrier. This header builds those carriers:
//
//   tile::packed::f16x2(2.0f)        == 0x40004000u   (both lanes 2.0)
//   tile::packed::f16x2(1.0f, 2.0f)  == 0x40003C00u   (lane 0 = lo = 1.0)
//   tile::packed::bf16x2(1.0f)       == 0x3F803F80u
//   tile::packed::f32x2(1.0f, 2.0f)  == 0x400000003F800000ull
//
// Lane 0 (the first value) is always in the low bits, matching the register
// layout PTX uses for packed types and CUDA's `__half2` / `__nv_bfloat162` /
// `float2`.
//
// Conversions from float round to nearest, ties to even, exactly like
// `cvt.rn.f16.f32` / `cvt.rn.bf16.f32`: overflow becomes infinity, subnormals
// are produced and kept, the sign of zero is kept, a NaN stays a (quiet) NaN.
//
// Everything is a plain C++17 `constexpr` function with no dependency beyond
// <stdint.h>: usable in host C++, in CUDA device code (clang treats constexpr
// functions as __host__ __device__; nvcc needs --expt-relaxed-constexpr) and
// in `static_assert`. (The compiler does not include it: the constants its
// diagnostics quote come from core's packedSplatBits, and PackedTest keeps
// the two equal.)
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_PACKED_H
#define TILEAPPLY_PACKED_H

#include <stdint.h>

namespace tile {
namespace packed {

// ---- float <-> bits -----------------------------------------------------------

/// The IEEE-754 binary32 encoding of `f`.
constexpr uint32_t float_bits(float f) { return __builtin_bit_cast(uint32_t, f); }

/// The float whose IEEE-754 binary32 encoding is `bits`.
constexpr float float_from_bits(uint32_t bits) { return __builtin_bit_cast(float, bits); }

// ---- half (IEEE binary16) ---------------------------------------------------------

/// The binary16 encoding of `f`, rounded to nearest, ties to even.
/// |f| >= 65520 becomes +-inf; values below half's normal range become
/// subnormals (or +-0); NaN becomes a quiet NaN keeping its sign and the top
/// payload bits.
constexpr uint16_t f16_bits(float f) {
  const uint32_t x = float_bits(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t ax = x & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) // NaN: quiet it, keep the top 9 payload bits
    return static_cast<uint16_t>(sign | 0x7E00u | ((ax >> 13) & 0x01FFu));
  if (ax >= 0x477FF000u) // >= 65520 (the tie above 65504) and inf
    return static_cast<uint16_t>(sign | 0x7C00u);
  if (ax >= 0x38800000u) { // >= 2^-14: a normal half
    // Rebias the exponent (127 -> 15) and drop 13 mantissa bits, rounding to
    // nearest even. A carry out of the mantissa correctly bumps the exponent.
    const uint32_t h = (ax - 0x38000000u) >> 13;
    const uint32_t rest = ax & 0x1FFFu;
    const uint32_t up = (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ? 1u : 0u;
    return static_cast<uint16_t>(sign | (h + up));
  }
  if (ax <= 0x33000000u) // <= 2^-25: half way to the smallest subnormal, or less
    return static_cast<uint16_t>(sign);
  // A subnormal half: count units of 2^-24. The float is m * 2^(e - 150) with
  // the implicit bit restored; here e is in [102, 112], so shift in [14, 24].
  const uint32_t e = ax >> 23;
  const uint32_t m = (ax & 0x007FFFFFu) | 0x00800000u;
  const uint32_t shift = 126u - e;
  const uint32_t h = m >> shift;
  const uint32_t rest = m & ((1u << shift) - 1u);
  const uint32_t half_way = 1u << (shift - 1u);
  const uint32_t up = (rest > half_way || (rest == half_way && (h & 1u))) ? 1u : 0u;
  return static_cast<uint16_t>(sign | (h + up)); // may carry into 0x0400: fine
}

/// The float value of the binary16 encoding `h` (exact; NaN payloads kept).
constexpr float f16_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1Fu;
  uint32_t m = h & 0x03FFu;
  if (e == 0x1Fu) // inf or NaN
    return float_from_bits(sign | 0x7F800000u | (m << 13));
  if (e != 0) // normal
    return float_from_bits(sign | ((e + 112u) << 23) | (m << 13));
  if (m == 0) // +-0
    return float_from_bits(sign);
  // Subnormal: m * 2^-24. Normalise so that bit 10 is the implicit one.
  uint32_t fe = 113u; // float exponent of 2^-14, the smallest normal half
  while ((m & 0x0400u) == 0) {
    m <<= 1;
    --fe;
  }
  return float_from_bits(sign | (fe << 23) | ((m & 0x03FFu) << 13));
}

// ---- bfloat16 ----------------------------------------------------------------------

/// The bfloat16 encoding of `f` (the top half of a float), rounded to nearest,
/// ties to even. Overflow past the largest bfloat16 becomes +-inf, subnormals
/// round like any other value, NaN becomes a quiet NaN keeping its sign.
constexpr uint16_t bf16_bits(float f) {
  const uint32_t x = float_bits(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x0040u);
  // Adding 0x7FFF plus the lowest kept bit rounds half way cases to even; a
  // carry runs into the exponent, up to inf for the largest finite values.
  return static_cast<uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

/// The float value of the bfloat16 encoding `b` (exact).
constexpr float bf16_to_float(uint16_t b) { return float_from_bits(static_cast<uint32_t>(b) << 16); }

// ---- packed carriers ------------------------------------------------------------------

/// Two halves in one `.f16x2` carrier: `lo` (lane 0) in bits 0-15.
constexpr uint32_t f16x2(float lo, float hi) {
  return static_cast<uint32_t>(f16_bits(lo)) | (static_cast<uint32_t>(f16_bits(hi)) << 16);
}
/// Both lanes `v`: `f16x2(2.0f) == 0x40004000`.
constexpr uint32_t f16x2(float v) { return f16x2(v, v); }

/// Two bfloat16s in one `.bf16x2` carrier: `lo` (lane 0) in bits 0-15.
constexpr uint32_t bf16x2(float lo, float hi) {
  return static_cast<uint32_t>(bf16_bits(lo)) | (static_cast<uint32_t>(bf16_bits(hi)) << 16);
}
/// Both lanes `v`: `bf16x2(1.0f) == 0x3F803F80`.
constexpr uint32_t bf16x2(float v) { return bf16x2(v, v); }

/// Two floats in one `.f32x2` carrier: `lo` (lane 0) in bits 0-31.
constexpr uint64_t f32x2(float lo, float hi) {
  return static_cast<uint64_t>(float_bits(lo)) | (static_cast<uint64_t>(float_bits(hi)) << 32);
}
/// Both lanes `v`.
constexpr uint64_t f32x2(float v) { return f32x2(v, v); }

// ---- reading carriers back -------------------------------------------------------------

/// Lane 0 (low bits) / lane 1 (high bits) of a `.f16x2` carrier, as float.
constexpr float f16x2_lo(uint32_t w) { return f16_to_float(static_cast<uint16_t>(w)); }
constexpr float f16x2_hi(uint32_t w) { return f16_to_float(static_cast<uint16_t>(w >> 16)); }

/// Lane 0 / lane 1 of a `.bf16x2` carrier, as float.
constexpr float bf16x2_lo(uint32_t w) { return bf16_to_float(static_cast<uint16_t>(w)); }
constexpr float bf16x2_hi(uint32_t w) { return bf16_to_float(static_cast<uint16_t>(w >> 16)); }

/// Lane 0 / lane 1 of a `.f32x2` carrier.
constexpr float f32x2_lo(uint64_t w) { return float_from_bits(static_cast<uint32_t>(w)); }
constexpr float f32x2_hi(uint64_t w) { return float_from_bits(static_cast<uint32_t>(w >> 32)); }

// A few facts checked wherever the header is compiled.
static_assert(f16x2(2.0f) == 0x40004000u, "f16x2 splat");
static_assert(f16x2(1.0f, 2.0f) == 0x40003C00u, "f16x2 lane order");
static_assert(bf16x2(1.0f) == 0x3F803F80u, "bf16x2 splat");
static_assert(f32x2(1.0f, 2.0f) == 0x400000003F800000ull, "f32x2 lane order");

} // namespace packed
} // namespace tile

#endif // TILEAPPLY_PACKED_H
