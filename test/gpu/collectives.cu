// The warp collectives against a CPU model of a warp (the PTX ISA's
// semantics): shfl.sync in every mode with its predicate output and with
// segment masks, vote.sync (all, any, uni, ballot; a negated source),
// match.sync (any, all with its predicate), redux.sync (add/min/max on u32 and
// s32, and/or/xor on b32), activemask and bar.warp.sync. Each runs with the
// full warp and with partial member masks (the lanes of the mask alone
// execute it, and every lane a shuffle reads from is in the mask).
#include <tileapply/tile.h>
#include "gpu_test.h"

using namespace gpu_test;

constexpr int Lanes = 32;
// The member masks tried: the whole warp, the low half, the even lanes, a
// scattered set.
constexpr uint32_t Masks[] = {0xffffffffu, 0x0000ffffu, 0x55555555u, 0x8c3a61f5u};
constexpr int NumMasks = sizeof(Masks) / sizeof(Masks[0]);
// Per lane and mask: 40 result words (unused ones stay 0xdeadbeef).
constexpr int Words = 40;

__device__ uint32_t input(uint32_t lane, int m) { return (lane * 2654435761u) ^ (m * 0x9e3779b9u); }
// Values with repeats, for match and uni.
__device__ uint32_t bucket(uint32_t lane) { return lane % 5 == 0 ? 7u : lane % 3; }

__global__ void collectives(uint32_t *out) {
  uint32_t lane = threadIdx.x % Lanes;
  for (int m = 0; m < NumMasks; ++m) {
    uint32_t mask = Masks[m];
    uint32_t *o = out + (m * Lanes + lane) * Words;
    if (!(mask >> lane & 1))
      continue;
    uint32_t a = input(lane, m);
    uint32_t d[1][1];
    bool p[1][1];
    // Shuffles whose source lanes stay in the mask: an xor with 2 and an idx
    // to the lowest member for the even and scattered masks; every mode for
    // the full warp and the low half (segments of 8 for the half).
    if (m == 0 || m == 1) {
      // c: clamp 31 for the warp; for the half, 8-lane segments (segmask
      // 0b11000) clamped to the segment, so every source lane is a member.
      uint32_t seg = m == 0 ? 0x1fu : (0x18u << 8) | 0x7u;
      __tile_apply("shfl.sync.up.b32", d, p, a, 3u, m == 0 ? 0u : (0x18u << 8), mask);
      o[0] = d[0][0], o[1] = p[0][0];
      __tile_apply("shfl.sync.down.b32", d, p, a, 5u, seg, mask);
      o[2] = d[0][0], o[3] = p[0][0];
      __tile_apply("shfl.sync.bfly.b32", d, p, a, 6u, seg, mask);
      o[4] = d[0][0], o[5] = p[0][0];
      __tile_apply("shfl.sync.idx.b32", d, p, a, 13u, seg, mask);
      o[6] = d[0][0], o[7] = p[0][0];
      // Without the predicate output.
      __tile_apply("shfl.sync.bfly.b32", d, a, 1u, seg, mask);
      o[8] = d[0][0];
    } else {
      __tile_apply("shfl.sync.bfly.b32", d, p, a, m == 2 ? 2u : 0u, 0x1fu, mask);
      o[4] = d[0][0], o[5] = p[0][0];
      uint32_t lowest = __ffs(mask) - 1;
      __tile_apply("shfl.sync.idx.b32", d, p, a, lowest, 0x1fu, mask);
      o[6] = d[0][0], o[7] = p[0][0];
    }
    // Votes: predicate lane % 3 != 0, and its negation through tile::negated.
    bool pr = lane % 3 != 0;
    bool r[1][1];
    __tile_apply("vote.sync.all.pred", r, pr, mask);
    o[10] = r[0][0];
    __tile_apply("vote.sync.any.pred", r, tile::negated(pr), mask);
    o[11] = r[0][0];
    __tile_apply("vote.sync.uni.pred", r, bucket(lane) == 7u, mask);
    o[12] = r[0][0];
    __tile_apply("vote.sync.ballot.b32", d, pr, mask);
    o[13] = d[0][0];
    __tile_apply("vote.sync.ballot.b32", d, tile::negated(pr), mask);
    o[14] = d[0][0];
    // Match: lanes with equal values, and whether all are equal.
    __tile_apply("match.any.sync.b32", d, bucket(lane), mask);
    o[15] = d[0][0];
    __tile_apply("match.any.sync.b64", d, (uint64_t)bucket(lane) << 40, mask);
    o[16] = d[0][0];
    __tile_apply("match.all.sync.b32", d, p, bucket(lane), mask);
    o[17] = d[0][0], o[18] = p[0][0];
    __tile_apply("match.all.sync.b32", d, p, 42u, mask);
    o[19] = d[0][0], o[20] = p[0][0];
    // Reductions over the mask.
    int32_t s[1][1];
    __tile_apply("redux.sync.add.u32", d, a, mask);
    o[21] = d[0][0];
    __tile_apply("redux.sync.min.u32", d, a, mask);
    o[22] = d[0][0];
    __tile_apply("redux.sync.max.u32", d, a, mask);
    o[23] = d[0][0];
    __tile_apply("redux.sync.add.s32", s, static_cast<int32_t>(a), mask);
    o[24] = s[0][0];
    __tile_apply("redux.sync.min.s32", s, static_cast<int32_t>(a), mask);
    o[25] = s[0][0];
    __tile_apply("redux.sync.max.s32", s, static_cast<int32_t>(a), mask);
    o[26] = s[0][0];
    __tile_apply("redux.sync.and.b32", d, a, mask);
    o[27] = d[0][0];
    __tile_apply("redux.sync.or.b32", d, a, mask);
    o[28] = d[0][0];
    __tile_apply("redux.sync.xor.b32", d, a, mask);
    o[29] = d[0][0];
    // bar.warp.sync orders shared memory among the mask's lanes: each lane
    // writes its slot, waits, and reads its lowest fellow member's slot.
    __shared__ uint32_t slot[Lanes];
    slot[lane] = a + 1;
    __tile_apply("bar.warp.sync", mask);
    o[30] = slot[__ffs(mask) - 1];
    __tile_apply("bar.warp.sync", mask);
  }
  // activemask in a branch only lanes 0..19 take: this lane is in it, no lane
  // of 20..31 can be (they never execute this instruction).
  __tile_apply("bar.warp.sync", 0xffffffffu);
  uint32_t act[1][1] = {{0}};
  if (lane < 20)
    __tile_apply("activemask.b32", act);
  out[NumMasks * Lanes * Words + lane] = act[0][0];
}

// ---- the CPU model ------------------------------------------------------------------
static uint32_t inputH(uint32_t lane, int m) { return (lane * 2654435761u) ^ (m * 0x9e3779b9u); }
static uint32_t bucketH(uint32_t lane) { return lane % 5 == 0 ? 7u : lane % 3; }

enum Mode { Up, Down, Bfly, Idx };
// The PTX ISA's shfl.sync: j from b and c, p = whether j is in range.
static void shfl(Mode mode, uint32_t lane, uint32_t b, uint32_t c, const uint32_t *a, uint32_t &d,
                 uint32_t &p) {
  int bval = b & 31, cval = c & 31, seg = (c >> 8) & 31;
  int maxLane = (lane & seg) | (cval & ~seg), minLane = lane & seg;
  int j = 0;
  bool pval = false;
  switch (mode) {
  case Up: j = int(lane) - bval; pval = j >= maxLane; break;
  case Down: j = int(lane) + bval; pval = j <= maxLane; break;
  case Bfly: j = int(lane) ^ bval; pval = j <= maxLane; break;
  case Idx: j = minLane | (bval & ~seg); pval = j <= maxLane; break;
  }
  if (!pval)
    j = lane;
  d = a[j];
  p = pval;
}

int main() {
  if (!have_gpu("collectives"))
    return 0;
  const size_t n = NumMasks * Lanes * Words + Lanes;
  uint32_t *dOut = upload(std::vector<uint32_t>(n, 0xdeadbeefu));
  collectives<<<1, Lanes>>>(dOut);
  std::vector<uint32_t> got = download(dOut, n);
  std::vector<uint32_t> want(n, 0xdeadbeefu);
  for (int m = 0; m < NumMasks; ++m) {
    uint32_t mask = Masks[m];
    uint32_t a[Lanes];
    for (uint32_t l = 0; l < Lanes; ++l)
      a[l] = inputH(l, m);
    uint32_t lowest = __builtin_ctz(mask);
    for (uint32_t lane = 0; lane < Lanes; ++lane) {
      if (!(mask >> lane & 1))
        continue;
      uint32_t *o = &want[(m * Lanes + lane) * Words];
      if (m == 0 || m == 1) {
        uint32_t seg = m == 0 ? 0x1fu : (0x18u << 8) | 0x7u;
        shfl(Up, lane, 3, m == 0 ? 0u : (0x18u << 8), a, o[0], o[1]);
        shfl(Down, lane, 5, seg, a, o[2], o[3]);
        shfl(Bfly, lane, 6, seg, a, o[4], o[5]);
        shfl(Idx, lane, 13, seg, a, o[6], o[7]);
        uint32_t ignore;
        shfl(Bfly, lane, 1, seg, a, o[8], ignore);
      } else {
        shfl(Bfly, lane, m == 2 ? 2 : 0, 0x1f, a, o[4], o[5]);
        shfl(Idx, lane, lowest, 0x1f, a, o[6], o[7]);
      }
      bool all = true, any = false, allSeven = true, anySeven = false;
      uint32_t ballot = 0, nballot = 0, same = 0, peers = 0;
      uint32_t sum = 0, umin = ~0u, umax = 0, band = ~0u, bor = 0, bxor = 0;
      int32_t ssum = 0, smin = INT32_MAX, smax = INT32_MIN;
      for (uint32_t l = 0; l < Lanes; ++l) {
        if (!(mask >> l & 1))
          continue;
        bool pr = l % 3 != 0;
        all &= pr;
        any |= !pr;
        allSeven &= bucketH(l) == 7u;
        anySeven |= bucketH(l) == 7u;
        ballot |= uint32_t(pr) << l;
        nballot |= uint32_t(!pr) << l;
        peers |= uint32_t(bucketH(l) == bucketH(lane)) << l;
        same += bucketH(l) == bucketH(lowest);
        sum += a[l];
        umin = std::min(umin, a[l]);
        umax = std::max(umax, a[l]);
        ssum += int32_t(a[l]);
        smin = std::min(smin, int32_t(a[l]));
        smax = std::max(smax, int32_t(a[l]));
        band &= a[l];
        bor |= a[l];
        bxor ^= a[l];
      }
      bool allEqual = same == uint32_t(__builtin_popcount(mask));
      o[10] = all;
      o[11] = any;
      o[12] = allSeven == anySeven; // uni: the same in every member
      o[13] = ballot;
      o[14] = nballot;
      o[15] = peers;
      o[16] = peers;
      o[17] = allEqual ? mask : 0;
      o[18] = allEqual;
      o[19] = mask;
      o[20] = 1;
      o[21] = sum, o[22] = umin, o[23] = umax;
      o[24] = uint32_t(ssum), o[25] = uint32_t(smin), o[26] = uint32_t(smax);
      o[27] = band, o[28] = bor, o[29] = bxor;
      o[30] = a[lowest] + 1;
    }
  }
  // activemask: the lane itself, and no lane outside the branch (which lanes
  // of the branch run together is the hardware's choice).
  size_t badActive = 0;
  uint32_t first = 0;
  for (uint32_t lane = 0; lane < Lanes; ++lane) {
    size_t i = NumMasks * Lanes * Words + lane;
    uint32_t act = got[i];
    if (lane == 0)
      first = act;
    badActive += lane < 20 ? !(act >> lane & 1) || (act >> 20) != 0 : act != 0;
    got[i] = want[i] = 0; // compared here, not below
  }
  std::printf("%s activemask holds the lane and only lanes of its branch (%zu bad; lane 0 saw 0x%08x)\n",
              badActive ? "  mismatch" : "  ok      ", badActive, first);
  failures += badActive != 0;
  expect_bits("shfl/vote/match/redux/bar.warp.sync against the CPU warp model (4 member masks)", got,
              want);
  return finish("collectives");
}
