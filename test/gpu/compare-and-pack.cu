// The forms #3 added that an H200 (sm_90) runs: setp / set with a negated
// predicate source (PTX's `!c`) and the saturating packs cvt.pack.sat,
// checked against host references written from the PTX ISA's semantics.
#include <tileapply/tile.h>
#include "gpu_test.h"

using namespace gpu_test;
constexpr int N = 8;

// p = (a < b) AND !c for every repeat; q = (a >= b) AND !c (setp's p|q);
// set's u32 result is all ones where (a < b) OR !c.
__global__ void negated(tile::global<const int, N, 1> A, tile::global<const int, N, 1> B,
                        tile::global<const uint32_t, N, 1> C, tile::global<uint32_t, N, 1> P,
                        tile::global<uint32_t, N, 1> Q, tile::global<uint32_t, N, 1> S) {
  int a[N][1], b[N][1];
  uint32_t c32[N][1];
  __tile_apply("ld.global.s32", a, A);
  __tile_apply("ld.global.s32", b, B);
  __tile_apply("ld.global.u32", c32, C);
  bool c[N][1], p[N][1], q[N][1];
  for (int i = 0; i < N; ++i)
    c[i][0] = c32[i][0] != 0;
  __tile_apply("setp.lt.and.s32", p, q, a, b, tile::negated(c));
  uint32_t s[N][1], p32[N][1], q32[N][1];
  __tile_apply("set.lt.or.u32.s32", s, a, b, tile::negated(c));
  for (int i = 0; i < N; ++i) {
    p32[i][0] = p[i][0];
    q32[i][0] = q[i][0];
  }
  __tile_apply("st.global.u32", P, p32);
  __tile_apply("st.global.u32", Q, q32);
  __tile_apply("st.global.u32", S, s);
}

__global__ void packs(tile::global<const int, N, 1> A, tile::global<const int, N, 1> B,
                      tile::global<uint32_t, N, 2> Out, uint32_t c) {
  int a[N][1], b[N][1];
  __tile_apply("ld.global.s32", a, A);
  __tile_apply("ld.global.s32", b, B);
  uint32_t d16[N][1], d4[N][1];
  __tile_apply("cvt.pack.sat.s16.s32", d16, a, b);
  __tile_apply("cvt.pack.sat.u4.s32.b32", d4, a, b, c);
  // Column 0 and column 1 of Out.
  using Column = tile::shape<N, 1>;
  using Every2 = tile::stride<2, 1>;
  __tile_apply("st.global.u32", tile::view<Column, Every2>(Out), d16);
  __tile_apply("st.global.u32",
               tile::view<Column, Every2>(tile::global<uint32_t, 2 * N - 1, 1>(Out.ptr + 1)), d4);
}

// Saturate v into [lo, hi] and keep its low `bits` bits.
static uint32_t sat(int v, int lo, int hi, int bits) {
  int s = v < lo ? lo : v > hi ? hi : v;
  return static_cast<uint32_t>(s) & ((1u << bits) - 1u);
}

int main() {
  if (!have_gpu("compare-and-pack"))
    return 0;
  std::vector<int> a = {1, 5, -3, 7, 0, 100000, -100000, 9};
  std::vector<int> b = {2, 5, -4, 9, 0, -7, 40000, 8};
  std::vector<uint32_t> c = {0, 1, 1, 0, 3, 0, 1, 0};
  int *dA = upload(a), *dB = upload(b);
  uint32_t *dC = upload(c);
  uint32_t *dP = upload(std::vector<uint32_t>(N, 0xdeadbeef));
  uint32_t *dQ = upload(std::vector<uint32_t>(N, 0xdeadbeef));
  uint32_t *dS = upload(std::vector<uint32_t>(N, 0xdeadbeef));
  negated<<<1, 1>>>(dA, dB, dC, dP, dQ, dS);
  std::vector<uint32_t> wantP(N), wantQ(N), wantS(N);
  for (int i = 0; i < N; ++i) {
    bool notc = c[i] == 0;
    wantP[i] = (a[i] < b[i]) && notc;
    wantQ[i] = !(a[i] < b[i]) && notc;
    wantS[i] = ((a[i] < b[i]) || notc) ? 0xffffffffu : 0u;
  }
  expect_bits("setp.lt.and p (with !c)", download(dP, N), wantP);
  expect_bits("setp.lt.and q (with !c)", download(dQ, N), wantQ);
  expect_bits("set.lt.or.u32.s32 (with !c)", download(dS, N), wantS);

  const uint32_t high = 0x00abcdefu;
  uint32_t *dK = upload(std::vector<uint32_t>(N * 2, 0));
  packs<<<1, 1>>>(dA, dB, dK, high);
  std::vector<uint32_t> wantK(N * 2);
  for (int i = 0; i < N; ++i) {
    // a to the upper lane, b to the lower; the 4-input form shifts c above both.
    wantK[2 * i] = sat(a[i], -32768, 32767, 16) << 16 | sat(b[i], -32768, 32767, 16);
    wantK[2 * i + 1] = high << 8 | sat(a[i], 0, 15, 4) << 4 | sat(b[i], 0, 15, 4);
  }
  expect_bits("cvt.pack.sat.s16.s32 and .u4.s32.b32", download(dK, N * 2), wantK);
  return finish("compare-and-pack");
}
