// The forms #3 added last: saturating packs (cvt.pack.sat), min/max with a
// third source (PTX 8.8, sm_100), and the arch-specific stochastic-rounding
// and FP6 conversions, each as one instruction the target's ptxas accepts.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -O2 -S -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_100a %t.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

// CHECK-LABEL: .entry _Z5packs
// CHECK: cvt.pack.sat.s16.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK: cvt.pack.sat.u4.s32.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
__global__ void packs(unsigned *out, int a, int b, unsigned c) {
  unsigned d[1], e[1];
  __tile_apply("cvt.pack.sat.s16.s32", d, a, b);
  __tile_apply("cvt.pack.sat.u4.s32.b32", e, a, b, c);
  out[0] = d[0] ^ e[0];
}

// CHECK-LABEL: .entry _Z9three_min
// CHECK-COUNT-2: min.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK: max.NaN.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
__global__ void three_min(tile::global<float, 2, 1> X, float b, float c) {
  float a[2][1], d[2][1];
  __tile_apply("ld.global.f32", a, X);
  __tile_apply("min.f32", d, a, b, c);
  __tile_apply("max.NaN.f32", d, d, b);
  __tile_apply("st.global.f32", X, d);
}

// Four f32 sources travel as one group {a, b, e, f}.
// CHECK-LABEL: .entry _Z10stochastic
// CHECK: cvt.rs.relu.satfinite.e4m3x4.f32 %r{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %r{{[0-9]+}};
// CHECK: cvt.rs.satfinite.bf16x2.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK: cvt.rn.satfinite.e2m3x2.f32 %rs{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
__global__ void stochastic(unsigned *out, tile::global<float, 1, 4> X, unsigned bits) {
  float x[1][4];
  __tile_apply("ld.global.v4.f32", x, X);
  unsigned q[1][1], h[1];
  __tile_apply("cvt.rs.relu.satfinite.e4m3x4.f32", q, x, bits);
  __tile_apply("cvt.rs.satfinite.bf16x2.f32", h, x[0][0], x[0][1], bits);
  unsigned short fp6[1];
  __tile_apply("cvt.rn.satfinite.e2m3x2.f32", fp6, x[0][2], x[0][3]);
  out[0] = q[0][0] + h[0] + fp6[0];
}
