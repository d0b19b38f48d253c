// The multi-instruction forms (docs/spec.md section 6), end to end: a carry chain
// is one asm statement per call, its repeats the chain's words, least
// significant first; an FP4 pair conversion is one statement per repeat with
// a .b8 scratch register, each instruction predicated. Reordered qualifiers
// are emitted as written, the chain's later words derived from them.
// COVERS-FAMILIES: add sub mad cvt
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_100a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <tileapply/tile.h>

// CHECK-LABEL: add128
// CHECK: add.cc.u32 [[D0:%r[0-9]+]], {{%r[0-9]+}}, {{%r[0-9]+}};
// CHECK-NEXT: addc.cc.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}};
// CHECK-NEXT: addc.cc.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}};
// CHECK-NEXT: addc.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}};
// CHECK-NEXT: // end inline asm
__global__ void add128(uint32_t *out, const uint32_t *x, const uint32_t *y) {
  uint32_t a[4][1], b[4][1], d[4][1];
  for (int i = 0; i < 4; ++i) {
    a[i][0] = x[i];
    b[i][0] = y[i];
  }
  __tile_apply("add.cc.u32", d, a, b);
  for (int i = 0; i < 4; ++i)
    out[i] = d[i][0];
}

// A scalar predicate guards every word; the qualifiers as written.
// CHECK-LABEL: sub128
// CHECK: @[[P:%p[0-9]+]] sub.u64.cc {{%rd[0-9]+}}, {{%rd[0-9]+}}, 1;
// CHECK-NEXT: @[[P]] subc.u64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 1;
__global__ void sub128(uint64_t *out, const uint64_t *x, bool on) {
  uint64_t a[2][1] = {{x[0]}, {x[1]}}, d[2][1] = {{0}, {0}};
  __tile_apply("sub.u64.cc", d, a, 1ull, tile::pred(on), tile::preserve_dst);
  out[0] = d[0][0];
  out[1] = d[1][0];
}

// CHECK-LABEL: madhi3
// CHECK: mad.hi.cc.u32
// CHECK-NEXT: madc.hi.cc.u32
// CHECK-NEXT: madc.hi.u32
__global__ void madhi3(uint32_t *out, const uint32_t *x) {
  uint32_t a[3][1], d[3][1];
  for (int i = 0; i < 3; ++i)
    a[i][0] = x[i];
  __tile_apply("mad.hi.cc.u32", d, a, a, a);
  for (int i = 0; i < 3; ++i)
    out[i] = d[i][0];
}

// CHECK-LABEL: fp4
// CHECK: begin inline asm
// CHECK-NEXT: {
// CHECK-NEXT: .reg .b8 %fp4pair;
// CHECK-NEXT: cvt.rn.satfinite.e2m1x2.f32 %fp4pair, {{%r[0-9]+}}, {{%r[0-9]+}};
// CHECK-NEXT: cvt.u16.u8 {{%rs[0-9]+}}, %fp4pair;
// CHECK-NEXT: }
// CHECK: cvt.satfinite.relu.rn.e2m1x2.f16x2 %fp4pair, {{%r[0-9]+}};
// CHECK-NEXT: cvt.u16.u8
// CHECK: cvt.u8.u16 %fp4pair, {{%rs[0-9]+}};
// CHECK-NEXT: cvt.rn.f16x2.e2m1x2 {{%r[0-9]+}}, %fp4pair;
__global__ void fp4(uint32_t *out, const float *in) {
  float a[2][1] = {{in[0]}, {in[1]}}, b[2][1] = {{in[2]}, {in[3]}};
  uint16_t pair[2][1];
  __tile_apply("cvt.rn.satfinite.e2m1x2.f32", pair, a, b);
  uint32_t h[2][1] = {{out[4]}, {out[5]}};
  uint16_t pair2[2][1];
  __tile_apply("cvt.satfinite.relu.rn.e2m1x2.f16x2", pair2, h);
  uint32_t back[2][1];
  __tile_apply("cvt.rn.f16x2.e2m1x2", back, pair);
  out[0] = back[0][0];
  out[1] = back[1][0];
  out[2] = pair2[0][0];
  out[3] = pair2[1][0];
}
