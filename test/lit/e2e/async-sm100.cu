// The asynchronous forms of the sm_100 family: TMA .cta_group, .im2col::w,
// .tile::gather4 and .tile::scatter4, bulk stores with a byte mask, FP8
// multimem, st.async/red.async release to global memory,
// clusterlaunchcontrol, and the sub-byte element types of tensormap.replace
// (an overload of the 0..12 row told apart by the constant).
// COVERS-FAMILIES: cp multimem st red clusterlaunchcontrol tensormap
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_100a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <cuda.h>
#include <tileapply/tile.h>

// CHECK-LABEL: .entry _Z5modes
__global__ void modes(const __grid_constant__ CUtensorMap m2, const __grid_constant__ CUtensorMap m3, float *out,
                      int x, uint16_t halo, uint16_t offset, uint16_t bytes) {
  __shared__ alignas(128) float buf[1024];
  __shared__ uint64_t bar[1];
  auto dst = tile::shared<float, 1>(buf);
  auto full = tile::shared<uint64_t, 1>(bar);
  int32_t c2[2] = {0, x};
  int32_t c3[3] = {0, x, 0};
  int32_t rows[5] = {0, x, x + 3, x + 9, x + 27};
  uint16_t info[2] = {halo, offset};
  // CHECK: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}];
  __tile_apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.cta_group::2", dst,
               tile::tensor_map(m2), c2, full);
  // CHECK: cp.async.bulk.tensor.3d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}], {{{%rs[0-9]+}}, {{%rs[0-9]+}}};
  __tile_apply("cp.async.bulk.tensor.3d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes", dst,
               tile::tensor_map(m3), c3, full, info);
  // CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::1 [{{%r[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%r[0-9]+}}], 3;
  __tile_apply("cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::1",
               tile::to_cluster(dst), tile::tensor_map(m2), rows, tile::to_cluster(full), uint16_t(3));
  // CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}];
  __tile_apply("cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group", tile::tensor_map(m2), rows,
               dst);
  // CHECK: cp.async.bulk.global.shared::cta.bulk_group.cp_mask [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 256, {{%rs[0-9]+}};
  __tile_apply("cp.async.bulk.global.shared::cta.bulk_group.cp_mask", tile::global<float, 1>(out), dst, 256u, bytes);
  // CHECK: cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4 [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}];
  __tile_apply("cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4", tile::tensor_map(m2), rows);
}

// CHECK-LABEL: .entry _Z6global
__global__ void global(uint32_t *mc, uint64_t *flag, uint32_t v) {
  uint32_t q[2];
  // FP8 quadruples travel as 32-bit words.
  // CHECK: multimem.ld_reduce.relaxed.gpu.global.add.acc::f16.v2.e4m3x4 {{{%r[0-9]+}}, {{%r[0-9]+}}}, [{{%rd[0-9]+}}];
  __tile_apply("multimem.ld_reduce.relaxed.gpu.global.add.acc::f16.v2.e4m3x4", q, tile::global<const uint32_t, 2>(mc));
  // CHECK: multimem.st.global.v2.e4m3x4 [{{%rd[0-9]+}}], {{{%r[0-9]+}}, {{%r[0-9]+}}};
  __tile_apply("multimem.st.global.v2.e4m3x4", tile::global<uint32_t, 2>(mc), q);
  // CHECK: st.async.release.gpu.global.b64 [{{%rd[0-9]+}}], 1;
  __tile_apply("st.async.release.gpu.global.b64", tile::global<uint64_t, 1>(flag), uint64_t{1});
  // CHECK: red.async.mmio.release.sys.global.add.u32 [{{%rd[0-9]+}}], {{%r[0-9]+}};
  __tile_apply("red.async.mmio.release.sys.global.add.u32", tile::global<uint32_t, 1>(mc), v);
}

// CHECK-LABEL: .entry _Z6cancel
__global__ void cancel(uint32_t *out) {
  __shared__ alignas(16) unsigned __int128 response[1];
  __shared__ uint64_t bar[1];
  // CHECK: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [{{%rd[0-9]+}}], [{{%rd[0-9]+}}];
  __tile_apply("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128",
               tile::shared<unsigned __int128, 1>(response), tile::shared<uint64_t, 1>(bar));
  unsigned __int128 r[1] = {response[0]};
  bool canceled[1];
  // CHECK: clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 {{%p[0-9]+}}, {{%rq[0-9]+}};
  __tile_apply("clusterlaunchcontrol.query_cancel.is_canceled.pred.b128", canceled, r);
  uint32_t ctaid[4];
  // CHECK: clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}, {{%rq[0-9]+}};
  __tile_apply("clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128", ctaid, r);
  uint32_t y[1];
  // CHECK: clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 {{%r[0-9]+}}, {{%rq[0-9]+}};
  __tile_apply("clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128", y, r);
  out[0] = canceled[0] + ctaid[0] + y[0];
}

// CHECK-LABEL: .entry _Z6retype
__global__ void retype(CUtensorMap *gmap) {
  // CHECK: tensormap.replace.tile.elemtype.global.b1024.b32 [{{%rd[0-9]+}}], 14;
  __tile_apply("tensormap.replace.tile.elemtype.global.b1024.b32", tile::global<CUtensorMap, 1>(gmap), 14);
  // CHECK: tensormap.replace.tile.elemtype.global.b1024.b32 [{{%rd[0-9]+}}], 9;
  __tile_apply("tensormap.replace.tile.elemtype.global.b1024.b32", tile::global<CUtensorMap, 1>(gmap), 9);
  // CHECK: tensormap.replace.tile.swizzle_atomicity.b1024.b32 [{{%rd[0-9]+}}], 2;
  __tile_apply("tensormap.replace.tile.swizzle_atomicity.b1024.b32", tile::generic<CUtensorMap, 1>(gmap), 2);
  // CHECK: fence.proxy.tensormap::generic.release.gpu;
  __tile_apply("fence.proxy.tensormap::generic.release.gpu");
}
