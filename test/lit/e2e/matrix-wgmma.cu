// wgmma through __tile_apply, and the asynchronous window: from the
// wgmma.fence before the first wgmma.mma_async of a K step to the
// wgmma.wait_group that retires them, the accumulators stay in the same
// registers (every mma_async names the same list), nothing moves them
// (no mov.b32 / mov.f32) and nothing spills them (no ld.local / st.local).
// tile::fence_operand on the accumulators before wgmma.fence and after the
// wait keeps the compiler's own code out of the window. ptxas agrees: it
// neither injects a warpgroup.arrive nor serializes the wgmma.
// COVERS-FAMILIES: wgmma
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS
// REQUIRES: ptxas
//
// PTXAS-NOT: injected
// PTXAS-NOT: serialized
// PTXAS-NOT: spill stores
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

#include <tileapply/descriptor.h>
#include <tileapply/tile.h>

namespace td = tile::desc;

// A 64 x 128 tile of D = A x B over K = 64 * ktiles, A (64 x 64 per step) and
// B (128 x 64 per step) K-major in shared memory with the 128-byte swizzle.
// A and B come from descriptors; four k16 steps per K step.
// CHECK-LABEL: .entry _Z11gemm_a_desc
__global__ void gemm_a_desc(const uint16_t *A, const uint16_t *B, float *D, int ktiles) {
  __shared__ alignas(1024) uint16_t sA[64 * 64];
  __shared__ alignas(1024) uint16_t sB[128 * 64];
  constexpr auto pa = td::packed_tile(td::major::k, td::swizzle::b128, 16, 64, 64);
  constexpr auto pb = td::packed_tile(td::major::k, td::swizzle::b128, 16, 128, 64);
  constexpr auto da = td::encode(td::wgmma_smem{0, pa.lbo, pa.sbo, 0, td::swizzle::b128});
  constexpr auto db = td::encode(td::wgmma_smem{0, pb.lbo, pb.sbo, 0, td::swizzle::b128});
  static_assert(da.ok() && db.ok(), "descriptors");
  const uint64_t adesc = td::with_start_address(da.value, uint32_t(__cvta_generic_to_shared(sA)));
  const uint64_t bdesc = td::with_start_address(db.value, uint32_t(__cvta_generic_to_shared(sB)));
  float acc[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) acc[i] = 0.f;
  for (int kt = 0; kt < ktiles; ++kt) {
    for (int i = threadIdx.x; i < 64 * 64; i += 128) sA[i] = A[kt * 64 * 64 + i];
    for (int i = threadIdx.x; i < 128 * 64; i += 128) sB[i] = B[kt * 128 * 64 + i];
    __syncthreads();
    __tile_apply("fence.proxy.async.shared::cta");
    tile::fence_operand(acc);
    // CHECK: wgmma.fence.sync.aligned;
    // CHECK-NOT: {{mov.b32|mov.f32|ld.local|st.local}}
    // CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 [[ACC:\{[^}]*\}]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, 1, 0, 0;
    // CHECK-NOT: {{mov.b32|mov.f32|ld.local|st.local}}
    // CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 [[ACC]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, 1, 0, 0;
    // CHECK-NOT: {{mov.b32|mov.f32|ld.local|st.local}}
    // CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 [[ACC]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, 1, 0, 0;
    // CHECK-NOT: {{mov.b32|mov.f32|ld.local|st.local}}
    // CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 [[ACC]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, 1, 0, 0;
    // CHECK-NOT: {{mov.b32|mov.f32|ld.local|st.local}}
    // CHECK: wgmma.commit_group.sync.aligned;
    // CHECK-NOT: {{mov.b32|mov.f32|ld.local|st.local}}
    // CHECK: wgmma.wait_group.sync.aligned 0;
    __tile_apply("wgmma.fence.sync.aligned");
#pragma unroll
    for (int k = 0; k < 4; ++k) // 16 elements of K = 32 bytes = 2 in the descriptor's units
      __tile_apply("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", acc, adesc + 2 * k, bdesc + 2 * k,
                   true, 1, 1, 0, 0);
    __tile_apply("wgmma.commit_group.sync.aligned");
    __tile_apply("wgmma.wait_group.sync.aligned", 0);
    tile::fence_operand(acc);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 64; ++i) D[threadIdx.x * 64 + i] = acc[i];
}

// A from registers (bf16, 4 x 32-bit per thread), n256: 128 f32 accumulators
// in one operand. The first step of each K block overwrites nothing it should
// keep: scale-d is a run-time bool (false on the very first step: D = A x B).
// CHECK-LABEL: .entry _Z10gemm_a_reg
__global__ void gemm_a_reg(const uint32_t *A, const uint16_t *B, float *D, int ktiles) {
  __shared__ alignas(1024) uint16_t sB[256 * 16];
  constexpr auto pb = td::packed_tile(td::major::k, td::swizzle::b32, 16, 256, 16);
  constexpr auto db = td::encode(td::wgmma_smem{0, pb.lbo, pb.sbo, 0, td::swizzle::b32});
  static_assert(db.ok(), "descriptor");
  const uint64_t bdesc = td::with_start_address(db.value, uint32_t(__cvta_generic_to_shared(sB)));
  float acc[128];
  for (int kt = 0; kt < ktiles; ++kt) {
    for (int i = threadIdx.x; i < 256 * 16; i += 128) sB[i] = B[kt * 256 * 16 + i];
    uint32_t a[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) a[i] = A[(kt * 128 + threadIdx.x) * 4 + i];
    __syncthreads();
    __tile_apply("fence.proxy.async.shared::cta");
    tile::fence_operand(acc);
    tile::fence_operand(a);
    // CHECK: wgmma.fence.sync.aligned;
    // CHECK-NOT: {{mov.b32|mov.f32|ld.local|st.local}}
    // CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{[{](%r[0-9]+, ){127}%r[0-9]+[}]}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, -1, 0;
    // CHECK-NOT: {{mov.b32|mov.f32|ld.local|st.local}}
    // CHECK: wgmma.commit_group.sync.aligned;
    // CHECK-NOT: {{mov.b32|mov.f32|ld.local|st.local}}
    // CHECK: wgmma.wait_group.sync.aligned 0;
    __tile_apply("wgmma.fence.sync.aligned");
    __tile_apply("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", acc, a, bdesc, kt != 0, 1, -1, 0);
    __tile_apply("wgmma.commit_group.sync.aligned");
    __tile_apply("wgmma.wait_group.sync.aligned", 0);
    tile::fence_operand(acc);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 128; ++i) D[threadIdx.x * 128 + i] = acc[i];
}

// .f16 accumulators (n64: 16 x .f16x2), B transposed (imm-trans-b = 1), two
// groups in flight: wait_group 1 retires all but the newest.
// CHECK-LABEL: .entry _Z8gemm_f16
__global__ void gemm_f16(uint64_t adesc, uint64_t bdesc, uint32_t *D) {
  uint32_t acc[2][16];
#pragma unroll
  for (int i = 0; i < 16; ++i) acc[0][i] = acc[1][i] = 0;
  tile::fence_operand(acc);
  // CHECK: wgmma.fence.sync.aligned;
  // CHECK-NOT: {{mov.b32|ld.local|st.local}}
  // CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16 {{[{](%r[0-9]+, ){15}%r[0-9]+[}]}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, 1, 0, 1;
  // CHECK-NOT: {{mov.b32|ld.local|st.local}}
  // CHECK: wgmma.commit_group.sync.aligned;
  // CHECK-NOT: {{mov.b32|ld.local|st.local}}
  // CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16
  // CHECK-NOT: {{mov.b32|ld.local|st.local}}
  // CHECK: wgmma.commit_group.sync.aligned;
  // CHECK-NOT: {{mov.b32|ld.local|st.local}}
  // CHECK: wgmma.wait_group.sync.aligned 1;
  // CHECK: wgmma.wait_group.sync.aligned 0;
  __tile_apply("wgmma.fence.sync.aligned");
  __tile_apply("wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16", acc[0], adesc, bdesc, true, 1, 1, 0, 1);
  __tile_apply("wgmma.commit_group.sync.aligned");
  __tile_apply("wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16", acc[1], adesc + 2, bdesc + 2, true, 1, 1, 0, 1);
  __tile_apply("wgmma.commit_group.sync.aligned");
  __tile_apply("wgmma.wait_group.sync.aligned", 1);
  tile::fence_operand(acc[0]);
  D[threadIdx.x] = acc[0][0];
  __tile_apply("wgmma.wait_group.sync.aligned", 0);
  tile::fence_operand(acc[1]);
#pragma unroll
  for (int i = 0; i < 16; ++i) D[128 + threadIdx.x * 16 + i] = acc[1][i];
}
