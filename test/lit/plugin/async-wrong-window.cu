// docs/spec.md section 6: the .shared::cta window is a tile::shared view, the
// .shared::cluster window a tile::cluster view (tile::to_cluster converts this
// CTA's own shared memory, explicitly), an address without a state space a
// tile::generic view. Any other pairing is WrongStateSpace, at the argument.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <cuda.h>
#include <tileapply/tile.h>

__global__ void kernel(const __grid_constant__ CUtensorMap m, int x) {
  __shared__ alignas(128) float buf[1024];
  __shared__ uint64_t bars[1];
  auto dst = tile::shared<float, 1>(buf); // #dst
  auto full = tile::shared<uint64_t, 1>(bars); // #full
  int32_t c[2] = {x, 0};
  // A .shared::cluster destination from a .shared::cta view.
  __tile_apply("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes", // expected-note@#dst {{'dst' declared here}}
               dst, tile::tensor_map(m), c, tile::to_cluster(full)); // expected-error {{'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes' accesses shared::cluster memory, but destination 'dstMem' is a tile::shared tensor}}
  // ... and its mbarrier: a remote arrive needs the cluster window too.
  __tile_apply("mbarrier.arrive.shared::cluster.b64", full); // expected-error {{'mbarrier.arrive.shared::cluster.b64' accesses shared::cluster memory, but destination 'addr' is a tile::shared tensor}}
                                                             // expected-note@#full {{'full' declared here}}
  // The reverse: a cluster-window address where .shared::cta is spelled.
  __tile_apply("mbarrier.init.shared::cta.b64", tile::to_cluster(full), 1u); // expected-error {{'mbarrier.init.shared::cta.b64' accesses shared memory, but destination 'addr' is a tile::cluster tensor}}
  __tile_apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
               tile::to_cluster(dst), tile::tensor_map(m), c, full); // expected-error {{'cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes' accesses shared memory, but destination 'dstMem' is a tile::cluster tensor}}
  // No state space in the spelling: a generic address, not a shared view.
  __tile_apply("mbarrier.init.b64", full, 1u); // expected-error {{'mbarrier.init.b64' accesses generic memory, but destination 'addr' is a tile::shared tensor}}
                                               // expected-note@#full {{'full' declared here}}
  __tile_apply("mbarrier.try_wait.parity.shared::cta.b64", // expected-error@+1 {{'mbarrier.try_wait.parity.shared::cta.b64' accesses shared memory, but operand 'addr' is a tile::generic tensor}}
               (bool[1]){}, tile::generic<uint64_t, 1>(bars), 0u);
  // The right windows.
  __tile_apply("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
               tile::to_cluster(dst), tile::tensor_map(m), c, tile::to_cluster(full));
  __tile_apply("mbarrier.arrive.shared::cluster.b64", tile::to_cluster(full));
  __tile_apply("mbarrier.init.shared::cta.b64", full, 1u);
  __tile_apply("mbarrier.init.b64", tile::generic<uint64_t, 1>(bars), 1u);
}
