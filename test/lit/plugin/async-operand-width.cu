// docs/spec.md section 6: the asynchronous families' operands have fixed widths, as
// ptxas enforces them: a CTA mask of 16 bits, a cache policy of 64, int32_t
// coordinates (as many as the dimension), 64-bit mbarriers. Anything else is
// CarrierMismatch (or GroupMismatch for a wrong count), at the argument.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <cuda.h>
#include <tileapply/tile.h>

__global__ void kernel(const __grid_constant__ CUtensorMap m, int x, uint32_t mask32, uint32_t policy32,
                       uint16_t mask, uint64_t policy) {
  __shared__ alignas(128) float buf[1024];
  __shared__ uint64_t bars[1];
  __shared__ uint32_t words[1];
  auto dst = tile::shared<float, 1>(buf);
  auto full = tile::shared<uint64_t, 1>(bars);
  int32_t c[2] = {x, 0};
  int64_t c64[2] = {x, 0}; // #c64
  __tile_apply("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster",
               tile::to_cluster(dst), tile::tensor_map(m), c, tile::to_cluster(full),
               mask32); // expected-error {{operand 'ctaMask' of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster' must be any 16-bit type (uint16_t, int16_t, __half, __nv_bfloat16) (PTX .b16), found uint32_t}}
  __tile_apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint",
               dst, tile::tensor_map(m), c, full,
               policy32); // expected-error {{operand 'cache-policy' of 'cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint' must be any 64-bit type (uint64_t, int64_t, double, float2) (PTX .b64), found uint32_t}}
  __tile_apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes", dst, tile::tensor_map(m),
               c64, full); // expected-error {{operand 'tensorCoords' of 'cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes' must be int32_t (PTX .s32), found int64_t}}
                           // expected-note@#c64 {{'c64' declared here}}
  __tile_apply("cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes", dst, tile::tensor_map(m),
               c, full); // expected-error {{operand 'tensorCoords' of 'cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes' needs a group axis of 3}}
                         // expected-note@16 {{'c' declared here}}
  __tile_apply("mbarrier.init.shared::cta.b64", tile::shared<uint32_t, 1>(words), 1u); // expected-error {{the elements of destination 'addr' of 'mbarrier.init.shared::cta.b64' must be any 64-bit type}}
  __tile_apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes", dst,
               tile::generic<float, 1>(buf), c, full); // expected-error {{the elements of operand 'tensorMap' of 'cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes' must be CUtensorMap_st (PTX .tmap), found float}}
  // The right widths.
  __tile_apply("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint",
               tile::to_cluster(dst), tile::tensor_map(m), c, tile::to_cluster(full), mask, policy);
  __tile_apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes", dst, tile::tensor_map(m), c, full);
}
