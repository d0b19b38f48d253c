// Strided views (a gapped destination, a zero-stride broadcast input, a
// reshape), scalar operands as immediates, and sub keeping a scalar on the left.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

// A scalar constant is an immediate in the instruction itself: no mov.
// CHECK-LABEL: .entry _Z11scalar_left
// CHECK-COUNT-4: sub.f32 %r{{[0-9]+}}, 0f3F800000, %r{{[0-9]+}};
// CHECK-COUNT-4: add.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, 5;
// CHECK-NOT: {{ld|st}}.local
// CHECK: ret;
__global__ void scalar_left(tile::global<float, 4, 1> X, tile::global<int, 4, 1> Y) {
  float v[4][1];
  int w[4][1];
  __tile_apply("ld.global.f32", v, X);
  __tile_apply("sub.f32", v, 1.0, v);
  __tile_apply("st.global.f32", X, v);
  __tile_apply("ld.global.s32", w, Y);
  __tile_apply("add.s32", w, w, 5);
  __tile_apply("st.global.s32", Y, w);
}

// A runtime scalar is one register for all repeats.
// CHECK-LABEL: .entry _Z14scalar_runtime
// CHECK: ld.param.b32 [[S:%r[0-9]+]]
// CHECK-COUNT-4: mul.lo.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, [[S]];
// CHECK: ret;
__global__ void scalar_runtime(tile::global<int, 4, 1> Y, int s) {
  int w[4][1];
  __tile_apply("ld.global.s32", w, Y);
  __tile_apply("mul.lo.s32", w, w, s);
  __tile_apply("st.global.s32", Y, w);
}

// Gapped global destination: every other element, so the store addresses
// step by 8 bytes, written into each instruction's address.
// CHECK-LABEL: .entry _Z6gapped
// CHECK: ld.param.b64 [[OUT:%rd[0-9]+]], [_Z6gapped{{.*}}_param_0];
// CHECK-NEXT: cvta.to.global.u64 [[P:%rd[0-9]+]], [[OUT]];
// CHECK-NOT: add.s64
// CHECK: st.global.b32 {{\[}}[[P]]{{\]}}, %r{{[0-9]+}};
// CHECK-NOT: add.s64
// CHECK: st.global.b32 {{\[}}[[P]]+8{{\]}}, %r{{[0-9]+}};
// CHECK-NOT: add.s64
// CHECK: st.global.b32 {{\[}}[[P]]+16{{\]}}, %r{{[0-9]+}};
// CHECK-NOT: add.s64
// CHECK: st.global.b32 {{\[}}[[P]]+24{{\]}}, %r{{[0-9]+}};
// CHECK: ret;
__global__ void gapped(tile::global<uint32_t, 8, 1> Out, tile::global<const uint32_t, 4, 1> In) {
  uint32_t r[4][1];
  __tile_apply("ld.global.b32", r, In);
  __tile_apply("st.global.b32", tile::view<tile::shape<4, 1>, tile::stride<2, 1>>(Out), r);
}

// An explicit broadcast: one bias register reused by all four adds.
// CHECK-LABEL: .entry _Z9broadcast
// CHECK: ld.global.f32 [[B:%r[0-9]+]]
// CHECK-COUNT-4: add.rn.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, [[B]];
// CHECK: ret;
__global__ void broadcast(tile::global<float, 4, 1> X, tile::global<const float, 1, 1> Bias) {
  float v[4][1], b[1][1];
  __tile_apply("ld.global.f32", b, Bias);
  __tile_apply("ld.global.f32", v, X);
  __tile_apply("add.rn.f32", v, v, tile::view<tile::shape<4, 1>, tile::stride<0, 1>>(b));
  __tile_apply("st.global.f32", X, v);
}

// A reshape: a [2][4] register tensor seen as eight scalars.
// CHECK-LABEL: .entry _Z7reshape
// CHECK-COUNT-2: ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}{{(\+16)?}}];
// CHECK-COUNT-8: neg.s32
// CHECK-COUNT-2: st.global.v4.b32
// CHECK-NOT: {{ld|st}}.local
// CHECK: ret;
__global__ void reshape(tile::global<int, 2, 4> X) {
  tile::reg<int, 2, 4> r;
  __tile_apply("ld.global.v4.b32", r, X);
  auto flat = tile::view<tile::shape<8, 1>, tile::stride<1, 1>>(r);
  __tile_apply("neg.s32", flat, flat);
  __tile_apply("st.global.v4.b32", X, r);
}
