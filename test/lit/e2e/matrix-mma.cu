// Warp-level matrix instructions through __tile_apply: mma.sync of each type
// class (f16, bf16, tf32, f64, s8, s4, b1, e4m3), ldmatrix / stmatrix with and
// without .trans, movmatrix. A fragment is a register tensor whose group axis
// is the form's register count; an ldmatrix/stmatrix address is one row per
// thread (tile::shared<T, 1> or tile::generic<T, 1>); c and d may be one
// tensor (in-place accumulation).
// COVERS-FAMILIES: mma ldmatrix stmatrix movmatrix
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <tileapply/tile.h>

// CHECK-LABEL: .entry _Z8mma_tile
__global__ void mma_tile(const uint16_t *A, const uint16_t *B, float *D) {
  __shared__ alignas(16) uint16_t sA[16 * 16], sB[8 * 16], sD[16 * 8];
  const int lane = threadIdx.x;
  for (int i = lane; i < 16 * 16; i += 32) sA[i] = A[i];
  for (int i = lane; i < 8 * 16; i += 32) sB[i] = B[i];
  __syncwarp();
  uint32_t a[4], b[2];
  // CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
  __tile_apply("ldmatrix.sync.aligned.m8n8.x4.shared.b16", a,
               tile::shared<uint16_t, 1>(&sA[(lane % 16) * 16 + lane / 16 * 8]));
  // CHECK: ldmatrix.sync.aligned.m8n8.x2.shared::cta.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
  __tile_apply("ldmatrix.sync.aligned.m8n8.x2.shared::cta.b16", b,
               tile::shared<uint16_t, 1>(&sB[(lane % 8) * 16 + (lane / 8 % 2) * 8]));
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  // The same tensor as c and d: one instruction, its result back in acc.
  // CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", acc, a, b, acc);
  uint32_t h[2] = {0, 0};
  // CHECK: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}};
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", h, a, b, h);
  // The f16 result back to shared memory through stmatrix (.x2: a 16 x 8
  // tile as two 8 x 8 matrices), then transposed with movmatrix.
  // CHECK: stmatrix.sync.aligned.m8n8.x2.shared.b16 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}};
  __tile_apply("stmatrix.sync.aligned.m8n8.x2.shared.b16", tile::shared<uint16_t, 1>(&sD[(lane % 16) * 8]), h);
  uint32_t t[1];
  // CHECK: movmatrix.sync.aligned.m8n8.trans.b16 %r{{[0-9]+}}, %r{{[0-9]+}};
  __tile_apply("movmatrix.sync.aligned.m8n8.trans.b16", t, h[0]);
  // A constant source stays a register: ptxas takes no immediate there.
  uint32_t one[1];
  // CHECK: movmatrix.sync.aligned.m8n8.trans.b16 %r{{[0-9]+}}, %r{{[0-9]+}};
  __tile_apply("movmatrix.sync.aligned.m8n8.trans.b16", one, 0x3c003c00u);
  t[0] ^= one[0];
  uint32_t back[1];
  // CHECK: ldmatrix.sync.aligned.m8n8.x1.trans.b16 {%r{{[0-9]+}}}, [%rd{{[0-9]+}}];
  __tile_apply("ldmatrix.sync.aligned.m8n8.x1.trans.b16", back, tile::generic<uint16_t, 1>(&sD[(lane % 8) * 8]));
  // CHECK: stmatrix.sync.aligned.m8n8.x1.trans.b16 [%rd{{[0-9]+}}], {%r{{[0-9]+}}};
  __tile_apply("stmatrix.sync.aligned.m8n8.x1.trans.b16", tile::generic<uint16_t, 1>(&sD[(lane % 8) * 8]), t);
  for (int i = 0; i < 4; ++i) D[lane * 4 + i] = acc[i] + float(back[0] + t[0]);
}

// One call per type class, each a whole fragment.
// CHECK-LABEL: .entry _Z9mma_types
__global__ void mma_types(const uint32_t *in, const double *din, float *out, double *dout, int *iout) {
  const int lane = threadIdx.x;
  uint32_t a[4], b[2];
  for (int i = 0; i < 4; ++i) a[i] = in[lane * 4 + i];
  for (int i = 0; i < 2; ++i) b[i] = in[128 + lane * 2 + i];
  float f[4] = {};
  // CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", f, a, b, f);
  // CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {
  __tile_apply("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", f, a, b, f);
  // CHECK: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {
  __tile_apply("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32", f, a, b, f);
  int32_t s[4] = {};
  // CHECK: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {
  __tile_apply("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32", s, a, b, s);
  // CHECK: mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {
  __tile_apply("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", s, a, b, s);
  // CHECK: mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {
  __tile_apply("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", s, a, b, s);
  double da[4], db[2], dc[4] = {};
  for (int i = 0; i < 4; ++i) da[i] = din[lane * 4 + i];
  for (int i = 0; i < 2; ++i) db[i] = din[128 + lane * 2 + i];
  // CHECK: mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64.rn {%rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}}, {%rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}}, {%rd{{[0-9]+}}, %rd{{[0-9]+}}}, {%rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}};
  __tile_apply("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64.rn", dc, da, db, dc);
  // m8n8k4 .f16 with both layouts .col: four 8x8x4 products, 8 f32 results.
  float q[8] = {};
  // CHECK: mma.sync.aligned.m8n8k4.col.col.f32.f16.f16.f32 {
  __tile_apply("mma.sync.aligned.m8n8k4.col.col.f32.f16.f16.f32", q, tile::view<tile::shape<2>, tile::stride<1>>(a),
               b, q);
  // A one-register b is still written in braces.
  int32_t s2[2] = {};
  // CHECK: mma.sync.aligned.m8n8k16.row.col.s32.u8.u8.s32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}}, {%r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}};
  __tile_apply("mma.sync.aligned.m8n8k16.row.col.s32.u8.u8.s32", s2, a[0], tile::view<tile::shape<1>, tile::stride<1>>(b), s2);
  for (int i = 0; i < 4; ++i) {
    out[lane * 4 + i] = f[i];
    dout[lane * 4 + i] = dc[i];
    iout[lane * 4 + i] = s[i];
  }
  for (int i = 0; i < 8; ++i) out[128 + lane * 8 + i] = q[i];
  iout[128 + lane * 2] = s2[0] + s2[1];
}
