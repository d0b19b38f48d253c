//===- bench/attention/layout_check.cpp - The attention kernel's index arithmetic, checked on the host -===//
//
// Checks bench/attention/layout.h, which the kernel (attn.cuh) calls, against
// the ISA's models in tileapply/descriptor.h (canonical wgmma layouts, the
// 128-byte swizzle) and tileapply/fragment.h (wgmma accumulator and A
// fragments, stmatrix):
//   1. the shared-memory plan of every configuration (alignment, no overlap,
//      within 227 KiB);
//   2. every element each wgmma descriptor names (Q and K K-major for S =
//      Q K^T, V MN-major for O += P V) is the element TMA wrote there;
//   3. P from the S accumulators: register r, element e of the k16 A fragment
//      of step kk is the accumulator p_src(kk, r, e) of the same thread, i.e.
//      the same (row, column) of P (the accumulator -> A-operand conversion
//      needs no data movement between threads);
//   4. acc_row / acc_col (used by the mask and the LSE) equal the wgmma D layout;
//   5. the masks: col_limit against the definition (bottom-right causal,
//      ragged seqlen_k); the KV blocks a tile visits cover every visible key
//      and block_needs_mask is false only where every element is visible;
//      the kernel's per-thread compare (col >= lim - n0 - 2 q) equals it;
//   6. the epilogue: stmatrix of the O accumulators into each 64 x 64 box is
//      read back by the TMA store at the right (row, column).
// Exit status 0 when all pass.
//
//===----------------------------------------------------------------------===//
#include <stdint.h>
#include <stdio.h>

#include <random>
#include <vector>

#include <tileapply/fragment.h>

#include "configs.h"
#include "layout.h"

using namespace attn;
namespace td = tile::desc;
namespace fr = tile::frag;

static int g_failures = 0;
#define CHECK(cond, ...)                                                                                      \
  do {                                                                                                        \
    if (!(cond)) {                                                                                            \
      if (++g_failures <= 20) {                                                                               \
        printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                                \
        printf(__VA_ARGS__);                                                                                  \
        printf("\n");                                                                                         \
      }                                                                                                       \
    }                                                                                                         \
  } while (0)

// ---- 1. the plan ----------------------------------------------------------------------------
static void check_plan(const config &c) {
  CHECK(c.error() == nullptr, "config d %u: %s", c.d, c.error() ? c.error() : "");
  CHECK(c.off_q() % 1024 == 0, "Q aligned");
  for (uint32_t s = 0; s < c.stages; ++s) {
    CHECK(c.off_k(s) % 1024 == 0 && c.off_v(s) % 1024 == 0, "stage aligned");
    CHECK(c.off_k(s) >= c.q_bytes(), "K after Q");
    CHECK(c.off_v(s) >= c.off_k(c.stages - 1) + c.kv_bytes(), "V after K");
  }
  if (c.separate_o()) {
    CHECK(c.off_o() % 1024 == 0 && c.off_o() >= c.off_v(c.stages - 1) + c.kv_bytes(), "O staging after V");
    CHECK(c.off_bars() >= c.off_o() + c.q_bytes(), "barriers after the O staging tile");
  } else {
    CHECK(c.off_o() == c.off_q(), "O staged in Q's place");
    CHECK(c.off_bars() >= c.off_v(c.stages - 1) + c.kv_bytes(), "barriers after V");
  }
  if (c.p_smem) {
    const uint32_t after = c.separate_o() ? c.off_o() + c.q_bytes() : c.off_v(c.stages - 1) + c.kv_bytes();
    for (uint32_t wg = 0; wg < c.consumers; ++wg)
      CHECK(c.off_p(wg) % 1024 == 0 && c.off_p(wg) >= after + wg * c.p_tile_bytes(), "P tile %u after the others", wg);
    CHECK(c.off_bars() >= c.off_p(c.consumers - 1) + c.p_tile_bytes(), "barriers after P");
  }
  // Every barrier its own 8 bytes, inside the plan.
  std::vector<uint32_t> bars = {c.off_qfull(), c.off_qempty()};
  for (uint32_t s = 0; s < c.stages; ++s)
    for (uint32_t b : {c.off_kfull(s), c.off_vfull(s), c.off_kempty(s), c.off_vempty(s)}) bars.push_back(b);
  for (size_t i = 0; i < bars.size(); ++i) {
    CHECK(bars[i] % 8 == 0 && bars[i] >= c.off_bars() && bars[i] + 8 <= c.off_bars() + c.bar_bytes(),
          "barrier %zu inside", i);
    for (size_t k = 0; k < i; ++k) CHECK(bars[i] != bars[k], "barriers %zu and %zu share a place", k, i);
  }
  CHECK(c.off_bars() + c.bar_bytes() + 1024 <= c.smem_bytes(), "alignment slack");
  CHECK(c.smem_bytes() <= kSmemLimit, "smem");
  // Chunk bases of every tile are 1024-aligned (TMA's 128B swizzle and base offset 0).
  CHECK((c.bm() * kChunkBytes) % 1024 == 0 && (c.bn * kChunkBytes) % 1024 == 0, "chunk alignment");
  // TMA boxes are at most 256 rows (Q's box is the whole tile).
  CHECK(c.bm() <= 256 && c.bn <= 256, "box rows");
  printf("ok  plan d %u: %u consumer warpgroups (%u registers each thread), bn %u, %u stages, O staged %s, "
         "P in %s, %u B shared memory\n",
         c.d, c.consumers, c.consumer_regs(), c.bn, c.stages, c.separate_o() ? "apart" : "in Q's place",
         c.p_smem ? "shared memory" : "registers", c.smem_bytes());
}

// ---- 2. descriptors ---------------------------------------------------------------------------
// Address of element (mn, k) of a wgmma operand given its descriptor, as the
// hardware forms it: canonical offset from the start address, swizzled on the
// absolute address.
static uint32_t desc_addr(uint64_t desc, td::major mj, uint32_t mn, uint32_t k) {
  const td::wgmma_smem d = td::decode_wgmma_smem(desc);
  const td::canonical cl = td::canonical_layout(mj, d.mode, 16);
  return td::swizzle_address(d.mode, d.start_address + cl.offset(mn, k, d.lbo, d.sbo));
}

// The kernel's 1024-aligned plan base lies in the CTA's shared window, which
// ends at 228 KiB (the SM's shared memory): the lowest and the highest bases
// the plan can have. Descriptors are advanced by adds on their 14-bit address
// field (tile::desc::advance), exact only below 2^18: checked at both ends.
constexpr uint32_t kSharedWindow = 228 * 1024;
static_assert(kSharedWindow <= (1u << 18), "shared addresses fit the descriptor's start-address field");

static void check_descriptors_at(const config &c, uint32_t sbase, long &n);
static void check_descriptors(const config &c) {
  long n = 0;
  const uint32_t hi = (kSharedWindow - c.smem_bytes() + 1023u) & ~1023u;
  CHECK(hi + c.smem_bytes() - 1024 <= kSharedWindow, "highest base");
  for (uint32_t sbase : {0u, 0x400u, hi}) check_descriptors_at(c, sbase, n);
  printf("ok  descriptors d %u: %ld operand elements of Q, K, V found where TMA put them (bases 0 to %#x)\n", c.d,
         n, hi);
}

static void check_descriptors_at(const config &c, uint32_t sbase, long &n) {
  // Q: A of S = Q K^T, 64 x 16 per warpgroup and k16 step.
  for (uint32_t wg = 0; wg < c.consumers; ++wg)
    for (uint32_t kk = 0; kk < c.d / 16; ++kk) {
      const uint64_t dq = q_desc(kmajor_base(sbase + c.off_q()), c.bm(), wg, kk);
      // config::step_desc builds the same descriptor from its address.
      CHECK(dq == kmajor_base(sbase + c.off_q() + q_off(c.bm(), wg, kk)), "Q step descriptor d %u kk %u", c.d, kk);
      for (uint32_t m = 0; m < kWgM; ++m)
        for (uint32_t k = 0; k < 16; ++k, ++n) {
          const uint32_t got = desc_addr(dq, td::major::k, m, k);
          const uint32_t want = sbase + c.off_q() + tile_offset(c.bm(), wg * kWgM + m, 16 * kk + k);
          CHECK(got == want, "Q d %u wg %u kk %u (%u,%u): %#x want %#x", c.d, wg, kk, m, k, got, want);
        }
    }
  for (uint32_t s = 0; s < c.stages; ++s) {
    // K: B of S = Q K^T, bn x 16 per k16 step (N = KV row, K = head-dim column).
    for (uint32_t kk = 0; kk < c.d / 16; ++kk) {
      const uint64_t dk = k_desc(kmajor_base(sbase + c.off_k(s)), c.bn, kk);
      CHECK(dk == kmajor_base(sbase + c.off_k(s) + k_off(c.bn, kk)), "K step descriptor d %u kk %u", c.d, kk);
      for (uint32_t nn = 0; nn < c.bn; ++nn)
        for (uint32_t k = 0; k < 16; ++k, ++n) {
          const uint32_t got = desc_addr(dk, td::major::k, nn, k);
          const uint32_t want = sbase + c.off_k(s) + tile_offset(c.bn, nn, 16 * kk + k);
          CHECK(got == want, "K d %u kk %u (%u,%u): %#x want %#x", c.d, kk, nn, k, got, want);
        }
    }
    // V: B of O += P V, K = KV row (16 per step), N = head-dim column (d), MN-major.
    for (uint32_t kk = 0; kk < c.bn / 16; ++kk) {
      const uint64_t dv = v_desc(v_base_desc(sbase + c.off_v(s), c.bn), kk);
      CHECK(dv == v_base_desc(sbase + c.off_v(s) + v_off(kk), c.bn), "V step descriptor d %u kk %u", c.d, kk);
      for (uint32_t nn = 0; nn < c.d; ++nn)
        for (uint32_t k = 0; k < 16; ++k, ++n) {
          const uint32_t got = desc_addr(dv, td::major::mn, nn, k);
          const uint32_t want = sbase + c.off_v(s) + tile_offset(c.bn, 16 * kk + k, nn);
          CHECK(got == want, "V d %u kk %u (d %u, kv %u): %#x want %#x", c.d, kk, nn, k, got, want);
        }
    }
  }
  // Descriptor fields fit (the V LBO is the largest).
  CHECK(td::encode(td::wgmma_smem{0, c.bn * kChunkBytes, 1024, 0, td::swizzle::b128}).ok(), "V descriptor");
}

// ---- 3, 4. fragments ------------------------------------------------------------------------
static void check_fragments(const config &c) {
  const fr::layout S = fr::wgmma(int(c.bn), 16, fr::operand::d, fr::type::f32);
  const fr::layout O = fr::wgmma(int(c.d), 16, fr::operand::d, fr::type::f32);
  const fr::layout A = fr::wgmma(int(c.d), 16, fr::operand::a, fr::type::bf16);
  CHECK(S.ok() && O.ok() && A.ok(), "layouts");
  CHECK(S.regs() == int(c.s_regs()) && O.regs() == int(c.o_regs()), "register counts");
  CHECK(A.regs() == 4 && A.elems_per_reg() == 2, "A: 4 registers of bf16x2");
  long n = 0;
  for (int t = 0; t < 128; ++t) {
    for (int i = 0; i < S.regs(); ++i) {
      const fr::pos p = S.coord(t, i, 0);
      CHECK(p.row == int(acc_row(uint32_t(t), uint32_t(i))) && p.col == int(acc_col(uint32_t(t), uint32_t(i))),
            "acc_row/acc_col t %d i %d", t, i);
    }
    for (int i = 0; i < O.regs(); ++i) {
      const fr::pos p = O.coord(t, i, 0);
      CHECK(p.row == int(acc_row(uint32_t(t), uint32_t(i))) && p.col == int(acc_col(uint32_t(t), uint32_t(i))),
            "O acc t %d i %d", t, i);
    }
    // P: the kernel packs pa[kk][r] = cvt(hi = s[2 (4 kk + r) + 1], lo = s[2 (4 kk + r)]).
    for (uint32_t kk = 0; kk < c.bn / 16; ++kk)
      for (int r = 0; r < 4; ++r)
        for (int e = 0; e < 2; ++e, ++n) {
          const fr::pos a = A.coord(t, r, e); // (row, col) of the 64 x 16 A of step kk
          const uint32_t src = p_src(kk, uint32_t(r), uint32_t(e));
          CHECK(src == 2 * (4 * kk + uint32_t(r)) + uint32_t(e), "packing order");
          CHECK(int(src) == fr::acc_to_a(S, A, int(kk), r, e), "p_src is acc_to_a");
          const fr::pos sp = S.coord(t, int(src), 0);
          CHECK(sp.row == a.row && sp.col == int(16 * kk) + a.col, "P t %d kk %u r %d e %d: S (%d,%d), A (%d,%d)", t,
                kk, r, e, sp.row, sp.col, a.row, a.col);
        }
  }
  printf("ok  fragments d %u bn %u: %ld P elements taken from the same thread's S accumulators\n", c.d, c.bn, n);
}

// ---- 5. masks ------------------------------------------------------------------------------
static void check_masks() {
  std::mt19937 rng(20);
  long cases = 0, elems = 0;
  const uint32_t lens[] = {1, 2, 17, 63, 64, 65, 127, 128, 129, 200, 255, 256, 257, 1000};
  for (uint32_t sq : lens)
    for (uint32_t sk : lens)
      for (int causal = 0; causal < 2; ++causal)
        for (uint32_t bn : {64u, 80u, 128u, 176u, 192u})
          for (uint32_t bm : {128u, 192u}) {
          ++cases;
          for (uint32_t m0 = 0; m0 < sq; m0 += bm) {
            const uint32_t nb = kv_blocks(m0, bm, sq, sk, causal, bn);
            for (uint32_t row = m0; row < m0 + bm; ++row) {
              const int32_t lim = col_limit(int32_t(row), int32_t(sq), int32_t(sk), causal);
              for (uint32_t col = 0; col < sk + bn; ++col) {
                const bool visible = col < sk && (!causal || int64_t(col) <= int64_t(row) + sk - sq);
                CHECK(visible == (int32_t(col) < lim), "col_limit sq %u sk %u row %u col %u", sq, sk, row, col);
                if (visible && row < sq) CHECK(col < nb * bn, "block range misses sq %u sk %u row %u col %u", sq, sk, row, col);
              }
            }
            for (uint32_t j = 0; j < nb; ++j) {
              const uint32_t n0 = j * bn;
              if (!block_needs_mask(m0, n0, sq, sk, causal, bn))
                for (uint32_t row = m0; row < m0 + bm; ++row)
                  for (uint32_t col = n0; col < n0 + bn; ++col)
                    CHECK(int32_t(col) < col_limit(int32_t(row), int32_t(sq), int32_t(sk), causal),
                          "unmasked block hides a masked element sq %u sk %u m0 %u n0 %u", sq, sk, m0, n0);
              // The kernel's per-thread compare, on a sample of threads.
              for (uint32_t t = 0; t < 128; t += 5)
                for (uint32_t i = 0; i < bn / 2; ++i) {
                  const uint32_t row = m0 + acc_row(t, i); // warpgroup 0
                  const int32_t lim = col_limit(int32_t(row), int32_t(sq), int32_t(sk), causal);
                  const int32_t kcol = int32_t(8 * (i / 4) + i % 2);
                  const bool masked = kcol >= lim - int32_t(n0 + 2 * (t % 4));
                  CHECK(masked == !(int32_t(n0 + acc_col(t, i)) < lim), "kernel compare");
                  ++elems;
                }
            }
          }
        }
  (void)rng;
  printf("ok  masks: %ld shape cases, %ld per-thread compares\n", cases, elems);
}

// ---- 6. the stmatrix stores: the epilogue's O and P through shared memory ----------------
// Simulates store_box_bf16 for one warpgroup's m64n<cols> f32 accumulator:
// chunk ch (64 columns) into the box at byte box(ch) of the image `smem`
// (one slot per bf16, by byte / 2), each slot set to (row0 + row) * width +
// col + 1 of the element stored there. Returns the number of writes.
template <class Box>
static long stage_boxes(uint32_t cols, Box box, std::vector<uint32_t> &smem, uint32_t row0, uint32_t width) {
  const fr::layout Acc = fr::wgmma(int(cols), 16, fr::operand::d, fr::type::f32);
  const fr::layout St = fr::stmatrix(fr::m8n8, 4, false, fr::type::b16);
  long writes = 0;
  for (uint32_t ch = 0; ch < cols / kChunk; ++ch)
    for (uint32_t warp = 0; warp < 4; ++warp)
      for (uint32_t s = 0; s < 4; ++s) {
        uint32_t addr[32];
        for (uint32_t lane = 0; lane < 32; ++lane) addr[lane] = box(ch) + epi_offset(warp, lane, s);
        for (uint32_t lane = 0; lane < 32; ++lane)
          for (int q = 0; q < 4; ++q)
            for (int e = 0; e < 2; ++e) {
              const uint32_t pp = 4 * s + uint32_t(q);
              const uint32_t reg = 32 * ch + 2 * pp + uint32_t(e); // x = &acc[32 ch], packed[s][q] = (x[2p], x[2p+1])
              CHECK(epi_acc_index(s, uint32_t(q), uint32_t(e)) == 2 * pp + uint32_t(e), "packing order");
              const fr::pos v = Acc.coord(int(warp * 32 + lane), int(reg), 0);
              const fr::pos m = St.coord(int(lane), q, e);
              const uint32_t byte = addr[St.address_lane(m.matrix, m.row)] + 2 * uint32_t(m.col);
              CHECK(byte / 2 < smem.size(), "store inside the staging tile");
              if (byte / 2 >= smem.size()) continue;
              CHECK(smem[byte / 2] == 0, "slot written twice");
              smem[byte / 2] = (row0 + uint32_t(v.row)) * width + uint32_t(v.col) + 1;
              ++writes;
            }
      }
  return writes;
}

static void check_epilogue(const config &c) {
  std::vector<uint32_t> smem(c.q_bytes() / 2, 0);
  long writes = 0, ok = 0;
  for (uint32_t wg = 0; wg < c.consumers; ++wg)
    writes += stage_boxes(c.d, [&](uint32_t ch) { return epi_box(c.bm(), ch, wg); }, smem, wg * kWgM, c.d);
  // TMA store of box (ch, wg): 64 rows x 64 columns at rows 64 wg, columns 64 ch, swizzled.
  for (uint32_t wg = 0; wg < c.consumers; ++wg)
    for (uint32_t ch = 0; ch < c.chunks(); ++ch)
      for (uint32_t r = 0; r < kWgM; ++r)
        for (uint32_t cc = 0; cc < kChunk; ++cc) {
          const uint32_t got = smem[(epi_box(c.bm(), ch, wg) + sw128(r, 2 * cc)) / 2];
          const uint32_t want = (wg * kWgM + r) * c.d + ch * kChunk + cc + 1;
          CHECK(got == want, "O box wg %u ch %u (%u,%u): %u want %u", wg, ch, r, cc, got, want);
          ok += got == want;
          // The box is also where Q's rows of this warpgroup were (no other warpgroup's rows).
          CHECK(epi_box(c.bm(), ch, wg) + sw128(r, 2 * cc) == tile_offset(c.bm(), wg * kWgM + r, ch * kChunk + cc),
                "box over own Q rows");
        }
  CHECK(writes == long(c.bm() * c.d), "writes");
  printf("ok  epilogue d %u: %ld O elements stored by stmatrix and read back by the TMA store\n", c.d, ok);
}

// With config::p_smem: the S accumulators stored as P (stmatrix, p_box) are
// what the K-major A descriptors of O += P V (p_off) read, element for
// element, at the lowest and highest plan bases; and each warp stores only
// the 16 rows its own accumulators come from.
static void check_p_smem(const config &c) {
  if (!c.p_smem) return;
  std::vector<uint32_t> img(c.p_tile_bytes() / 2, 0);
  const long writes = stage_boxes(c.bn, p_box, img, 0, c.bn);
  CHECK(writes == long(kWgM * c.bn), "P writes");
  for (uint32_t warp = 0; warp < 4; ++warp)
    for (uint32_t lane = 0; lane < 32; ++lane)
      for (uint32_t s = 0; s < 4; ++s) CHECK(epi_row(warp, lane) / 16 == warp, "a warp's stmatrix rows are its own");
  long n = 0;
  const uint32_t hi = (kSharedWindow - c.smem_bytes() + 1023u) & ~1023u;
  for (uint32_t sbase : {0u, hi})
    for (uint32_t wg = 0; wg < c.consumers; ++wg) {
      const uint32_t base = sbase + c.off_p(wg);
      for (uint32_t kk = 0; kk < c.bn / 16; ++kk) {
        const uint64_t dp = kmajor_base(base + p_off(kk));
        for (uint32_t m = 0; m < kWgM; ++m)
          for (uint32_t k = 0; k < 16; ++k, ++n) {
            const uint32_t at = desc_addr(dp, td::major::k, m, k) - base;
            const uint32_t want = m * c.bn + 16 * kk + k + 1;
            CHECK(at / 2 < img.size() && img[at / 2] == want, "P d %u bn %u kk %u (%u,%u)", c.d, c.bn, kk, m, k);
          }
      }
    }
  printf("ok  P in shared memory d %u bn %u: %ld A-operand elements read where stmatrix stored them\n", c.d, c.bn,
         n);
}

// ---- 7. ping-pong turns ---------------------------------------------------------------------
// A model of the named barriers of the ring of n consumer warpgroups (n = 2
// or 3): warpgroup w, at each of its issue points, bar.sync(kTurnBar + w)
// (needs the previous warpgroup's arrival for that generation) and then
// passes the turn to next_turn(w, n) (passes_turn). A persistent CTA runs
// the protocol once per tile, back to back (a tile with no KV block has no
// issue point and no turns). Run under random interleavings over random tile
// sequences, it must finish, take turns 0, 1, ..., n - 1, 0, ... within each
// tile, never leave two arrivals pending on one barrier, and leave no
// arrival unmatched.
static void check_turns() {
  std::mt19937 rng(20);
  long runs = 0;
  for (uint32_t n : {2u, 3u})
    for (int trial = 0; trial < 2000; ++trial, ++runs) {
      std::vector<uint32_t> tiles(1 + rng() % 4);
      for (uint32_t &nb : tiles) nb = rng() % 7; // 0 to 6 KV blocks
      // Each warpgroup's program: per tile with blocks, (the last: an opening arrive), then its points.
      struct step {
        bool sync;     // bar.sync on its own barrier, else bar.arrive on the next one's
        uint32_t tile; // for the turn-order check
      };
      std::vector<step> prog[3];
      for (uint32_t t = 0; t < tiles.size(); ++t) {
        if (tiles[t] == 0) continue;
        const uint32_t points = tiles[t] + 1;
        prog[n - 1].push_back({false, t});
        for (uint32_t w = 0; w < n; ++w)
          for (uint32_t pt = 0; pt < points; ++pt) {
            prog[w].push_back({true, t});
            if (passes_turn(w, n, pt, points)) prog[w].push_back({false, t});
          }
      }
      int arrivals[3] = {0, 0, 0};
      size_t pc[3] = {0, 0, 0};
      std::vector<std::pair<uint32_t, uint32_t>> order; // (tile, warpgroup) of each sync
      auto done = [&]() {
        for (uint32_t w = 0; w < n; ++w)
          if (pc[w] < prog[w].size()) return false;
        return true;
      };
      while (!done()) {
        bool moved = false;
        const uint32_t first = rng() % n;
        for (uint32_t tries = 0; tries < n && !moved; ++tries) {
          const uint32_t w = (first + tries) % n;
          if (pc[w] >= prog[w].size()) continue;
          const step &st = prog[w][pc[w]];
          if (st.sync) {
            if (arrivals[w] == 0) continue;
            --arrivals[w];
            order.push_back({st.tile, w});
          } else {
            const uint32_t to = next_turn(w, n);
            ++arrivals[to];
            // A hardware barrier counts threads: a second generation of arrivals
            // before the sync would complete it without its owner.
            CHECK(arrivals[to] <= 1, "two pending arrivals on barrier %u (n %u)", to, n);
          }
          ++pc[w];
          moved = true;
        }
        if (!moved) break; // no warpgroup can go: deadlock
      }
      CHECK(done(), "ping-pong deadlock (%zu tiles, n %u)", tiles.size(), n);
      for (uint32_t w = 0; w < n; ++w) CHECK(arrivals[w] == 0, "unmatched arrivals on barrier %u: %d", w, arrivals[w]);
      uint32_t tile = ~0u, want = 0;
      for (const auto &[t, w] : order) {
        if (t != tile) tile = t, want = 0;
        CHECK(w == want, "turns go round within tile %u (n %u)", t, n);
        want = (want + 1) % n;
      }
    }
  printf("ok  ping-pong: %ld random schedules of 1 to 4 tiles, 2 and 3 warpgroups, turns in a ring, every "
         "arrival matched\n",
         runs);
}

// ---- 8. the persistent schedule ---------------------------------------------------------
// for_each_tile (attn.cuh) over every CTA of a grid of `ctas` visits each
// tile exactly once; tile_at is a bijection onto (m_blk, head, batch); with
// causal masking the indices run longest first and no CTA's share of KV
// blocks exceeds the mean by more than one round's spread.
static void check_schedule() {
  long grids = 0;
  const uint32_t sms = 132;
  struct shape {
    uint32_t sq, sk, heads, batch;
  };
  const shape shapes[] = {{1, 1, 1, 1},       {129, 129, 3, 2},     {1000, 777, 5, 3}, {8192, 8192, 16, 2},
                          {16384, 16384, 16, 1}, {1024, 1024, 16, 16}, {17, 4000, 32, 1}, {4000, 17, 8, 2}};
  for (const shape &sh : shapes)
    for (bool causal : {false, true})
      for (uint32_t ctas_want : {1u, 7u, sms, 100000u})
        for (uint32_t kBM : {128u, 192u}) {
        const uint32_t m_blocks = ceil_div(sh.sq, kBM), tiles = m_blocks * sh.heads * sh.batch;
        const uint32_t ctas = ctas_want < tiles ? ctas_want : tiles;
        std::vector<int> seen(tiles, 0);
        std::vector<long> work(ctas, 0);
        for (uint32_t cta = 0; cta < ctas; ++cta)
          for (uint32_t round = 0; round * ctas < tiles; ++round) {
            const uint32_t t = tile_index(cta, round, ctas, causal);
            if (t >= tiles) continue;
            const tile_coord tc = tile_at(t, m_blocks, sh.heads, sh.batch, causal);
            CHECK(tc.m_blk < m_blocks && tc.head < sh.heads && tc.batch < sh.batch, "tile %u out of range", t);
            const uint32_t key = (tc.batch * sh.heads + tc.head) * m_blocks + tc.m_blk;
            if (key < tiles) ++seen[key];
            work[cta] += kv_blocks(tc.m_blk * kBM, kBM, sh.sq, sh.sk, causal, 128) + 1;
          }
        for (uint32_t k = 0; k < tiles; ++k) CHECK(seen[k] == 1, "tile %u visited %d times", k, seen[k]);
        if (causal) {
          long prev = 1L << 40;
          for (uint32_t t = 0; t < tiles; ++t) {
            const tile_coord tc = tile_at(t, m_blocks, sh.heads, sh.batch, true);
            const long w = kv_blocks(tc.m_blk * kBM, kBM, sh.sq, sh.sk, true, 128);
            CHECK(w <= prev, "causal tiles not longest first at %u", t);
            prev = w;
          }
          // Balance: max - min of the CTAs' KV blocks at most the longest tile's (+1 per tile).
          long mx = 0, mn = 1L << 40;
          for (long w : work) mx = w > mx ? w : mx, mn = w < mn ? w : mn;
          const long longest = long(kv_blocks((m_blocks - 1) * kBM, kBM, sh.sq, sh.sk, true, 128)) + 1;
          CHECK(mx - mn <= longest, "causal imbalance %ld (longest tile %ld) sq %u ctas %u", mx - mn, longest, sh.sq,
                ctas);
        }
        ++grids;
      }
  printf("ok  schedule: %ld grids, every tile once, causal longest first and balanced\n", grids);
}

// ---- a negative check: a wrong V descriptor (LBO of the packed layout) is caught -----------
static void check_negative() {
  const int before = g_failures;
  const config c{128, 128, 2, true};
  const uint64_t wrong = td::with_start_address(
      td::encode(td::wgmma_smem{0, 1024, c.bn * kChunkBytes, 0, td::swizzle::b128}).value, 0x8000 + c.off_v(0));
  int bad = 0;
  for (uint32_t nn = 0; nn < c.d; ++nn)
    for (uint32_t k = 0; k < 16; ++k)
      bad += desc_addr(wrong, td::major::mn, nn, k) != 0x8000 + c.off_v(0) + tile_offset(c.bn, k, nn);
  CHECK(bad > 0, "a swapped LBO/SBO went unnoticed");
  CHECK(g_failures == before, "negative");
  printf("ok  negative: a V descriptor with LBO and SBO swapped misplaces %d of %u elements\n", bad, c.d * 16);
}

int main() {
  for (const config &c : configs::kAll) {
    check_plan(c);
    check_descriptors(c);
    check_fragments(c);
    check_epilogue(c);
    check_p_smem(c);
  }
  check_masks();
  check_turns();
  check_schedule();
  check_negative();
  if (g_failures) {
    printf("layout-check FAILED: %d check(s)\n", g_failures);
    return 1;
  }
  printf("layout-check OK\n");
  return 0;
}
