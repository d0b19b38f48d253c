//===- bench/gemm/layout.h - Where every byte of the GEMM lives -----*- C++ -*-===//
//
// The index arithmetic of the bf16 GEMM kernel (gemm.cuh), in one place, as
// constexpr functions that the kernel calls on the GPU and that
// layout_check.cpp checks on the host against the ISA's models in
// tileapply/fragment.h (wgmma accumulators, stmatrix) and
// tileapply/descriptor.h (wgmma shared-memory descriptors, canonical layouts,
// 128-byte swizzle):
//
//   - the shared-memory plan of one CTA (stages, epilogue staging, barriers);
//   - the 128-byte swizzle TMA applies to a box whose rows are 128 bytes;
//   - the wgmma descriptors of each stage and k16 step;
//   - the epilogue: which accumulator registers one stmatrix stores, and the
//     row address each lane gives it;
//   - the persistent tile order (grouped rows for L2 locality), with and
//     without clusters of two CTAs along M;
//   - the pipeline's stage / phase sequence;
//   - split-K: the k-blocks of each slice, the workspace of f32 partial
//     tiles and arrival counters, and the shape heuristic that picks the
//     tile and the number of slices.
//
// Plain C++17 on <stdint.h> (plus tileapply/descriptor.h): host and device.
//
//===----------------------------------------------------------------------===//
#ifndef BENCH_GEMM_LAYOUT_H
#define BENCH_GEMM_LAYOUT_H

#include <stdint.h>

#include <tileapply/descriptor.h>

#include "../common/tiles.h"

#if defined(__CUDACC__) || defined(__CUDA__)
#define GEMM_HD __host__ __device__
#else
#define GEMM_HD
#endif

namespace gemm {

using bench::ceil_div;
using bench::epi_acc_index;
using bench::epi_col;
using bench::epi_offset;
using bench::epi_row;
using bench::kEpiCols;
using bench::ring;
using bench::sw128;

// ---- the shape of the work ------------------------------------------------------

constexpr uint32_t kBM = 128;          ///< rows of D per CTA tile (two consumer warpgroups x 64)
constexpr uint32_t kBK = 64;           ///< K per pipeline stage: 64 bf16 = 128 bytes, one swizzle span
constexpr uint32_t kWgM = 64;          ///< rows of D per consumer warpgroup (wgmma M)
constexpr uint32_t kK16 = 16;          ///< K per wgmma (bf16)
constexpr uint32_t kConsumers = 2;     ///< consumer warpgroups
constexpr uint32_t kTurnBar = 3;       ///< named barriers 3, 4: consumer warpgroup 0's, 1's turn (config::pingpong)
constexpr uint32_t kThreads = 128 * (kConsumers + 1); ///< + one producer warpgroup
constexpr uint32_t kEpiBoxBytes = kWgM * kEpiCols * 2; ///< 8 KiB: one TMA store
constexpr uint32_t kProducerRegs = 40; ///< setmaxnreg.dec for the producer warpgroup
constexpr uint32_t kConsumerRegs = 232;///< setmaxnreg.inc for the consumers (40*128 + 232*256 <= 64K)
constexpr uint32_t kSmemLimit = 232448;///< 227 KiB: the most dynamic shared memory a block may have (sm_90)

/// Registers a thread launches with: __launch_bounds__(kThreads, 1) lets ptxas
/// use 65536 / 384 rounded down to 8. setmaxnreg.inc waits until the pool
/// holds the registers it asks for, and only the producer's dec fills the
/// pool: 128 (kLaunchRegs - 40) must cover 256 (232 - kLaunchRegs), which
/// holds from 168 on (the test command checks that ptxas gives 168).
constexpr uint32_t kLaunchRegs = 65536 / kThreads / 8 * 8;
static_assert(kLaunchRegs == 168, "384 threads launch with 168 registers");
static_assert(128 * (kLaunchRegs - kProducerRegs) >= 128 * kConsumers * (kConsumerRegs - kLaunchRegs),
              "setmaxnreg: the producer's registers must cover the consumers' increase");

/// Operand types (config::dtype).
constexpr uint32_t kBf16 = 0; ///< bf16 x bf16
constexpr uint32_t kE4m3 = 1; ///< e4m3 x e4m3, per-tensor scales
constexpr uint32_t kE5m2 = 2; ///< e5m2 (A) x e4m3 (B), per-tensor scales

/// One kernel configuration (a template argument of the kernel).
struct config {
  uint32_t bn;       ///< columns of D per CTA tile: the wgmma N (64 ... 256)
  uint32_t stages;   ///< pipeline stages (each: an A tile and a B tile)
  uint32_t epi_bufs; ///< epilogue boxes of 64 x 64 staged per consumer warpgroup
  uint32_t cluster;  ///< 1, or 2: two CTAs along M share B (TMA multicast)
  bool fused;        ///< bias + GELU before the store
  bool overlap;      ///< keep one wgmma group in flight (else wait for each)
  uint32_t dtype = kBf16; ///< operand type: kBf16, kE4m3 (A and B e4m3) or kE5m2 (A e5m2, B e4m3)
  /// fp8: add each k-block's product (4 wgmma, K 128) into the f32
  /// accumulators with CUDA-core adds instead of letting the tensor core
  /// accumulate across the whole of K. Hopper's fp8 wgmma keeps fewer
  /// accumulator bits than f32; measured on the H200, that error grows with K
  /// to 2.3x the bf16 output's tolerance at K = 8192 (cuBLASLt promotes
  /// likewise unless use_fast_accum). Costs a second set of accumulators, so
  /// a 128 x 256 tile (2 x 128 a consumer thread) does not fit in the 232
  /// registers the consumers get after setmaxnreg.
  bool promote = false;
  /// Split-K (gemm_splitk_kernel, gemm_scaled_splitk_kernel): the K range of
  /// each output tile is cut into `splits` slices (a kernel parameter) that
  /// different CTAs compute; each writes its f32 partial tile to a workspace,
  /// and the last of them to arrive sums the partials in slice order and runs
  /// the epilogue (see layout.h's split-K section).
  bool split = false;
  /// fp8 with promote: the two consumer warpgroups take turns issuing each
  /// k-block's wgmma group (named barriers kTurnBar + wg, passed on after
  /// the commit), so that one warpgroup's wait and f32 adds run while the
  /// other's products are on the tensor cores; without it both issue at
  /// once, then both wait and add while the tensor cores idle.
  bool pingpong = false;
  /// Skinny M (gemm_swap_kernel, split-K like gemm_splitk_kernel): the kernel
  /// computes D^T = B A^T, so that B's N rows fill the 128-row side of the
  /// tile (the wgmma M) and A's few rows the narrow side (bn = 16, 32 or 64:
  /// the wgmma N). A stage is then 16 KiB of B plus bn rows of A instead of
  /// 16 KiB of zero-filled A rows, so twice the B bytes stay in flight per
  /// SM, and no MMA work is spent on rows past M. The epilogue stores each
  /// element straight to D (transposed, st.global.b16; no staging boxes).
  /// bf16 only, without bias or GELU.
  bool swap = false;
  /// fp8 with promote: k-blocks per promotion (1, 2, 4 or 8). Above 1 the
  /// tensor core accumulates promote_every k-blocks into part with one wgmma
  /// group in flight (as the unpromoted loop), then part is added into acc;
  /// warpgroup 1's first group is half as long, so that the two warpgroups'
  /// drains and adds fall at different times while the other's products
  /// keep the tensor cores busy (8192^3 on the H200: 1.05x the same kernel
  /// without the offset). The tensor core's own accumulation loses bits as
  /// the K it covers grows: K 1024 (8 blocks) measured at 0.43x to 0.70x the
  /// bf16 tolerance, K 2048 up to 1.14x, all of K 8192 2.3x
  /// (bench/results/gemm-fp8.md), hence at most 8.
  uint32_t promote_every = 1;

  /// Bytes per operand element, and K per stage: one 128-byte swizzle row
  /// (64 bf16 or 128 fp8), so that every byte offset of the plan, the
  /// swizzle and the descriptors is the same for every type.
  GEMM_HD constexpr uint32_t elem_bytes() const { return dtype == kBf16 ? 2 : 1; }
  GEMM_HD constexpr uint32_t bk() const { return 128 / elem_bytes(); }
  /// K per wgmma: 16 (bf16) or 32 (fp8); either is 32 bytes of a row.
  GEMM_HD constexpr uint32_t wgmma_k() const { return 32 / elem_bytes(); }
  GEMM_HD constexpr bool scaled() const { return dtype != kBf16; }

  GEMM_HD constexpr uint32_t acc_regs() const { return bn / 2; }        // f32 per thread: 64 x bn / 128
  GEMM_HD constexpr uint32_t boxes() const { return bn / kEpiCols; }    // epilogue boxes per warpgroup
  GEMM_HD constexpr uint32_t a_stage_bytes() const { return kBM * kBK * 2; }
  GEMM_HD constexpr uint32_t b_stage_bytes() const { return bn * kBK * 2; }
  GEMM_HD constexpr uint32_t stage_bytes() const { return a_stage_bytes() + b_stage_bytes(); }
  /// B rows one CTA loads (and multicasts) per stage.
  GEMM_HD constexpr uint32_t b_box_rows() const { return bn / cluster; }

  // The shared-memory plan, from a 1024-byte aligned base (the 128-byte
  // swizzle repeats every 1024 bytes, and the descriptors' base offset is 0).
  GEMM_HD constexpr uint32_t off_a(uint32_t stage) const { return stage * a_stage_bytes(); }
  GEMM_HD constexpr uint32_t off_b(uint32_t stage) const { return stages * a_stage_bytes() + stage * b_stage_bytes(); }
  GEMM_HD constexpr uint32_t off_epi(uint32_t wg, uint32_t buf) const {
    return stages * stage_bytes() + (wg * epi_bufs + buf) * kEpiBoxBytes;
  }
  GEMM_HD constexpr uint32_t off_full(uint32_t stage) const { return off_epi(kConsumers, 0) + stage * 8; }
  GEMM_HD constexpr uint32_t off_empty(uint32_t stage) const { return off_full(stages) + stage * 8; }
  /// Bytes to request: the plan plus the slack for aligning the base to 1024.
  GEMM_HD constexpr uint32_t smem_bytes() const { return off_empty(stages) + 1024; }

  /// Arrivals that free a stage: one per consumer warp (each after its own
  /// wgmma.wait_group) of every CTA the stage's loads write into.
  GEMM_HD constexpr uint32_t empty_arrivals() const { return kConsumers * 4 * cluster; }

  /// Null when the configuration is one the kernel supports.
  GEMM_HD constexpr const char *error() const {
    if (swap) {
      if (bn != 16 && bn != 32 && bn != 64) return "swap: bn must be 16, 32 or 64";
      if (!split || scaled() || fused || cluster != 1) return "swap: bf16 split-K on clusters of one, no bias";
      if (epi_bufs != 0) return "swap: no epilogue boxes (it stores D directly)";
    } else if (bn < 64 || bn > 256 || bn % kEpiCols) {
      return "bn must be 64, 128, 192 or 256";
    }
    if (cluster != 1 && cluster != 2) return "cluster must be 1 or 2";
    if (b_box_rows() % 8 || b_box_rows() > 256) return "B box rows";
    if (stages < 2) return "at least 2 stages";
    if (promote_every != 1 && promote_every != 2 && promote_every != 4 && promote_every != 8)
      return "promote_every must be 1, 2, 4 or 8";
    if (promote_every != 1 && (!promote || pingpong)) return "promote_every > 1: promoted, without ping-pong";
    if (dtype > kE5m2) return "dtype must be kBf16, kE4m3 or kE5m2";
    if (scaled() && fused) return "the fp8 variants have no GELU (bias and scales only)";
    if (split && cluster != 1) return "split-K runs on clusters of one CTA";
    if (!swap && (epi_bufs < 1 || boxes() % epi_bufs)) return "epi_bufs must divide the boxes per warpgroup";
    if (smem_bytes() > kSmemLimit) return "shared memory plan exceeds 227 KiB";
    return nullptr;
  }
};

// ---- the 128-byte swizzle -----------------------------------------------------------


// ---- wgmma descriptors ---------------------------------------------------------------

/// The fixed fields of every operand descriptor: K-major, 128-byte swizzle,
/// 8 rows of 128 bytes per swizzle atom (SBO = 1024), LBO unused for swizzled
/// K-major layouts (encoded 1, as CUTLASS does), base offset 0 (every atom
/// starts 1024-aligned).
constexpr tile::desc::encoded<uint64_t> kDescFixed =
    tile::desc::encode(tile::desc::wgmma_smem{0, 16, 1024, 0, tile::desc::swizzle::b128});
static_assert(kDescFixed.ok(), "the wgmma descriptor template");

/// The descriptor of the 64 x 16 (A) or bn x 16 (B) slice that starts at
/// shared-window byte address `tile_base` + 32 * k16: K advances inside the
/// 128-byte row, the hardware applies the swizzle to the absolute address.
GEMM_HD constexpr uint64_t operand_desc(uint32_t tile_base, uint32_t k16) {
  return tile::desc::with_start_address(kDescFixed.value, tile_base + k16 * kK16 * 2);
}

// ---- the epilogue -----------------------------------------------------------------------
//
// The wgmma m64nNk16 f32 accumulator of thread t (warp w = t / 32, lane l):
// register 4 * j + 2 * h + e holds row 16 w + 8 h + l / 4, column 8 j + 2 (l % 4) + e
// (j the 8-column block, h the row half, e the column parity). One
// stmatrix .x4 stores a 16 x 16 block per warp: matrix q (0 - 3) is the 8 x 8
// block of row half h = q & 1 and 8-column block 2 s + (q >> 1) of the 16-column
// block s; its thread-l register is exactly the accumulator pair of that
// block, packed lo = even column. Lanes 8 q ... 8 q + 7 give the row
// addresses of matrix q. The functions (epi_offset and its parts) are in
// bench/common/tiles.h, shared with the attention kernel.

/// The skinny (config::swap) epilogue stores each accumulator on its own:
/// register r of warpgroup thread t holds D^T element (row, col) of the
/// warpgroup's 64 x bn slice (the wgmma m64nNk16 f32 accumulator layout
/// above, with j = r / 4, h = r / 2 % 2, e = r % 2).
struct acc_pos {
  uint32_t row, col;
};
GEMM_HD constexpr acc_pos acc_coord(uint32_t t, uint32_t r) {
  return {16 * (t / 32) + 8 * (r / 2 % 2) + t % 32 / 4, 8 * (r / 4) + 2 * (t % 4) + r % 2};
}

// ---- the tile order -------------------------------------------------------------------

constexpr uint32_t kGroupRows = 16; ///< M blocks per group of the grouped order


struct tile_pos {
  uint32_t m_blk, n_blk;
};

/// Grouped ("swizzled") order: tiles go down a group of `group` block-rows
/// first, then across; 132 CTAs working on consecutive tiles share about 16
/// rows of A blocks and 8 columns of B blocks, which L2 holds.
GEMM_HD constexpr tile_pos grouped(uint32_t idx, uint32_t rows, uint32_t cols, uint32_t group) {
  const uint32_t per_group = group * cols;
  const uint32_t g = idx / per_group, first = g * group;
  const uint32_t height = rows - first < group ? rows - first : group;
  const uint32_t in = idx % per_group;
  return {first + in % height, in / height};
}

/// The scheduling units of a problem: tiles (cluster 1), or pairs of tiles
/// stacked along M (cluster 2: both CTAs of a cluster take the same unit).
struct schedule {
  uint32_t m_blocks, n_blocks, cluster;
  GEMM_HD constexpr uint32_t unit_rows() const { return ceil_div(m_blocks, cluster); }
  GEMM_HD constexpr uint32_t units() const { return unit_rows() * n_blocks; }
  /// The tile CTA `rank` of its cluster computes for unit `u`; m_blk may be
  /// m_blocks (a phantom tile past the end, when m_blocks is odd).
  GEMM_HD constexpr tile_pos tile(uint32_t u, uint32_t rank) const {
    const tile_pos p = grouped(u, unit_rows(), n_blocks, kGroupRows / cluster);
    return {p.m_blk * cluster + rank, p.n_blk};
  }
};

// ---- the pipeline ---------------------------------------------------------------------

/// Stage and phase parity of the ring, advanced once per k-block by the
/// producer and by every consumer alike (the sequence never restarts between
/// tiles). A fresh mbarrier is in phase 0: consumers wait on full[s] for
/// parity `phase`, the producer waits on empty[s] for parity `phase ^ 1`
/// (which a fresh barrier reports as complete: the ring starts empty).
// ---- the shape heuristic (gemm.cu's gemm_pick) ---------------------------------------------

/// Whether the 128 x 128 tile beats the 128 x 256 one for an M x N output on
/// `sms` persistent CTAs: estimated time = waves x work per tile, waves =
/// ceil(tiles / sms), a 128 x 128 tile counted as 0.575 (23 / 40) of a
/// 128 x 256 one (half the MMAs, but more load bytes per MMA).
GEMM_HD constexpr bool pick_narrow(uint32_t M, uint32_t N, uint32_t sms) {
  const uint64_t rows = ceil_div(M, kBM);
  const uint64_t w256 = (rows * ceil_div(N, 256) + sms - 1) / sms, w128 = (rows * ceil_div(N, 128) + sms - 1) / sms;
  return w128 * 23 < w256 * 40;
}

// ---- split-K ---------------------------------------------------------------------------------
//
// A split-K kernel's scheduling units are (tile, slice) pairs, tile-major:
// unit u is slice u % S of tile u / S (the tile then placed by the grouped
// order above), so the S slices of a tile run side by side and finish
// together. Slice s computes the k-blocks k_slice(kblocks, s, S) and each of
// its two consumer warpgroups stores its 64 x bn f32 partial into the
// workspace, then arrives on the counter of (tile, warpgroup); the warpgroup
// that arrives last (counter S - 1 before its arrival) reads back all S
// partials of its rows in slice order 0, 1, ..., S - 1, so the sum does not
// depend on which CTA came last, resets the counter to zero for the next
// launch, and runs the epilogue (bias, GELU or scales, bf16, TMA store).
// Nothing waits on another CTA, so any grid size and any order is safe.

constexpr uint32_t kMaxSplits = 16;      ///< slices of K at most
constexpr uint32_t kMinSliceKblocks = 8; ///< k-blocks a slice keeps at least, when the heuristic splits

/// The k-blocks [begin, end) of slice `s` of `S`: sizes differ by at most
/// one, and every slice is nonempty when S <= kblocks.
struct kslice {
  uint32_t begin, end;
};
GEMM_HD constexpr kslice k_slice(uint32_t kblocks, uint32_t s, uint32_t S) {
  return {kblocks * s / S, kblocks * (s + 1) / S};
}

/// A split-K plan may compute its first `whole` tiles (in schedule order)
/// each in one unit, with all of K and no fix-up, and split only the tiles
/// after them (the tail split below). The units are then the `whole` tiles,
/// followed by (tile, slice) pairs of the others, slices adjacent.
struct unit_work {
  uint32_t tile, slice, kb0, kb1;
  bool split;      ///< one of `splits` slices (else the whole tile)
  uint32_t ws_tile; ///< its tile's index among the split ones (the workspace's)
};
GEMM_HD constexpr uint32_t split_units(uint32_t tiles, uint32_t whole, uint32_t splits) {
  return whole + (tiles - whole) * splits;
}
GEMM_HD constexpr unit_work split_unit(uint32_t u, uint32_t whole, uint32_t splits, uint32_t kblocks) {
  if (u < whole) return {u, 0, 0, kblocks, false, 0};
  const uint32_t v = u - whole, s = v % splits;
  const kslice ks = k_slice(kblocks, s, splits);
  return {whole + v / splits, s, ks.begin, ks.end, splits > 1, v / splits};
}

/// The workspace of a split-K plan: one u32 arrival counter per (tile,
/// consumer warpgroup), zero between launches, then the f32 partials, one
/// per (tile, slice, warpgroup) of 128 threads x acc floats each. A
/// partial holds register chunk c (accumulators 4c ... 4c + 3, one
/// st.global.v4.f32) of thread t at float (c * 128 + t) * 4, so a warp's
/// 32 lanes write and read 512 contiguous bytes per chunk.
struct split_ws {
  uint32_t tiles, splits, acc; ///< acc: accumulators per thread (config::acc_regs)
  GEMM_HD constexpr uint64_t counter_bytes() const { return (uint64_t(tiles) * kConsumers * 4 + 255) / 256 * 256; }
  /// Floats of one warpgroup's partial.
  GEMM_HD constexpr uint32_t partial_floats() const { return 128 * acc; }
  /// Float offset, from the partials' start, of (tile, slice, warpgroup)'s partial.
  GEMM_HD constexpr uint64_t partial(uint32_t tile, uint32_t slice, uint32_t wg) const {
    return ((uint64_t(tile) * splits + slice) * kConsumers + wg) * partial_floats();
  }
  GEMM_HD constexpr uint64_t bytes() const { return counter_bytes() + partial(tiles, 0, 0) * 4; }
};
/// Float index, within a partial, of accumulator chunk `chunk` of thread `tid`.
GEMM_HD constexpr uint32_t partial_index(uint32_t tid, uint32_t chunk) { return (chunk * 128 + tid) * 4; }

// ---- the shape heuristic with split-K (gemm.cu's gemm_pick) ------------------------------
//
// The estimate behind pick_narrow, with K and the slices in it: time =
// waves x (k-blocks per slice + a unit's fixed cost) + the fix-up, in units
// of one 128 x 128 k-block (23; a 128 x 256 one is 40, pick_narrow's
// 0.575). A unit's fixed cost (pipeline fill, epilogue) is taken as 4
// k-blocks; writing one f32 partial tile, and reading one back, as 2 each
// (64 KiB for a 128 x 128 warpgroup pair: about two stages' worth of
// loads). The last slice reads S partials, after one wave's work.

constexpr uint32_t kUnitCost = 4;    ///< k-blocks' worth of a unit's fixed cost
constexpr uint32_t kPartialCost = 2; ///< k-blocks' worth of writing or reading one f32 partial tile

/// Estimated time of an M x N output with `kblocks` k-blocks, 128 x `bn`
/// tiles (128 or 256), S slices, on `sms` persistent CTAs; with `whole` > 0
/// (a multiple of sms), the first `whole` tiles unsplit, whole / sms waves
/// of them before the split ones.
GEMM_HD constexpr uint64_t split_cost(uint32_t M, uint32_t N, uint32_t kblocks, uint32_t sms, uint32_t bn,
                                      uint32_t S, uint32_t whole = 0) {
  const uint64_t tiles = uint64_t(ceil_div(M, kBM)) * ceil_div(N, bn) - whole;
  const uint64_t waves = (tiles * S + sms - 1) / sms;
  const uint64_t per_unit = (kblocks + S - 1) / S + kUnitCost + (S > 1 ? kPartialCost : 0);
  const uint64_t fixup = S > 1 ? uint64_t(S) * kPartialCost : 0;
  const uint64_t whole_time = uint64_t(whole / sms) * (kblocks + kUnitCost);
  return (whole_time + waves * per_unit + fixup) * (bn == 128 ? 23 : 40);
}

/// Slices of K for 128 x `bn` tiles: 1 unless there are fewer tiles than
/// SMs and some S in 2 ... kMaxSplits with at least kMinSliceKblocks
/// k-blocks a slice is estimated at least 10% faster than S = 1; then the
/// fastest such S (the smallest on ties).
GEMM_HD constexpr uint32_t pick_splits(uint32_t M, uint32_t N, uint32_t kblocks, uint32_t sms, uint32_t bn) {
  const uint64_t tiles = uint64_t(ceil_div(M, kBM)) * ceil_div(N, bn);
  if (tiles >= sms) return 1;
  const uint64_t one = split_cost(M, N, kblocks, sms, bn, 1);
  uint32_t best = 1;
  uint64_t best_cost = one;
  for (uint32_t S = 2; S <= kMaxSplits && uint64_t(S) * kMinSliceKblocks <= kblocks; ++S) {
    const uint64_t c = split_cost(M, N, kblocks, sms, bn, S);
    if (c < best_cost) best = S, best_cost = c;
  }
  return best_cost * 10 <= one * 9 ? best : 1;
}

/// The tail split (bf16), for tiles at least as many as SMs whose last
/// wave is at most half full: the full waves' tiles whole, the R tiles left
/// cut into S = min(sms / R, kMaxSplits, kblocks / kMinSliceKblocks)
/// slices that share the last wave, where that is estimated at least 10%
/// faster than S = 1 (otherwise {0, 1}). 3072^3 with 128 x 256 tiles on 132
/// SMs: 288 tiles, 264 whole and 24 in 5 slices (the last wave 120 slices
/// of about 10 k-blocks instead of 24 tiles of 48). On the H200 it beat the
/// best unsplit variant at each of the six shapes that take it there, by
/// 1% (3072^3: 671 TFLOP/s against 128 x 128's 664; 128 x 256 unsplit 576)
/// to 16% (2500 x 5000 x 4000: 674 against 584): bench/results/gemm-2026-12-04-tail.csv.
struct split_plan {
  uint32_t whole, splits;
};
GEMM_HD constexpr split_plan tail_split(uint32_t M, uint32_t N, uint32_t kblocks, uint32_t sms, uint32_t bn) {
  const uint64_t tiles = uint64_t(ceil_div(M, kBM)) * ceil_div(N, bn);
  if (tiles < sms) return {0, 1};
  const uint32_t whole = uint32_t(tiles / sms * sms), rest = uint32_t(tiles - whole);
  if (rest == 0) return {0, 1};
  uint32_t S = sms / rest;
  if (S > kMaxSplits) S = kMaxSplits;
  if (S > kblocks / kMinSliceKblocks) S = kblocks / kMinSliceKblocks;
  if (S < 2) return {0, 1};
  return split_cost(M, N, kblocks, sms, bn, S, whole) * 10 <= split_cost(M, N, kblocks, sms, bn, 1) * 9
             ? split_plan{whole, S}
             : split_plan{0, 1};
}

/// The slices a split variant's plan takes (splits 0): pick_splits' S for
/// fewer tiles than SMs, else the tail split where `tail` (bf16; the fp8
/// split kernels promote every k-block, slower than the unsplit ones).
GEMM_HD constexpr split_plan plan_splits(uint32_t M, uint32_t N, uint32_t kblocks, uint32_t sms, uint32_t bn,
                                         bool tail) {
  const uint32_t S = pick_splits(M, N, kblocks, sms, bn);
  if (S > 1 || !tail) return {0, S};
  return tail_split(M, N, kblocks, sms, bn);
}

/// Skinny bf16 shapes (M <= kSkinnyMaxM) take the swapped kernel
/// (config::swap) with the narrowest tile side that holds M: 16, 32 or 64
/// rows of A; 0 for wider M (the 128 x bn tiles). Its plan then takes
/// pick_splits for the swapped N x M output.
constexpr uint32_t kSkinnyMaxM = 64;
GEMM_HD constexpr uint32_t skinny_bn(uint32_t M) {
  return M > kSkinnyMaxM ? 0 : M <= 16 ? 16 : M <= 32 ? 32 : 64;
}

/// Rows of A and B not on 128-byte boundaries (K x elem_bytes, the row pitch of
/// both K-major operands, not a multiple of 128) with at least two 128-row
/// tiles along M: gemm_pick then takes the variant on clusters of two CTAs
/// along M that multicast B (where one exists). On the H200 the unclustered
/// kernels lose up to 12% at rows aligned to 32 bytes (K 4000, 4128) and 30-40%
/// at rows aligned to only 16 (e4m3 128 x 128 promoted every 8 k-blocks:
/// 0.91-0.97x torch._scaled_mm at K % 128 == 0, 0.57-0.65x at K 4016, 4112,
/// 5008), likely as each 128-byte row of a TMA box then spans two lines of
/// global memory, and multicasting halves the B lines fetched. The cluster pair
/// wins back most of it (e4m3 3333 x 7008 x 4112 0.58x to 0.76x, bf16 128 x 256
/// at 3333 x 7008 x 4104 0.69x to 0.94x cuBLAS) but costs 1-2% at aligned rows
/// (e4m3 4096^3 0.949x to 0.940x), hence only there: bench/results/gemm-fp8.md.
GEMM_HD constexpr bool pick_cluster2(uint32_t M, uint32_t K, uint32_t elem_bytes) {
  return M > kBM && (uint64_t(K) * elem_bytes) % 128 != 0;
}

/// The tile and slices gemm_pick chooses.
struct shape_pick {
  bool narrow;     ///< 128 x 128 (else 128 x 256)
  uint32_t splits; ///< slices of K (1: no split-K)
  uint32_t whole;  ///< tiles computed whole before the split ones (the tail split)
};
/// pick_narrow's choice without a split (the heuristic before split-K),
/// unless a tile's plan_splits (S > 1, with or without whole tiles) is
/// estimated at least 10% faster than that choice; then the faster such
/// tile with its plan. `narrow_only`: only the 128 x 128 tile exists (fp8,
/// which also takes no tail split); `allow_split` false: never split.
GEMM_HD constexpr shape_pick pick_shape(uint32_t M, uint32_t N, uint32_t kblocks, uint32_t sms, bool narrow_only,
                                        bool allow_split = true) {
  shape_pick best{narrow_only || pick_narrow(M, N, sms), 1, 0};
  if (!allow_split) return best;
  const uint64_t unsplit = split_cost(M, N, kblocks, sms, best.narrow ? 128 : 256, 1);
  uint64_t best_cost = unsplit;
  for (uint32_t bn = 128; bn <= (narrow_only ? 128u : 256u); bn += 128) {
    const split_plan sp = plan_splits(M, N, kblocks, sms, bn, !narrow_only);
    const uint64_t c = split_cost(M, N, kblocks, sms, bn, sp.splits, sp.whole);
    if (sp.splits > 1 && c * 10 <= unsplit * 9 && c < best_cost) best = {bn == 128, sp.splits, sp.whole}, best_cost = c;
  }
  return best;
}

} // namespace gemm

#endif // BENCH_GEMM_LAYOUT_H
