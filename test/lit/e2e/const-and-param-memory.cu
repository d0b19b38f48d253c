// Constant memory through tile::constant: one ld.const per repeat, with a
// const-window address (cvta.to.const), and ptxas takes it.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

__constant__ float coeffs[8];

// CHECK-LABEL: .entry _Z10copy_const
// CHECK-COUNT-2: ld.const.v4.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}{{(\+[0-9]+)?}}];
// CHECK-NOT: ld.const
// CHECK: ret;
__global__ void copy_const(tile::global<float, 2, 4> X) {
  float c[2][4];
  __tile_apply("ld.const.v4.f32", c, tile::constant<const float, 2, 4>(coeffs));
  __tile_apply("st.global.v4.f32", X, c);
}
