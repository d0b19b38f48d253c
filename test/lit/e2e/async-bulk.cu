// The rest of the asynchronous group at sm_90a: bulk copies without a tensor
// map (global <-> shared, multicast, to a peer CTA), bulk reductions (into
// global memory, into a peer's shared memory, through a tensor map), L2
// prefetches, im2col loads and stores, prefetch/prefetchu/createpolicy,
// nanosleep, multimem, st.async and red.async into a peer CTA, and editing a
// tensor map in device code (tensormap.replace, cp_fenceproxy, the tensormap
// proxy fences).
// COVERS-FAMILIES: cp prefetch prefetchu createpolicy nanosleep multimem st red tensormap fence
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <cuda.h>
#include <cuda_fp16.h>
#include <tileapply/tile.h>

// CHECK-LABEL: .entry _Z4bulk
__global__ void bulk(const float *g, float *out, uint32_t *sums, uint32_t bytes, uint16_t mask, uint64_t peerBar,
                     uint32_t peerBuf) {
  __shared__ alignas(128) float buf[1024];
  __shared__ alignas(128) uint32_t words[256];
  __shared__ uint64_t bar[1];
  auto full = tile::shared<uint64_t, 1>(bar);
  uint64_t policy[1];
  // CHECK: createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 {{%rd[0-9]+}}, 0f3F000000;
  __tile_apply("createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64", policy, 0.5f);
  // CHECK: createpolicy.fractional.L2::evict_first.b64 {{%rd[0-9]+}};
  __tile_apply("createpolicy.fractional.L2::evict_first.b64", policy);
  // CHECK: createpolicy.range.global.L2::evict_last.b64 {{%rd[0-9]+}}, [{{%rd[0-9]+}}], 4096, 65536;
  __tile_apply("createpolicy.range.global.L2::evict_last.b64", policy, tile::global<const float, 1>(g), 4096u,
               65536u);
  // CHECK: cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], {{%r[0-9]+}}, [{{%rd[0-9]+}}];
  __tile_apply("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes", tile::shared<float, 1>(buf),
               tile::global<const float, 1>(g), bytes, full);
  // CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 4096, [{{%r[0-9]+}}], {{%rs[0-9]+}}, {{%rd[0-9]+}};
  __tile_apply("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint",
               tile::to_cluster(tile::shared<float, 1>(buf)), tile::global<const float, 1>(g), 4096u,
               tile::to_cluster(full), mask, policy[0]);
  // To a peer CTA's buffer and barrier (window addresses from mapa).
  // CHECK: cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 1024, [{{%r[0-9]+}}];
  __tile_apply("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes",
               tile::cluster<uint32_t, 1>(peerBuf), tile::shared<uint32_t, 1>(words), 1024u,
               tile::cluster<uint64_t, 1>(uint32_t(peerBar)));
  // CHECK: cp.async.bulk.global.shared::cta.bulk_group [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 4096;
  __tile_apply("cp.async.bulk.global.shared::cta.bulk_group", tile::global<float, 1>(out),
               tile::shared<const float, 1>(buf), 4096u);
  // CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 1024;
  __tile_apply("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32", tile::global<uint32_t, 1>(sums),
               tile::shared<uint32_t, 1>(words), 1024u);
  // CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.noftz.f16 [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 512, {{%rd[0-9]+}};
  __tile_apply("cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.noftz.f16",
               tile::global<__half, 1>(reinterpret_cast<__half *>(out)),
               tile::shared<__half, 1>(reinterpret_cast<__half *>(words)), 512u, policy[0]);
  // CHECK: cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.s32 [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 1024, [{{%r[0-9]+}}];
  __tile_apply("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.s32",
               tile::cluster<int32_t, 1>(peerBuf), tile::shared<int32_t, 1>(reinterpret_cast<int32_t *>(words)),
               1024u, tile::cluster<uint64_t, 1>(uint32_t(peerBar)));
  // CHECK: cp.async.bulk.commit_group;
  __tile_apply("cp.async.bulk.commit_group");
  // CHECK: cp.async.bulk.prefetch.L2.global [{{%rd[0-9]+}}], 8192;
  __tile_apply("cp.async.bulk.prefetch.L2.global", tile::global<const float, 1>(g + 1024), 8192u);
  // CHECK: prefetch.global.L2::evict_last [{{%rd[0-9]+}}];
  __tile_apply("prefetch.global.L2::evict_last", tile::global<const float, 1>(g));
  // CHECK: prefetch.L1 [{{%rd[0-9]+}}];
  __tile_apply("prefetch.L1", tile::generic<const float, 1>(g));
  // CHECK: prefetchu.L1 [{{%rd[0-9]+}}];
  __tile_apply("prefetchu.L1", tile::generic<const float, 1>(g));
  // CHECK: nanosleep.u32 100;
  __tile_apply("nanosleep.u32", 100u);
  // CHECK: cp.async.bulk.wait_group 0;
  __tile_apply("cp.async.bulk.wait_group", 0);
}

// CHECK-LABEL: .entry _Z6im2col
__global__ void im2col(const __grid_constant__ CUtensorMap m3, const __grid_constant__ CUtensorMap m4, int n,
                       uint16_t dh, uint16_t dw) {
  __shared__ alignas(128) float buf[1024];
  __shared__ uint64_t bar[1];
  int32_t c3[3] = {0, n, 0};
  int32_t c4[4] = {0, n, n, 0};
  uint16_t off1[1] = {dw};
  uint16_t off2[2] = {dw, dh};
  // One offset, still in braces.
  // CHECK: cp.async.bulk.tensor.3d.shared::cta.global.im2col.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}], {{{%rs[0-9]+}}};
  __tile_apply("cp.async.bulk.tensor.3d.shared::cta.global.im2col.mbarrier::complete_tx::bytes",
               tile::shared<float, 1>(buf), tile::tensor_map(m3), c3, tile::shared<uint64_t, 1>(bar), off1);
  // CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%r[0-9]+}}], {{{%rs[0-9]+}}, {{%rs[0-9]+}}};
  __tile_apply("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes",
               tile::to_cluster(tile::shared<float, 1>(buf)), tile::tensor_map(m4), c4,
               tile::to_cluster(tile::shared<uint64_t, 1>(bar)), off2);
  // CHECK: cp.async.bulk.prefetch.tensor.4d.L2.global.im2col [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], {{{%rs[0-9]+}}, {{%rs[0-9]+}}};
  __tile_apply("cp.async.bulk.prefetch.tensor.4d.L2.global.im2col", tile::tensor_map(m4), c4, off2);
  // CHECK: cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}];
  __tile_apply("cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group", tile::tensor_map(m3), c3,
               tile::shared<float, 1>(buf));
  // CHECK: cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.tile.bulk_group [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}];
  __tile_apply("cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.tile.bulk_group", tile::tensor_map(m4), c4,
               tile::shared<float, 1>(buf));
  // CHECK: cp.async.bulk.prefetch.tensor.3d.L2.global [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}];
  __tile_apply("cp.async.bulk.prefetch.tensor.3d.L2.global", tile::tensor_map(m3), c3);
  // CHECK: prefetch.tensormap [{{%rd[0-9]+}}];
  __tile_apply("prefetch.tensormap", tile::tensor_map(m3));
}

// CHECK-LABEL: .entry _Z9multicast
__global__ void multicast(uint32_t *mc, __half2 *hmc, float *fmc, uint32_t v) {
  uint32_t d[1];
  // CHECK: multimem.ld_reduce.relaxed.sys.global.add.u32 {{%r[0-9]+}}, [{{%rd[0-9]+}}];
  __tile_apply("multimem.ld_reduce.relaxed.sys.global.add.u32", d, tile::global<const uint32_t, 1>(mc));
  // CHECK: multimem.st.release.gpu.b32 [{{%rd[0-9]+}}], {{%r[0-9]+}};
  __tile_apply("multimem.st.release.gpu.b32", tile::generic<uint32_t, 1>(mc), d);
  // CHECK: multimem.red.relaxed.gpu.global.add.u32 [{{%rd[0-9]+}}], {{%r[0-9]+}};
  __tile_apply("multimem.red.relaxed.gpu.global.add.u32", tile::global<uint32_t, 1>(mc), v);
  __half2 h[4];
  // CHECK: multimem.ld_reduce.global.add.acc::f32.v4.f16x2 {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}, [{{%rd[0-9]+}}];
  __tile_apply("multimem.ld_reduce.global.add.acc::f32.v4.f16x2", h, tile::global<const __half2, 4>(hmc));
  // CHECK: multimem.st.global.v4.f16x2 [{{%rd[0-9]+}}], {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}};
  __tile_apply("multimem.st.global.v4.f16x2", tile::global<__half2, 4>(hmc), h);
  float f[2] = {1.0f, 2.0f};
  // CHECK: multimem.red.release.sys.global.add.v2.f32 [{{%rd[0-9]+}}], {{{%[rf][0-9]+}}, {{%[rf][0-9]+}}};
  __tile_apply("multimem.red.release.sys.global.add.v2.f32", tile::global<float, 2>(fmc), f);
}

// Into a peer CTA: its buffer and barrier as window addresses (from mapa).
// CHECK-LABEL: .entry _Z4peer
__global__ void peer(uint32_t peerBuf, uint32_t peerBar, uint32_t v, uint64_t w) {
  // CHECK: st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [{{%r[0-9]+}}], {{%r[0-9]+}}, [{{%r[0-9]+}}];
  __tile_apply("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32", tile::cluster<uint32_t, 1>(peerBuf), v,
               tile::cluster<uint64_t, 1>(peerBar));
  uint32_t four[4] = {v, v + 1, v + 2, v + 3};
  // CHECK: st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [{{%r[0-9]+}}], {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}, [{{%r[0-9]+}}];
  __tile_apply("st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.b32",
               tile::cluster<uint32_t, 4>(peerBuf + 16), four, tile::cluster<uint64_t, 1>(peerBar));
  // CHECK: red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [{{%r[0-9]+}}], {{%rd[0-9]+}}, [{{%r[0-9]+}}];
  __tile_apply("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64",
               tile::cluster<uint64_t, 1>(peerBuf + 32), w, tile::cluster<uint64_t, 1>(peerBar));
}

// Editing a tensor map in shared memory, publishing it to global memory, and
// acquiring it before use.
// CHECK-LABEL: .entry _Z4edit
__global__ void edit(CUtensorMap *gmap, const float *base, uint32_t rows) {
  __shared__ alignas(128) CUtensorMap smap[1];
  auto sm = tile::shared<CUtensorMap, 1>(smap);
  // CHECK: tensormap.replace.tile.global_address.shared::cta.b1024.b64 [{{%rd[0-9]+}}], {{%rd[0-9]+}};
  __tile_apply("tensormap.replace.tile.global_address.shared::cta.b1024.b64", sm, uint64_t(base));
  // CHECK: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 1, {{%r[0-9]+}};
  __tile_apply("tensormap.replace.tile.global_dim.shared::cta.b1024.b32", sm, 1, rows);
  // CHECK: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 3;
  __tile_apply("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32", sm, 3);
  // CHECK: tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 7;
  __tile_apply("tensormap.replace.tile.elemtype.shared::cta.b1024.b32", sm, 7);
  // CHECK: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 128;
  __tile_apply("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned",
               tile::global<CUtensorMap, 1>(gmap), sm, 128);
  // CHECK: fence.proxy.tensormap::generic.acquire.gpu [{{%rd[0-9]+}}], 128;
  __tile_apply("fence.proxy.tensormap::generic.acquire.gpu", tile::tensor_map(*gmap), 128);
  // CHECK: fence.proxy.tensormap::generic.release.sys;
  __tile_apply("fence.proxy.tensormap::generic.release.sys");
}
