//===- bench/common/tiles.h - Tile arithmetic the benchmark kernels share -*- C++ -*-===//
//
// Host-and-device index arithmetic that bench/gemm and bench/attention both
// use, so that each kernel's layout_check tests the very functions its
// kernel runs: the 128-byte TMA swizzle, the pipeline ring, and where the
// stmatrix epilogue puts a warpgroup's 64 x 64 box of bf16 results.
//
//===----------------------------------------------------------------------===//
#ifndef BENCH_COMMON_TILES_H
#define BENCH_COMMON_TILES_H

#include <stdint.h>

#if defined(__CUDACC__) || defined(__CUDA__)
#define BENCH_HD __host__ __device__
#else
#define BENCH_HD
#endif

namespace bench {

BENCH_HD constexpr uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/// Byte offset, from a 1024-aligned box base, of byte `byte` (0 - 127) of row
/// `row` of a box whose rows are 128 bytes, as TMA writes it with
/// CU_TENSOR_MAP_SWIZZLE_128B (and reads it for a store): the 16-byte chunk
/// index is XORed with the row index mod 8 (Swizzle<3,4,3> on the address).
BENCH_HD constexpr uint32_t sw128(uint32_t row, uint32_t byte) {
  return row * 128 + ((((byte >> 4) ^ (row & 7)) & 7) << 4) + (byte & 15);
}

/// A stage index and its mbarrier phase parity, walking a pipeline of
/// `stages` buffers.
struct ring {
  uint32_t stage = 0, phase = 0;
  BENCH_HD constexpr void advance(uint32_t stages) {
    if (++stage == stages) {
      stage = 0;
      phase ^= 1;
    }
  }
};

// ---- the stmatrix epilogue: a warpgroup's 64 x 64 bf16 box -----------------------------
//
// Each warp stores its 16 rows of a box with four stmatrix .x4, one per
// 16-column block s; the 32 f32 accumulators of the box (m64nNk16 layout) are
// packed to bf16x2 first.

constexpr uint32_t kEpiCols = 64; ///< columns of one epilogue box (128 bytes of bf16)

/// The accumulator (0 - 31 within the box) holding element e (0: low half,
/// 1: high half) of the stmatrix register q for 16-column block s.
BENCH_HD constexpr uint32_t epi_acc_index(uint32_t s, uint32_t q, uint32_t e) {
  return 4 * (2 * s + (q >> 1)) + 2 * (q & 1) + e;
}
/// The row (within the warpgroup's 64) whose address lane `lane` of warp `warp` gives.
BENCH_HD constexpr uint32_t epi_row(uint32_t warp, uint32_t lane) {
  return 16 * warp + 8 * ((lane >> 3) & 1) + (lane & 7);
}
/// The first column (within the warpgroup's columns) of that row's 8 elements.
BENCH_HD constexpr uint32_t epi_col(uint32_t s, uint32_t lane) { return 16 * s + 8 * (lane >> 4); }
/// Byte offset, in the staging box of its columns, of lane's row for block s.
BENCH_HD constexpr uint32_t epi_offset(uint32_t warp, uint32_t lane, uint32_t s) {
  return sw128(epi_row(warp, lane), (epi_col(s, lane) % kEpiCols) * 2);
}

} // namespace bench

#endif
