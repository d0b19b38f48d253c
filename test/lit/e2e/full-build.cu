// A whole two-sided build with the plugin: device code expanded, host code
// compiled as usual, and a linked executable with CUDA's static runtime.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin %s -L%{cuda_lib} -lcudart_static -ldl -lrt -pthread -o %t.exe
// RUN: test -x %t.exe
// Several architectures at once: each device job expands its own copy.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a -O2 -c -fplugin=%plugin %s -o %t.o
// REQUIRES: ptxas
#include <tileapply/tile.h>
#include <cstdio>

__global__ void scale(tile::global<float, 4, 1> X) {
  float v[4][1];
  __tile_apply("ld.global.f32", v, X);
  __tile_apply("mul.rn.f32", v, v, 2.0f);
  __tile_apply("st.global.f32", X, v);
}

int main() {
  float *p = nullptr;
  if (cudaMalloc(&p, 4 * sizeof(float)) != cudaSuccess) {
    std::printf("no GPU\n");
    return 0;
  }
  scale<<<1, 1>>>(tile::global<float, 4, 1>(p));
  cudaFree(p);
  return 0;
}
