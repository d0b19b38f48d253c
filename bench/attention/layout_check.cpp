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

// The configurations attn.cu instantiates (keep in step).
static const config kConfigs[] = {{64, 192, 2, true, true}, {128, 128, 2, true}, {256, 64, 2, true},
                                  {64, 192, 2, true}, {128, 176, 2, true}, {256, 80, 2, false}};

// ---- 1. the plan ----------------------------------------------------------------------------
static void check_plan(const config &c) {
  CHECK(c.error() == nullptr, "config d %u: %s", c.d, c.error() ? c.error() : "");
  CHECK(c.off_q() % 1024 == 0, "Q aligned");
  for (uint32_t s = 0; s < c.stages; ++s) {
    CHECK(c.off_k(s) % 1024 == 0 && c.off_v(s) % 1024 == 0, "stage aligned");
    CHECK(c.off_k(s) >= c.q_bytes(), "K after Q");
    CHECK(c.off_v(s) >= c.off_k(c.stages - 1) + c.kv_bytes(), "V after K");
  }
  CHECK(c.off_bars() >= c.off_v(c.stages - 1) + c.kv_bytes(), "barriers after V");
  CHECK(c.off_qfull() % 8 == 0 && c.off_vempty(c.stages - 1) + 8 <= c.smem_bytes() - 1024, "barriers inside");
  CHECK(c.smem_bytes() <= kSmemLimit, "smem");
  // Chunk bases of every tile are 1024-aligned (TMA's 128B swizzle and base offset 0).
  CHECK((kBM * kChunkBytes) % 1024 == 0 && (c.bn * kChunkBytes) % 1024 == 0, "chunk alignment");
  printf("ok  plan d %u: bn %u, %u stages, %u B shared memory\n", c.d, c.bn, c.stages, c.smem_bytes());
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

static void check_descriptors(const config &c) {
  const uint32_t sbase = 0x8000; // any 1024-aligned shared window address
  long n = 0;
  // Q: A of S = Q K^T, 64 x 16 per warpgroup and k16 step.
  for (uint32_t wg = 0; wg < kConsumers; ++wg)
    for (uint32_t kk = 0; kk < c.d / 16; ++kk) {
      const uint64_t dq = q_desc(sbase + c.off_q(), wg, kk);
      for (uint32_t m = 0; m < kWgM; ++m)
        for (uint32_t k = 0; k < 16; ++k, ++n) {
          const uint32_t got = desc_addr(dq, td::major::k, m, k);
          const uint32_t want = sbase + c.off_q() + tile_offset(kBM, wg * kWgM + m, 16 * kk + k);
          CHECK(got == want, "Q d %u wg %u kk %u (%u,%u): %#x want %#x", c.d, wg, kk, m, k, got, want);
        }
    }
  for (uint32_t s = 0; s < c.stages; ++s) {
    // K: B of S = Q K^T, bn x 16 per k16 step (N = KV row, K = head-dim column).
    for (uint32_t kk = 0; kk < c.d / 16; ++kk) {
      const uint64_t dk = k_desc(sbase + c.off_k(s), c.bn, kk);
      for (uint32_t nn = 0; nn < c.bn; ++nn)
        for (uint32_t k = 0; k < 16; ++k, ++n) {
          const uint32_t got = desc_addr(dk, td::major::k, nn, k);
          const uint32_t want = sbase + c.off_k(s) + tile_offset(c.bn, nn, 16 * kk + k);
          CHECK(got == want, "K d %u kk %u (%u,%u): %#x want %#x", c.d, kk, nn, k, got, want);
        }
    }
    // V: B of O += P V, K = KV row (16 per step), N = head-dim column (d), MN-major.
    for (uint32_t kk = 0; kk < c.bn / 16; ++kk) {
      const uint64_t dv = v_desc(sbase + c.off_v(s), c.bn, kk);
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
  printf("ok  descriptors d %u: %ld operand elements of Q, K, V found where TMA put them\n", c.d, n);
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
        for (uint32_t bn : {64u, 80u, 128u, 176u, 192u}) {
          ++cases;
          for (uint32_t m0 = 0; m0 < sq; m0 += kBM) {
            const uint32_t nb = kv_blocks(m0, sq, sk, causal, bn);
            for (uint32_t row = m0; row < m0 + kBM; ++row) {
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
                for (uint32_t row = m0; row < m0 + kBM; ++row)
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

// ---- 6. epilogue ---------------------------------------------------------------------------
static void check_epilogue(const config &c) {
  const fr::layout O = fr::wgmma(int(c.d), 16, fr::operand::d, fr::type::f32);
  const fr::layout St = fr::stmatrix(fr::m8n8, 4, false, fr::type::b16);
  std::vector<uint32_t> smem(c.q_bytes() / 2, 0);
  long writes = 0, ok = 0;
  for (uint32_t wg = 0; wg < kConsumers; ++wg)
    for (uint32_t ch = 0; ch < c.chunks(); ++ch)
      for (uint32_t warp = 0; warp < 4; ++warp)
        for (uint32_t s = 0; s < 4; ++s) {
          uint32_t addr[32];
          for (uint32_t lane = 0; lane < 32; ++lane) addr[lane] = epi_box(ch, wg) + epi_offset(warp, lane, s);
          for (uint32_t lane = 0; lane < 32; ++lane)
            for (int q = 0; q < 4; ++q)
              for (int e = 0; e < 2; ++e) {
                const uint32_t pp = 4 * s + uint32_t(q);
                const uint32_t reg = 32 * ch + 2 * pp + uint32_t(e); // x = &o[32 ch], packed[s][q] = (x[2p], x[2p+1])
                CHECK(epi_acc_index(s, uint32_t(q), uint32_t(e)) == 2 * pp + uint32_t(e), "packing order");
                const fr::pos v = O.coord(int(warp * 32 + lane), int(reg), 0);
                const uint32_t id = (wg * kWgM + uint32_t(v.row)) * c.d + uint32_t(v.col) + 1;
                const fr::pos m = St.coord(int(lane), q, e);
                const uint32_t byte = addr[St.address_lane(m.matrix, m.row)] + 2 * uint32_t(m.col);
                CHECK(byte < c.q_bytes(), "inside Q");
                CHECK(smem[byte / 2] == 0, "slot written twice");
                smem[byte / 2] = id;
                ++writes;
              }
        }
  // TMA store of box (ch, wg): 64 rows x 64 columns at rows 64 wg, columns 64 ch, swizzled.
  for (uint32_t wg = 0; wg < kConsumers; ++wg)
    for (uint32_t ch = 0; ch < c.chunks(); ++ch)
      for (uint32_t r = 0; r < kWgM; ++r)
        for (uint32_t cc = 0; cc < kChunk; ++cc) {
          const uint32_t got = smem[(epi_box(ch, wg) + sw128(r, 2 * cc)) / 2];
          const uint32_t want = (wg * kWgM + r) * c.d + ch * kChunk + cc + 1;
          CHECK(got == want, "O box wg %u ch %u (%u,%u): %u want %u", wg, ch, r, cc, got, want);
          ok += got == want;
          // The box is also where Q's rows of this warpgroup were (no other warpgroup's rows).
          CHECK(epi_box(ch, wg) + sw128(r, 2 * cc) == tile_offset(kBM, wg * kWgM + r, ch * kChunk + cc),
                "box over own Q rows");
        }
  CHECK(writes == long(kBM * c.d), "writes");
  printf("ok  epilogue d %u: %ld O elements stored by stmatrix and read back by the TMA store\n", c.d, ok);
}

// ---- 7. ping-pong turns ---------------------------------------------------------------------
// A model of the two named barriers: warpgroup w, at each of its issue points,
// bar.sync(kTurnBar + w) (needs the other's arrival for that generation) and
// then passes the turn (passes_turn). Run under every interleaving choice
// (a random scheduler), it must finish, alternate 0, 1, 0, 1, ... and leave
// no arrival unmatched.
static void check_turns() {
  std::mt19937 rng(20);
  long runs = 0;
  for (uint32_t nblocks = 1; nblocks <= 6; ++nblocks)
    for (int trial = 0; trial < 200; ++trial, ++runs) {
      const uint32_t points = nblocks + 1;
      int arrivals[2] = {1, 0}; // warpgroup 1's first arrive on warpgroup 0's barrier
      uint32_t next[2] = {0, 0};
      std::vector<int> order;
      while (next[0] < points || next[1] < points) {
        const int w = int(rng() % 2);
        if (next[w] >= points || arrivals[w] == 0) {
          const int o = 1 - w;
          if (next[o] >= points || arrivals[o] == 0) break; // neither can go: deadlock
          continue;
        }
        --arrivals[w];
        order.push_back(w);
        if (passes_turn(uint32_t(w), next[w], points)) ++arrivals[1 - w];
        // A hardware barrier counts threads: a second generation of arrivals
        // before the sync would complete it without its owner.
        CHECK(arrivals[1 - w] <= 1, "two pending arrivals on barrier %d", 1 - w);
        ++next[w];
      }
      CHECK(next[0] == points && next[1] == points, "ping-pong deadlock at nblocks %u", nblocks);
      CHECK(arrivals[0] == 0 && arrivals[1] == 0, "unmatched arrivals nblocks %u: %d %d", nblocks, arrivals[0],
            arrivals[1]);
      for (size_t i = 0; i < order.size(); ++i) CHECK(order[i] == int(i % 2), "turns alternate");
    }
  printf("ok  ping-pong: %ld random schedules, turns alternate, every arrival matched\n", runs);
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
  for (const config &c : kConfigs) {
    check_plan(c);
    check_descriptors(c);
    check_fragments(c);
    check_epilogue(c);
  }
  check_masks();
  check_turns();
  check_negative();
  if (g_failures) {
    printf("layout-check FAILED: %d check(s)\n", g_failures);
    return 1;
  }
  printf("layout-check OK\n");
  return 0;
}
