// The operand shapes the asynchronous families need, end to end through
// clang, the plugin, the pass and ptxas: an instruction without operands, an
// mbarrier as a tile::shared<uint64_t> element, a .shared::cluster window
// address (tile::to_cluster: a 32-bit register), PTX's sink `_`, a tensor map
// with coordinates inside its brackets, an immediate with a step, and
// overloads told apart by the call's arguments (elect.sync with `d|p` or
// `_|p`).
// COVERS-FAMILIES: fence mbarrier cp setmaxnreg elect
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <cuda.h>
#include <tileapply/tile.h>

__global__ void k(const __grid_constant__ CUtensorMap tmap, float *out, int x, int y) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ uint64_t bar[1];
  auto mbar = tile::shared<uint64_t, 1>(bar);
  // CHECK: mbarrier.init.shared::cta.b64 [[[BAR:%rd[0-9]+]]], 1;
  __tile_apply("mbarrier.init.shared::cta.b64", mbar, 1u);
  // CHECK: fence.proxy.async.shared::cta;
  __tile_apply("fence.proxy.async.shared::cta");
  int32_t coords[2] = {x, y};
  // CHECK: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [[[BAR]]];
  __tile_apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
               tile::shared<float, 1>(tile), tile::tensor_map(tmap), coords, mbar);
  bool done[1];
  // CHECK: mbarrier.try_wait.parity.shared::cta.b64 {{%p[0-9]+}}, [[[BAR]]], 0;
  __tile_apply("mbarrier.try_wait.parity.shared::cta.b64", done, mbar, 0u);
  // CHECK: mbarrier.arrive.shared::cluster.b64 _, [{{%r[0-9]+}}];
  __tile_apply("mbarrier.arrive.shared::cluster.b64", tile::to_cluster(mbar));
  // CHECK: setmaxnreg.inc.sync.aligned.u32 240;
  __tile_apply("setmaxnreg.inc.sync.aligned.u32", 240);
  uint32_t leader[1];
  bool isLeader[1];
  // CHECK: elect.sync {{%r[0-9]+}}|{{%p[0-9]+}}, 4294967295;
  __tile_apply("elect.sync", leader, isLeader, 0xffffffffu);
  // CHECK: elect.sync _|{{%p[0-9]+}}, 4294967295;
  __tile_apply("elect.sync", isLeader, 0xffffffffu);
  out[0] = done[0] + leader[0] + isLeader[0];
}
