// tile::pred(bool) guards every repeat; tile::pred(tensor) one predicate per
// repeat; tile::preserve_dst keeps the old value (a tied, read-write
// destination). The only extra instructions are the setp that make the .pred.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

// CHECK-LABEL: .entry _Z11pred_scalar
// CHECK-COUNT-4: @%p{{[0-9]+}} add.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-NOT: add.s32
// CHECK: ret;
__global__ void pred_scalar(tile::global<int, 4, 1> X, bool on) {
  int a[4][1], d[4][1];
  __tile_apply("ld.global.s32", a, X);
  __tile_apply("ld.global.s32", d, X);
  __tile_apply("add.s32", d, a, a, tile::pred(on), tile::preserve_dst);
  __tile_apply("st.global.s32", X, d);
}

// CHECK-LABEL: .entry _Z11pred_tensor
// CHECK-COUNT-4: @%p{{[0-9]+}} st.global.f32 [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], %r{{[0-9]+}};
// CHECK-NOT: st.global.f32
// CHECK: ret;
__global__ void pred_tensor(tile::global<float, 4, 1> X, tile::global<const uint32_t, 4, 1> M) {
  float v[4][1];
  uint32_t m[4][1];
  __tile_apply("ld.global.f32", v, X);
  __tile_apply("ld.global.u32", m, M);
  __tile_apply("neg.f32", v, v);
  __tile_apply("st.global.f32", X, v, tile::pred(m));
}
