// atom and red under contention: every thread of a full grid (264 blocks of
// 256 threads: two per SM of an H200) updates a handful of shared counters.
// Integer totals are exact; atom's old values are checked as tickets (every
// value 0..N-1 handed out once); a cas loop builds an increment of a 32-bit and
// of a 128-bit counter; float sums are compared with a double reference within
// the bound of any summation order (n * 2^-24 * sum |x|); a shared-memory
// counter per block is updated through .shared, a generic address and four
// repeats of one call on one element, then added to global memory by red.
#include <tileapply/tile.h>
#include "gpu_test.h"
#include <cmath>

using namespace gpu_test;

constexpr int Blocks = 264, Threads = 256, N = Blocks * Threads;

struct Counters {
  uint32_t add[4];      // atom.global.add.u32: thread t adds (t % 7) + 1 to add[t % 4]
  uint32_t tickets;     // atom.global.add.u32 of 1: the old values are tickets
  uint32_t casCount;    // incremented by a cas loop
  int32_t maxS, minS;   // atom.global.max.s32 / red.global.min.s32
  uint32_t orBits, xorBits, andBits;
  uint32_t incWrap;     // atom.global.inc.u32 with limit 999: counts modulo 1000
  uint32_t sharedTotal; // sum of the per-block shared counters (red.global.add.u32)
  uint32_t pad;
  unsigned long long sum64;  // red.global.add.u64 of t
  alignas(16) unsigned long long cas128[2]; // 128-bit counter: (lo, hi) += (1, 3) by cas.b128
  float fsum;                // red.global.add.f32
  alignas(16) float fvec[4]; // red.global.add.v4.f32 (sm_90): a 16-byte access
};

__device__ float value_of(uint32_t t) { return 1.0f / (1.0f + (t % 97)); }

__global__ void contend(Counters *c, uint32_t *tickets) {
  __shared__ uint32_t blockCount[1];
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    blockCount[0] = 0;
  __syncthreads();

  // Integer additions onto four counters; the old value is discarded.
  uint32_t old[1][1];
  __tile_apply("atom.global.add.u32", old, tile::global<uint32_t, 1, 1>(c->add + t % 4), (t % 7) + 1);
  // Tickets: the old values of an add of 1 are 0 .. N-1, each once.
  __tile_apply("atom.add.global.u32", old, tile::global<uint32_t, 1, 1>(&c->tickets), 1u);
  tickets[t] = old[0][0];
  int32_t oldS[1][1];
  __tile_apply("atom.relaxed.gpu.global.max.s32", oldS, tile::global<int32_t, 1, 1>(&c->maxS),
               static_cast<int32_t>(t) - N / 2);
  __tile_apply("red.global.min.s32", tile::global<int32_t, 1, 1>(&c->minS), static_cast<int32_t>(t) - N / 2);
  __tile_apply("red.global.or.b32", tile::global<uint32_t, 1, 1>(&c->orBits), 1u << (t % 32));
  __tile_apply("red.global.xor.b32", tile::global<uint32_t, 1, 1>(&c->xorBits), t);
  __tile_apply("red.global.and.b32", tile::global<uint32_t, 1, 1>(&c->andBits), ~(1u << (t % 29)));
  __tile_apply("atom.global.inc.u32", old, tile::global<uint32_t, 1, 1>(&c->incWrap), 999u);
  __tile_apply("red.global.add.u64", tile::global<unsigned long long, 1, 1>(&c->sum64),
               static_cast<unsigned long long>(t));

  // A cas loop: read, try to swap in old + 1, retry until no one came between.
  uint32_t seen = *reinterpret_cast<volatile uint32_t *>(&c->casCount);
  for (;;) {
    uint32_t got[1][1];
    __tile_apply("atom.global.cas.b32", got, tile::global<uint32_t, 1, 1>(&c->casCount), seen, seen + 1);
    if (got[0][0] == seen)
      break;
    seen = got[0][0];
  }
  // The same with a 128-bit word (sm_90): both halves move together.
  unsigned __int128 *cell = reinterpret_cast<unsigned __int128 *>(c->cas128);
  unsigned __int128 expect = 0;
  for (;;) {
    unsigned __int128 got[1][1];
    unsigned __int128 want = expect + ((static_cast<unsigned __int128>(3) << 64) | 1);
    __tile_apply("atom.global.cas.b128", got, tile::global<unsigned __int128, 1, 1>(cell), expect, want);
    if (got[0][0] == expect)
      break;
    expect = got[0][0];
  }

  // Floats: every thread adds its value; a vector of four adds four of them.
  __tile_apply("red.global.add.f32", tile::global<float, 1, 1>(&c->fsum), value_of(t));
  float v4[1][4] = {{value_of(t), 2 * value_of(t), 0.5f, 1.0f}};
  __tile_apply("red.global.add.v4.f32", tile::global<float, 1, 4>(c->fvec), v4);

  // Shared memory: .shared, a generic address, and four repeats of one call
  // on one element (a read-modify-write address may repeat).
  __tile_apply("red.shared.add.u32", tile::shared<uint32_t, 1, 1>(blockCount), 1u);
  __tile_apply("atom.add.u32", old, tile::generic<uint32_t, 1, 1>(blockCount), 2u);
  __tile_apply("red.shared::cta.add.u32",
               tile::view<tile::shape<4, 1>, tile::stride<0, 1>>(tile::shared<uint32_t, 1, 1>(blockCount)), 1u);
  __syncthreads();
  if (threadIdx.x == 0)
    __tile_apply("red.global.add.u32", tile::global<uint32_t, 1, 1>(&c->sharedTotal), blockCount[0]);
}

int main() {
  if (!have_gpu("atomics"))
    return 0;
  Counters init{};
  init.maxS = INT32_MIN;
  init.minS = INT32_MAX;
  init.andBits = 0xffffffffu;
  Counters *dC = upload(std::vector<Counters>{init});
  uint32_t *dT = upload(std::vector<uint32_t>(N, 0xffffffffu));
  contend<<<Blocks, Threads>>>(dC, dT);
  Counters got = download(dC, 1)[0];
  std::vector<uint32_t> tickets = download(dT, N);

  Counters want = init;
  double fsum = 0, fabsum = 0, f0 = 0, f1 = 0;
  for (uint32_t t = 0; t < N; ++t) {
    want.add[t % 4] += (t % 7) + 1;
    want.tickets += 1;
    want.casCount += 1;
    want.maxS = std::max(want.maxS, static_cast<int32_t>(t) - N / 2);
    want.minS = std::min(want.minS, static_cast<int32_t>(t) - N / 2);
    want.orBits |= 1u << (t % 32);
    want.xorBits ^= t;
    want.andBits &= ~(1u << (t % 29));
    want.incWrap = want.incWrap >= 999 ? 0 : want.incWrap + 1;
    want.sum64 += t;
    want.cas128[0] += 1;
    want.cas128[1] += 3;
    float v = 1.0f / (1.0f + (t % 97)); // value_of, in float as on the GPU
    fsum += v;
    fabsum += std::fabs(v);
    f0 += v;
    f1 += 2.0 * v;
  }
  want.sharedTotal = N * 7; // 1 + 2 + 4 per thread
  std::vector<uint32_t> ints = {got.add[0], got.add[1], got.add[2], got.add[3], got.tickets, got.casCount,
                                static_cast<uint32_t>(got.maxS), static_cast<uint32_t>(got.minS),
                                got.orBits, got.xorBits, got.andBits, got.incWrap, got.sharedTotal};
  std::vector<uint32_t> wantInts = {want.add[0], want.add[1], want.add[2], want.add[3], want.tickets,
                                    want.casCount, static_cast<uint32_t>(want.maxS),
                                    static_cast<uint32_t>(want.minS), want.orBits, want.xorBits,
                                    want.andBits, want.incWrap, want.sharedTotal};
  expect_bits("integer atom/red totals under contention (add, tickets, cas loop, max, min, or, xor, "
              "and, inc, shared counters)", ints, wantInts);
  expect_bits("red.global.add.u64 and the cas.b128 loop",
              std::vector<unsigned long long>{got.sum64, got.cas128[0], got.cas128[1]},
              std::vector<unsigned long long>{want.sum64, want.cas128[0], want.cas128[1]});

  // Tickets: a permutation of 0 .. N-1.
  std::vector<uint32_t> seen(N, 0);
  size_t badTickets = 0;
  for (uint32_t x : tickets)
    badTickets += x >= N || seen[x]++ != 0;
  std::printf("%s atom old values: %d tickets, each of 0..%d once (%zu bad)\n",
              badTickets ? "  mismatch" : "  ok      ", N, N - 1, badTickets);
  failures += badTickets != 0;

  // Floats: any order of N additions is within N * 2^-24 * sum |x| of the
  // exact sum (each addition rounds once, by at most 2^-24 of a partial sum
  // bounded by sum |x|).
  auto within = [&](const char *what, double got, double exact, double absum) {
    double bound = N * std::ldexp(1.0, -24) * absum;
    bool ok = std::fabs(got - exact) <= bound;
    std::printf("%s %s: %.9g, exact %.9g, |error| %.3g <= %.3g\n", ok ? "  ok      " : "  mismatch",
                what, got, exact, std::fabs(got - exact), bound);
    failures += !ok;
  };
  within("red.global.add.f32 sum", got.fsum, fsum, fabsum);
  within("red.global.add.v4.f32 element 0", got.fvec[0], f0, fabsum);
  within("red.global.add.v4.f32 element 1", got.fvec[1], f1, 2 * fabsum);
  within("red.global.add.v4.f32 element 2", got.fvec[2], 0.5 * N, 0.5 * N);
  within("red.global.add.v4.f32 element 3", got.fvec[3], 1.0 * N, 1.0 * N);
  return finish("atomics");
}
