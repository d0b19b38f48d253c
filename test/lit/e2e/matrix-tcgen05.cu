// tcgen05 through __tile_apply, proven by ptxas only (no sm_100 GPU here):
// Tensor Memory allocation, the MMA with descriptors (A from shared memory
// and from Tensor Memory, with disable-output-lane, with scale-input-d),
// commit to an mbarrier, the loads and stores of Tensor Memory, copies,
// shift, waits and fences, deallocation. A Tensor Memory address is a
// uint32_t written in brackets; descriptors are uint64_t, idesc a uint32_t.
// COVERS-FAMILIES: tcgen05
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_100a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <tileapply/descriptor.h>
#include <tileapply/tile.h>

namespace td = tile::desc;

__global__ void tc(const uint16_t *A, const uint16_t *B, float *D, uint32_t mask16) {
  __shared__ alignas(1024) uint16_t sA[128 * 64], sB[128 * 64];
  __shared__ uint32_t tmem_base[1];
  __shared__ uint64_t bar[1];
  const int warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 128 * 64; i += blockDim.x) sA[i] = A[i], sB[i] = B[i];
  auto mbar = tile::shared<uint64_t, 1>(bar);
  if (threadIdx.x == 0)
    __tile_apply("mbarrier.init.shared::cta.b64", mbar, 1u);
  // CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%rd{{[0-9]+}}], 256;
  if (warp == 0)
    __tile_apply("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32", tile::shared<uint32_t, 1>(tmem_base),
                 256u);
  // CHECK: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
  if (warp == 0)
    __tile_apply("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned");
  __tile_apply("fence.proxy.async.shared::cta");
  // CHECK: tcgen05.fence::before_thread_sync;
  __tile_apply("tcgen05.fence::before_thread_sync");
  __syncthreads();
  // CHECK: tcgen05.fence::after_thread_sync;
  __tile_apply("tcgen05.fence::after_thread_sync");
  const uint32_t tmem = tmem_base[0];

  constexpr auto p = td::packed_tile(td::major::k, td::swizzle::b128, 16, 128, 64);
  constexpr auto sd = td::encode(td::tcgen05_smem{0, p.lbo, p.sbo, 0, td::lbo_mode::relative, td::swizzle::b128});
  td::tcgen05_instr in;
  in.k = td::kind::f16;
  in.atype = in.btype = td::type::bf16;
  in.dtype = td::type::f32;
  in.m = 128;
  in.n = 128;
  constexpr auto probe = td::encode(td::tcgen05_instr{});
  static_assert(sd.ok() && probe.ok(), "descriptors");
  const uint32_t idesc = td::encode(in).value;
  const uint64_t adesc = td::with_start_address(sd.value, uint32_t(__cvta_generic_to_shared(sA)));
  const uint64_t bdesc = td::with_start_address(sd.value, uint32_t(__cvta_generic_to_shared(sB)));
  if (threadIdx.x == 0) {
    // One thread issues the MMA (not .aligned).
    // CHECK: tcgen05.mma.cta_group::1.kind::f16 [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, %p{{[0-9]+}};
    __tile_apply("tcgen05.mma.cta_group::1.kind::f16", tmem, adesc, bdesc, idesc, false);
    // scale-input-d (sm_100f family): D = A x B + D * 2^-1.
    // CHECK: tcgen05.mma.cta_group::1.kind::f16 [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, %p{{[0-9]+}}, 1;
    __tile_apply("tcgen05.mma.cta_group::1.kind::f16", tmem, adesc + 2, bdesc + 2, idesc, true, 1);
    // A from Tensor Memory, four lanes' output disabled by mask.
    uint32_t lanes[4] = {mask16, 0u, 0u, 0u};
    // CHECK: tcgen05.mma.cta_group::1.kind::f16.collector::a::fill [%r{{[0-9]+}}], [%r{{[0-9]+}}], %rd{{[0-9]+}}, %r{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %p{{[0-9]+}};
    __tile_apply("tcgen05.mma.cta_group::1.kind::f16.collector::a::fill", tmem, tmem + 128, bdesc, idesc, lanes,
                 true);
    // The commit arrives on the mbarrier when the MMAs are done.
    // CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%r{{[0-9]+}}];
    __tile_apply("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64", tile::to_cluster(mbar));
    // A constant ctaMask stays a register (ptxas takes no immediate).
    // CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.multicast::cluster.b64 [%rd{{[0-9]+}}], %rs{{[0-9]+}};
    __tile_apply("tcgen05.commit.cta_group::1.mbarrier::arrive::one.multicast::cluster.b64",
                 tile::generic<uint64_t, 1>(bar), uint16_t(3));
    // CHECK: tcgen05.cp.cta_group::1.128x256b [%r{{[0-9]+}}], %rd{{[0-9]+}};
    __tile_apply("tcgen05.cp.cta_group::1.128x256b", tmem + 256, adesc);
    // CHECK: tcgen05.shift.cta_group::1.down [%r{{[0-9]+}}];
    __tile_apply("tcgen05.shift.cta_group::1.down", tmem);
  }
  bool done[1] = {false};
  while (!done[0])
    __tile_apply("mbarrier.try_wait.parity.shared::cta.b64", done, mbar, 0u);
  __tile_apply("tcgen05.fence::after_thread_sync");
  // Each warp reads its 32 lanes: 32 columns of 32 bits, one register each.
  float d[32];
  // CHECK: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{[{](%r[0-9]+, ){31}%r[0-9]+[}]}}, [%r{{[0-9]+}}];
  __tile_apply("tcgen05.ld.sync.aligned.32x32b.x32.b32", d, tmem + ((warp * 32) << 16));
  // CHECK: tcgen05.wait::ld.sync.aligned;
  __tile_apply("tcgen05.wait::ld.sync.aligned");
  for (int i = 0; i < 32; ++i) D[threadIdx.x * 32 + i] = d[i];
  // And back, halved to 16 bits pairs with .unpack::16b.
  uint32_t h[4] = {1u, 2u, 3u, 4u};
  // CHECK: tcgen05.st.sync.aligned.16x64b.x4.unpack::16b.b32 [%r{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
  __tile_apply("tcgen05.st.sync.aligned.16x64b.x4.unpack::16b.b32", tmem + 384, h);
  // CHECK: tcgen05.wait::st.sync.aligned;
  __tile_apply("tcgen05.wait::st.sync.aligned");
  __tile_apply("tcgen05.fence::before_thread_sync");
  __syncthreads();
  // CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r{{[0-9]+}}, 256;
  if (warp == 0)
    __tile_apply("tcgen05.dealloc.cta_group::1.sync.aligned.b32", tmem, 256u);
}
