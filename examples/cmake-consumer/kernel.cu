// The consumer's CUDA source: y = 2 * x + y on sixteen halves, packed two per
// 32-bit word, as four fma.rn.f16x2 instructions; and the host code that runs
// it. TileApply::TileApply compiles this file with the plugin.
#include "example.h"

#include <tileapply/host.h>
#include <tileapply/tile.h>

#include <cstdio>
#include <vector>

__global__ void axpy_f16x2(tile::global<const uint32_t, 4, 1> X,
                           tile::global<uint32_t, 4, 1> Y) {
  uint32_t x[4][1], y[4][1];
  __tile_apply("ld.global.b32", x, X);
  __tile_apply("ld.global.b32", y, Y);
  // The scalar is the whole packed carrier: 2.0 in both halves.
  __tile_apply("fma.rn.f16x2", y, tile::packed::f16x2(2.0f), x, y);
  __tile_apply("st.global.b32", Y, y);
}

int run_example() {
  std::printf("tileapply %s (header), kernel built for sm_90a\n", TILEAPPLY_VERSION_STRING);
  int devices = 0;
  cudaError_t err = cudaGetDeviceCount(&devices);
  if (err != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA GPU here (%s): built, not run\n",
                err != cudaSuccess ? cudaGetErrorString(err) : "no device");
    return 0;
  }
  cudaDeviceProp prop{};
  TILEAPPLY_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major != 9 || prop.minor != 0) {
    std::printf("SKIP: GPU 0 is sm_%d%d; this kernel is built for sm_90a\n", prop.major,
                prop.minor);
    return 0;
  }

  std::vector<float> x(8), y(8), want(8);
  for (int i = 0; i < 8; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f * static_cast<float>(i);
    want[i] = 2.0f * x[i] + y[i]; // exact in half precision
  }
  std::vector<uint32_t> hx = tile::host::pack_f16x2(x), hy = tile::host::pack_f16x2(y);
  const size_t bytes = hx.size() * sizeof(uint32_t);
  uint32_t *dx = nullptr, *dy = nullptr;
  TILEAPPLY_CUDA_CHECK(cudaMalloc(&dx, bytes));
  TILEAPPLY_CUDA_CHECK(cudaMalloc(&dy, bytes));
  TILEAPPLY_CUDA_CHECK(cudaMemcpy(dx, hx.data(), bytes, cudaMemcpyHostToDevice));
  TILEAPPLY_CUDA_CHECK(cudaMemcpy(dy, hy.data(), bytes, cudaMemcpyHostToDevice));
  axpy_f16x2<<<1, 1>>>(tile::global<const uint32_t, 4, 1>(dx), tile::global<uint32_t, 4, 1>(dy));
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  TILEAPPLY_CUDA_CHECK(cudaDeviceSynchronize());
  TILEAPPLY_CUDA_CHECK(cudaMemcpy(hy.data(), dy, bytes, cudaMemcpyDeviceToHost));
  TILEAPPLY_CUDA_CHECK(cudaFree(dx));
  TILEAPPLY_CUDA_CHECK(cudaFree(dy));
  bool ok = tile::host::all_close(tile::host::unpack_f16x2(hy), want, 0.0f, 0.0f, "axpy_f16x2");
  return tile::host::report(ok, "cmake-consumer");
}
