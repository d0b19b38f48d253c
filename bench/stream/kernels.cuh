//===- bench/stream/kernels.cuh - The streaming f16x2 add, three ways -----===//
//
// D = A + B over fp16 arrays, two halves per 32-bit word. Every variant does
// the same work per thread: four 128-bit rows (4 words = 8 halves each) of A
// and of B, sixteen add.rn.f16x2, four 128-bit rows of D.
//
// Row layout: thread t of block k owns rows (4k + r) * kBlock + t, r = 0..3, so
// each of the four load/store instructions of a warp touches 32 consecutive
// rows (512 contiguous bytes), and a block covers kRowsPerBlock consecutive
// rows. A row is 16 bytes, so an array's size must be a multiple of 16 bytes;
// the last block's rows past the end are switched off by a predicate (the
// "predicated tail": every size that is not a multiple of a block's 16 KiB).
//
// One-shot grid (one block per kRowsPerBlock rows, no loop): each thread
// issues its eight 16-byte loads back to back with nothing between them, the
// code is straight-line (so the PTX of the __tile_apply and hand-written asm
// kernels can be compared instruction by instruction), and at these sizes the
// grid is many waves deep (on an H200, 132 SMs x 5 resident blocks at 43
// registers a thread: about 25 waves at 256 MiB, 400 at 4 GiB), so the last
// partial wave costs little and a grid-stride loop would have little to save.
// Only the last block has predicates off.
//
//   stream_add_tile   written with __tile_apply (clang + the TileApply plugin;
//                     compiled only where STREAM_TILEAPPLY is defined)
//   stream_add_asm    the same kernel as one hand-written inline-asm block
//                     (clang or nvcc)
//   stream_add_hadd2  plain CUDA C++: uint4 loads and stores, __hadd2 on
//                     each word as __half2 (clang or nvcc)
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_BENCH_STREAM_KERNELS_CUH
#define TILEAPPLY_BENCH_STREAM_KERNELS_CUH

#include <cuda_fp16.h>
#include <stdint.h>
#if defined(STREAM_TILEAPPLY)
#include <tileapply/tile.h>
#endif

namespace stream {

constexpr int kBlock = 256;                          // threads per block
constexpr int kRowsPerThread = 4;                    // 128-bit rows per thread and array
constexpr int kWordsPerRow = 4;                      // uint32_t (f16x2) words per row
constexpr int kRowBytes = kWordsPerRow * 4;          // 16
constexpr int kRowsPerBlock = kBlock * kRowsPerThread; // 1024 rows = 16 KiB per array

/// The first row of this thread (its rows are row0 + r * kBlock).
__device__ __forceinline__ uint64_t first_row() {
  return static_cast<uint64_t>(blockIdx.x) * kRowsPerBlock + threadIdx.x;
}

#if defined(STREAM_TILEAPPLY)
/// (1) __tile_apply: four predicated ld.global.v4.b32 per input, sixteen
/// add.rn.f16x2, four predicated st.global.v4.b32.
__global__ void __launch_bounds__(kBlock)
stream_add_tile(uint32_t *__restrict__ D, const uint32_t *__restrict__ A,
                const uint32_t *__restrict__ B, uint64_t rows) {
  const uint64_t row0 = first_row();
  // This thread's four rows: repeat axis 4 (a block's width apart, in words),
  // register group 4 (the .v4 operand). The flat tensor underneath spans from
  // the first row's first word to the last row's last word.
  using Rows = tile::shape<kRowsPerThread, kWordsPerRow>;
  using Apart = tile::stride<kBlock * kWordsPerRow, 1>;
  constexpr int kSpan = ((kRowsPerThread - 1) * kBlock + 1) * kWordsPerRow;
  auto a_rows = tile::view<Rows, Apart>(tile::global<const uint32_t, kSpan>(A + row0 * kWordsPerRow));
  auto b_rows = tile::view<Rows, Apart>(tile::global<const uint32_t, kSpan>(B + row0 * kWordsPerRow));
  auto d_rows = tile::view<Rows, Apart>(tile::global<uint32_t, kSpan>(D + row0 * kWordsPerRow));

  bool in_range[kRowsPerThread][1]; // one predicate per row (per repeat)
#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r)
    in_range[r][0] = row0 + static_cast<uint64_t>(r) * kBlock < rows;

  uint32_t a[kRowsPerThread][kWordsPerRow], b[kRowsPerThread][kWordsPerRow];
  __tile_apply("ld.global.v4.b32", a, a_rows, tile::pred(in_range));
  __tile_apply("ld.global.v4.b32", b, b_rows, tile::pred(in_range));
  // The sixteen words as sixteen repeats of one register each (add.rn.f16x2
  // takes one register per operand: a group axis of 1).
  using Flat = tile::shape<kRowsPerThread * kWordsPerRow, 1>;
  using Dense = tile::stride<1, 1>;
  auto a_flat = tile::view<Flat, Dense>(a);
  auto b_flat = tile::view<Flat, Dense>(b);
  __tile_apply("add.rn.f16x2", a_flat, a_flat, b_flat);
  __tile_apply("st.global.v4.b32", d_rows, a, tile::pred(in_range));
}
#endif

/// (2, 3) The same kernel as one hand-written inline-asm block: the pointers
/// converted to the global window (cvta.to.global, as the compiler does for
/// the __tile_apply kernel's arguments), the same predicates (setp.lt.u64 on
/// the same row numbers), the same eight loads, sixteen adds and four stores,
/// the rows a block's width (kBlock * 16 bytes) apart as immediate offsets.
/// Portable inline asm (no predicate operands), so clang and nvcc both
/// compile it.
__global__ void __launch_bounds__(kBlock)
stream_add_asm(uint32_t *__restrict__ D, const uint32_t *__restrict__ A,
               const uint32_t *__restrict__ B, uint64_t rows) {
  const uint64_t row0 = first_row();
  const uint64_t word0 = row0 * kWordsPerRow;
  asm volatile(
      "{\n\t"
      ".reg .pred sp<4>;\n\t"
      ".reg .b32 sa<16>, sb<16>;\n\t"
      ".reg .b64 gd, ga, gb;\n\t"
      "cvta.to.global.u64 gd, %0;\n\t"
      "cvta.to.global.u64 ga, %1;\n\t"
      "cvta.to.global.u64 gb, %2;\n\t"
      "setp.lt.u64 sp0, %3, %7;\n\t"
      "setp.lt.u64 sp1, %4, %7;\n\t"
      "setp.lt.u64 sp2, %5, %7;\n\t"
      "setp.lt.u64 sp3, %6, %7;\n\t"
      "@sp0 ld.global.v4.b32 {sa0, sa1, sa2, sa3}, [ga];\n\t"
      "@sp1 ld.global.v4.b32 {sa4, sa5, sa6, sa7}, [ga+%8];\n\t"
      "@sp2 ld.global.v4.b32 {sa8, sa9, sa10, sa11}, [ga+%9];\n\t"
      "@sp3 ld.global.v4.b32 {sa12, sa13, sa14, sa15}, [ga+%10];\n\t"
      "@sp0 ld.global.v4.b32 {sb0, sb1, sb2, sb3}, [gb];\n\t"
      "@sp1 ld.global.v4.b32 {sb4, sb5, sb6, sb7}, [gb+%8];\n\t"
      "@sp2 ld.global.v4.b32 {sb8, sb9, sb10, sb11}, [gb+%9];\n\t"
      "@sp3 ld.global.v4.b32 {sb12, sb13, sb14, sb15}, [gb+%10];\n\t"
      "add.rn.f16x2 sa0, sa0, sb0;\n\t"
      "add.rn.f16x2 sa1, sa1, sb1;\n\t"
      "add.rn.f16x2 sa2, sa2, sb2;\n\t"
      "add.rn.f16x2 sa3, sa3, sb3;\n\t"
      "add.rn.f16x2 sa4, sa4, sb4;\n\t"
      "add.rn.f16x2 sa5, sa5, sb5;\n\t"
      "add.rn.f16x2 sa6, sa6, sb6;\n\t"
      "add.rn.f16x2 sa7, sa7, sb7;\n\t"
      "add.rn.f16x2 sa8, sa8, sb8;\n\t"
      "add.rn.f16x2 sa9, sa9, sb9;\n\t"
      "add.rn.f16x2 sa10, sa10, sb10;\n\t"
      "add.rn.f16x2 sa11, sa11, sb11;\n\t"
      "add.rn.f16x2 sa12, sa12, sb12;\n\t"
      "add.rn.f16x2 sa13, sa13, sb13;\n\t"
      "add.rn.f16x2 sa14, sa14, sb14;\n\t"
      "add.rn.f16x2 sa15, sa15, sb15;\n\t"
      "@sp0 st.global.v4.b32 [gd], {sa0, sa1, sa2, sa3};\n\t"
      "@sp1 st.global.v4.b32 [gd+%8], {sa4, sa5, sa6, sa7};\n\t"
      "@sp2 st.global.v4.b32 [gd+%9], {sa8, sa9, sa10, sa11};\n\t"
      "@sp3 st.global.v4.b32 [gd+%10], {sa12, sa13, sa14, sa15};\n\t"
      "}"
      :
      : "l"(D + word0), "l"(A + word0), "l"(B + word0), "l"(row0),
        "l"(row0 + kBlock), "l"(row0 + 2 * kBlock), "l"(row0 + 3 * kBlock), "l"(rows),
        "n"(kBlock * kRowBytes), "n"(2 * kBlock * kRowBytes), "n"(3 * kBlock * kRowBytes)
      : "memory");
}

/// The words of a 128-bit row as __half2 (a bit pun, as CUDA code does it).
__device__ __forceinline__ __half2 as_half2(uint32_t w) {
  __half2 h;
  __builtin_memcpy(static_cast<void *>(&h), &w, sizeof h);
  return h;
}
__device__ __forceinline__ uint32_t as_word(__half2 h) {
  uint32_t w;
  __builtin_memcpy(&w, static_cast<const void *>(&h), sizeof w);
  return w;
}

/// (4) Plain CUDA C++: 128-bit loads and stores through uint4 (the usual way
/// to get ld/st .v4), __hadd2 on each word as __half2, the tail guarded by
/// ordinary ifs.
__global__ void __launch_bounds__(kBlock)
stream_add_hadd2(uint4 *__restrict__ D, const uint4 *__restrict__ A,
                 const uint4 *__restrict__ B, uint64_t rows) {
  const uint64_t row0 = first_row();
  uint4 a[kRowsPerThread], b[kRowsPerThread];
#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r) {
    const uint64_t row = row0 + static_cast<uint64_t>(r) * kBlock;
    if (row < rows) {
      a[r] = A[row];
      b[r] = B[row];
    }
  }
#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r) {
    const uint64_t row = row0 + static_cast<uint64_t>(r) * kBlock;
    if (row < rows) {
      uint4 d;
      d.x = as_word(__hadd2(as_half2(a[r].x), as_half2(b[r].x)));
      d.y = as_word(__hadd2(as_half2(a[r].y), as_half2(b[r].y)));
      d.z = as_word(__hadd2(as_half2(a[r].z), as_half2(b[r].z)));
      d.w = as_word(__hadd2(as_half2(a[r].w), as_half2(b[r].w)));
      D[row] = d;
    }
  }
}

/// Blocks for `rows` rows.
inline uint64_t blocks_for(uint64_t rows) {
  return (rows + kRowsPerBlock - 1) / kRowsPerBlock;
}

} // namespace stream

#endif // TILEAPPLY_BENCH_STREAM_KERNELS_CUH
