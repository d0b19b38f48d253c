//===- bench/common/device.cuh - Device helpers the benchmark kernels share -*- CUDA -*-===//
//
// The small device-side building blocks that bench/gemm and bench/attention
// both use, each a thin wrapper over one __tile_apply call or a compile-time
// loop: unrolled loops over register arrays, register tensor views,
// operand fences, and the mbarrier and named-barrier operations.
// Kernel-specific wrappers (TMA boxes of a given rank, wgmma shapes) stay
// with their kernel.
//
//===----------------------------------------------------------------------===//
#ifndef BENCH_COMMON_DEVICE_CUH
#define BENCH_COMMON_DEVICE_CUH

#include <stdint.h>
#include <utility>

#include <tileapply/tile.h>

#include "tiles.h"

namespace bench {

// Everything that indexes a register array is unrolled at compile time (a
// run-time index would put the array in local memory), and the lambdas are
// always inlined (BENCH_INLINE): a call would pass the array through local
// memory.
#define BENCH_INLINE __attribute__((always_inline))
template <uint32_t N, class F> __device__ __forceinline__ void static_for(F &&f) {
  [&]<uint32_t... I>(std::integer_sequence<uint32_t, I...>) BENCH_INLINE {
    (f(std::integral_constant<uint32_t, I>{}), ...);
  }(std::make_integer_sequence<uint32_t, N>{});
}

/// A register tensor view of shape `Shape` and strides `Stride` starting at
/// element `p` of a thread's register array (`Storage` elements from p on).
template <class Shape, class Stride, int Storage, class T> __device__ __forceinline__ auto regs(T *p) {
  return tile::ref<T, TILEAPPLY_SPACE_NONE, Shape, Stride, Storage>(p);
}

/// tile::fence_operand on every element of a register array, one by one.
template <uint32_t N, class T> __device__ __forceinline__ void fence_all(T (&a)[N]) {
  static_for<N>([&](auto i) BENCH_INLINE { tile::fence_operand(a[i]); });
}

__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarriers ----------------------------------------------------------------------------

__device__ __forceinline__ auto bar(uint64_t *b) { return tile::shared<uint64_t, 1>(b); }

__device__ __forceinline__ void bar_init(uint64_t *b, uint32_t count) {
  __tile_apply("mbarrier.init.shared::cta.b64", bar(b), count);
}
/// Spins until the phase of parity `parity` of `b` has completed.
__device__ __forceinline__ void bar_wait(uint64_t *b, uint32_t parity) {
  bool done[1];
  do {
    __tile_apply("mbarrier.try_wait.parity.shared::cta.b64", done, bar(b), parity);
  } while (!done[0]);
}
/// The producer's arrival on a full barrier: expect `bytes` from the loads.
__device__ __forceinline__ void bar_arrive_expect(uint64_t *b, uint32_t bytes) {
  __tile_apply("mbarrier.arrive.expect_tx.shared::cta.b64", bar(b), bytes);
}
__device__ __forceinline__ void bar_arrive(uint64_t *b) {
  __tile_apply("mbarrier.arrive.shared::cta.b64", bar(b));
}

// ---- barriers between threads -------------------------------------------------------------

/// Named barrier `id` over `threads` threads (bar.sync: all threads of each warp).
__device__ __forceinline__ void named_sync(uint32_t id, uint32_t threads) { __tile_apply("bar.sync", id, threads); }
/// Arrives at named barrier `id` without waiting (the other side syncs).
__device__ __forceinline__ void named_arrive(uint32_t id, uint32_t threads) {
  __tile_apply("bar.arrive", id, threads);
}

// ---- the stmatrix epilogue ----------------------------------------------------------------

/// Packs the 32 f32 accumulators of one 64 x 64 box at `x` (m64nNk16 layout)
/// to bf16 and stores this warp's 16 rows of it with four stmatrix .x4 into
/// the 128-byte-swizzled staging box at `box` (tiles.h's epi_offset).
__device__ __forceinline__ void store_box_bf16(uint8_t *box, float *x, uint32_t warp, uint32_t lane) {
  // bf16x2 pairs, low half = even column: cvt puts its first source high.
  uint32_t packed[4][4];
  __tile_apply("cvt.rn.bf16x2.f32", tile::view<tile::shape<16, 1>, tile::stride<1, 1>>(packed),
               regs<tile::shape<16, 1>, tile::stride<2, 1>, 31>(x + 1),
               regs<tile::shape<16, 1>, tile::stride<2, 1>, 32>(x));
  static_for<4>([&](auto s) BENCH_INLINE {
    __tile_apply("stmatrix.sync.aligned.m8n8.x4.shared.b16",
                 tile::shared<uint16_t, 1>(reinterpret_cast<uint16_t *>(box + epi_offset(warp, lane, s))), packed[s]);
  });
}

} // namespace bench

#endif
