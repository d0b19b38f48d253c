//===- bench/attention/layout.h - Where every byte of the attention kernel lives -*- C++ -*-===//
//
// The index arithmetic of the attention forward kernel (attn.cuh), as
// constexpr functions the kernel calls on the GPU and layout_check.cpp checks
// on the host against tileapply/fragment.h and tileapply/descriptor.h:
//
//   - the per-head-dim configuration and the shared-memory plan;
//   - the 128-byte swizzle TMA writes (64-column chunks of a row-major tile);
//   - the wgmma descriptors: Q (A, K-major), K (B, K-major) for S = Q K^T,
//     V (B, MN-major: imm-trans-b = 1) for O += P V;
//   - the S accumulator -> P A-operand conversion (which accumulators make
//     register r of k16 step kk);
//   - the masks (ragged seqlen_k, causal bottom-right aligned) and the range
//     of KV blocks a Q tile visits;
//   - the epilogue boxes (stmatrix rows, as in the GEMM).
//
// Plain C++17 on <stdint.h> (and descriptor.h): host and device.
//
//===----------------------------------------------------------------------===//
#ifndef BENCH_ATTENTION_LAYOUT_H
#define BENCH_ATTENTION_LAYOUT_H

#include <stdint.h>

#include <tileapply/descriptor.h>
#include <tileapply/fragment.h>

#include "../common/tiles.h"

#if defined(__CUDACC__) || defined(__CUDA__)
#define ATTN_HD __host__ __device__
#else
#define ATTN_HD
#endif

namespace attn {

using bench::ceil_div;
using bench::epi_acc_index;
using bench::epi_col;
using bench::epi_offset;
using bench::epi_row;
using bench::ring;
using bench::sw128;

constexpr uint32_t kWgM = 64;           ///< query rows per consumer warpgroup (wgmma M)
constexpr uint32_t kChunk = 64;         ///< head-dim columns per 128-byte swizzle span (bf16)
constexpr uint32_t kChunkBytes = 128;
constexpr uint32_t kProducerRegs = 24;  ///< the producer warpgroup's registers after setmaxnreg.dec
constexpr uint32_t kRegFile = 65536;    ///< 32-bit registers of an SM
constexpr uint32_t kSmemLimit = 232448; ///< 227 KiB


ATTN_HD constexpr bool p_src_is_acc_to_a(uint32_t bn, uint32_t d); // below

/// One kernel configuration (a template argument of the kernel).
struct config {
  uint32_t d;      ///< head dim: 64, 128 or 256
  uint32_t bn;     ///< KV rows per block (the wgmma N of S)
  uint32_t stages; ///< K/V stages in the ring
  bool overlap;    ///< software-pipelined: S of block j+1 overlaps O += P V of block j (FA3's intra-warpgroup overlap)
  bool pingpong = false; ///< (with overlap) the two consumer warpgroups take turns issuing their wgmma (named barriers)
  /// Build each wgmma descriptor from its address (with_start_address per
  /// k16 step) rather than by advancing the tile's base descriptor: the same
  /// values (layout_check), but ptxas schedules the d 64 kernel faster so
  /// (bench/results/attention.md).
  bool step_desc = false;
  /// Consumer warpgroups, 64 query rows each: 2 (a 128-row Q tile, 240
  /// registers a consumer thread) or 3 (192 rows, 160 registers; FA3's
  /// choice at head dim 64: more rows per K / V block loaded).
  uint32_t consumers = 2;
  /// O += P V with P from shared memory (both wgmma operands there): each
  /// consumer warpgroup stores its P (bf16, 64 x bn, laid out as a K-major
  /// A tile) with stmatrix, as the epilogue stores O. Frees the P registers
  /// (bn / 4 a thread), so that a wider KV block fits: FA3's choice at d 64
  /// without causal masking (192 x 192 tiles).
  bool p_smem = false;

  ATTN_HD constexpr uint32_t bm() const { return kWgM * consumers; } ///< query rows per tile
  ATTN_HD constexpr uint32_t threads() const { return 128 * (consumers + 1); }
  /// Registers a thread launches with (__launch_bounds__(threads(), 1)):
  /// 168 for 384 threads, 128 for 512.
  ATTN_HD constexpr uint32_t launch_regs() const { return kRegFile / threads() / 8 * 8; }
  /// A consumer thread's registers after setmaxnreg.inc: what the producer's
  /// decrease leaves, split over the consumer warpgroups (a multiple of 8).
  ATTN_HD constexpr uint32_t consumer_regs() const {
    const uint32_t r = (kRegFile - 128 * kProducerRegs) / (128 * consumers) / 8 * 8;
    return r > 256 ? 256 : r;
  }

  ATTN_HD constexpr uint32_t chunks() const { return d / kChunk; }
  ATTN_HD constexpr uint32_t s_regs() const { return bn / 2; } // S accumulators per thread
  ATTN_HD constexpr uint32_t o_regs() const { return d / 2; }  // O accumulators per thread
  ATTN_HD constexpr uint32_t q_bytes() const { return bm() * d * 2; }
  ATTN_HD constexpr uint32_t kv_bytes() const { return bn * d * 2; } // one K (or V) block
  // The plan, from a 1024-aligned base: Q, K stages, V stages, the O
  // staging tile when it fits (else O is staged in Q's place), the P tiles
  // (with p_smem), barriers.
  ATTN_HD constexpr uint32_t off_q() const { return 0; }
  ATTN_HD constexpr uint32_t off_k(uint32_t s) const { return q_bytes() + s * kv_bytes(); }
  ATTN_HD constexpr uint32_t off_v(uint32_t s) const { return q_bytes() + (stages + s) * kv_bytes(); }
  /// Bytes of the barriers: Q full and empty, and per stage K / V full and empty.
  ATTN_HD constexpr uint32_t bar_bytes() const { return 16 + 32 * stages; }
  /// Whether the O staging tile (as large as Q) has its own place. Then the
  /// next tile's Q loads while this tile's epilogue runs; otherwise the
  /// epilogue stages O in the (dead) Q rows and the next Q waits for the
  /// TMA store to have read them.
  ATTN_HD constexpr bool separate_o() const {
    return tiles_end(true) + p_bytes() + bar_bytes() + 1024 <= kSmemLimit;
  }
  /// One warpgroup's P tile (64 rows x bn bf16), and all of them (0 without p_smem).
  ATTN_HD constexpr uint32_t p_tile_bytes() const { return kWgM * bn * 2; }
  ATTN_HD constexpr uint32_t p_bytes() const { return p_smem ? consumers * p_tile_bytes() : 0; }
  ATTN_HD constexpr uint32_t off_p(uint32_t wg) const { return tiles_end(separate_o()) + wg * p_tile_bytes(); }
  /// Where the tiles end: Q, the K and V stages, and the O staging tile if `with_o`.
  ATTN_HD constexpr uint32_t tiles_end(bool with_o) const {
    return q_bytes() * (with_o ? 2 : 1) + 2 * stages * kv_bytes();
  }
  ATTN_HD constexpr uint32_t off_o() const { return separate_o() ? tiles_end(false) : off_q(); }
  ATTN_HD constexpr uint32_t off_bars() const { return tiles_end(separate_o()) + p_bytes(); }
  ATTN_HD constexpr uint32_t off_qfull() const { return off_bars(); }
  /// Q is freed once every consumer warp is done with it (its last S = Q K^T
  /// retired, or with O staged in Q's place, the TMA store has read O).
  ATTN_HD constexpr uint32_t off_qempty() const { return off_bars() + 8; }
  ATTN_HD constexpr uint32_t off_kfull(uint32_t s) const { return off_bars() + 16 + 8 * s; }
  ATTN_HD constexpr uint32_t off_vfull(uint32_t s) const { return off_bars() + 16 + 8 * (stages + s); }
  /// K and V of a stage are freed apart (K once S = Q K^T retired, V once O += P V retired).
  ATTN_HD constexpr uint32_t off_kempty(uint32_t s) const { return off_bars() + 16 + 8 * (2 * stages + s); }
  ATTN_HD constexpr uint32_t off_vempty(uint32_t s) const { return off_bars() + 16 + 8 * (3 * stages + s); }
  ATTN_HD constexpr uint32_t smem_bytes() const { return off_bars() + bar_bytes() + 1024; }
  /// Arrivals that free Q, a K or a V block: one per consumer warp.
  ATTN_HD constexpr uint32_t empty_arrivals() const { return consumers * 4; }

  ATTN_HD constexpr const char *error() const {
    if (d != 64 && d != 128 && d != 256) return "head dim must be 64, 128 or 256";
    if (!p_src_is_acc_to_a(bn, d)) return "P packing is not tile::frag::acc_to_a";
    if (bn < 16 || bn > 256 || bn % 16) return "bn must be a multiple of 16 up to 256";
    if (stages < 1) return "at least one stage";
    if (pingpong && !overlap) return "ping-pong needs the pipelined loop";
    if (consumers != 2 && consumers != 3) return "2 or 3 consumer warpgroups";
    if (p_smem && bn % kChunk) return "P through shared memory needs bn a multiple of 64 (stmatrix boxes)";
    // setmaxnreg: the registers the producer gives up cover the consumers'
    // increase, and every warpgroup's count fits the register file.
    if (consumer_regs() < launch_regs() ||
        128 * (launch_regs() - kProducerRegs) < 128 * consumers * (consumer_regs() - launch_regs()) ||
        128 * kProducerRegs + 128 * consumers * consumer_regs() > kRegFile)
      return "setmaxnreg register split";
    if (smem_bytes() > kSmemLimit) return "shared memory plan exceeds 227 KiB";
    return nullptr;
  }
};

// ---- the 128-byte swizzle of a tile of `rows` rows, 64-column chunks ----------------

/// Byte offset from a 1024-aligned tile base of element (row, col) of a
/// row-major bf16 tile of `rows` rows, as TMA writes it with one box of 64
/// columns x `rows` rows per chunk and CU_TENSOR_MAP_SWIZZLE_128B: chunks follow
/// each other, 16-byte unit index XORed with row % 8 inside the 128-byte row.
ATTN_HD constexpr uint32_t tile_offset(uint32_t rows, uint32_t row, uint32_t col) {
  const uint32_t byte = (col % kChunk) * 2;
  return (col / kChunk) * rows * kChunkBytes + sw128(row, byte);
}

// ---- wgmma descriptors -------------------------------------------------------------

/// K-major, 128-byte swizzle: SBO = 1024 (8 rows of 128 bytes), LBO unused (16).
constexpr tile::desc::encoded<uint64_t> kDescK =
    tile::desc::encode(tile::desc::wgmma_smem{0, 16, 1024, 0, tile::desc::swizzle::b128});
static_assert(kDescK.ok(), "K-major descriptor");

// Each descriptor is the tile's base descriptor (built once per tile base)
// advanced by a constant per k16 step: one 32-bit add where the kernel
// issues the wgmma (the plan stays below 2^18 bytes: layout_check). With
// config::step_desc the kernel builds the same value from the address instead.

/// Byte offsets, from the tile base, of the operand of k16 step `kk`:
/// Q (A of S = Q K^T, the 64 rows of warpgroup `wg`), K (B of S, bn rows,
/// K-major) and V (B of O += P V: 16 KV rows further per step).
ATTN_HD constexpr uint32_t q_off(uint32_t bm, uint32_t wg, uint32_t kk) {
  return (kk / 4) * bm * kChunkBytes + wg * kWgM * 128 + (kk % 4) * 32;
}
ATTN_HD constexpr uint32_t k_off(uint32_t bn, uint32_t kk) { return (kk / 4) * bn * kChunkBytes + (kk % 4) * 32; }
ATTN_HD constexpr uint32_t v_off(uint32_t kk) { return kk * 16 * 128; }
/// P (A of O += P V with config::p_smem): a K-major tile of 64 rows, as Q's
/// tile of one warpgroup: the operand of step kk and the stmatrix box of
/// S's 64-column chunk c, from the warpgroup's P tile base.
ATTN_HD constexpr uint32_t p_off(uint32_t kk) { return q_off(kWgM, 0, kk); }
ATTN_HD constexpr uint32_t p_box(uint32_t c) { return c * kWgM * kChunkBytes; }

/// The K-major descriptor of a tile at shared address `base`.
ATTN_HD constexpr uint64_t kmajor_base(uint32_t base) { return tile::desc::with_start_address(kDescK.value, base); }
/// Q's descriptor of step kk, from kmajor_base(Q's base), for a Q tile of bm rows.
ATTN_HD constexpr uint64_t q_desc(uint64_t q_base_desc, uint32_t bm, uint32_t wg, uint32_t kk) {
  return tile::desc::advance(q_base_desc, q_off(bm, wg, kk));
}
/// K's descriptor of step kk, from kmajor_base(K's base).
ATTN_HD constexpr uint64_t k_desc(uint64_t k_base_desc, uint32_t bn, uint32_t kk) {
  return tile::desc::advance(k_base_desc, k_off(bn, kk));
}
/// V (B of O += P V: K = the bn KV rows, N = d), MN-major (d contiguous),
/// 128-byte swizzle: LBO = from one 64-column chunk of d to the next (bn rows
/// of 128 bytes), SBO = from 8 KV rows to the next 8 (1024).
ATTN_HD constexpr uint64_t v_desc_fixed(uint32_t bn) {
  return tile::desc::encode(tile::desc::wgmma_smem{0, bn * kChunkBytes, 1024, 0, tile::desc::swizzle::b128}).value;
}
/// The V descriptor of a tile at shared address `base`.
ATTN_HD constexpr uint64_t v_base_desc(uint32_t base, uint32_t bn) {
  return tile::desc::with_start_address(v_desc_fixed(bn), base);
}
/// V's descriptor of step kk, from v_base_desc(V's base).
ATTN_HD constexpr uint64_t v_desc(uint64_t v_base, uint32_t kk) { return tile::desc::advance(v_base, v_off(kk)); }

// ---- accumulators and the P operand -------------------------------------------------
//
// The m64nNk16 f32 accumulator of thread t (warp w, lane l, g = l / 4, q = l % 4):
// register 4 j + 2 h + e holds row 16 w + 8 h + g, column 8 j + 2 q + e.

ATTN_HD constexpr uint32_t acc_row(uint32_t thread, uint32_t i) {
  return 16 * (thread / 32) + 8 * ((i / 2) % 2) + (thread % 32) / 4;
}
ATTN_HD constexpr uint32_t acc_col(uint32_t thread, uint32_t i) { return 8 * (i / 4) + 2 * (thread % 4) + i % 2; }

/// P as the A operand of k16 step kk of O += P V: element e (0 low, 1 high)
/// of register r is accumulator p_src(kk, r, e) of S (same thread), the
/// packing the kernel's one strided cvt.rn.bf16x2.f32 call does.
ATTN_HD constexpr uint32_t p_src(uint32_t kk, uint32_t r, uint32_t e) { return 8 * kk + 2 * r + e; }

/// p_src is tileapply's tile::frag::acc_to_a for this S and this A, at every
/// index (checked at compile time for each configuration the kernel takes).
ATTN_HD constexpr bool p_src_is_acc_to_a(uint32_t bn, uint32_t d) {
  const tile::frag::layout S = tile::frag::wgmma(int(bn), 16, tile::frag::operand::d, tile::frag::type::f32);
  const tile::frag::layout A = tile::frag::wgmma(int(d), 16, tile::frag::operand::a, tile::frag::type::bf16);
  for (uint32_t kk = 0; kk < bn / 16; ++kk)
    for (uint32_t r = 0; r < 4; ++r)
      for (uint32_t e = 0; e < 2; ++e)
        if (tile::frag::acc_to_a(S, A, int(kk), int(r), int(e)) != int(p_src(kk, r, e))) return false;
  return true;
}

// ---- masks and the KV range ----------------------------------------------------------

/// One past the last key column query row `row` may see: seqlen_k, or for
/// causal attention (bottom-right aligned: row i sees keys j <= i + sk - sq)
/// min(sk, row + sk - sq + 1), clamped at 0.
ATTN_HD constexpr int32_t col_limit(int32_t row, int32_t sq, int32_t sk, bool causal) {
  if (!causal) return sk;
  const int32_t lim = row + sk - sq + 1;
  return lim < 0 ? 0 : lim < sk ? lim : sk;
}
/// KV blocks a Q tile of rows [m0, m0 + bm) visits: up to the limit of its last row.
ATTN_HD constexpr uint32_t kv_blocks(uint32_t m0, uint32_t bm, uint32_t sq, uint32_t sk, bool causal, uint32_t bn) {
  const int32_t lim = col_limit(int32_t(m0 + bm - 1), int32_t(sq), int32_t(sk), causal);
  return ceil_div(uint32_t(lim), bn);
}
/// Whether block n0 needs the element mask for some row of the tile at m0.
ATTN_HD constexpr bool block_needs_mask(uint32_t m0, uint32_t n0, uint32_t sq, uint32_t sk, bool causal,
                                        uint32_t bn) {
  if (n0 + bn > sk) return true;
  return causal && int32_t(n0 + bn) > col_limit(int32_t(m0), int32_t(sq), int32_t(sk), true);
}

// ---- the epilogue (64 x 64 boxes per warpgroup, as the GEMM) ---------------------------

/// The staging box of chunk c for warpgroup wg, from the O staging base
/// (config::off_o): laid out as the Q tile, so that in the plans where O is
/// staged in Q's place each warpgroup writes only its own (dead) Q rows.
ATTN_HD constexpr uint32_t epi_box(uint32_t bm, uint32_t c, uint32_t wg) {
  return c * bm * kChunkBytes + wg * kWgM * 128;
}

// ---- the persistent tile schedule ------------------------------------------------------------
//
// The grid has at most one CTA per SM; CTA c takes the tiles (Q tile, head,
// batch) of index c, then one from each later round of gridDim.x indices.
// Without causal masking every tile costs the same and the Q tiles of one
// head come one after the other (their CTAs read the same K and V blocks
// at about the same time, from L2). With it, the indices run longest first
// (the last Q tiles of every head), and odd rounds are walked backwards, so
// that a CTA given a round's longest tile gets the next round's shortest.

struct tile_coord {
  uint32_t m_blk, head, batch;
};
/// Tile index of CTA `cta` in round `round` of a grid of `ctas` (may be past the last tile).
ATTN_HD constexpr uint32_t tile_index(uint32_t cta, uint32_t round, uint32_t ctas, bool causal) {
  return round * ctas + (causal && round % 2 ? ctas - 1 - cta : cta);
}
/// The tile of index `t` < m_blocks x heads x batch.
ATTN_HD constexpr tile_coord tile_at(uint32_t t, uint32_t m_blocks, uint32_t heads, uint32_t batch, bool causal) {
  if (causal) {
    const uint32_t hb = t % (heads * batch);
    return {m_blocks - 1 - t / (heads * batch), hb % heads, hb / heads};
  }
  const uint32_t hb = t / m_blocks;
  return {t % m_blocks, hb % heads, hb / heads};
}

// ---- ping-pong between the consumer warpgroups ----------------------------------------------
//
// The n consumer warpgroups take turns in a ring. Warpgroup w issues its
// wgmma only after bar.sync on kTurnBar + w (256 threads: its own 128 and
// the previous warpgroup's 128 bar.arrive), and then passes the turn with
// bar.arrive on the next one's barrier (w + 1 mod n). All have the same
// issue points (nblocks + 1: they share the CTA's KV range). The last
// warpgroup gives warpgroup 0 the first turn and does not pass its own last
// one, so every barrier sees as many arrivals as syncs (layout_check models it).
constexpr uint32_t kTurnBar = 4; ///< named barriers 4 to 6 (0: CTA, 1 - 3: epilogue)
/// The warpgroup whose turn follows warpgroup wg's, of n.
ATTN_HD constexpr uint32_t next_turn(uint32_t wg, uint32_t n) { return (wg + 1) % n; }
/// Whether warpgroup wg of n passes the turn after issue point `point` of `points`.
ATTN_HD constexpr bool passes_turn(uint32_t wg, uint32_t n, uint32_t point, uint32_t points) {
  return wg + 1 < n || point + 1 < points;
}


} // namespace attn

#endif // BENCH_ATTENTION_LAYOUT_H
