// The second seed kernel: four abs.f32 followed by four neg.f32, each from its
// own call; nothing combines them.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

__global__ void negative_magnitude(tile::global<const float, 4, 1> A,
                                   tile::global<float, 4, 1> Out) {
  float r[4][1];
  __tile_apply("ld.global.f32", r, A);
  __tile_apply("abs.f32", r, r);
  __tile_apply("neg.f32", r, r);
  __tile_apply("st.global.f32", Out, r);
}

// CHECK-LABEL: .entry _Z18negative_magnitude
// CHECK-NOT: {{ld|st}}.local
// CHECK-COUNT-4: ld.global.f32 %r{{[0-9]+}}, [%rd{{[0-9]+}}{{(\+[0-9]+)?}}];
// CHECK-COUNT-4: abs.f32 %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-NOT: abs.f32
// CHECK-COUNT-4: neg.f32 %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-NOT: neg.f32
// CHECK-COUNT-4: st.global.f32 [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], %r{{[0-9]+}};
// CHECK-NOT: {{ld|st}}.local
// CHECK: ret;
