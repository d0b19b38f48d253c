// A view may only address its tensor's storage.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1], b[8][1]; // #b
  __tile_apply("add.rn.f16x2", a, a, tile::view<tile::shape<8, 1>, tile::stride<2, 1>>(b)); // expected-error {{operand 'b' with shape [8, 1] and strides [2, 1] reaches element 14 of a 8-element storage}}
                                                                                            // expected-note@#b {{'b' declared here}}
  uint32_t wide[16][1];
  __tile_apply("add.rn.f16x2", a, a, tile::view<tile::shape<8, 1>, tile::stride<2, 1>>(wide));
}
