//===- bench/gemm/layout_check.cpp - The GEMM's index arithmetic, checked on the host ---===//
//
// Runs every address computation of bench/gemm/gemm.cuh (through layout.h,
// the functions the kernel itself calls) on the host and checks it against
// the ISA models of tileapply/descriptor.h and tileapply/fragment.h:
//
//   1. every configuration the library builds fits 227 KiB, with its stages
//      and staging boxes 1024-aligned (the 128-byte swizzle and the
//      descriptors' base offset 0 need it);
//   2. mainloop: for each stage, warpgroup and k16 step, the element the wgmma
//      descriptor names (decoded, canonical K-major 128B-swizzled layout,
//      swizzled absolute address) is the element TMA wrote there: A (m, k)
//      and B (n, k) of the tile, including the two halves of B in a cluster;
//   3. epilogue: every accumulator of every thread (wgmma D layout), packed
//      into bf16x2 as the kernel packs it and stored by stmatrix (its register
//      layout and row-address lanes) at the kernel's addresses, then read back
//      by the TMA store's 128-byte swizzle, lands on its own (row, column) of
//      D, every element of the 64 x bn slice exactly once;
//   4. the tile order visits every tile exactly once (with and without
//      clusters, phantom tiles only past M);
//   5. the mbarrier protocol (full / empty rings, expect_tx, the consumers'
//      deferred release with one wgmma group in flight, cluster peers) on an
//      mbarrier model under random interleavings: no deadlock, no stage
//      overwritten while read, no stage read before it is full; also with
//      split-K's units of unequal k-block counts;
//   6. split-K: the slices of K partition the k-blocks, the workspace's
//      partials and counters do not overlap, a warp's partial stores are
//      contiguous and 16-byte aligned; the fix-up (store, arrive, the last
//      sums) on a model under random arrival orders over several launches:
//      each (tile, warpgroup) summed once, by the last, from every slice's
//      partial, bit-identical whatever the order, counters back at zero;
//   7. the shape heuristic: without a split it is pick_narrow's choice; it
//      splits only with fewer tiles than SMs and >= 8 k-blocks a slice.
//
// Prints one line per check and "layout-check OK"; exits 1 on any mismatch.
//
//===----------------------------------------------------------------------===//
#include <stdint.h>
#include <stdio.h>

#include <map>
#include <random>
#include <set>
#include <vector>

#include <tileapply/fragment.h>

#include "layout.h"

using namespace gemm;
namespace td = tile::desc;
namespace fr = tile::frag;

static int g_failures = 0;
static bool g_quiet = false; // the negative checks expect failures: do not print them
#define CHECK(cond, ...)                                                                                      \
  do {                                                                                                        \
    if (!(cond)) {                                                                                            \
      if (++g_failures <= 20 && !g_quiet) {                                                                   \
        printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                                \
        printf(__VA_ARGS__);                                                                                  \
        printf("\n");                                                                                         \
      }                                                                                                       \
    }                                                                                                         \
  } while (0)

// The configurations gemm.cu instantiates (keep in sync: gemm.cu's kVariants).
static const config kConfigs[] = {
    {256, 4, 2, 1, false, true}, {256, 4, 2, 2, false, true}, {128, 6, 2, 1, false, true},
    {256, 3, 4, 1, false, true}, {256, 4, 2, 1, false, false}, {256, 4, 2, 1, true, true},
    {256, 4, 2, 2, true, true},
    // fp8 (gemm_scaled_kernel): 128 K elements of one byte a stage row
    {256, 4, 2, 1, false, true, kE4m3}, {256, 4, 2, 2, false, true, kE4m3}, {128, 6, 2, 1, false, true, kE4m3, true},
    {256, 4, 2, 1, false, true, kE5m2}, {128, 6, 2, 1, false, true, kE5m2, true},
    {128, 6, 2, 1, false, true, kE4m3, true, false, true}, {128, 6, 2, 1, false, true, kE4m3},
    // promoted every 8 k-blocks
    {128, 6, 2, 1, false, true, kE4m3, true, false, false, false, 8},
    {128, 6, 2, 1, false, true, kE5m2, true, false, false, false, 8},
    {128, 6, 2, 2, false, true, kE4m3, true, false, false, false, 8},
    {128, 6, 2, 2, false, true, kE5m2, true, false, false, false, 8},
    // split-K (gemm_splitk_kernel, gemm_scaled_splitk_kernel)
    {256, 4, 2, 1, false, true, kBf16, false, true}, {128, 6, 2, 1, false, true, kBf16, false, true},
    {256, 4, 2, 1, true, true, kBf16, false, true}, {128, 6, 2, 1, false, true, kE4m3, true, true},
    {128, 6, 2, 1, false, true, kE5m2, true, true},
    // skinny M (gemm_swap_kernel)
    {16, 12, 0, 1, false, true, kBf16, false, true, false, true},
    {32, 11, 0, 1, false, true, kBf16, false, true, false, true},
    {64, 9, 0, 1, false, true, kBf16, false, true, false, true},
};

static void check_plan(const config &c) {
  CHECK(c.error() == nullptr, "bn %u: %s", c.bn, c.error());
  CHECK(c.smem_bytes() <= kSmemLimit, "bn %u stages %u: %u bytes", c.bn, c.stages, c.smem_bytes());
  for (uint32_t s = 0; s < c.stages; ++s) {
    CHECK(c.off_a(s) % 1024 == 0 && c.off_b(s) % 1024 == 0, "stage %u not 1024-aligned", s);
    CHECK(c.off_b(s) + c.b_stage_bytes() <= c.off_epi(0, 0), "stage %u overlaps the staging boxes", s);
    CHECK((c.b_box_rows() * 128) % 1024 == 0, "B half not 1024-aligned");
  }
  for (uint32_t wg = 0; wg < kConsumers; ++wg)
    for (uint32_t b = 0; b < c.epi_bufs; ++b) CHECK(c.off_epi(wg, b) % 1024 == 0, "staging box not aligned");
  CHECK(c.off_full(0) % 8 == 0 && c.off_empty(c.stages) + 1024 == c.smem_bytes(), "barriers");
  CHECK(c.off_full(0) >= (c.epi_bufs ? c.off_epi(kConsumers - 1, c.epi_bufs - 1) + kEpiBoxBytes
                                      : c.off_b(c.stages - 1) + c.b_stage_bytes()),
        "barriers overlap");
}

// ---- 2. mainloop descriptors ----------------------------------------------------------------

// Absolute shared address of element (row, k) of a K-major tile that TMA
// wrote at 1024-aligned `base` with the 128-byte swizzle (rows of 128 bytes:
// 64 bf16 or 128 fp8; `eb` bytes an element).
static uint32_t tma_addr(uint32_t base, uint32_t row, uint32_t k, uint32_t eb) { return base + sw128(row, eb * k); }

// The address wgmma reads for element (mn, k) of the operand described by `d`
// (elements of `eb` bytes: the canonical layout of 16- or 8-bit types).
static uint32_t wgmma_addr(uint64_t d, uint32_t mn, uint32_t k, uint32_t eb) {
  const td::wgmma_smem s = td::decode_wgmma_smem(d);
  const td::canonical L = td::canonical_layout(td::major::k, s.mode, 8 * eb);
  return td::swizzle_address(s.mode, s.start_address + L.offset(mn, k, s.lbo, s.sbo));
}

static void check_descriptors(const config &c, uint32_t sbase) {
  long n = 0;
  const uint32_t eb = c.elem_bytes();
  // TMA's box: bk() elements of eb bytes, one 128-byte swizzle row.
  CHECK(c.bk() * eb == 128 && c.wgmma_k() * eb == 32, "dtype %u: stage row or wgmma K", c.dtype);
  for (uint32_t s = 0; s < c.stages; ++s)
    for (uint32_t k16 = 0; k16 < c.bk() / c.wgmma_k(); ++k16) { // the kernel's four wgmma a stage
      for (uint32_t wg = 0; wg < kConsumers; ++wg) {
        // The kernel: a_tile = sbase + wg * 64 * 128; a_base = a_tile + off_a(stage).
        const uint64_t d = operand_desc(sbase + wg * kWgM * 128 + c.off_a(s), k16);
        const td::wgmma_smem f = td::decode_wgmma_smem(d);
        CHECK(f.mode == td::swizzle::b128 && f.sbo == 1024 && f.lbo == 16 && f.base_offset == 0,
              "A descriptor fields");
        for (uint32_t i = 0; i < kWgM; ++i)
          for (uint32_t k = 0; k < c.wgmma_k(); ++k, ++n)
            CHECK(wgmma_addr(d, i, k, eb) == tma_addr(sbase + c.off_a(s), wg * kWgM + i, k16 * c.wgmma_k() + k, eb),
                  "A stage %u wg %u k16 %u element (%u, %u)", s, wg, k16, i, k);
      }
      const uint64_t d = operand_desc(sbase + c.off_b(s), k16);
      for (uint32_t j = 0; j < c.bn; ++j) {
        // The CTA of rank j / b_box_rows loaded these rows at its offset.
        const uint32_t rank = j / c.b_box_rows(), row = j % c.b_box_rows();
        const uint32_t half_base = sbase + c.off_b(s) + rank * c.b_box_rows() * 128;
        for (uint32_t k = 0; k < c.wgmma_k(); ++k, ++n)
          CHECK(wgmma_addr(d, j, k, eb) == tma_addr(half_base, row, k16 * c.wgmma_k() + k, eb),
                "B stage %u k16 %u element (%u, %u)", s, k16, j, k);
      }
    }
  printf("ok  descriptors bn %u stages %u cluster %u dtype %u base 0x%x: %ld elements read where TMA wrote them\n",
         c.bn, c.stages, c.cluster, c.dtype, sbase, n);
}

// ---- 3. epilogue -----------------------------------------------------------------------------

// The skinny epilogue (config::swap): acc_coord names, for every register of
// every thread, the D^T element the ISA's accumulator layout puts there, and
// each element of the 64 x bn slice exactly once.
static void check_transposed(const config &c) {
  const fr::layout D = fr::wgmma(int(c.bn), 16, fr::operand::d, fr::type::f32);
  CHECK(D.ok() && D.regs() == int(c.acc_regs()), "bn %u: accumulator layout", c.bn);
  std::vector<int> seen(kWgM * c.bn, 0);
  long ok = 0;
  for (uint32_t t = 0; t < 128; ++t)
    for (uint32_t r = 0; r < c.acc_regs(); ++r) {
      const fr::pos p = D.coord(int(t), int(r), 0);
      const acc_pos q = acc_coord(t, r);
      CHECK(q.row == uint32_t(p.row) && q.col == uint32_t(p.col), "bn %u thread %u register %u: (%u, %u), ISA (%d, %d)",
            c.bn, t, r, q.row, q.col, p.row, p.col);
      if (q.row < kWgM && q.col < c.bn) ok += ++seen[q.row * c.bn + q.col] == 1;
    }
  CHECK(ok == long(kWgM * c.bn), "bn %u: %ld of %u elements stored once", c.bn, ok, kWgM * c.bn);
  printf("ok  skinny epilogue bn %u: %ld accumulators stored to their D^T element\n", c.bn, ok);
}

static void check_epilogue(const config &c) {
  const fr::layout D = fr::wgmma(int(c.bn), 16, fr::operand::d, fr::type::f32);
  const fr::layout S = fr::stmatrix(fr::m8n8, 4, false, fr::type::b16);
  CHECK(D.ok() && S.ok(), "fragment layouts");
  CHECK(D.regs() == int(c.acc_regs()) && D.threads() == 128, "accumulator count");
  // value id of D element (row, col) of the warpgroup's 64 x bn slice: row * bn + col + 1
  std::vector<uint32_t> want(kWgM * c.bn);
  std::vector<uint32_t> acc(128 * c.acc_regs());
  for (int t = 0; t < 128; ++t)
    for (int r = 0; r < D.regs(); ++r) {
      const fr::pos p = D.coord(t, r, 0);
      acc[t * c.acc_regs() + r] = uint32_t(p.row) * c.bn + uint32_t(p.col) + 1;
    }
  // The staging buffers (one per box here: we check placement, not reuse), 16-bit slots.
  std::vector<uint32_t> smem(c.boxes() * kEpiBoxBytes / 2, 0);
  long writes = 0;
  for (uint32_t b = 0; b < c.boxes(); ++b)
    for (uint32_t warp = 0; warp < 4; ++warp)
      for (uint32_t s = 0; s < 4; ++s) {
        // The row addresses the 32 lanes give (epi_offset), in this box's buffer.
        uint32_t addr[32];
        for (uint32_t lane = 0; lane < 32; ++lane) addr[lane] = b * kEpiBoxBytes + epi_offset(warp, lane, s);
        for (uint32_t lane = 0; lane < 32; ++lane)
          for (int q = 0; q < 4; ++q)
            for (int e = 0; e < 2; ++e) {
              // The kernel: packed[s][q] = cvt(hi = x[2p + 1], lo = x[2p]), p = 4 s + q, x = &acc[32 b].
              const uint32_t p = 4 * s + uint32_t(q);
              CHECK(epi_acc_index(s, uint32_t(q), uint32_t(e)) == 2 * p + uint32_t(e), "packing order");
              const uint32_t reg = 32 * b + 2 * p + uint32_t(e);
              const uint32_t value = acc[(warp * 32 + lane) * c.acc_regs() + reg];
              const fr::pos m = S.coord(int(lane), q, e); // (row, col) in matrix m.matrix
              const int src = S.address_lane(m.matrix, m.row);
              const uint32_t byte = addr[src] + 2 * uint32_t(m.col);
              CHECK(smem[byte / 2] == 0, "slot written twice");
              smem[byte / 2] = value;
              ++writes;
            }
      }
  // The TMA store of each box: row r, column cc read from sw128(r, 2 cc).
  long ok = 0;
  for (uint32_t b = 0; b < c.boxes(); ++b)
    for (uint32_t r = 0; r < kWgM; ++r)
      for (uint32_t cc = 0; cc < kEpiCols; ++cc) {
        const uint32_t got = smem[(b * kEpiBoxBytes + sw128(r, 2 * cc)) / 2];
        const uint32_t exp = r * c.bn + b * kEpiCols + cc + 1;
        CHECK(got == exp, "box %u (%u, %u): got id %u, want %u", b, r, cc, got, exp);
        ok += got == exp;
      }
  CHECK(writes == long(kWgM * c.bn), "writes %ld", writes);
  printf("ok  epilogue bn %u: %ld accumulators stored by stmatrix and read back by the TMA store in place\n", c.bn,
         ok);
}

// ---- 4. tile order -----------------------------------------------------------------------------

static void check_schedule(uint32_t M, uint32_t N, uint32_t bn, uint32_t cluster) {
  const schedule s{ceil_div(M, kBM), ceil_div(N, bn), cluster};
  std::set<std::pair<uint32_t, uint32_t>> seen;
  long phantoms = 0;
  for (uint32_t u = 0; u < s.units(); ++u)
    for (uint32_t r = 0; r < cluster; ++r) {
      const tile_pos p = s.tile(u, r);
      CHECK(p.n_blk < s.n_blocks, "n block %u", p.n_blk);
      if (p.m_blk >= s.m_blocks) {
        CHECK(p.m_blk == s.m_blocks && cluster == 2 && r == 1, "phantom tile (%u, %u)", p.m_blk, p.n_blk);
        ++phantoms;
        continue;
      }
      CHECK(seen.insert({p.m_blk, p.n_blk}).second, "tile (%u, %u) twice", p.m_blk, p.n_blk);
    }
  CHECK(seen.size() == size_t(s.m_blocks) * s.n_blocks, "%zu of %u tiles", seen.size(), s.m_blocks * s.n_blocks);
  printf("ok  tile order %u x %u, bn %u, cluster %u: %zu tiles once each, %ld phantom\n", M, N, bn, cluster,
         seen.size(), phantoms);
}

// ---- 5. the mbarrier protocol ------------------------------------------------------------------

// An mbarrier: pending arrivals and transaction bytes of the current phase.
struct mbar {
  uint32_t count = 0, pending = 0, phase = 0;
  long tx = 0;
  void init(uint32_t n) { count = pending = n; }
  void complete_if_done() {
    if (pending == 0 && tx == 0) {
      ++phase;
      pending = count;
    }
  }
  void arrive() {
    CHECK(pending > 0, "arrive on a completed phase");
    --pending;
    complete_if_done();
  }
  void expect_arrive(long bytes) {
    tx += bytes;
    arrive();
  }
  void complete_tx(long bytes) {
    tx -= bytes;
    complete_if_done();
  }
  // try_wait.parity(P): true when the phase of parity P has completed, i.e.
  // the current phase's parity is not P.
  bool test(uint32_t parity) const { return (phase & 1) != parity; }
};

struct cta {
  std::vector<mbar> full, empty;
  std::vector<int> round_in;   // round the stage's data belongs to (-1: being written)
  std::vector<int> readers;    // consumer warpgroups still reading the stage
};

// Simulates the CTAs of one cluster running `units` units of `kblocks`
// k-blocks with the kernel's loops, one step of one thread at a time in a
// random order. Loads land (complete_tx) some random steps after issue; a
// wgmma group reads its stage from issue until it retires (the next k-block's
// wait_group 1, or the wait_group 0 at the end of the tile). `mutation`
// breaks the protocol on purpose (the check must then fail): 1 the producer
// does not wait for an empty stage, 2 a consumer frees the stage of the group
// it just issued, 3 the producer waits for the wrong parity.
static bool simulate(const config &c, const std::vector<uint32_t> &kbs, uint32_t seed, int mutation = 0) {
  std::mt19937 rng(seed);
  // kbs[u]: the k-blocks of unit u (all of K, or a split-K slice); first[u]: its first k-block's global index.
  const uint32_t units = uint32_t(kbs.size());
  std::vector<uint32_t> first(units + 1, 0);
  for (uint32_t u = 0; u < units; ++u) first[u + 1] = first[u] + kbs[u];
  const uint32_t n = c.cluster;
  std::vector<cta> C(n);
  for (auto &x : C) {
    x.full.resize(c.stages);
    x.empty.resize(c.stages);
    x.round_in.assign(c.stages, -2);
    x.readers.assign(c.stages, 0);
    for (uint32_t s = 0; s < c.stages; ++s) {
      x.full[s].init(1);
      x.empty[s].init(c.empty_arrivals());
    }
  }
  // Threads: per CTA one producer and kConsumers consumers, each a state machine.
  struct thread {
    uint32_t cta, role; // role 0 producer, 1.. consumer warpgroup
    ring r;
    uint32_t unit = 0, kb = 0, prev = 0;
    int state = 0;      // consumer: 0 wait full, 1 issued (in flight), done = 9
    bool done = false;
    std::vector<int> inflight; // consumer: stages whose wgmma group is in flight
  };
  std::vector<thread> T;
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t role = 0; role <= kConsumers; ++role) T.push_back({i, role, {}, 0, 0, 0, 0, false, {}});
  struct load {
    uint32_t dst_cta, stage;
    long bytes;
    int round;
    int delay;
  };
  std::vector<load> flying;
  long steps = 0;
  auto release = [&](uint32_t stage) {
    // One arrival per consumer warp (the model moves a warpgroup's four warps
    // together) on every CTA the stage's loads wrote.
    for (uint32_t dst = 0; dst < n; ++dst)
      for (int warp = 0; warp < 4; ++warp) C[dst].empty[stage].arrive();
  };
  for (;;) {
    bool all_done = true;
    for (auto &t : T) all_done &= t.done;
    if (all_done && flying.empty()) break;
    if (++steps > 2000000) {
      if (!g_quiet) printf("FAIL protocol: no progress after %ld steps (deadlock?)\n", steps);
      ++g_failures;
      return false;
    }
    // Land a load now and then.
    if (!flying.empty() && rng() % 3 == 0) {
      const size_t i = rng() % flying.size();
      load l = flying[i];
      flying.erase(flying.begin() + long(i));
      cta &x = C[l.dst_cta];
      CHECK(x.readers[l.stage] == 0, "a load landed in stage %u while it was being read", l.stage);
      x.round_in[l.stage] = l.round;
      x.full[l.stage].complete_tx(l.bytes);
      continue;
    }
    thread &t = T[rng() % T.size()];
    if (t.done) continue;
    // With mutation 1 a producer may run ahead without bound: stop it at the end.
    cta &x = C[t.cta];
    const uint32_t round_of = t.unit < units ? first[t.unit] + t.kb : 0; // the k-block's global index
    if (t.role == 0) {
      if (t.unit >= units) {
        t.done = true;
        continue;
      }
      const uint32_t parity = mutation == 3 ? t.r.phase : t.r.phase ^ 1;
      if (mutation != 1 && !x.empty[t.r.stage].test(parity)) continue; // spin
      x.full[t.r.stage].expect_arrive(long(c.stage_bytes()));
      // A: own CTA; B: all of it (cluster 1) or this CTA's half to every CTA.
      flying.push_back({t.cta, t.r.stage, long(c.a_stage_bytes()), int(round_of), 0});
      for (uint32_t dst = 0; dst < n; ++dst)
        flying.push_back({dst, t.r.stage, long(c.b_stage_bytes() / n), int(round_of), 0});
      t.r.advance(c.stages);
      if (++t.kb == kbs[t.unit]) {
        t.kb = 0;
        ++t.unit;
      }
    } else {
      if (t.unit >= units) {
        t.done = true;
        continue;
      }
      if (!x.full[t.r.stage].test(t.r.phase)) continue; // spin
      CHECK(x.round_in[t.r.stage] == int(round_of), "cta %u stage %u holds round %d, consumer wants %u", t.cta,
            t.r.stage, x.round_in[t.r.stage], round_of);
      x.readers[t.r.stage]++; // issue this k-block's group
      // The promoted loops (config::promote) keep a group in flight only
      // inside a promotion group of promote_every k-blocks, whose bounds
      // for warpgroup w lie at kb = G n - w G / 2 of the unit (gemm.cuh);
      // promote_every 1 waits for every group.
      const uint32_t G = c.promote ? c.promote_every : 0, shift = (t.role - 1) * (G / 2);
      const bool overlapped = c.overlap && G != 1;
      const bool group_start = t.kb == 0 || (G > 1 && (t.kb + shift) % G == 0);
      if (overlapped) {
        // wait_group 1: the previous group retires; its stage is freed.
        if (!group_start) x.readers[t.prev]--;
        if (mutation == 2)
          release(t.r.stage);
        else if (!group_start)
          release(t.prev);
      } else {
        x.readers[t.r.stage]--; // wait_group 0
        release(t.r.stage);
      }
      t.prev = t.r.stage;
      t.r.advance(c.stages);
      const bool last = ++t.kb == kbs[t.unit];
      if (overlapped && (last || (G > 1 && (t.kb + shift) % G == 0))) {
        x.readers[t.prev]--; // wait_group 0 at the end of the group or tile
        if (mutation != 2) release(t.prev);
      }
      if (last) {
        t.kb = 0;
        ++t.unit;
      }
    }
  }
  for (auto &x : C)
    for (uint32_t s = 0; s < c.stages; ++s) CHECK(x.readers[s] == 0, "stage %u still read at the end", s);
  return true;
}

static bool simulate(const config &c, uint32_t kblocks, uint32_t units, uint32_t seed, int mutation = 0) {
  return simulate(c, std::vector<uint32_t>(units, kblocks), seed, mutation);
}

/// The k-blocks of each unit of a split-K launch of `tiles` tiles,
/// `kblocks` k-blocks each, the first `whole` whole and the others in `S`
/// slices (layout.h's split_unit, as gemm.cuh's work() takes them).
static std::vector<uint32_t> unit_kblocks(uint32_t tiles, uint32_t kblocks, uint32_t S, uint32_t whole = 0) {
  std::vector<uint32_t> kbs;
  for (uint32_t u = 0; u < split_units(tiles, whole, S); ++u) {
    const unit_work w = split_unit(u, whole, S, kblocks);
    kbs.push_back(w.kb1 - w.kb0);
  }
  return kbs;
}

static void check_protocol(const config &c) {
  int runs = 0;
  for (uint32_t seed = 1; seed <= 40; ++seed)
    for (uint32_t kb : {1u, 2u, 3u, 7u, 13u})
      for (uint32_t units : {1u, 3u}) {
        simulate(c, kb, units, seed * 977 + kb * 13 + units);
        ++runs;
      }
  if (c.split)
    // Slices of 2, 2 and 3 (7 k-blocks in 3) and of 1 (S = kblocks) back to back.
    for (uint32_t seed = 1; seed <= 40; ++seed)
      for (auto ts : {std::pair<uint32_t, uint32_t>{7, 3}, {3, 3}, {9, 4}}) {
        simulate(c, unit_kblocks(2, ts.first, ts.second), seed * 131 + ts.first);
        // The tail split: one tile whole, then the other's slices.
        simulate(c, unit_kblocks(2, ts.first, ts.second, 1), seed * 137 + ts.first);
        runs += 2;
      }
  printf("ok  mbarrier protocol stages %u cluster %u overlap %d%s promote_every %u: %d random interleavings, no deadlock "
         "or race\n",
         c.stages, c.cluster, int(c.overlap), c.split ? " split-K" : "", c.promote ? c.promote_every : 0, runs);
}

// ---- 6. split-K --------------------------------------------------------------------------------

static void check_slices() {
  long n = 0;
  for (uint32_t kb = 1; kb <= 300; ++kb)
    for (uint32_t S = 1; S <= kMaxSplits && S <= kb; ++S) {
      uint32_t next = 0, lo = ~0u, hi = 0;
      for (uint32_t s = 0; s < S; ++s, ++n) {
        const kslice ks = k_slice(kb, s, S);
        CHECK(ks.begin == next && ks.end > ks.begin, "kblocks %u S %u slice %u: [%u, %u)", kb, S, s, ks.begin, ks.end);
        next = ks.end;
        lo = ks.end - ks.begin < lo ? ks.end - ks.begin : lo;
        hi = ks.end - ks.begin > hi ? ks.end - ks.begin : hi;
      }
      CHECK(next == kb && hi - lo <= 1, "kblocks %u S %u: covers %u, sizes %u to %u", kb, S, next, lo, hi);
    }
  printf("ok  split-K slices: %ld slices of 1 to 300 k-blocks, contiguous, nonempty, sizes within one\n", n);
}

static void check_workspace(const config &c) {
  long n = 0;
  for (uint32_t tiles : {1u, 3u, 64u})
    for (uint32_t S : {1u, 2u, 5u, kMaxSplits}) {
      const split_ws ws{tiles, S, c.acc_regs()};
      CHECK(ws.counter_bytes() >= uint64_t(tiles) * kConsumers * 4 && ws.counter_bytes() % 256 == 0, "counters");
      uint64_t next = 0;
      for (uint32_t t = 0; t < tiles; ++t)
        for (uint32_t s = 0; s < S; ++s)
          for (uint32_t wg = 0; wg < kConsumers; ++wg, ++n) {
            // Partials back to back (none overlaps another), each 16-byte aligned.
            CHECK(ws.partial(t, s, wg) == next, "partial (%u, %u, %u)", t, s, wg);
            CHECK((ws.counter_bytes() + 4 * ws.partial(t, s, wg)) % 16 == 0, "partial alignment");
            next += ws.partial_floats();
          }
      CHECK(ws.bytes() == ws.counter_bytes() + 4 * next, "workspace bytes");
    }
  // Within one partial: every float once; a warp's lanes 512 contiguous bytes a chunk.
  std::vector<int> seen(128 * c.acc_regs(), 0);
  for (uint32_t tid = 0; tid < 128; ++tid)
    for (uint32_t chunk = 0; chunk < c.acc_regs() / 4; ++chunk) {
      const uint32_t i = partial_index(tid, chunk);
      CHECK(i % 4 == 0 && i + 4 <= seen.size(), "partial index %u", i);
      for (uint32_t e = 0; e < 4 && i + e < seen.size(); ++e) seen[i + e]++;
      if (tid % 32) CHECK(i == partial_index(tid - 1, chunk) + 4, "lanes %u, %u not contiguous", tid - 1, tid);
    }
  for (int x : seen) CHECK(x == 1, "a float of the partial stored %d times", x);
  printf("ok  split-K workspace bn %u: %ld partials apart and aligned, each float stored once, warps contiguous\n",
         c.bn, n);
}

// The fix-up of gemm.cuh's split_fixup on a model: `tiles` x 2 warpgroups,
// S slices each, over `launches` launches; every (tile, slice, warpgroup)
// is a thread of two steps: store its partial (values of mixed magnitude,
// so that the order of the sum shows in the bits), then arrive on the
// counter and, if it saw S - 1, sum the S partials and reset the counter.
// The steps of all of them are interleaved at random. `mutation` 1: the
// last sums in arrival order; 2: a slice arrives before it stores.
static bool simulate_fixup(uint32_t tiles, uint32_t S, uint32_t launches, uint32_t seed, int mutation = 0) {
  std::mt19937 rng(seed);
  constexpr uint32_t kVals = 4; // floats a partial, in the model
  const uint32_t pairs = tiles * kConsumers;
  std::vector<float> value(pairs * S * kVals);
  std::uniform_real_distribution<float> mant(1.f, 2.f);
  for (float &v : value) v = mant(rng) * float(1u << (rng() % 24)) * (rng() % 2 ? 1.f : -1.f);
  std::vector<uint32_t> counter(pairs, 0);
  std::vector<float> ref(pairs * kVals); // the slice-order sums
  for (uint32_t pr = 0; pr < pairs; ++pr)
    for (uint32_t e = 0; e < kVals; ++e) {
      float x = value[(pr * S) * kVals + e];
      for (uint32_t s = 1; s < S; ++s) x += value[(pr * S + s) * kVals + e];
      ref[pr * kVals + e] = x;
    }
  bool ok = true;
  for (uint32_t launch = 0; launch < launches; ++launch) {
    std::vector<float> ws(pairs * S * kVals, std::nanf("")); // stale from "before": NaN
    std::vector<int> step(pairs * S, 0), sums(pairs, 0);
    std::vector<std::vector<uint32_t>> order(pairs);
    std::vector<uint32_t> live(pairs * S);
    for (uint32_t i = 0; i < live.size(); ++i) live[i] = i;
    while (!live.empty()) {
      const uint32_t li = rng() % live.size(), id = live[li], pr = id / S, s = id % S;
      const bool store_now = mutation == 2 ? step[id] == 1 : step[id] == 0;
      if (store_now)
        for (uint32_t e = 0; e < kVals; ++e) ws[id * kVals + e] = value[id * kVals + e];
      else {
        order[pr].push_back(s);
        if (counter[pr]++ == S - 1) {
          ++sums[pr];
          for (uint32_t e = 0; e < kVals; ++e) {
            float x = 0;
            for (uint32_t k = 0; k < S; ++k) {
              const uint32_t from = mutation == 1 ? order[pr][k] : k;
              x = k == 0 ? ws[(pr * S + from) * kVals + e] : x + ws[(pr * S + from) * kVals + e];
            }
            // Bit-identical to the slice-order sum, whatever the arrival order.
            if (!(x == ref[pr * kVals + e])) {
              ok = false;
              CHECK(false, "tile %u wg %u: sum %g, want %g", pr / kConsumers, pr % kConsumers, double(x),
                    double(ref[pr * kVals + e]));
            }
          }
          counter[pr] = 0;
        }
      }
      if (++step[id] == 2) live.erase(live.begin() + li);
    }
    for (uint32_t pr = 0; pr < pairs; ++pr) {
      CHECK(sums[pr] == 1 && counter[pr] == 0, "launch %u tile %u wg %u: summed %d times, counter %u", launch,
            pr / kConsumers, pr % kConsumers, sums[pr], counter[pr]);
      ok &= sums[pr] == 1 && counter[pr] == 0;
    }
  }
  return ok;
}

static void check_fixup() {
  int runs = 0;
  for (uint32_t seed = 1; seed <= 30; ++seed)
    for (uint32_t S : {1u, 2u, 3u, 7u, kMaxSplits}) {
      simulate_fixup(5, S, 3, seed * 7919 + S);
      ++runs;
    }
  printf("ok  split-K fix-up: %d random arrival orders x 3 launches, each tile summed once by the last, "
         "bit-identical, counters back at zero\n",
         runs);
  for (int mutation = 1; mutation <= 2; ++mutation) {
    const int before = g_failures;
    g_quiet = true;
    for (uint32_t seed = 1; seed <= 20 && g_failures == before; ++seed) simulate_fixup(5, 7, 3, seed, mutation);
    g_quiet = false;
    const bool caught = g_failures > before;
    g_failures = before;
    CHECK(caught, "the fix-up model did not catch mutation %d", mutation);
    if (caught) printf("ok  the fix-up model catches broken fix-up %d\n", mutation);
  }
}

// ---- 6b. split units: every k-block of every tile in exactly one unit ------------------------------

static void check_split_units() {
  long plans = 0;
  for (uint32_t tiles : {1u, 7u, 132u, 288u, 300u})
    for (uint32_t kblocks : {1u, 5u, 48u, 63u})
      for (uint32_t splits = 1; splits <= kMaxSplits && splits <= kblocks; ++splits)
        for (uint32_t whole : {0u, tiles / 2, tiles - 1, tiles}) {
          ++plans;
          std::vector<uint32_t> seen(size_t(tiles) * kblocks, 0), slices(size_t(tiles) * splits, 0);
          const uint32_t units = split_units(tiles, whole, splits);
          for (uint32_t u = 0; u < units; ++u) {
            const unit_work w = split_unit(u, whole, splits, kblocks);
            CHECK(w.tile < tiles && w.kb0 < w.kb1 && w.kb1 <= kblocks, "unit %u: tile %u, k-blocks [%u, %u)", u,
                  w.tile, w.kb0, w.kb1);
            if (w.tile >= tiles || w.kb1 > kblocks) continue;
            for (uint32_t kb = w.kb0; kb < w.kb1; ++kb) ++seen[size_t(w.tile) * kblocks + kb];
            CHECK(w.split == (w.tile >= whole && splits > 1), "unit %u: split %d", u, w.split);
            if (w.tile >= whole) {
              CHECK(w.ws_tile == w.tile - whole && w.slice < splits, "unit %u: workspace tile %u, slice %u", u,
                    w.ws_tile, w.slice);
              ++slices[size_t(w.tile) * splits + w.slice];
            } else {
              CHECK(w.kb0 == 0 && w.kb1 == kblocks, "whole tile %u: k-blocks [%u, %u)", w.tile, w.kb0, w.kb1);
            }
          }
          for (uint32_t i = 0; i < seen.size(); ++i)
            CHECK(seen[i] == 1, "%u tiles, %u whole, S %u: tile %u k-block %u in %u units", tiles, whole, splits,
                  i / kblocks, i % kblocks, seen[i]);
          for (uint32_t t = whole; t < tiles; ++t)
            for (uint32_t sl = 0; sl < splits; ++sl)
              CHECK(slices[size_t(t) * splits + sl] == 1, "tile %u slice %u", t, sl);
        }
  printf("ok  split units: %ld plans (tiles whole, then slices), each k-block of each tile in one unit\n", plans);
}

// ---- 7. the shape heuristic with split-K ---------------------------------------------------------

static void check_pick_shape() {
  const uint32_t sms = 132;
  long n = 0, split = 0, tail = 0;
  for (uint32_t m = 1; m <= 16384; m = m * 3 + 7)
    for (uint32_t nn = 8; nn <= 32768; nn = nn * 2 + 8)
      for (uint32_t kb = 1; kb <= 1024; kb = kb * 2 + 1)
        for (bool fp8 : {false, true}) {
          ++n;
          const shape_pick off = pick_shape(m, nn, kb, sms, fp8, false), p = pick_shape(m, nn, kb, sms, fp8);
          CHECK(off.splits == 1 && off.narrow == (fp8 || pick_narrow(m, nn, sms)), "split off: the old pick");
          if (p.splits == 1) {
            CHECK(p.narrow == off.narrow, "%u x %u, %u k-blocks: no split but a different tile", m, nn, kb);
            continue;
          }
          ++split;
          const uint32_t bn = p.narrow ? 128 : 256;
          const uint32_t tiles = ceil_div(m, kBM) * ceil_div(nn, bn);
          CHECK(!fp8 || p.narrow, "fp8 has only the 128 x 128 tile");
          if (p.whole == 0) {
            CHECK(tiles < sms, "%u x %u: split with as many tiles as SMs", m, nn);
          } else {
            // The tail split: full waves whole, the rest in one wave of slices.
            ++tail;
            CHECK(!fp8, "fp8 takes no tail split");
            CHECK(p.whole % sms == 0 && p.whole < tiles && tiles - p.whole <= sms / 2 &&
                      (tiles - p.whole) * p.splits <= sms,
                  "%u x %u: tail split of %u tiles, %u whole, S %u", m, nn, tiles, p.whole, p.splits);
          }
          CHECK(p.splits <= kMaxSplits && kb >= p.splits * kMinSliceKblocks, "%u k-blocks in %u slices", kb,
                p.splits);
          // The split variant's plan (splits 0) takes plan_splits for its tile: the same plan.
          const split_plan sp = plan_splits(m, nn, kb, sms, bn, !fp8);
          CHECK(p.splits == sp.splits && p.whole == sp.whole, "plan and pick disagree on S or the whole tiles");
          CHECK(split_cost(m, nn, kb, sms, bn, p.splits, p.whole) * 10 <=
                    split_cost(m, nn, kb, sms, off.narrow ? 128 : 256, 1) * 9,
                "a split less than 10%% faster than the old pick");
        }
  // The shape classes of bench/gemm (bf16, 64 K a k-block): skinny M splits
  // (but not where the tiles already fill the SMs), square and K-heavy do not.
  struct want {
    uint32_t m, n, k;
    bool narrow;
    uint32_t splits;
  };
  const want wants[] = {{1, 4096, 4096, true, 4},         {128, 8192, 8192, true, 2},   {64, 4096, 16384, true, 4},
                        {256, 4096, 4096, true, 2},       {128, 16384, 4096, true, 1},  {256, 8192, 8192, true, 1},
                        {4096, 4096, 4096, false, 1},     {8192, 8192, 8192, false, 1}, {2048, 2048, 16384, false, 1},
                        {4096, 4096, 32768, false, 1},    {2048, 4096, 32768, false, 1}, {3072, 3072, 3072, false, 5},
                        {6144, 6144, 6144, false, 1},     {4000, 4000, 4000, false, 1}};
  for (const want &w : wants) {
    const shape_pick p = pick_shape(w.m, w.n, ceil_div(w.k, 64), sms, false);
    CHECK(p.narrow == w.narrow && p.splits == w.splits, "%u x %u x %u: picks 128 x %u, S %u", w.m, w.n, w.k,
          p.narrow ? 128 : 256, p.splits);
  }
  // 3072^3: 288 tiles of 128 x 256, two waves whole, 24 tiles in 5 slices.
  CHECK(pick_shape(3072, 3072, 48, sms, false).whole == 264, "3072^3: 264 tiles whole");
  CHECK(pick_shape(3072, 3072, 24, sms, true).splits == 1, "fp8 3072^3: no tail split");
  printf("ok  the shape heuristic with split-K: %ld shapes, %ld split (%ld of them the tail split), never with as "
         "many tiles as SMs but in the tail split\n",
         n, split, tail);
  // Skinny M: the swapped tile that holds M, and its slices for the N x M output.
  CHECK(skinny_bn(1) == 16 && skinny_bn(16) == 16 && skinny_bn(17) == 32 && skinny_bn(32) == 32 &&
            skinny_bn(33) == 64 && skinny_bn(64) == 64 && skinny_bn(65) == 0 && skinny_bn(256) == 0,
        "skinny_bn");
  const want skinny[] = {{1, 4096, 4096, true, 4},   {16, 8192, 8192, true, 2},   {64, 16384, 4096, true, 1},
                         {16, 4096, 16384, true, 4}, {64, 8192, 8192, true, 2}};
  for (const want &w : skinny) {
    const uint32_t S = pick_splits(w.n, w.m, ceil_div(w.k, 64), sms, skinny_bn(w.m));
    CHECK(S == w.splits, "skinny %u x %u x %u: %u slices, want %u", w.m, w.n, w.k, S, w.splits);
  }
  printf("ok  the skinny tiles and their slices\n");
  // Clusters of two for rows off 128-byte boundaries, only with two M tiles to pair.
  struct row_want {
    uint32_t m, k, eb;
    bool c2;
  };
  const row_want rows[] = {{4096, 4096, 1, false}, {4096, 4096, 2, false}, {3333, 4112, 1, true},
                           {3333, 4104, 2, true},  {4000, 4000, 1, true},  {4000, 4032, 2, false},
                           {4000, 4032, 1, true},  {128, 4000, 1, false},  {129, 4000, 1, true},
                           {1000, 5008, 1, true},  {8000, 7936, 1, false}, {8000, 7936, 2, false}};
  for (const row_want &w : rows)
    CHECK(pick_cluster2(w.m, w.k, w.eb) == w.c2, "M %u, K %u of %u byte(s): cluster2 %d", w.m, w.k, w.eb, w.c2);
  printf("ok  clusters of two where rows are off 128-byte boundaries\n");
}

int main() {
  {
    // The shape heuristic on an H200 (132 SMs): skinny and few-tile shapes take 128 x 128.
    CHECK(pick_narrow(1, 4096, 132) && pick_narrow(128, 8192, 132) && pick_narrow(256, 8192, 132),
          "skinny shapes pick 128 x 128");
    CHECK(!pick_narrow(4096, 4096, 132) && !pick_narrow(8192, 8192, 132) && !pick_narrow(2048, 2048, 132) &&
              !pick_narrow(8000, 8192, 132),
          "square shapes pick 128 x 256");
    // Never more than one extra wave of 128 x 128 tiles beyond the 128 x 256 estimate.
    for (uint32_t m = 1; m <= 16384; m = m * 3 + 7)
      for (uint32_t nn = 8; nn <= 32768; nn = nn * 2 + 8)
        CHECK(pick_narrow(m, nn, 132) == (((ceil_div(m, kBM) * ceil_div(nn, 128) + 131) / 132) * 0.575 <
                                          double((ceil_div(m, kBM) * ceil_div(nn, 256) + 131) / 132)),
              "pick_narrow(%u, %u) agrees with the floating-point estimate", m, nn);
    printf("ok  the shape heuristic (pick_narrow)\n");
  }
  check_pick_shape();
  check_split_units();
  for (const config &c : kConfigs) check_plan(c);
  printf("ok  shared-memory plans: %zu configurations within %u bytes\n", sizeof(kConfigs) / sizeof(kConfigs[0]),
         kSmemLimit);
  for (const config &c : kConfigs) {
    if (!c.fused && c.overlap) {
      check_descriptors(c, 0);
      check_descriptors(c, 0x2400); // a nonzero 1024-aligned base
    }
  }
  check_epilogue(kConfigs[0]);
  check_epilogue(kConfigs[2]);
  for (const config &c : kConfigs)
    if (c.swap) check_transposed(c);
  for (uint32_t bn : {128u, 256u})
    for (uint32_t cl : {1u, 2u})
      for (auto mn : {std::pair<uint32_t, uint32_t>{4096, 4096}, {8192, 8192}, {8000, 8192}, {1000, 1000},
                      {136, 520}, {2304, 1792}})
        check_schedule(mn.first, mn.second, bn, cl);
  for (const config &c : kConfigs) check_protocol(c);
  check_slices();
  check_workspace(kConfigs[0]);
  check_workspace(kConfigs[2]);
  for (const config &c : kConfigs)
    if (c.swap) check_workspace(c);
  check_fixup();
  // The model must catch broken protocols (else it proves nothing).
  for (int mutation = 1; mutation <= 3; ++mutation)
    for (const config &c : {kConfigs[0], kConfigs[1]}) {
      const int before = g_failures;
      g_quiet = true;
      for (uint32_t seed = 1; seed <= 20 && g_failures == before; ++seed) simulate(c, 7, 3, seed, mutation);
      g_quiet = false;
      const bool caught = g_failures > before;
      g_failures = before;
      CHECK(caught, "the protocol model did not catch mutation %d (cluster %u)", mutation, c.cluster);
      if (caught) printf("ok  the protocol model catches broken protocol %d (cluster %u)\n", mutation, c.cluster);
    }
  if (g_failures) {
    printf("layout-check FAILED: %d mismatches\n", g_failures);
    return 1;
  }
  printf("layout-check OK\n");
  return 0;
}
