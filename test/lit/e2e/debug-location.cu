// Every expanded instruction carries the line of its __tile_apply call, not a
// line of the header.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -g -S -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// REQUIRES: ptxas
#include <tileapply/tile.h>

__global__ void lines(tile::global<float, 2, 1> X) {
  float v[2][1];
  __tile_apply("ld.global.f32", v, X); // line 10
  __tile_apply("abs.f32", v, v);       // line 11
  __tile_apply("st.global.f32", X, v); // line 12
}

// Between a .loc and its instruction NVPTX prints only the inline-asm markers.
// CHECK: .loc [[F:[0-9]+]] 10
// CHECK-NOT: .loc
// CHECK: ld.global.f32
// CHECK: .loc [[F]] 11
// CHECK-NOT: .loc
// CHECK: abs.f32
// CHECK: .loc [[F]] 12
// CHECK-NOT: .loc
// CHECK: st.global.f32
// CHECK: .file [[F]] "{{.*}}debug-location.cu"
