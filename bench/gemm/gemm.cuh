//===- bench/gemm/gemm.cuh - A Hopper bf16 GEMM written with __tile_apply -*- CUDA -*-===//
//
// D = A x B (+ bias, GELU) for the H100/H200 (sm_90a): bf16 A (M x K, row-major)
// and B (K x N, column-major: both K-major, a "TN" GEMM), f32 accumulation,
// bf16 D (M x N, row-major). Every PTX instruction the kernel needs beyond
// plain C++ is written with __tile_apply: TMA loads and stores
// (cp.async.bulk.tensor), mbarriers, wgmma, stmatrix, setmaxnreg, elect,
// named and cluster barriers, fences, and the epilogue's arithmetic.
//
// Structure (the Hopper warp-specialized recipe):
//   - persistent CTAs, one per SM, walking output tiles of 128 x BN in a
//     grouped order (layout.h) so that concurrent tiles share L2;
//   - 384 threads: warpgroups 0 and 1 consume (wgmma, epilogue), warpgroup 2
//     produces; setmaxnreg moves registers from the producer (40) to the
//     consumers (232);
//   - one elected producer thread issues the TMA loads of A (128 x 64) and B
//     (BN x 64) into a ring of STAGES shared-memory stages, 128-byte swizzled,
//     each guarded by a "full" mbarrier (expect_tx + the loads' complete_tx)
//     and an "empty" mbarrier (one arrival per consumer warp);
//   - each consumer warpgroup computes 64 x BN of the tile with four
//     wgmma.mma_async m64nBNk16 per stage from shared-memory descriptors,
//     keeps one wgmma group in flight and frees a stage when the group that
//     read it has retired;
//   - the epilogue converts the f32 accumulators to bf16x2 (optionally after
//     bias + GELU), writes 64 x 64 boxes into swizzled staging buffers with
//     stmatrix and stores each with one TMA store (bulk async-groups);
//   - cluster 2 (optional): two CTAs on vertically adjacent tiles load one
//     half of the shared B tile each and multicast it to both;
//   - split-K (gemm_splitk_kernel, gemm_scaled_splitk_kernel): each tile's K
//     cut into slices that different CTAs compute; every slice stores its
//     f32 partial into a workspace and arrives on a counter, and the last to
//     arrive sums the partials in slice order and runs the epilogue (a
//     plan may compute its first tiles whole and split only the last
//     wave's: layout.h's tail_split);
//   - skinny M (gemm_swap_kernel, config::swap): D^T = B A^T on the same
//     pipeline, B's rows on the 128-row side, 16 to 64 rows of A on the
//     other, split-K, each accumulator stored straight to D.
// Ragged M, N and K: TMA fills out-of-range loads with zeros and clips stores;
// N and K must be multiples of 8 (16-byte global strides).
//
//===----------------------------------------------------------------------===//
#ifndef BENCH_GEMM_GEMM_CUH
#define BENCH_GEMM_GEMM_CUH

#include <cuda.h>
#include <stdint.h>
#include <utility>

#include <tileapply/tile.h>

#include "../common/device.cuh"
#include "layout.h"

namespace gemm {

using bench::bar;
using bench::bar_arrive;
using bench::bar_arrive_expect;
using bench::bar_init;
using bench::bar_wait;
using bench::fence_all;
using bench::named_arrive;
using bench::named_sync;
using bench::regs;
using bench::smem_u32;
using bench::static_for;
using bench::store_box_bf16;

/// Arrival on the barrier at the same offset in CTA `rank` of the cluster.
__device__ __forceinline__ void bar_arrive_cluster(uint64_t *b, uint32_t rank) {
  uint32_t remote[1];
  __tile_apply("mapa.shared::cluster.u32", remote, smem_u32(b), rank);
  __tile_apply("mbarrier.arrive.shared::cluster.b64", tile::cluster<uint64_t, 1>(remote[0]));
}

// ---- TMA ------------------------------------------------------------------------------------

__device__ __forceinline__ void tma_load(void *dst, const CUtensorMap &map, int32_t x, int32_t y, uint64_t *b) {
  int32_t xy[2] = {x, y};
  __tile_apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
               tile::shared<uint8_t, 1>(static_cast<uint8_t *>(dst)), tile::tensor_map(map), xy, bar(b));
}
/// Loads the box into `dst` of every CTA in `mask`, signalling the barrier at
/// `b`'s offset in each of them.
__device__ __forceinline__ void tma_load_multicast(void *dst, const CUtensorMap &map, int32_t x, int32_t y,
                                                   uint64_t *b, uint16_t mask) {
  int32_t xy[2] = {x, y};
  __tile_apply("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster",
               tile::to_cluster(tile::shared<uint8_t, 1>(static_cast<uint8_t *>(dst))), tile::tensor_map(map), xy,
               tile::to_cluster(bar(b)), mask);
}
__device__ __forceinline__ void tma_store(const CUtensorMap &map, int32_t x, int32_t y, const void *src) {
  int32_t xy[2] = {x, y};
  __tile_apply("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group", tile::tensor_map(map), xy,
               tile::shared<const uint8_t, 1>(static_cast<const uint8_t *>(src)));
}

/// All threads of the cluster (not .aligned: callers come out of divergent code).
__device__ __forceinline__ void cluster_sync() {
  __tile_apply("barrier.cluster.arrive.release");
  __tile_apply("barrier.cluster.wait.acquire");
}

// ---- wgmma ----------------------------------------------------------------------------------

/// One wgmma.mma_async m64nBNk16, bf16 x bf16 -> f32, A and B K-major from
/// shared memory (transpose immediates 0), D += A x B (or D = A x B when
/// `accumulate` is false).
template <uint32_t BN>
__device__ __forceinline__ void wgmma(float (&acc)[BN / 2], uint64_t a, uint64_t b, bool accumulate) {
  // One call for every tile width: the plugin checks the spelling each
  // instance evaluates to (m64n256k16, m64n192k16, ...).
  __tile_apply(tile::fmt<"wgmma.mma_async.sync.aligned.m64n{}k16.f32.bf16.bf16", BN>, acc, a, b,
               accumulate, 1, 1, 0, 0);
}

/// One wgmma.mma_async m64nBNk32 of fp8 operands (A e4m3 or e5m2 by `dtype`,
/// B e4m3), f32 accumulators; both K-major (fp8 wgmma has no transpose).
template <uint32_t BN, uint32_t DTYPE>
__device__ __forceinline__ void wgmma_fp8(float (&acc)[BN / 2], uint64_t a, uint64_t b, bool accumulate) {
  if constexpr (DTYPE == kE4m3)
    __tile_apply(tile::fmt<"wgmma.mma_async.sync.aligned.m64n{}k32.f32.e4m3.e4m3", BN>, acc, a, b, accumulate, 1, 1);
  else
    __tile_apply(tile::fmt<"wgmma.mma_async.sync.aligned.m64n{}k32.f32.e5m2.e4m3", BN>, acc, a, b, accumulate, 1, 1);
}

// ---- the epilogue's arithmetic ----------------------------------------------------------------

constexpr float kGeluC0 = 0.7978845608028654f;         // sqrt(2 / pi)
constexpr float kGeluC1 = 0.7978845608028654f * 0.044715f;

/// acc[0 .. 31] (one box: 8-column block j, row half h, column parity e at
/// 4 j + 2 h + e) = GELU_tanh(acc + bias[col]), bias a bf16 vector of N
/// read at columns col0 + 8 j + 2 (lane % 4) + e.
__device__ __forceinline__ void bias_gelu(float *box, const uint16_t *bias, uint32_t col0, uint32_t N,
                                          uint32_t lane) {
  uint32_t bw[8][1];
  bool in[8][1];
  static_for<8>([&](auto j) BENCH_INLINE {
    bw[j][0] = 0;
    in[j][0] = col0 + 8 * j < N; // N is a multiple of 8: a block is all in or all out
  });
  const auto *words = reinterpret_cast<const uint32_t *>(bias + col0 + 2 * (lane % 4));
  __tile_apply("ld.global.nc.b32", bw, tile::view<tile::shape<8, 1>, tile::stride<4, 1>>(tile::global<const uint32_t, 29>(words)),
               tile::pred(in));
  float b[8][2][1]; // [j][e]: bf16 -> f32 is the bf16 bits in the high half
  static_for<8>([&](auto j) BENCH_INLINE {
    b[j][0][0] = __uint_as_float(bw[j][0] << 16);
    b[j][1][0] = __uint_as_float(bw[j][0] & 0xFFFF0000u);
  });
  auto x4 = regs<tile::shape<8, 2, 2, 1>, tile::stride<4, 2, 1, 1>, 32>(box);
  __tile_apply("add.rn.f32", x4, x4, tile::view<tile::shape<8, 2, 2, 1>, tile::stride<2, 0, 1, 1>>(b));
  // GELU, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
  auto x = regs<tile::shape<32, 1>, tile::stride<1, 1>, 32>(box);
  float t[32][1], h[32][1];
  __tile_apply("mul.rn.f32", t, x, x);
  __tile_apply("fma.rn.f32", t, t, kGeluC1, kGeluC0);
  __tile_apply("mul.rn.f32", t, t, x);
  __tile_apply("tanh.approx.f32", t, t);
  __tile_apply("mul.rn.f32", h, x, 0.5f);
  __tile_apply("fma.rn.f32", x, h, t, h);
}

/// The fp8 epilogue on one box (the same register order as bias_gelu):
/// acc = scale * acc (+ bias[col] when `bias` is not null), scale being
/// scale_a * scale_b, as torch._scaled_mm computes it.
__device__ __forceinline__ void scale_bias(float *box, float scale, const uint16_t *bias, uint32_t col0, uint32_t N,
                                           uint32_t lane) {
  auto x = regs<tile::shape<32, 1>, tile::stride<1, 1>, 32>(box);
  __tile_apply("mul.rn.f32", x, x, scale);
  if (bias == nullptr) return;
  uint32_t bw[8][1];
  bool in[8][1];
  static_for<8>([&](auto j) BENCH_INLINE {
    bw[j][0] = 0;
    in[j][0] = col0 + 8 * j < N;
  });
  const auto *words = reinterpret_cast<const uint32_t *>(bias + col0 + 2 * (lane % 4));
  __tile_apply("ld.global.nc.b32", bw, tile::view<tile::shape<8, 1>, tile::stride<4, 1>>(tile::global<const uint32_t, 29>(words)),
               tile::pred(in));
  float b[8][2][1];
  static_for<8>([&](auto j) BENCH_INLINE {
    b[j][0][0] = __uint_as_float(bw[j][0] << 16);
    b[j][1][0] = __uint_as_float(bw[j][0] & 0xFFFF0000u);
  });
  auto x4 = regs<tile::shape<8, 2, 2, 1>, tile::stride<4, 2, 1, 1>, 32>(box);
  __tile_apply("add.rn.f32", x4, x4, tile::view<tile::shape<8, 2, 2, 1>, tile::stride<2, 0, 1, 1>>(b));
}

// ---- split-K: f32 partial tiles in the workspace (layout.h's split_ws) --------------------------

/// Stores this thread's accumulators, kAcc / 4 st.global.cg.v4.f32 (to L2,
/// where the CTA that sums them reads), at partial_index(tid, chunk) of the
/// warpgroup partial at `part`.
template <uint32_t kAcc>
__device__ __forceinline__ void store_partial(float *part, float (&acc)[kAcc], uint32_t tid) {
  __tile_apply("st.global.cg.v4.f32",
               tile::view<tile::shape<kAcc / 4, 4>, tile::stride<512, 1>>(
                   tile::global<float, kAcc / 4 * 512>(part + partial_index(tid, 0))),
               regs<tile::shape<kAcc / 4, 4>, tile::stride<4, 1>, kAcc>(acc));
}
/// Loads N accumulators (chunks chunk0 ... chunk0 + N / 4 - 1) of this
/// thread from the partial at `part` into `dst`, from L2 (ld.global.cg).
template <uint32_t N>
__device__ __forceinline__ void load_partial(float *dst, const float *part, uint32_t tid, uint32_t chunk0) {
  __tile_apply("ld.global.cg.v4.f32", regs<tile::shape<N / 4, 4>, tile::stride<4, 1>, N>(dst),
               tile::view<tile::shape<N / 4, 4>, tile::stride<512, 1>>(
                   tile::global<const float, N / 4 * 512>(part + partial_index(tid, chunk0))));
}

/// The split-K fix-up of one warpgroup's 64 x bn rows of a tile, after its
/// slice's k-blocks: stores the partial, arrives on the (tile, warpgroup)
/// counter, and returns false unless this warpgroup arrived last; the last
/// one has acc = the sum of all `splits` partials in slice order (every
/// launch the same sum, whichever CTA came last) and has reset the counter.
/// Every thread of the warpgroup calls it (named barrier 1 + wg).
template <uint32_t kAcc>
__device__ __forceinline__ bool split_fixup(float (&acc)[kAcc], float *partials, uint32_t *counter,
                                            const split_ws &ws, uint32_t tile, uint32_t slice, uint32_t wg,
                                            uint32_t tid) {
  store_partial<kAcc>(partials + ws.partial(tile, slice, wg), acc, tid);
  // Every thread's stores come before thread 0's release (CTA barrier, then
  // a gpu-scope fence and the arrival).
  named_sync(1 + wg, 128);
  bool last = false;
  if (tid == 0) {
    uint32_t old[1];
    __tile_apply("fence.acq_rel.gpu");
    __tile_apply("atom.relaxed.gpu.global.add.u32", old, tile::global<uint32_t, 1>(counter), 1u);
    last = old[0] == ws.splits - 1;
    // Acquire: the other slices' partials, released before their arrivals.
    if (last) __tile_apply("fence.acq_rel.gpu");
  }
  bool any[1];
  __tile_apply("bar.red.or.pred", any, 1 + wg, 128u, last);
  if (!any[0]) return false;
  load_partial<kAcc>(acc, partials + ws.partial(tile, 0, wg), tid, 0);
  // The other slices through a buffer of up to 32 registers (all of them
  // when a thread holds fewer: the skinny tiles' 8 or 16).
  constexpr uint32_t kChunk = kAcc < 32 ? kAcc : 32;
  for (uint32_t s = 1; s < ws.splits; ++s) {
    const float *const part = partials + ws.partial(tile, s, wg);
    static_for<kAcc / kChunk>([&](auto b) BENCH_INLINE {
      float t[kChunk];
      load_partial<kChunk>(t, part, tid, b * (kChunk / 4));
      auto x = regs<tile::shape<kChunk, 1>, tile::stride<1, 1>, kChunk>(&acc[b * kChunk]);
      __tile_apply("add.rn.f32", x, x, regs<tile::shape<kChunk, 1>, tile::stride<1, 1>, kChunk>(t));
    });
  }
  // Every arrival of this launch is in: zero for the next launch.
  if (tid == 0) __tile_apply("st.relaxed.gpu.global.u32", tile::global<uint32_t, 1>(counter), 0u);
  return true;
}

// ---- the skinny (config::swap) epilogue ---------------------------------------------------------

/// Stores one warpgroup's 64 x bn accumulators of D^T (rows n, columns m;
/// layout.h's acc_coord) as bf16 to D[m][n], D row-major with `ldd`
/// elements a row; `rows` x `cols` bound D^T (N x M). One st.global.b16 an
/// element, predicated off past either bound: the output of a skinny GEMM
/// is small next to B, so the stores need no staging.
template <uint32_t kAcc>
__device__ __forceinline__ void store_transposed(uint16_t *d, uint32_t ldd, float (&acc)[kAcc], uint32_t row0,
                                                 uint32_t n0, uint32_t rows, uint32_t cols, uint32_t tid) {
  uint32_t packed[kAcc / 2][1]; // registers 2p (lo) and 2p + 1 (hi): cvt puts its first source high
  __tile_apply("cvt.rn.bf16x2.f32", packed, regs<tile::shape<kAcc / 2, 1>, tile::stride<2, 1>, kAcc - 1>(acc + 1),
               regs<tile::shape<kAcc / 2, 1>, tile::stride<2, 1>, kAcc>(acc));
  static_for<kAcc>([&](auto r) BENCH_INLINE {
    const acc_pos q = acc_coord(tid, r);
    const uint32_t n = row0 + q.row, m = n0 + q.col;
    const uint16_t v = uint16_t(packed[r / 2][0] >> (16 * (r % 2)));
    __tile_apply("st.global.b16", tile::global<uint16_t, 1>(d + uint64_t(m) * ldd + n), v,
                 tile::pred(n < rows && m < cols));
  });
}

// ---- the kernel ---------------------------------------------------------------------------------

/// The body of both kernels (gemm_kernel: bf16; gemm_scaled_kernel: fp8
/// with per-tensor scales), inlined into each.
template <config C>
__device__ __forceinline__ void gemm_body(const CUtensorMap &tmA, const CUtensorMap &tmB, const CUtensorMap &tmD,
                                          const uint16_t *bias, const float *scale_a,
                                          const float *scale_b, uint32_t M, uint32_t N, uint32_t K,
                                          void *workspace = nullptr, uint32_t splits = 1, uint32_t whole = 0,
                                          uint16_t *d_out = nullptr, uint32_t ldd = 0) {
  static_assert(C.error() == nullptr, "unsupported configuration");
  constexpr uint32_t kAcc = C.acc_regs();

  // The shared-memory plan from a 1024-byte aligned base.
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  const uint32_t raw = smem_u32(smem_raw);
  uint8_t *const smem = smem_raw + (((raw + 1023u) & ~1023u) - raw);
  const uint32_t sbase = smem_u32(smem);
  uint64_t *const full = reinterpret_cast<uint64_t *>(smem + C.off_full(0));
  uint64_t *const empty = reinterpret_cast<uint64_t *>(smem + C.off_empty(0));

  const uint32_t wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  const uint32_t rank = blockIdx.x % C.cluster, cluster_id = blockIdx.x / C.cluster,
                 clusters = gridDim.x / C.cluster;
  const schedule sched{ceil_div(M, kBM), ceil_div(N, C.bn), C.cluster};
  // Split-K: the `whole` tiles, then (tile, slice) pairs (layout.h's
  // split_unit); otherwise tiles, each all of K.
  const uint32_t kblocks = ceil_div(K, C.bk());
  const uint32_t units = C.split ? split_units(sched.units(), whole, splits) : sched.units();
  // The tile of unit u and its k-blocks [kb0, kb1).
  auto work = [&](uint32_t u) BENCH_INLINE -> unit_work {
    if constexpr (C.split)
      return split_unit(u, whole, splits, kblocks);
    else
      return {u, 0, 0, kblocks, false, 0};
  };

  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < C.stages; ++s) {
      bar_init(&full[s], 1);
      bar_init(&empty[s], C.empty_arrivals());
    }
    // The initialized barriers, visible to the async proxy and the cluster.
    __tile_apply("fence.mbarrier_init.release.cluster");
  }
  if constexpr (C.cluster > 1)
    cluster_sync();
  else
    named_sync(0, kThreads);

  if (wg == kConsumers) {
    // ---- producer warpgroup: one elected thread issues every load ----
    __tile_apply("setmaxnreg.dec.sync.aligned.u32", kProducerRegs);
    if (tid < 32) {
      bool leader[1];
      __tile_apply("elect.sync", leader, 0xffffffffu);
      if (leader[0]) {
        ring r;
        for (uint32_t u = cluster_id; u < units; u += clusters) {
          const unit_work w = work(u);
          const tile_pos p = sched.tile(w.tile, rank);
          // A phantom tile (past M, cluster 2) loads a real one and stores nothing.
          const int32_t a_row = p.m_blk < sched.m_blocks ? int32_t(p.m_blk * kBM) : 0;
          const uint32_t n0 = p.n_blk * C.bn;
          // This CTA's share of B: all of it, or one half (multicast to both).
          int32_t b_row = int32_t(n0 + rank * C.b_box_rows());
          if (uint32_t(b_row) >= N) b_row = int32_t(n0); // past N: any real box will do
          for (uint32_t kb = w.kb0; kb < w.kb1; ++kb) {
            bar_wait(&empty[r.stage], r.phase ^ 1);
            bar_arrive_expect(&full[r.stage], C.stage_bytes());
            const int32_t k0 = int32_t(kb * C.bk()); // elements; 128 bytes a stage
            tma_load(smem + C.off_a(r.stage), tmA, k0, a_row, &full[r.stage]);
            if constexpr (C.cluster == 1)
              tma_load(smem + C.off_b(r.stage), tmB, k0, b_row, &full[r.stage]);
            else
              tma_load_multicast(smem + C.off_b(r.stage) + rank * C.b_box_rows() * 128, tmB, k0, b_row,
                                 &full[r.stage], uint16_t((1u << C.cluster) - 1));
            r.advance(C.stages);
          }
        }
      }
    }
  } else {
    // ---- consumer warpgroups: 64 x BN of each tile ----
    __tile_apply("setmaxnreg.inc.sync.aligned.u32", kConsumerRegs);
    const uint32_t warp = tid / 32, lane = tid % 32;
    float acc[kAcc];
    static_for<kAcc>([&](auto i) BENCH_INLINE { acc[i] = 0.f; });
    // config::promote: the tensor core accumulates one k-block into part,
    // which is then added into acc in f32 (see layout.h).
    float part[C.promote ? kAcc : 1];
    // acc = part (a tile's first k-block: a persistent CTA's previous tile
    // left its sums in acc) or acc += part, in f32.
    auto promote_into = [](float (&sum)[kAcc], const float (&p)[kAcc], bool first) BENCH_INLINE {
      if (first)
        static_for<kAcc>([&](auto i) BENCH_INLINE { sum[i] = p[i]; });
      else
        static_for<kAcc>([&](auto i) BENCH_INLINE { sum[i] += p[i]; });
    };
    ring r;
    uint32_t stores = 0; // TMA stores issued by this warpgroup: picks the staging buffer
    float scale = 1.f; // fp8: scale_a * scale_b (device scalars, read once)
    if constexpr (C.scaled()) scale = *scale_a * *scale_b;

    // Frees a stage: each warp, once its own wait_group has returned, arrives
    // on the stage's empty barrier in every CTA that the stage's loads wrote
    // (lane r on CTA r's), as DeepGEMM does: a warp's wait says nothing of
    // the other warps' reads.
    auto release = [&](uint32_t stage) BENCH_INLINE {
      if constexpr (C.cluster == 1) {
        if (lane == 0) bar_arrive(&empty[stage]);
      } else {
        if (lane < C.cluster) bar_arrive_cluster(&empty[stage], lane);
      }
    };

    // config::pingpong: warpgroup 0 takes the first turn.
    if constexpr (C.pingpong)
      if (wg == 1 && cluster_id < units) named_arrive(kTurnBar, 256);
    for (uint32_t u = cluster_id; u < units; u += clusters) {
      const unit_work w = work(u);
      const tile_pos p = sched.tile(w.tile, rank);
      const uint32_t a_tile = sbase + wg * kWgM * 128; // this warpgroup's 64 rows of A
      uint32_t prev = 0;
      if constexpr (C.promote) {
        // config::promote_every 1: each k-block's four wgmma write part (the
        // first overwrites it); once they retire, part is added into acc and
        // the stage is freed. Nothing stays in flight across k-blocks: a
        // second part buffer to overlap with needs 3 x 64 accumulator
        // registers (spills measured in an earlier build); an `if` that
        // promotes every second k-block inside this loop puts a branch
        // between the wgmma, which ptxas serializes (C7518): promote_every
        // > 1 is a loop nest instead (below). After
        // setmaxnreg.inc ptxas does use up to the 232 registers the consumers
        // get (a 128 x 192 ping-pong build reached R229 with 12 bytes of
        // spill; it was no faster, bench/results/gemm-fp8.md), so 128 x 256
        // (2 x 128 accumulators) is what does not fit.
        // config::pingpong: the turn passes from warpgroup to warpgroup at
        // every k-block, across tiles too (warpgroup 1's last pass of a tile
        // is warpgroup 0's first turn of the next); the very last pass, which
        // nobody would take, is not made.
        const bool last_unit = u + clusters >= units;
        for (uint32_t kb = w.kb0; kb < (C.promote_every == 1 ? w.kb1 : 0); ++kb) {
          if constexpr (C.pingpong) named_sync(kTurnBar + wg, 256);
          bar_wait(&full[r.stage], r.phase);
          const uint32_t a_base = a_tile + C.off_a(r.stage), b_base = sbase + C.off_b(r.stage);
          fence_all(part);
          __tile_apply("wgmma.fence.sync.aligned");
          static_for<C.bk() / C.wgmma_k()>([&](auto k) BENCH_INLINE {
            wgmma_fp8<C.bn, C.dtype>(part, operand_desc(a_base, k), operand_desc(b_base, k), k != 0);
          });
          __tile_apply("wgmma.commit_group.sync.aligned");
          if constexpr (C.pingpong)
            if (!(wg == 1 && last_unit && kb + 1 == w.kb1)) named_arrive(kTurnBar + (1 - wg), 256);
          fence_all(part);
          __tile_apply("wgmma.wait_group.sync.aligned", 0);
          fence_all(part);
          release(r.stage);
          promote_into(acc, part, kb == w.kb0);
          r.advance(C.stages);
        }
        // config::promote_every > 1: groups of k-blocks [g0, g1), each
        // accumulated by the tensor core with one wgmma group in flight;
        // group boundaries at kb0 + G n - shift (warpgroup 1: shift G / 2).
        constexpr uint32_t G = C.promote_every;
        const uint32_t shift = wg * (G / 2);
        for (uint32_t g0 = w.kb0; g0 < (G == 1 ? 0 : w.kb1);) {
          const uint32_t end = g0 + G - (g0 - w.kb0 + shift) % G;
          const uint32_t g1 = end < w.kb1 ? end : w.kb1;
          for (uint32_t kb = g0; kb < g1; ++kb) {
            bar_wait(&full[r.stage], r.phase);
            const uint32_t a_base = a_tile + C.off_a(r.stage), b_base = sbase + C.off_b(r.stage);
            fence_all(part);
            __tile_apply("wgmma.fence.sync.aligned");
            static_for<C.bk() / C.wgmma_k()>([&](auto k) BENCH_INLINE {
              wgmma_fp8<C.bn, C.dtype>(part, operand_desc(a_base, k), operand_desc(b_base, k),
                                       k == 0 ? kb > g0 : true);
            });
            __tile_apply("wgmma.commit_group.sync.aligned");
            fence_all(part);
            __tile_apply("wgmma.wait_group.sync.aligned", 1);
            fence_all(part);
            if (kb > g0) release(prev);
            prev = r.stage;
            r.advance(C.stages);
          }
          __tile_apply("wgmma.wait_group.sync.aligned", 0);
          fence_all(part);
          release(prev);
          promote_into(acc, part, g0 == w.kb0);
          g0 = g1;
        }
      }
      for (uint32_t kb = w.kb0; kb < (C.promote ? 0 : w.kb1); ++kb) {
        bar_wait(&full[r.stage], r.phase);
        const uint32_t a_base = a_tile + C.off_a(r.stage), b_base = sbase + C.off_b(r.stage);
        fence_all(acc);
        __tile_apply("wgmma.fence.sync.aligned");
        // Four wgmma per stage: each reads 32 bytes of every row (k16 bf16 or k32 fp8).
        static_for<C.bk() / C.wgmma_k()>([&](auto k) BENCH_INLINE {
          if constexpr (C.scaled())
            wgmma_fp8<C.bn, C.dtype>(acc, operand_desc(a_base, k), operand_desc(b_base, k),
                                     k == 0 ? kb > w.kb0 : true);
          else
            wgmma<C.bn>(acc, operand_desc(a_base, k), operand_desc(b_base, k), k == 0 ? kb > w.kb0 : true);
        });
        __tile_apply("wgmma.commit_group.sync.aligned");
        fence_all(acc);
        if constexpr (C.overlap) {
          // The group before this one has retired: its stage is free.
          __tile_apply("wgmma.wait_group.sync.aligned", 1);
          fence_all(acc);
          if (kb > w.kb0) release(prev);
        } else {
          __tile_apply("wgmma.wait_group.sync.aligned", 0);
          fence_all(acc);
          release(r.stage);
        }
        prev = r.stage;
        r.advance(C.stages);
      }
      if constexpr (C.overlap && !C.promote) {
        __tile_apply("wgmma.wait_group.sync.aligned", 0);
        fence_all(acc);
        release(prev);
      }

      // ---- epilogue: 64 x BN of D through 64 x 64 swizzled boxes ----
      const uint32_t row0 = p.m_blk * kBM + wg * kWgM, n0 = p.n_blk * C.bn;
      if (p.m_blk >= sched.m_blocks || row0 >= M) continue; // phantom tile, or rows past M
      if constexpr (C.split) {
        // Only the warpgroup that arrives last stores D, from the sum of the slices.
        // The workspace holds the split tiles only (ws_tile: the tile's index among them).
        const split_ws ws{sched.units() - whole, splits, kAcc};
        if (w.split && !split_fixup<kAcc>(acc, reinterpret_cast<float *>(static_cast<uint8_t *>(workspace) +
                                                                          ws.counter_bytes()),
                                          static_cast<uint32_t *>(workspace) + w.ws_tile * kConsumers + wg, ws,
                                          w.ws_tile, w.slice, wg, tid))
          continue;
      }
      if constexpr (C.swap) {
        store_transposed<kAcc>(d_out, ldd, acc, row0, n0, M, N, tid);
      } else {
        static_for<C.boxes()>([&](auto b) BENCH_INLINE {
          const uint32_t col0 = n0 + b * kEpiCols;
          if (col0 >= N) return; // the box is past N
          uint8_t *const box = smem + C.off_epi(wg, stores % C.epi_bufs);
          // The store that last read this buffer has finished reading it.
          if (tid == 0) __tile_apply("cp.async.bulk.wait_group.read", C.epi_bufs - 1);
          named_sync(1 + wg, 128);
          float *const x = &acc[b * 32];
          if constexpr (C.fused) bias_gelu(x, bias, col0, N, lane);
          if constexpr (C.scaled()) scale_bias(x, scale, bias, col0, N, lane);
          store_box_bf16(box, x, warp, lane);
          // The generic-proxy writes, visible to the TMA store (async proxy).
          __tile_apply("fence.proxy.async.shared::cta");
          named_sync(1 + wg, 128);
          if (tid == 0) {
            tma_store(tmD, int32_t(col0), int32_t(row0), box);
            __tile_apply("cp.async.bulk.commit_group");
          }
          ++stores;
        });
      }
    }
    if (tid == 0) __tile_apply("cp.async.bulk.wait_group", 0);
  }

  // No CTA of a cluster leaves while its peer may still arrive on its barriers.
  if constexpr (C.cluster > 1) cluster_sync();
}

/// D = A x B (+ bias, GELU), bf16.
template <config C>
__global__ void __launch_bounds__(kThreads, 1)
    gemm_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                const __grid_constant__ CUtensorMap tmD, const uint16_t *__restrict__ bias, uint32_t M, uint32_t N,
                uint32_t K) {
  static_assert(!C.scaled() && !C.split,
                "fp8 configurations launch gemm_scaled_kernel, split-K ones gemm_splitk_kernel");
  gemm_body<C>(tmA, tmB, tmD, bias, nullptr, nullptr, M, N, K);
}

/// D = bf16(scale_a * scale_b * (A x B) (+ bias)), A and B fp8 (K-major),
/// scale_a and scale_b device pointers to one float each (torch._scaled_mm).
template <config C>
__global__ void __launch_bounds__(kThreads, 1)
    gemm_scaled_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                       const __grid_constant__ CUtensorMap tmD, const uint16_t *__restrict__ bias,
                       const float *__restrict__ scale_a, const float *__restrict__ scale_b, uint32_t M, uint32_t N,
                       uint32_t K) {
  static_assert(C.scaled() && !C.split,
                "bf16 configurations launch gemm_kernel, split-K ones gemm_scaled_splitk_kernel");
  gemm_body<C>(tmA, tmB, tmD, bias, scale_a, scale_b, M, N, K);
}

/// Split-K, bf16: as gemm_kernel, the K of each tile after the first `whole`
/// (in schedule order) cut into `splits` slices (1 ... kMaxSplits, at most
/// the k-blocks); `workspace` is a split_ws of the split tiles and splits,
/// its counters zero.
template <config C>
__global__ void __launch_bounds__(kThreads, 1)
    gemm_splitk_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                       const __grid_constant__ CUtensorMap tmD, const uint16_t *__restrict__ bias,
                       void *__restrict__ workspace, uint32_t splits, uint32_t whole, uint32_t M, uint32_t N,
                       uint32_t K) {
  static_assert(!C.scaled() && C.split && !C.swap, "bf16 split-K configurations (skinny ones: gemm_swap_kernel)");
  gemm_body<C>(tmA, tmB, tmD, bias, nullptr, nullptr, M, N, K, workspace, splits, whole);
}

/// Skinny M (config::swap), bf16: D = A x B computed as D^T = B A^T, split-K
/// as gemm_splitk_kernel. tmB_rows is B's map (N rows of K, 128-row boxes),
/// tmA_rows A's (M rows of K, bn-row boxes); D is written directly.
template <config C>
__global__ void __launch_bounds__(kThreads, 1)
    gemm_swap_kernel(const __grid_constant__ CUtensorMap tmB_rows, const __grid_constant__ CUtensorMap tmA_rows,
                     uint16_t *__restrict__ D, void *__restrict__ workspace, uint32_t splits, uint32_t whole,
                     uint32_t M, uint32_t N, uint32_t K) {
  static_assert(C.swap, "skinny (swapped) configurations");
  gemm_body<C>(tmB_rows, tmA_rows, tmB_rows, nullptr, nullptr, nullptr, N, M, K, workspace, splits, whole, D, N);
}

/// Split-K, fp8 (as gemm_scaled_kernel).
template <config C>
__global__ void __launch_bounds__(kThreads, 1)
    gemm_scaled_splitk_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                              const __grid_constant__ CUtensorMap tmD, const uint16_t *__restrict__ bias,
                              const float *__restrict__ scale_a, const float *__restrict__ scale_b,
                              void *__restrict__ workspace, uint32_t splits, uint32_t whole, uint32_t M,
                              uint32_t N, uint32_t K) {
  static_assert(C.scaled() && C.split, "fp8 split-K configurations");
  gemm_body<C>(tmA, tmB, tmD, bias, scale_a, scale_b, M, N, K, workspace, splits, whole);
}

} // namespace gemm

#endif // BENCH_GEMM_GEMM_CUH
