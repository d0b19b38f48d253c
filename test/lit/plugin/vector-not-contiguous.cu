// A .v2/.v4/.v8 access reads consecutive elements: its group axis must have
// stride 1.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(tile::global<const uint32_t, 8, 2> G) {
  uint32_t v[8][2];
  __tile_apply("ld.global.v2.b32", v, tile::view<tile::shape<8, 2>, tile::stride<1, 8>>(G)); // expected-error {{operand 'a' of 'ld.global.v2.b32' is a vector access of 2 consecutive elements, but its group axis has stride 8}}
  __tile_apply("ld.global.v2.b32", v, G);
}
