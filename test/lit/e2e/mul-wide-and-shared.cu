// mul.wide.s32 writes a 64-bit destination; shared memory goes through
// ld.shared / st.shared with a shared-window address (cvta.to.shared, 64-bit).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

// CHECK-LABEL: .entry _Z4wide
// CHECK-COUNT-2: mul.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-COUNT-2: st.global.s64
// CHECK: ret;
__global__ void wide(tile::global<const int, 2, 1> A, tile::global<long long, 2, 1> Out) {
  int a[2][1];
  long long d[2][1];
  __tile_apply("ld.global.s32", a, A);
  __tile_apply("mul.wide.s32", d, a, a);
  __tile_apply("st.global.s64", Out, d);
}

// CHECK-LABEL: .entry _Z12through_smem
// CHECK-COUNT-4: st.shared.f32 [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], %r{{[0-9]+}};
// CHECK-COUNT-4: ld.shared.f32 %r{{[0-9]+}}, [%rd{{[0-9]+}}{{(\+[0-9]+)?}}];
// CHECK: ret;
__global__ void through_smem(tile::global<float, 4, 1> X) {
  __shared__ float buf[4];
  float v[4][1];
  __tile_apply("ld.global.f32", v, X);
  __tile_apply("st.shared.f32", tile::shared<float, 4, 1>(buf), v);
  __tile_apply("ld.shared.f32", v, tile::shared<float, 4, 1>(buf));
  __tile_apply("st.global.f32", X, v);
}
