// The sparse matrix forms and wgmma's other input types through
// __tile_apply (sm_90a): mma.sp / mma.sp::ordered_metadata with metadata e
// (a register even when constant: ptxas takes no immediate) and the
// selector f (an immediate in the shape's range); wgmma with .tf32, .e4m3,
// .s8 (n from the integer list), .b1, and wgmma.mma_async.sp with sp-meta and
// sp-sel.
// COVERS-FAMILIES: mma wgmma
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <tileapply/tile.h>

// CHECK-LABEL: .entry _Z10mma_sparse
__global__ void mma_sparse(const uint32_t *in, uint32_t meta, float *out, int *iout) {
  const int lane = threadIdx.x;
  uint32_t a[4], b[4];
  for (int i = 0; i < 4; ++i) a[i] = in[lane * 4 + i], b[i] = in[128 + lane * 4 + i];
  float f[4] = {};
  // CHECK: mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %r{{[0-9]+}}, 1;
  __tile_apply("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", f, a, b, f, meta, 1);
  // A constant metadata word stays a register.
  // CHECK: mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {{.*}}, %r{{[0-9]+}}, 0;
  __tile_apply("mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32", f, a, b, f, 0x44444444u, 0);
  // CHECK: mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32 {{.*}}, %r{{[0-9]+}}, 0;
  __tile_apply("mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32", f, a, b, f, meta, 0);
  int32_t s[4] = {};
  // CHECK: mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.satfinite.s32.s8.u8.s32 {{.*}}, %r{{[0-9]+}}, 0;
  __tile_apply("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.satfinite.s32.s8.u8.s32", s, a, b, s, meta, 0);
  // CHECK: mma.sp.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32 {{.*}}, %r{{[0-9]+}}, 1;
  __tile_apply("mma.sp.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32", s, tile::view<tile::shape<2>, tile::stride<1>>(a),
               tile::view<tile::shape<2>, tile::stride<1>>(b), s, meta, 1);
  for (int i = 0; i < 4; ++i) out[lane * 4 + i] = f[i], iout[lane * 4 + i] = s[i];
}

// CHECK-LABEL: .entry _Z11wgmma_types
__global__ void wgmma_types(uint64_t adesc, uint64_t bdesc, uint32_t meta, const uint32_t *in, float *out,
                            int *iout) {
  uint32_t a[4];
  for (int i = 0; i < 4; ++i) a[i] = in[threadIdx.x * 4 + i];
  float f[32];
  int32_t s[24];
#pragma unroll
  for (int i = 0; i < 32; ++i) f[i] = 0.f;
#pragma unroll
  for (int i = 0; i < 24; ++i) s[i] = 0;
  tile::fence_operand(f);
  tile::fence_operand(s);
  tile::fence_operand(a);
  // The metadata is a register wgmma reads too: set it before wgmma.fence
  // (a constant moved into a register inside the window makes ptxas inject a
  // warpgroup.arrive). ptxas still injects one here, before the second use
  // of an accumulator by a wgmma of another type: this test is about the
  // forms; test/lit/e2e/matrix-wgmma.cu is about the window.
  uint32_t meta2[1] = {0x4444u};
  tile::fence_operand(meta2);
  __tile_apply("wgmma.fence.sync.aligned");
  // CHECK: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{[{](%r[0-9]+, ){31}%r[0-9]+[}]}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, 1;
  __tile_apply("wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32", f, adesc, bdesc, true, 1, 1);
  // CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2 {{[{](%r[0-9]+, ){31}%r[0-9]+[}]}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, -1, 1;
  __tile_apply("wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2", f, a, bdesc, true, -1, 1);
  // n48: an integer n (8, 16, 24, then steps of 16), 24 .s32 registers.
  // CHECK: wgmma.mma_async.sync.aligned.m64n48k32.satfinite.s32.s8.u8 {{[{](%r[0-9]+, ){23}%r[0-9]+[}]}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %p{{[0-9]+}};
  __tile_apply("wgmma.mma_async.sync.aligned.m64n48k32.satfinite.s32.s8.u8", s, adesc, bdesc, true);
  // CHECK: wgmma.mma_async.sync.aligned.m64n48k256.s32.b1.b1.and.popc {{[{](%r[0-9]+, ){23}%r[0-9]+[}]}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, %p{{[0-9]+}};
  __tile_apply("wgmma.mma_async.sync.aligned.m64n48k256.s32.b1.b1.and.popc", s, a, bdesc, true);
  // CHECK: wgmma.mma_async.sp.sync.aligned.m64n64k32.f32.bf16.bf16 {{[{](%r[0-9]+, ){31}%r[0-9]+[}]}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 1, %p{{[0-9]+}}, 1, 1, 0, 1;
  __tile_apply("wgmma.mma_async.sp.sync.aligned.m64n64k32.f32.bf16.bf16", f, adesc, bdesc, meta, 1, true, 1, 1, 0, 1);
  // CHECK: wgmma.mma_async.sp.sync.aligned.m64n48k64.s32.u8.u8 {{[{](%r[0-9]+, ){23}%r[0-9]+[}]}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 0, %p{{[0-9]+}};
  __tile_apply("wgmma.mma_async.sp.sync.aligned.m64n48k64.s32.u8.u8", s, a, bdesc, meta2, 0, true);
  __tile_apply("wgmma.commit_group.sync.aligned");
  __tile_apply("wgmma.wait_group.sync.aligned", 0);
  tile::fence_operand(f);
  tile::fence_operand(s);
#pragma unroll
  for (int i = 0; i < 32; ++i) out[threadIdx.x * 32 + i] = f[i];
#pragma unroll
  for (int i = 0; i < 24; ++i) iout[threadIdx.x * 24 + i] = s[i];
}
