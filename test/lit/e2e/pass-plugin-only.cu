// The pass alone, as a pass plugin: clang -fpass-plugin=TileApplyPass.so
// expands without the Clang plugin's checks.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fpass-plugin=%passplugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

// CHECK-LABEL: .entry _Z5twice
// CHECK-COUNT-3: add.rn.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-NOT: {{ld|st}}.local
// CHECK-NOT: __tileapply
// CHECK: ret;
__global__ void twice(tile::global<float, 3, 1> X) {
  float v[3][1];
  __tile_apply("ld.global.f32", v, X);
  __tile_apply("add.rn.f32", v, v, v);
  __tile_apply("st.global.f32", X, v);
}
