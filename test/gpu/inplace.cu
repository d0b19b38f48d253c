// Legal in-place forms (issue 17 item 5): a destination over the storage of
// its inputs where no repeat reads an element an earlier repeat wrote. a = a
// + b, a = a * a, a = a * b + a (fma), and w[r] = w[2r] (a view that reads
// each element before any repeat overwrites it), over thousands of random
// inputs, checked bit for bit against the host.
#include <tileapply/tile.h>
#include "gpu_test.h"
#include <cmath>
#include <cstring>
#include <random>

using namespace gpu_test;
constexpr int R = 8;          // repeats per thread
constexpr int Threads = 512;  // threads, each its own R values
constexpr int Total = R * Threads;

__global__ void inplace(const float *A, const float *B, float *Out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  float a[R][1], b[R][1], w[2 * R][1];
  __tile_apply("ld.global.f32", a, tile::global<const float, R, 1>(A + t * R));
  __tile_apply("ld.global.f32", b, tile::global<const float, R, 1>(B + t * R));
  __tile_apply("add.rn.f32", a, a, b);    // a = a + b
  __tile_apply("mul.rn.f32", a, a, a);    // a = a * a
  __tile_apply("fma.rn.f32", a, a, b, a); // a = a * b + a
  __tile_apply("st.global.f32", tile::global<float, R, 1>(Out + t * R), a);
  // w[r] = w[2r] for r < R: repeat r reads element 2r >= r, which only a
  // later repeat (or none) writes.
  // (Unrolled, so a and b stay in registers: a run-time index would keep
  // them in local memory, and the compiler would say so.)
#pragma unroll
  for (int i = 0; i < 2 * R; ++i)
    w[i][0] = i % 2 ? b[i / 2][0] : a[i / 2][0];
  __tile_apply("mov.f32", tile::view<tile::shape<R, 1>, tile::stride<1, 1>>(w),
               tile::view<tile::shape<R, 1>, tile::stride<2, 1>>(w));
  __tile_apply("add.rn.f32", tile::view<tile::shape<R, 1>, tile::stride<1, 1>>(w),
               tile::view<tile::shape<R, 1>, tile::stride<1, 1>>(w),
               tile::view<tile::shape<R, 1>, tile::stride<2, 1>>(w)); // w[r] += w[2r]
  __tile_apply("st.global.f32", tile::global<float, R, 1>(Out + Total + t * R),
               tile::view<tile::shape<R, 1>, tile::stride<1, 1>>(w));
}

int main() {
  if (!have_gpu("inplace"))
    return 0;
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> A(Total), B(Total);
  for (int i = 0; i < Total; ++i) {
    A[i] = dist(rng);
    B[i] = dist(rng);
  }
  std::vector<float> want(2 * Total);
  for (int t = 0; t < Threads; ++t) {
    float a[R], b[R], w[2 * R];
    for (int r = 0; r < R; ++r) {
      a[r] = A[t * R + r];
      b[r] = B[t * R + r];
      a[r] = a[r] + b[r];
      a[r] = a[r] * a[r];
      a[r] = std::fma(a[r], b[r], a[r]);
      want[t * R + r] = a[r];
    }
    for (int i = 0; i < 2 * R; ++i)
      w[i] = i % 2 ? b[i / 2] : a[i / 2];
    for (int r = 0; r < R; ++r) // in repeat order, as the expansion runs
      w[r] = w[2 * r];
    for (int r = 0; r < R; ++r)
      w[r] = w[r] + w[2 * r];
    for (int r = 0; r < R; ++r)
      want[Total + t * R + r] = w[r];
  }
  float *dA = upload(A), *dB = upload(B), *dOut = nullptr;
  TILEAPPLY_CUDA_CHECK(cudaMalloc(&dOut, 2 * Total * sizeof(float)));
  inplace<<<Threads / 128, 128>>>(dA, dB, dOut);
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  std::vector<float> got = download(dOut, 2 * Total);
  expect_bits("in-place results", got, want);
  return finish("inplace");
}
