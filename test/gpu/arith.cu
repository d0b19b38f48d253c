// Integer and floating arithmetic through __tile_apply, checked bit for bit
// against the host: add/sub/mul (lo, hi, wide), abs/neg, packed f16x2/bf16x2,
// scalar operands (an immediate, a runtime value, a scalar on the left of sub).
#include <tileapply/tile.h>
#include "gpu_test.h"
#include <cmath>

using namespace gpu_test;
constexpr int N = 8;

// Column K of an [N][6] int matrix as an (N, 1) view.
template <int K> __device__ auto column(int *base) {
  return tile::view<tile::shape<N, 1>, tile::stride<6, 1>>(tile::global<int, N * 6 - K, 1>(base + K));
}

__global__ void int_ops(tile::global<const int, N, 1> A, tile::global<const int, N, 1> B,
                        tile::global<int, N, 6> Out, tile::global<long long, N, 1> Wide, int s) {
  int a[N][1], b[N][1], d[N][1];
  long long w[N][1];
  __tile_apply("ld.global.s32", a, A);
  __tile_apply("ld.global.s32", b, B);
  __tile_apply("add.s32", d, a, b);
  __tile_apply("st.global.s32", column<0>(Out.ptr), d);
  __tile_apply("sub.s32", d, 100, a); // scalar on the left
  __tile_apply("st.global.s32", column<1>(Out.ptr), d);
  __tile_apply("mul.lo.s32", d, a, s); // runtime scalar
  __tile_apply("st.global.s32", column<2>(Out.ptr), d);
  __tile_apply("mul.hi.s32", d, a, b);
  __tile_apply("st.global.s32", column<3>(Out.ptr), d);
  __tile_apply("abs.s32", d, a);
  __tile_apply("st.global.s32", column<4>(Out.ptr), d);
  __tile_apply("neg.s32", d, a);
  __tile_apply("add.sat.s32", d, d, b);
  __tile_apply("st.global.s32", column<5>(Out.ptr), d);
  __tile_apply("mul.wide.s32", w, a, b);
  __tile_apply("st.global.s64", Wide, w);
}

__global__ void float_ops(tile::global<const float, N, 1> X, tile::global<float, N, 3> Out) {
  float x[N][1], d[N][1];
  __tile_apply("ld.global.f32", x, X);
  auto out = [&](int k) { return Out.ptr + k; };
  __tile_apply("mul.rn.f32", d, x, 2.0f);
  __tile_apply("st.global.f32", tile::view<tile::shape<N, 1>, tile::stride<3, 1>>(
                                    tile::global<float, N * 3, 1>(out(0))), d);
  __tile_apply("sub.rn.f32", d, 1.0, x);
  __tile_apply("st.global.f32", tile::view<tile::shape<N, 1>, tile::stride<3, 1>>(
                                    tile::global<float, N * 3, 1>(out(1))), d);
  __tile_apply("abs.f32", d, x);
  __tile_apply("neg.f32", d, d);
  __tile_apply("st.global.f32", tile::view<tile::shape<N, 1>, tile::stride<3, 1>>(
                                    tile::global<float, N * 3, 1>(out(2))), d);
}

__global__ void packed_ops(tile::global<const uint32_t, N, 1> H, tile::global<const uint32_t, N, 1> G,
                           tile::global<uint32_t, N, 2> Out) {
  uint32_t h[N][1], g[N][1], d[N][1];
  __tile_apply("ld.global.b32", h, H);
  __tile_apply("ld.global.b32", g, G);
  __tile_apply("add.rn.f16x2", d, h, h);
  __tile_apply("st.global.b32", tile::view<tile::shape<N, 1>, tile::stride<2, 1>>(Out), d);
  __tile_apply("mul.rn.bf16x2", d, g, tile::packed::bf16x2(0.5f));
  __tile_apply("st.global.b32",
               tile::view<tile::shape<N, 1>, tile::stride<2, 1>>(tile::global<uint32_t, 2 * N - 1, 1>(Out.ptr + 1)),
               d);
}

int main() {
  if (!have_gpu("arith"))
    return 0;
  std::vector<int> a = {1, -2, 3, 2147483647, -2147483647 - 1, 40000, -7, 0};
  std::vector<int> b = {5, 6, -7, 1, -1, 50000, 7, -9};
  const int s = 3;
  int *dA = upload(a), *dB = upload(b), *dOut = upload(std::vector<int>(N * 6));
  long long *dW = upload(std::vector<long long>(N));
  int_ops<<<1, 1>>>(dA, dB, dOut, dW, s);
  auto out = download(dOut, N * 6);
  auto wide = download(dW, N);
  std::vector<int> want(N * 6);
  std::vector<long long> wwant(N);
  for (int i = 0; i < N; ++i) {
    auto wrap = [](long long v) { return static_cast<int>(static_cast<uint32_t>(v)); };
    want[i * 6 + 0] = wrap(static_cast<long long>(a[i]) + b[i]);
    want[i * 6 + 1] = wrap(100ll - a[i]);
    want[i * 6 + 2] = wrap(static_cast<long long>(a[i]) * s);
    want[i * 6 + 3] = static_cast<int>((static_cast<long long>(a[i]) * b[i]) >> 32);
    want[i * 6 + 4] = a[i] == INT32_MIN ? INT32_MIN : std::abs(a[i]); // PTX abs wraps
    long long neg = a[i] == INT32_MIN ? INT32_MIN : -static_cast<long long>(a[i]);
    long long sat = neg + b[i];
    want[i * 6 + 5] = static_cast<int>(sat > INT32_MAX ? INT32_MAX : sat < INT32_MIN ? INT32_MIN : sat);
    wwant[i] = static_cast<long long>(a[i]) * b[i];
  }
  expect_bits("int add/sub/mul.lo/mul.hi/abs/neg+add.sat", out, want);
  expect_bits("mul.wide.s32", wide, wwant);

  std::vector<float> x = {1.5f, -2.25f, 0.0f, -0.0f, 3.0e38f, 1.0e-40f, 7.0f, -1.0f};
  float *dX = upload(x), *dF = upload(std::vector<float>(N * 3));
  float_ops<<<1, 1>>>(dX, dF);
  auto f = download(dF, N * 3);
  std::vector<float> fwant(N * 3);
  for (int i = 0; i < N; ++i) {
    fwant[i * 3 + 0] = x[i] * 2.0f;
    fwant[i * 3 + 1] = 1.0f - x[i];
    fwant[i * 3 + 2] = -std::fabs(x[i]);
  }
  expect_bits("mul.rn/sub.rn (1.0 - x)/abs+neg f32", f, fwant);

  std::vector<float> hv(2 * N), gv(2 * N);
  for (int i = 0; i < 2 * N; ++i) {
    hv[i] = 0.5f * i - 3.0f;
    gv[i] = 1.0f + i;
  }
  auto H = tile::host::pack_f16x2(hv), G = tile::host::pack_bf16x2(gv);
  uint32_t *dH = upload(H), *dG = upload(G), *dP = upload(std::vector<uint32_t>(2 * N));
  packed_ops<<<1, 1>>>(dH, dG, dP);
  auto p = download(dP, 2 * N);
  std::vector<uint32_t> pwant(2 * N);
  for (int i = 0; i < N; ++i) {
    // Small halves and bfloat16s: doubling and halving are exact.
    pwant[2 * i] = tile::packed::f16x2(2 * hv[2 * i], 2 * hv[2 * i + 1]);
    pwant[2 * i + 1] = tile::packed::bf16x2(0.5f * gv[2 * i], 0.5f * gv[2 * i + 1]);
  }
  expect_bits("add.rn.f16x2 / mul.rn.bf16x2", p, pwant);
  return finish("arith");
}
