// tile::ewise on the GPU: a caller-defined expression applied element by
// element over register tensors, a scalar, a stride-0 broadcast view and a
// predicate tensor with tile::preserve_dst, next to __tile_apply loads and
// stores, compared bit for bit with the same expressions on the host (each
// expression is a __host__ __device__ function, and its one product is by a
// power of two, so a fused multiply-add on either side rounds the same).
#include "gpu_test.h"
#include <tileapply/tile.h>
#include <random>

using namespace gpu_test;

constexpr int R = 8;          // repeats per thread
constexpr int Threads = 256;
constexpr int Total = R * Threads;

__host__ __device__ inline float scale_shift(float x, float s) { return x * s + 1.0f; }
__host__ __device__ inline float clamp01(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }

__global__ void ewise_kernel(const float *A, const float *B, float s, float *Out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  float a[R][1], b[R][1], c[R][1];
  bool positive[R][1];
  __tile_apply("ld.global.f32", a, tile::global<const float, R, 1>(A + t * R));
  __tile_apply("ld.global.f32", b, tile::global<const float, R, 1>(B + t * R));
  tile::ewise(c, [](float x, float y) { return scale_shift(x, y); }, a, s);       // c = a*s + 1
  tile::ewise(positive, [](float x) { return x > 0.0f; }, b);                    // per-repeat predicate
  tile::ewise(c, [](float x) { return clamp01(x); }, c, tile::pred(positive),    // clamp where b > 0
              tile::preserve_dst);
  // c[r] += b[0] (a broadcast of the first element of b to every repeat)
  tile::ewise(c, [](float x, float y) { return x + y; }, c,
              tile::view<tile::shape<R, 1>, tile::stride<0, 1>>(b));
  __tile_apply("st.global.f32", tile::global<float, R, 1>(Out + t * R), c);
}

int main() {
  if (!have_gpu("ewise"))
    return 0;
  std::mt19937 rng(19);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> A(Total), B(Total);
  for (int i = 0; i < Total; ++i) {
    A[i] = dist(rng);
    B[i] = dist(rng);
  }
  const float s = 0.5f; // a power of two: x * s is exact, fused or not
  std::vector<float> want(Total);
  for (int t = 0; t < Threads; ++t)
    for (int r = 0; r < R; ++r) {
      float c = scale_shift(A[t * R + r], s);
      if (B[t * R + r] > 0.0f)
        c = clamp01(c);
      want[t * R + r] = c + B[t * R];
    }
  float *dA = upload(A), *dB = upload(B), *dOut = nullptr;
  TILEAPPLY_CUDA_CHECK(cudaMalloc(&dOut, Total * sizeof(float)));
  ewise_kernel<<<Threads / 128, 128>>>(dA, dB, s, dOut);
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  std::vector<float> got = download(dOut, Total);
  expect_bits("ewise results", got, want);
  return finish("ewise");
}
