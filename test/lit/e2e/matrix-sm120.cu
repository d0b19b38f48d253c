// The mma forms of Blackwell's sm_120 family through __tile_apply (proven
// by ptxas only): .kind::f8f6f4 with FP6/FP4 operands, .block_scale with its
// scale data (one register each, even when constant) and {byte-id,
// thread-id} selector pairs (a group of two 16-bit registers), and the
// sparse .kind forms.
// COVERS-FAMILIES: mma
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_120a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_120a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <tileapply/tile.h>

__global__ void k(const uint32_t *in, uint32_t sfa, uint32_t meta, float *out) {
  const int lane = threadIdx.x;
  uint32_t a[4], b[4];
  for (int i = 0; i < 4; ++i) a[i] = in[lane * 4 + i], b[i] = in[128 + lane * 4 + i];
  auto b2 = tile::view<tile::shape<2>, tile::stride<1>>(b);
  float f[4] = {};
  // CHECK: mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32 {
  __tile_apply("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32", f, a, b2, f);
  uint16_t sel_a[2] = {0, 0}, sel_b[2] = {1, 0};
  // CHECK: mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e2m3.f32.ue8m0 {{.*}}, %r{{[0-9]+}}, {%rs{{[0-9]+}}, %rs{{[0-9]+}}}, %r{{[0-9]+}}, {%rs{{[0-9]+}}, %rs{{[0-9]+}}};
  __tile_apply("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e2m3.f32.ue8m0",
               f, a, b2, f, sfa, sel_a, 0x7f7f7f7fu, sel_b);
  // CHECK: mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 {
  __tile_apply("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3",
               f, a, b2, f, sfa, sel_a, sfa, sel_b);
  // CHECK: mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e3m2.e2m1.f32 {
  __tile_apply("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e3m2.e2m1.f32", f, a, b, f,
               meta, 0);
  // CHECK: mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0 {
  __tile_apply("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0",
               f, a, b, f, meta, 0, sfa, sel_a, sfa, sel_b);
  for (int i = 0; i < 4; ++i) out[lane * 4 + i] = f[i];
}
