// negative_magnitude: Out = -|A| over four floats, written as two explicit
// instructions per element: four abs.f32 followed by four neg.f32. The order
// comes from the two calls; nothing fuses them into one instruction.
//
// Build (from the repository root, after scripts/setup.sh):
//   /usr/lib/llvm-22/bin/clang++ -std=c++20 -x cuda --cuda-gpu-arch=sm_90a \
//     -Wno-unknown-cuda-version --cuda-path=/usr/local/cuda -O2 \
//     -fplugin=build/lib/TileApply.so -I include -I runtime/include \
//     examples/negative_magnitude.cu -L/usr/local/cuda/lib64 -lcudart_static \
//     -ldl -lrt -pthread -o negative_magnitude
//
// The PTX holds exactly one instruction per repeat (checked by scripts/demo.sh):
// expect-ptx: ld.global.f32 4
// expect-ptx: abs.f32 4
// expect-ptx: neg.f32 4
// expect-ptx: st.global.f32 4
#include <tileapply/tile.h>
#include <tileapply/host.h>

#include <cmath>
#include <cstdio>
#include <vector>

__global__ void negative_magnitude(tile::global<const float, 4, 1> A,
                                   tile::global<float, 4, 1> Out) {
  float r[4][1];                         // four scalar registers
  __tile_apply("ld.global.f32", r, A);
  __tile_apply("abs.f32", r, r);         // four abs.f32
  __tile_apply("neg.f32", r, r);         // then four neg.f32
  __tile_apply("st.global.f32", Out, r);
}

int main() {
  // Finite, nonzero inputs of both signs: the result is -|A| exactly.
  const std::vector<float> a = {1.5f, -2.25f, 3.0e-5f, -7.0e20f};
  std::vector<float> want(4), got(4, 0.0f);
  for (int i = 0; i < 4; ++i)
    want[i] = -std::fabs(a[i]);
  const size_t bytes = 4 * sizeof(float);

  float *dA = nullptr, *dOut = nullptr;
  TILEAPPLY_CUDA_CHECK(cudaMalloc(&dA, bytes));
  TILEAPPLY_CUDA_CHECK(cudaMalloc(&dOut, bytes));
  TILEAPPLY_CUDA_CHECK(cudaMemcpy(dA, a.data(), bytes, cudaMemcpyHostToDevice));
  TILEAPPLY_CUDA_CHECK(cudaMemset(dOut, 0, bytes));

  negative_magnitude<<<1, 1>>>(tile::global<const float, 4, 1>(dA),
                               tile::global<float, 4, 1>(dOut));
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  TILEAPPLY_CUDA_CHECK(cudaDeviceSynchronize());
  TILEAPPLY_CUDA_CHECK(cudaMemcpy(got.data(), dOut, bytes, cudaMemcpyDeviceToHost));
  TILEAPPLY_CUDA_CHECK(cudaFree(dA));
  TILEAPPLY_CUDA_CHECK(cudaFree(dOut));

  for (int i = 0; i < 4; ++i)
    std::printf("A[%d] = %-10g -> Out[%d] = %g\n", i, a[i], i, got[i]);
  bool ok = tile::host::all_close(got, want, 0.0f, 0.0f, "negative_magnitude");
  return tile::host::report(ok, "negative_magnitude");
}
