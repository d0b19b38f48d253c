// docs/spec.md section 4.8: tile::preserve_dst on an opcode with no destination.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(tile::global<uint32_t, 8, 1> Out, bool on) {
  uint32_t a[8][1] = {};
  __tile_apply("st.global.b32", Out, a, tile::pred(on), tile::preserve_dst); // expected-error {{tile::preserve_dst has nothing to preserve: 'st.global.b32' has no destination}}
  __tile_apply("st.global.b32", Out, a, tile::pred(on));
}
