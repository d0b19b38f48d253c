//===- bench/attention/attn.cuh - Attention forward written with __tile_apply -*- CUDA -*-===//
//
// O = softmax(Q K^T * scale) V for the H100/H200 (sm_90a), bf16 in and out,
// f32 accumulation, the log-sum-exp (natural log, of scale * Q K^T) saved per
// query row. Q, K, V, O are [batch, seqlen, heads, head_dim] contiguous (as
// FlashAttention takes them); K and V have heads_kv heads (grouped-query
// attention: query head h reads KV head h / (heads / heads_kv)). Causal masks
// are bottom-right aligned (query i sees keys j <= i + seqlen_k - seqlen_q).
// Every PTX instruction beyond plain C++ is a __tile_apply call.
//
// Structure (the FlashAttention-3 recipe):
//   - persistent CTAs (at most one per SM), each taking its (Q tile, head,
//     batch) tiles in turn (layout.h's schedule); config.consumers (2 or 3)
//     consumer warpgroups of 64 query rows each (a 128- or 192-row Q tile),
//     then one producer warpgroup; setmaxnreg moves registers from the
//     producer (24) to the consumers (240 with two, 160 with three);
//   - one elected producer thread loads each tile's Q (once the previous
//     tile is done with the buffer: the Q empty mbarrier) and K and V
//     blocks of bn rows into a ring of stages with 4-D TMA loads (dims d,
//     seqlen, heads, batch: ragged tails read zeros, never another batch),
//     128-byte swizzled, 64 head-dim columns per box; K and V of a stage have
//     their own full mbarrier (S = Q K^T starts before V has landed) and
//     their own empty mbarrier (one arrival per consumer warp: K is freed as
//     soon as S has retired, V once O += P V has);
//   - each consumer warpgroup: S = Q K^T with wgmma m64n<bn>k16 from shared
//     memory (both operands K-major), the mask (ragged seqlen_k, causal) on
//     the blocks that need it, the online softmax in the log2 domain
//     (ex2.approx.ftz, quad butterflies with shfl.sync.bfly), P converted
//     from the S accumulators to the A-operand registers in place
//     (cvt.rn.bf16x2.f32: the m64nNk16 accumulator and the k16 A fragment
//     put the same (row, col) in the same thread: layout_check proves it with
//     tile::frag), then O += P V with wgmma m64n<d>k16, A from registers and
//     V MN-major from shared memory (imm-trans-b = 1) (with config.p_smem P
//     goes through shared memory instead: stmatrix, then both operands
//     from there); with config.overlap
//     the loop is software-pipelined: S of block j is issued, then the P V of
//     block j - 1, and the softmax of block j runs while that one is in
//     flight; with config.pingpong the warpgroups take turns issuing (a ring);
//   - the epilogue: O / l in f32, cvt to bf16x2, stmatrix into the O staging
//     tile (its own place where shared memory allows, so the next tile's Q
//     and K load meanwhile; else the warpgroup's own dead rows of Q),
//     fence.proxy.async, one 4-D TMA store per 64-column box (rows past
//     seqlen_q are clipped by TMA), not waited for until the staging tile is
//     needed again.
//
//===----------------------------------------------------------------------===//
#ifndef BENCH_ATTENTION_ATTN_CUH
#define BENCH_ATTENTION_ATTN_CUH

#include <cuda.h>
#include <stdint.h>
#include <utility>

#include <tileapply/tile.h>

#include "../common/device.cuh"
#include "layout.h"

namespace attn {

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

// ---- TMA ------------------------------------------------------------------------------------

/// A 4-D box (d, seqlen, head, batch) into shared memory, signalling `b`.
__device__ __forceinline__ void tma_load(void *dst, const CUtensorMap &map, int32_t d0, int32_t row, int32_t head,
                                         int32_t batch, uint64_t *b) {
  int32_t c[4] = {d0, row, head, batch};
  __tile_apply("cp.async.bulk.tensor.4d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
               tile::shared<uint8_t, 1>(static_cast<uint8_t *>(dst)), tile::tensor_map(map), c, bar(b));
}
__device__ __forceinline__ void tma_store(const CUtensorMap &map, int32_t d0, int32_t row, int32_t head,
                                          int32_t batch, const void *src) {
  int32_t c[4] = {d0, row, head, batch};
  __tile_apply("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group", tile::tensor_map(map), c,
               tile::shared<const uint8_t, 1>(static_cast<const uint8_t *>(src)));
}
// ---- wgmma -------------------------------------------------------------------------------------

/// S (+)= Q K^T, one k16 step: A and B K-major from shared memory.
template <uint32_t N>
__device__ __forceinline__ void wgmma_ss(float (&acc)[N / 2], uint64_t a, uint64_t b, bool accumulate) {
  __tile_apply(tile::fmt<"wgmma.mma_async.sync.aligned.m64n{}k16.f32.bf16.bf16", N>, acc, a, b, accumulate, 1, 1,
               0, 0);
}
/// O += P V, one k16 step: A (P) K-major and B (V) MN-major, both from shared memory (config::p_smem).
template <uint32_t N> __device__ __forceinline__ void wgmma_ss_pv(float (&acc)[N / 2], uint64_t a, uint64_t b) {
  __tile_apply(tile::fmt<"wgmma.mma_async.sync.aligned.m64n{}k16.f32.bf16.bf16", N>, acc, a, b, true, 1, 1, 0, 1);
}
/// O += P V, one k16 step: A (P) from registers, B (V) MN-major from shared memory.
template <uint32_t N>
__device__ __forceinline__ void wgmma_rs(float (&acc)[N / 2], uint32_t (&a)[4], uint64_t b) {
  __tile_apply(tile::fmt<"wgmma.mma_async.sync.aligned.m64n{}k16.f32.bf16.bf16", N>, acc, a, b, true, 1, 1, 1);
}

// ---- quad reductions (the 4 threads of a row) ----------------------------------------------------

__device__ __forceinline__ void quad_max(float (&v)[2][1]) {
  float w[2][1];
  __tile_apply("shfl.sync.bfly.b32", w, v, 1u, 31u, 0xffffffffu);
  v[0][0] = fmaxf(v[0][0], w[0][0]);
  v[1][0] = fmaxf(v[1][0], w[1][0]);
  __tile_apply("shfl.sync.bfly.b32", w, v, 2u, 31u, 0xffffffffu);
  v[0][0] = fmaxf(v[0][0], w[0][0]);
  v[1][0] = fmaxf(v[1][0], w[1][0]);
}
__device__ __forceinline__ void quad_sum(float (&v)[2][1]) {
  float w[2][1];
  __tile_apply("shfl.sync.bfly.b32", w, v, 1u, 31u, 0xffffffffu);
  v[0][0] += w[0][0];
  v[1][0] += w[1][0];
  __tile_apply("shfl.sync.bfly.b32", w, v, 2u, 31u, 0xffffffffu);
  v[0][0] += w[0][0];
  v[1][0] += w[1][0];
}

struct params {
  float *lse;          ///< [batch, heads, seqlen_q] f32, or null
  uint32_t sq, sk;     ///< sequence lengths
  uint32_t heads;      ///< query heads
  uint32_t batch;
  uint32_t m_blocks;   ///< Q tiles per (head, batch)
  uint32_t tiles;      ///< m_blocks x heads x batch (below 2^31)
  uint32_t group;      ///< query heads per KV head
  uint32_t causal;     ///< 0 or 1
  float scale_log2;    ///< softmax scale * log2(e)
};

/// Calls f(tile, i) for the tiles of this CTA in order (layout.h's schedule), i = 0, 1, ...
template <class F> __device__ __forceinline__ void for_each_tile(const params &p, F &&f) {
  uint32_t i = 0;
  for (uint32_t round = 0; round * gridDim.x < p.tiles; ++round) {
    const uint32_t t = tile_index(blockIdx.x, round, gridDim.x, p.causal != 0);
    if (t < p.tiles) f(tile_at(t, p.m_blocks, p.heads, p.batch, p.causal != 0), i++);
  }
}

// ---- the kernel ----------------------------------------------------------------------------------

template <config C>
__global__ void __launch_bounds__(C.threads(), 1)
    attn_kernel(const __grid_constant__ CUtensorMap tmQ, const __grid_constant__ CUtensorMap tmK,
                const __grid_constant__ CUtensorMap tmV, const __grid_constant__ CUtensorMap tmO, const params p) {
  static_assert(C.error() == nullptr, "unsupported configuration");
  constexpr uint32_t kS = C.s_regs(), kO = C.o_regs();
  constexpr uint32_t kBM = C.bm(), kConsumers = C.consumers, kConsumerRegs = C.consumer_regs();

  extern __shared__ __align__(1024) uint8_t smem_raw[];
  const uint32_t raw = smem_u32(smem_raw);
  uint8_t *const smem = smem_raw + (((raw + 1023u) & ~1023u) - raw);
  const uint32_t sbase = smem_u32(smem);
  uint64_t *const qfull = reinterpret_cast<uint64_t *>(smem + C.off_qfull());
  uint64_t *const qempty = reinterpret_cast<uint64_t *>(smem + C.off_qempty());
  uint64_t *const kfull = reinterpret_cast<uint64_t *>(smem + C.off_kfull(0));
  uint64_t *const vfull = reinterpret_cast<uint64_t *>(smem + C.off_vfull(0));
  uint64_t *const kempty = reinterpret_cast<uint64_t *>(smem + C.off_kempty(0));
  uint64_t *const vempty = reinterpret_cast<uint64_t *>(smem + C.off_vempty(0));

  const uint32_t wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  const bool causal = p.causal != 0;

  if (threadIdx.x == 0) {
    bar_init(qfull, 1);
    bar_init(qempty, C.empty_arrivals());
    for (uint32_t s = 0; s < C.stages; ++s) {
      bar_init(&kfull[s], 1);
      bar_init(&vfull[s], 1);
      bar_init(&kempty[s], C.empty_arrivals());
      bar_init(&vempty[s], C.empty_arrivals());
    }
    __tile_apply("fence.mbarrier_init.release.cluster");
  }
  named_sync(0, C.threads());

  if (wg == kConsumers) {
    // ---- producer ----
    __tile_apply("setmaxnreg.dec.sync.aligned.u32", kProducerRegs);
    if (tid < 32) {
      bool leader[1];
      __tile_apply("elect.sync", leader, 0xffffffffu);
      if (leader[0]) {
        ring r;
        for_each_tile(p, [&](tile_coord t, uint32_t i) BENCH_INLINE {
          const uint32_t m0 = t.m_blk * kBM, head_kv = t.head / p.group;
          const uint32_t nblocks = kv_blocks(m0, kBM, p.sq, p.sk, causal, C.bn);
          // Q once the previous tile is done with it; issued after this
          // tile's first K so that K does not wait behind the Q buffer.
          auto load_q = [&]() BENCH_INLINE {
            bar_wait(qempty, (i % 2) ^ 1);
            bar_arrive_expect(qfull, C.q_bytes());
            for (uint32_t c = 0; c < C.chunks(); ++c)
              tma_load(smem + C.off_q() + c * kBM * kChunkBytes, tmQ, int32_t(c * kChunk), int32_t(m0),
                       int32_t(t.head), int32_t(t.batch), qfull);
          };
          if (nblocks == 0) load_q(); // fully masked rows: the consumers still take (and free) Q
          for (uint32_t j = 0; j < nblocks; ++j) {
            const int32_t n0 = int32_t(j * C.bn);
            bar_wait(&kempty[r.stage], r.phase ^ 1);
            bar_arrive_expect(&kfull[r.stage], C.kv_bytes());
            for (uint32_t c = 0; c < C.chunks(); ++c)
              tma_load(smem + C.off_k(r.stage) + c * C.bn * kChunkBytes, tmK, int32_t(c * kChunk), n0,
                       int32_t(head_kv), int32_t(t.batch), &kfull[r.stage]);
            if (j == 0) load_q();
            bar_wait(&vempty[r.stage], r.phase ^ 1);
            bar_arrive_expect(&vfull[r.stage], C.kv_bytes());
            for (uint32_t c = 0; c < C.chunks(); ++c)
              tma_load(smem + C.off_v(r.stage) + c * C.bn * kChunkBytes, tmV, int32_t(c * kChunk), n0,
                       int32_t(head_kv), int32_t(t.batch), &vfull[r.stage]);
            r.advance(C.stages);
          }
        });
      }
    }
  } else {
    // ---- consumers: 64 query rows each ----
    __tile_apply("setmaxnreg.inc.sync.aligned.u32", kConsumerRegs);
    const uint32_t warp = tid / 32, lane = tid % 32;
    const float sl2 = p.scale_log2;
    float o[kO], s[kS];
    constexpr uint32_t kPa = C.p_smem ? 0 : C.bn / 16; // P's A-operand registers, by k16 step
    uint32_t pa[kPa ? kPa : 1][4];
    float mrow[2], lrow[2];
    // The ring positions carry over from tile to tile, as the producer's.
    // rk: the next block whose K is read; rv: the next whose V is read (one
    // behind rk in the pipelined loop, equal to it between tiles).
    ring rk, rv;

    auto release = [&](uint64_t *b) BENCH_INLINE {
      if (lane == 0) bar_arrive(b);
    };
    const uint64_t qb = kmajor_base(sbase + C.off_q());
    // S = Q K^T of the block in `stage` into s (issued and committed; not waited for).
    auto issue_s = [&](uint32_t stage) BENCH_INLINE {
      const uint64_t kb = kmajor_base(sbase + C.off_k(stage));
      // Q's base descriptor passes through an empty asm here so that LLVM
      // does not hoist all d / 16 descriptors out of the loop (2 registers
      // each for the whole loop) in place of one add per wgmma.
      uint64_t qbl = qb;
      tile::fence_operand(qbl);
      fence_all(s);
      __tile_apply("wgmma.fence.sync.aligned");
      static_for<C.d / 16>([&](auto kk) BENCH_INLINE {
        if constexpr (C.step_desc)
          wgmma_ss<C.bn>(s, kmajor_base(sbase + C.off_q() + q_off(kBM, wg, kk)),
                         kmajor_base(sbase + C.off_k(stage) + k_off(C.bn, kk)), kk != 0);
        else
          wgmma_ss<C.bn>(s, q_desc(qbl, kBM, wg, kk), k_desc(kb, C.bn, kk), kk != 0);
      });
      __tile_apply("wgmma.commit_group.sync.aligned");
    };
    // O += P V of the block in `stage` (issued and committed; not waited for).
    auto issue_pv = [&](uint32_t stage) BENCH_INLINE {
      const uint64_t vb = v_base_desc(sbase + C.off_v(stage), C.bn);
      // P's tile does not move: as Q's, its base descriptor passes through
      // an empty asm so that its bn / 16 descriptors are not all hoisted.
      uint64_t pbl = kmajor_base(sbase + C.off_p(wg));
      if constexpr (C.p_smem) tile::fence_operand(pbl);
      fence_all(o);
      static_for<kPa>([&](auto kk) BENCH_INLINE { fence_all(pa[kk]); });
      __tile_apply("wgmma.fence.sync.aligned");
      static_for<C.bn / 16>([&](auto kk) BENCH_INLINE {
        if constexpr (C.p_smem)
          wgmma_ss_pv<C.d>(o, tile::desc::advance(pbl, p_off(kk)),
                           C.step_desc ? v_base_desc(sbase + C.off_v(stage) + v_off(kk), C.bn) : v_desc(vb, kk));
        else if constexpr (C.step_desc)
          wgmma_rs<C.d>(o, pa[kk], v_base_desc(sbase + C.off_v(stage) + v_off(kk), C.bn));
        else
          wgmma_rs<C.d>(o, pa[kk], v_desc(vb, kk));
      });
      __tile_apply("wgmma.commit_group.sync.aligned");
    };
    // Once O += P V of the block at rv has retired: its V is free.
    auto pv_retired = [&]() BENCH_INLINE {
      fence_all(o);
      static_for<kPa>([&](auto kk) BENCH_INLINE { fence_all(pa[kk]); });
      release(&vempty[rv.stage]);
      rv.advance(C.stages);
    };
    // After the O += P V that read P has retired: rescale O, pack P.
    float alpha[2][1];
    auto rescale_and_pack = [&]() BENCH_INLINE {
      static_for<kO>([&](auto i) BENCH_INLINE { o[i] *= alpha[(i / 2) % 2][0]; });
      if constexpr (C.p_smem) {
        // P into this warpgroup's P tile, one stmatrix box per 64 columns.
        // Each warp writes only its own 16 rows, which only its own rows of
        // the last O += P V read: its wait for that product covers them.
        // Then the writes are made visible to the async proxy (wgmma) and
        // the warpgroup's four warps meet before any of them issues.
        static_for<C.bn / kChunk>([&](auto c) BENCH_INLINE {
          store_box_bf16(smem + C.off_p(wg) + p_box(c), &s[c * 32], warp, lane);
        });
        __tile_apply("fence.proxy.async.shared::cta");
        named_sync(1 + wg, 128);
      } else {
        // P: the S accumulators as the A operand (bf16x2, low half = even column).
        __tile_apply("cvt.rn.bf16x2.f32", tile::view<tile::shape<kS / 2, 1>, tile::stride<1, 1>>(pa),
                     regs<tile::shape<kS / 2, 1>, tile::stride<2, 1>, kS - 1>(s + 1),
                     regs<tile::shape<kS / 2, 1>, tile::stride<2, 1>, kS>(s));
      }
    };

    for_each_tile(p, [&](tile_coord t, uint32_t it) BENCH_INLINE {
      const uint32_t m0 = t.m_blk * kBM;
      const uint32_t nblocks = kv_blocks(m0, kBM, p.sq, p.sk, causal, C.bn);
      static_for<kO>([&](auto i) BENCH_INLINE { o[i] = 0.f; });
      mrow[0] = mrow[1] = -INFINITY;
      lrow[0] = lrow[1] = 0.f;
      // The two query rows of this thread (row halves h = 0, 1).
      const int32_t row0 = int32_t(m0 + wg * kWgM + 16 * warp + lane / 4);
      const int32_t lim0 = col_limit(row0, int32_t(p.sq), int32_t(p.sk), causal);
      const int32_t lim1 = col_limit(row0 + 8, int32_t(p.sq), int32_t(p.sk), causal);

      // Once S = Q K^T of block j (at rk) has retired: its K is free, and
      // after the tile's last block so is Q (unless O is staged there).
      auto s_retired = [&](uint32_t j) BENCH_INLINE {
        fence_all(s);
        release(&kempty[rk.stage]);
        rk.advance(C.stages);
        if (C.separate_o() && j + 1 == nblocks) release(qempty);
      };
      // The mask and the online softmax of the S of block j: s becomes the
      // unnormalized probabilities (f32), alpha the rescale of the old O and l.
      auto softmax = [&](uint32_t j) BENCH_INLINE {
        const uint32_t n0 = j * C.bn;
        if (block_needs_mask(m0, n0, p.sq, p.sk, causal, C.bn)) {
          const int32_t base = int32_t(n0 + 2 * (lane % 4));
          const int32_t l0 = lim0 - base, l1 = lim1 - base;
          static_for<kS>([&](auto i) BENCH_INLINE {
            constexpr int32_t col = int32_t(8 * (i / 4) + i % 2);
            if (col >= (((i / 2) % 2) ? l1 : l0)) s[i] = -INFINITY;
          });
        }
        // Row half h holds accumulators i = 4 a + 2 h + e (e = 0, 1).
        auto row_reduce = [&](auto h, float init, auto op) BENCH_INLINE {
          float r = init;
          static_for<kS / 2>([&](auto k) BENCH_INLINE { r = op(r, s[4 * (k / 2) + 2 * h + k % 2]); });
          return r;
        };
        const auto max_op = [](float a, float b) BENCH_INLINE { return fmaxf(a, b); };
        const auto add_op = [](float a, float b) BENCH_INLINE { return a + b; };
        float mx[2][1];
        static_for<2>([&](auto h) BENCH_INLINE { mx[h][0] = row_reduce(h, mrow[h], max_op); });
        quad_max(mx);
        float neg[2];
        static_for<2>([&](auto h) BENCH_INLINE {
          const float mnew = mx[h][0];
          const float muse = mnew == -INFINITY ? 0.f : mnew; // an all-masked row so far: p = 0, not NaN
          alpha[h][0] = (mrow[h] - muse) * sl2;
          neg[h] = -muse * sl2;
          mrow[h] = mnew;
        });
        __tile_apply("ex2.approx.ftz.f32", alpha, alpha);
        static_for<kS>([&](auto i) BENCH_INLINE {
          constexpr uint32_t h = (i / 2) % 2;
          s[i] = fmaf(s[i], sl2, neg[h]);
        });
        __tile_apply("ex2.approx.ftz.f32", regs<tile::shape<kS, 1>, tile::stride<1, 1>, kS>(s),
                     regs<tile::shape<kS, 1>, tile::stride<1, 1>, kS>(s));
        // l: this thread's part of the row sums (the quad's are added in the epilogue).
        static_for<2>([&](auto h) BENCH_INLINE { lrow[h] = row_reduce(h, lrow[h] * alpha[h][0], add_op); });
      };

      bar_wait(qfull, it % 2);
      if constexpr (!C.overlap) {
        for (uint32_t j = 0; j < nblocks; ++j) {
          bar_wait(&kfull[rk.stage], rk.phase);
          issue_s(rk.stage);
          __tile_apply("wgmma.wait_group.sync.aligned", 0);
          s_retired(j);
          softmax(j);
          rescale_and_pack();
          bar_wait(&vfull[rv.stage], rv.phase);
          issue_pv(rv.stage);
          __tile_apply("wgmma.wait_group.sync.aligned", 0);
          pv_retired();
        }
      } else if (nblocks > 0) {
        // Software pipeline (FA3's intra-warpgroup overlap): S of block j is
        // issued, then O += P V of block j - 1 behind it; the softmax of block
        // j runs while that P V product is still in flight. With ping-pong the
        // warpgroups take turns at each issue point, in a ring (layout.h).
        const uint32_t points = nblocks + 1;
        auto take_turn = [&]() BENCH_INLINE {
          if constexpr (C.pingpong) named_sync(kTurnBar + wg, 256);
        };
        auto pass_turn = [&](uint32_t point) BENCH_INLINE {
          if constexpr (C.pingpong)
            if (passes_turn(wg, kConsumers, point, points)) named_arrive(kTurnBar + next_turn(wg, kConsumers), 256);
        };
        if constexpr (C.pingpong)
          if (wg == kConsumers - 1) named_arrive(kTurnBar, 256); // warpgroup 0 goes first
        bar_wait(&kfull[rk.stage], rk.phase);
        take_turn();
        issue_s(rk.stage);
        pass_turn(0);
        __tile_apply("wgmma.wait_group.sync.aligned", 0);
        s_retired(0);
        softmax(0);
        // The loop is rotated so that each softmax ends an iteration and
        // the wait for the P V product it overlaps opens the next: ptxas
        // schedules within a basic block, and in one block with the softmax
        // it hoists that wait above it (to fill the ex2 latency with the O
        // rescale), which serializes the two. The build's SASS check counts
        // the ex2 between the two waits.
        for (uint32_t j = 1; j < nblocks; ++j) {
          __tile_apply("wgmma.wait_group.sync.aligned", 0); // O += P V of block j - 2 has retired
          if (j > 1) pv_retired();
          rescale_and_pack(); // P of block j - 1
          bar_wait(&kfull[rk.stage], rk.phase);
          bar_wait(&vfull[rv.stage], rv.phase);
          take_turn();
          issue_s(rk.stage);
          issue_pv(rv.stage);
          pass_turn(j);
          __tile_apply("wgmma.wait_group.sync.aligned", 1); // S of block j has retired
          s_retired(j);
          softmax(j); // while O += P V of block j - 1 is in flight
        }
        __tile_apply("wgmma.wait_group.sync.aligned", 0);
        if (nblocks > 1) pv_retired();
        rescale_and_pack(); // P of the last block
        bar_wait(&vfull[rv.stage], rv.phase);
        take_turn();
        issue_pv(rv.stage);
        pass_turn(nblocks);
        __tile_apply("wgmma.wait_group.sync.aligned", 0);
        pv_retired();
      }
      if (C.separate_o() && nblocks == 0) release(qempty);

      // ---- epilogue ----
      const uint32_t head = t.head, batch = t.batch;
      float l[2][1] = {{lrow[0]}, {lrow[1]}};
      quad_sum(l);
      const float inv0 = l[0][0] > 0.f ? 1.f / l[0][0] : 0.f, inv1 = l[1][0] > 0.f ? 1.f / l[1][0] : 0.f;
      static_for<kO>([&](auto i) BENCH_INLINE { o[i] *= ((i / 2) % 2) ? inv1 : inv0; });
      if (p.lse && lane % 4 == 0) {
        float lg[2][1] = {{l[0][0] > 0.f ? l[0][0] : 1.f}, {l[1][0] > 0.f ? l[1][0] : 1.f}};
        __tile_apply("lg2.approx.ftz.f32", lg, lg);
        static_for<2>([&](auto h) BENCH_INLINE {
          const int32_t row = row0 + 8 * int32_t(h);
          if (row < int32_t(p.sq)) {
            const float v = l[h][0] > 0.f ? (mrow[h] * sl2 + lg[h][0]) * 0.69314718055994531f : INFINITY;
            p.lse[(size_t(batch) * p.heads + head) * p.sq + uint32_t(row)] = v;
          }
        });
      }
      // The staging boxes are free: with their own place, once the previous
      // tile's TMA store has read them; in Q's place, every warp of this
      // warpgroup is done reading its Q rows (its last wgmma retired).
      if (C.separate_o() && tid == 0) __tile_apply("cp.async.bulk.wait_group.read", 0);
      named_sync(1 + wg, 128);
      static_for<C.chunks()>([&](auto c) BENCH_INLINE {
        uint8_t *const box = smem + C.off_o() + epi_box(kBM, c, wg);
        store_box_bf16(box, &o[c * 32], warp, lane);
      });
      __tile_apply("fence.proxy.async.shared::cta");
      named_sync(1 + wg, 128);
      const uint32_t wrow = m0 + wg * kWgM;
      if (tid == 0 && wrow < p.sq) {
        for (uint32_t c = 0; c < C.chunks(); ++c)
          tma_store(tmO, int32_t(c * kChunk), int32_t(wrow), int32_t(head), int32_t(batch),
                    smem + C.off_o() + epi_box(kBM, c, wg));
        __tile_apply("cp.async.bulk.commit_group");
      }
      if constexpr (!C.separate_o()) {
        // O is staged in Q's place: the next Q may land once the store has read it.
        if (tid == 0) __tile_apply("cp.async.bulk.wait_group.read", 0);
        named_sync(1 + wg, 128);
        release(qempty);
      }
    });
    // Every TMA store of this CTA has completed before it exits.
    if (tid == 0) __tile_apply("cp.async.bulk.wait_group", 0);
  }
}

} // namespace attn

#endif // BENCH_ATTENTION_ATTN_CUH
