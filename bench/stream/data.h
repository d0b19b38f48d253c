//===- bench/stream/data.h - The stream benchmark's inputs and reference --===//
//
// The inputs are one deterministic stream of 32-bit words (two halves each):
// word i of the buffer A|B (A's words first, then B's) is input_word(i). The
// device fills its buffers with it, the host regenerates any word to check a
// result, and bench/stream/torch_add.py builds the same stream with torch
// integer operations (the test vectors below are checked by all three).
//
// Every half is finite and every finite half can occur (subnormals, zeros of
// both signs, values up to 65504), so sums also overflow to infinity and round
// at every exponent. An encoding with exponent 31 (inf / NaN) has bit 14
// cleared, which makes it a finite value in [1, 2) in magnitude.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_BENCH_STREAM_DATA_H
#define TILEAPPLY_BENCH_STREAM_DATA_H

#include <stdint.h>

#include <tileapply/packed.h>
#include <vector>

#if defined(__CUDACC__) || defined(__CUDA__)
#define STREAM_HD __host__ __device__
#else
#define STREAM_HD
#endif

namespace stream {

/// A 32-bit integer hash (a bijection; two xor-shift-multiply rounds).
STREAM_HD inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

/// `h` (16 bits) as a finite half: exponent 31 loses bit 14.
STREAM_HD inline uint32_t finite_half(uint32_t h) {
  return (h & 0x7C00u) == 0x7C00u ? h ^ 0x4000u : h;
}

/// Word i of the input stream: two finite halves.
STREAM_HD inline uint32_t input_word(uint64_t i) {
  const uint32_t h = hash32(static_cast<uint32_t>(i) ^ (static_cast<uint32_t>(i >> 32) * 0x9E3779B9u));
  return finite_half(h & 0xFFFFu) | (finite_half(h >> 16) << 16);
}

/// Known words of the stream (computed independently in Python; see
/// torch_add.py, which checks its own generator against the same table).
struct TestVector {
  uint64_t index;
  uint32_t word;
};
constexpr TestVector kTestVectors[] = {
    {0, 0x00000000u},         {1, 0x688990c0u},          {2, 0xd1132181u},
    {12345, 0x912ebcf7u},     {134217733, 0xec65b4a4u},  {4294967295ull, 0x6768824au},
    {4294967296ull, 0x01fce552u},
};

// ---- the host reference (host code only) ------------------------------------ --------------------------------------------------------

/// Every half's value as float (exact), indexed by its encoding.
inline const std::vector<float> &half_values() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536);
    for (uint32_t h = 0; h < 65536; ++h)
      t[h] = tile::packed::f16_to_float(static_cast<uint16_t>(h));
    return t;
  }();
  return table;
}

/// add.rn.f16x2 of two words on the host; `v` is half_values().data(). The
/// float sum of two halves rounded once more to half is the correctly rounded
/// half sum: binary32 has 24 >= 2 * 11 + 2 significand bits, so the double
/// rounding is innocuous (and bench/stream/check_reference.py checks it
/// against an exact computation in Python).
inline uint32_t add_f16x2_ref(uint32_t a, uint32_t b, const float *v) {
  const uint32_t lo = tile::packed::f16_bits(v[a & 0xFFFFu] + v[b & 0xFFFFu]);
  const uint32_t hi = tile::packed::f16_bits(v[a >> 16] + v[b >> 16]);
  return lo | (hi << 16);
}

} // namespace stream

#endif // TILEAPPLY_BENCH_STREAM_DATA_H
