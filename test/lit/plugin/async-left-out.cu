// What the asynchronous group leaves out, and how a call learns it:
// prefetch through the .param/.const windows (a C++ pointer is a generic
// address) is UnsupportedOpcode with its reason; red (atomic.def) and
// red.async (async.def) are both forms;
// tensormap.replace's element types 13..15 are an overload of their own that
// sm_90a does not have; st.async of 8-bit values has no form (an 8-bit asm
// operand cannot be bound to a .b8 register).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <cuda.h>
#include <tileapply/tile.h>

__global__ void kernel(const __grid_constant__ CUtensorMap m, CUtensorMap *g, uint32_t *p, uint32_t peerBuf,
                       uint32_t peerBar) {
  __tile_apply("prefetch.param.tensormap", tile::tensor_map(m)); // expected-error {{'prefetch.param.tensormap' is PTX, but outside tileapply's per-thread register instructions: needs a .param window address, which a C++ pointer never is; prefetch.tensormap takes the map's generic address}}
  __tile_apply("prefetch.const.tensormap", tile::tensor_map(m)); // expected-error {{needs a .const window address}}
  __tile_apply("prefetch.tensormap", tile::tensor_map(m));
  __tile_apply("red.global.add.u32", tile::global<uint32_t, 1>(p), 1u);
  __tile_apply("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32",
               tile::cluster<uint32_t, 1>(peerBuf), 1u, tile::cluster<uint64_t, 1>(peerBar));
  __tile_apply("tensormap.replace.tile.elemtype.global.b1024.b32", tile::global<CUtensorMap, 1>(g), 13); // expected-error {{operand 'new_val' of 'tensormap.replace.tile.elemtype.global.b1024.b32' is an immediate: PTX requires a compile-time constant integer in [0..12], found the constant 13}}
                                                                                                          // expected-note@-1 {{also takes these operands: addr:tmap, new_val:b32 [13..15]}}
  __tile_apply("tensormap.replace.tile.elemtype.global.b1024.b32", tile::global<CUtensorMap, 1>(g), 12);
  __tile_apply("st.async.release.gpu.global.b8", tile::global<uint8_t, 1>(reinterpret_cast<uint8_t *>(p)), uint8_t{1}); // expected-error {{'st.async.release.gpu.global.b8' is not a valid form of 'st'}}
}
