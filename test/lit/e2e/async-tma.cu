// The pieces of a Hopper TMA pipeline, each through __tile_apply: tensor-map
// tile loads of 1 to 5 dimensions into this CTA's shared memory
// (.shared::cta) and through the cluster window (.shared::cluster, from
// tile::to_cluster), multicast with a CTA mask, L2 cache hints; tile stores
// with bulk groups and their waits; the mbarrier operations a producer and a
// consumer use; fences; cluster and CTA barriers; elect.sync, setmaxnreg and
// griddepcontrol.
// COVERS-FAMILIES: cp mbarrier fence membar barrier bar elect setmaxnreg griddepcontrol
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <cuda.h>
#include <tileapply/tile.h>

// CHECK-LABEL: .entry _Z5loads
__global__ void loads(const __grid_constant__ CUtensorMap m1, const __grid_constant__ CUtensorMap m3,
                      const __grid_constant__ CUtensorMap m5, int x, uint64_t policy, uint16_t mask) {
  __shared__ alignas(1024) float buf[4096];
  __shared__ uint64_t bars[2];
  auto dst = tile::shared<float, 1>(buf);
  auto full = tile::shared<uint64_t, 1>(bars);
  int32_t c1[1] = {x};
  int32_t c3[3] = {x, 1, 2};
  int32_t c5[5] = {x, 1, 2, 3, 4};
  // CHECK: cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}}], [{{%rd[0-9]+}}];
  __tile_apply("cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
               dst, tile::tensor_map(m1), c1, full);
  // CHECK: cp.async.bulk.tensor.3d.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}], {{%rd[0-9]+}};
  __tile_apply("cp.async.bulk.tensor.3d.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint",
               dst, tile::tensor_map(m3), c3, full, policy);
  // The cluster window: this CTA's buffer and barrier, converted explicitly.
  // CHECK: cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%r[0-9]+}}];
  __tile_apply("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
               tile::to_cluster(dst), tile::tensor_map(m5), c5, tile::to_cluster(full));
  // CHECK: cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [{{%r[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%r[0-9]+}}], {{%rs[0-9]+}};
  __tile_apply("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster",
               tile::to_cluster(dst), tile::tensor_map(m3), c3, tile::to_cluster(full), mask);
  // CHECK: cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [{{%r[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}}], [{{%r[0-9]+}}], 3, {{%rd[0-9]+}};
  __tile_apply("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint",
               tile::to_cluster(dst), tile::tensor_map(m1), c1, tile::to_cluster(full), uint16_t(3), policy);
}

// Two repeats: one instruction each, the coordinates and barriers of each
// row; the one tensor map broadcast to both by a zero stride.
// CHECK-LABEL: .entry _Z9two_loads
__global__ void two_loads(const __grid_constant__ CUtensorMap m, int x, int y) {
  __shared__ alignas(1024) float buf[2][1024];
  __shared__ uint64_t bars[2];
  int32_t c[2][2] = {{x, y}, {x, y + 64}};
  // CHECK: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}];
  // CHECK: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}+4096], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}+8];
  __tile_apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
               tile::view<tile::shape<2, 1>, tile::stride<1024, 1>>(tile::shared<float, 2048>(&buf[0][0])),
               tile::view<tile::shape<2, 1>, tile::stride<0, 1>>(tile::tensor_map(m)), c,
               tile::shared<uint64_t, 2, 1>(bars));
}

// CHECK-LABEL: .entry _Z6stores
__global__ void stores(const __grid_constant__ CUtensorMap m2, const __grid_constant__ CUtensorMap m4, int x,
                       uint64_t policy) {
  __shared__ alignas(1024) float buf[4096];
  buf[threadIdx.x] = float(threadIdx.x);
  // st.shared, then the async proxy's view of shared memory.
  // CHECK: fence.proxy.async.shared::cta;
  __tile_apply("fence.proxy.async.shared::cta");
  // CHECK: bar.sync 1, 128;
  __tile_apply("bar.sync", 1, 128);
  int32_t c2[2] = {x, 0};
  int32_t c4[4] = {x, 0, 1, 2};
  // CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}];
  __tile_apply("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group",
               tile::tensor_map(m2), c2, tile::shared<float, 1>(buf));
  // CHECK: cp.async.bulk.tensor.4d.global.shared::cta.bulk_group.L2::cache_hint [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}], {{%rd[0-9]+}};
  __tile_apply("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group.L2::cache_hint",
               tile::tensor_map(m4), c4, tile::shared<float, 1>(buf), policy);
  // CHECK: cp.async.bulk.commit_group;
  __tile_apply("cp.async.bulk.commit_group");
  // CHECK: cp.async.bulk.wait_group.read 1;
  __tile_apply("cp.async.bulk.wait_group.read", 1);
  // CHECK: cp.async.bulk.wait_group 0;
  __tile_apply("cp.async.bulk.wait_group", 0);
}

// CHECK-LABEL: .entry _Z8barriers
__global__ void barriers(uint32_t *out, uint32_t bytes) {
  __shared__ uint64_t bars[4];
  auto full = tile::shared<uint64_t, 1>(bars);
  auto empty = tile::shared<uint64_t, 1>(bars + 1);
  uint32_t lane[1];
  bool leader[1];
  // CHECK: elect.sync {{%r[0-9]+}}|{{%p[0-9]+}}, 4294967295;
  __tile_apply("elect.sync", lane, leader, 0xffffffffu);
  if (leader[0]) {
    // CHECK: mbarrier.init.shared::cta.b64 [{{%rd[0-9]+}}], 1;
    __tile_apply("mbarrier.init.shared::cta.b64", full, 1u);
    // CHECK: mbarrier.init.shared::cta.b64 [{{%rd[0-9]+}}], 4;
    __tile_apply("mbarrier.init.shared::cta.b64", empty, 4u);
    // CHECK: fence.mbarrier_init.release.cluster;
    __tile_apply("fence.mbarrier_init.release.cluster");
  }
  // CHECK: barrier.cluster.arrive.relaxed.aligned;
  __tile_apply("barrier.cluster.arrive.relaxed.aligned");
  // CHECK: barrier.cluster.wait.aligned;
  __tile_apply("barrier.cluster.wait.aligned");
  // Producer side: arrive with the byte count, sink and state forms.
  // CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{%rd[0-9]+}}], {{%r[0-9]+}};
  __tile_apply("mbarrier.arrive.expect_tx.shared::cta.b64", full, bytes);
  uint64_t state[1];
  // CHECK: mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 {{%rd[0-9]+}}, [{{%rd[0-9]+}}], 16;
  __tile_apply("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64", state, full, 16u);
  // CHECK: mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [{{%rd[0-9]+}}], 32;
  __tile_apply("mbarrier.expect_tx.relaxed.cta.shared::cta.b64", full, 32u);
  // CHECK: mbarrier.complete_tx.shared::cta.b64 [{{%rd[0-9]+}}], 48;
  __tile_apply("mbarrier.complete_tx.shared::cta.b64", full, 48u);
  // Consumer side: wait for a phase with its parity, with a scope and a hint.
  bool done[1] = {false};
  // CHECK: mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 {{%p[0-9]+}}, [{{%rd[0-9]+}}], 0, 10000000;
  while (!done[0])
    __tile_apply("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64", done, full, 0u, 10000000u);
  // CHECK: mbarrier.try_wait.shared::cta.b64 {{%p[0-9]+}}, [{{%rd[0-9]+}}], {{%rd[0-9]+}};
  __tile_apply("mbarrier.try_wait.shared::cta.b64", done, full, state);
  // CHECK: mbarrier.test_wait.parity.shared::cta.b64 {{%p[0-9]+}}, [{{%rd[0-9]+}}], 1;
  __tile_apply("mbarrier.test_wait.parity.shared::cta.b64", done, full, 1u);
  // Release the stage: local sink arrive, then a remote one through the cluster window.
  // CHECK: mbarrier.arrive.release.cta.shared::cta.b64 _, [{{%rd[0-9]+}}];
  __tile_apply("mbarrier.arrive.release.cta.shared::cta.b64", empty);
  // CHECK: mbarrier.arrive.release.cluster.shared::cluster.b64 _, [{{%r[0-9]+}}];
  __tile_apply("mbarrier.arrive.release.cluster.shared::cluster.b64", tile::to_cluster(empty));
  // CHECK: mbarrier.arrive.shared::cta.b64 {{%rd[0-9]+}}, [{{%rd[0-9]+}}], 2;
  __tile_apply("mbarrier.arrive.shared::cta.b64", state, empty, 2u);
  uint32_t pending[1];
  // CHECK: mbarrier.pending_count.b64 {{%r[0-9]+}}, {{%rd[0-9]+}};
  __tile_apply("mbarrier.pending_count.b64", pending, state);
  // CHECK: fence.acq_rel.cluster;
  __tile_apply("fence.acq_rel.cluster");
  // CHECK: fence.proxy.async;
  __tile_apply("fence.proxy.async");
  // CHECK: membar.gl;
  __tile_apply("membar.gl");
  // CHECK: barrier.sync.aligned 0;
  __tile_apply("barrier.sync.aligned", 0);
  // CHECK: bar.arrive 2, 64;
  __tile_apply("bar.arrive", 2, 64);
  uint32_t count[1];
  // CHECK: bar.red.popc.u32 {{%r[0-9]+}}, 3, {{%p[0-9]+}};
  __tile_apply("bar.red.popc.u32", count, 3, leader[0]);
  // CHECK: mbarrier.inval.shared::cta.b64 [{{%rd[0-9]+}}];
  __tile_apply("mbarrier.inval.shared::cta.b64", full);
  out[threadIdx.x] = lane[0] + count[0] + pending[0] + done[0];
}

// A warp-specialized kernel's register split and a dependent launch.
// CHECK-LABEL: .entry _Z11specialized
__global__ void specialized(float *out) {
  // CHECK: griddepcontrol.wait;
  __tile_apply("griddepcontrol.wait");
  if (threadIdx.x < 128) {
    // CHECK: setmaxnreg.dec.sync.aligned.u32 40;
    __tile_apply("setmaxnreg.dec.sync.aligned.u32", 40);
  } else {
    // CHECK: setmaxnreg.inc.sync.aligned.u32 232;
    __tile_apply("setmaxnreg.inc.sync.aligned.u32", 232);
  }
  out[threadIdx.x] = 1.0f;
  // CHECK: griddepcontrol.launch_dependents;
  __tile_apply("griddepcontrol.launch_dependents");
}
