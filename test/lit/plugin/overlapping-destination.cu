// docs/spec.md section 4.5: destination storage must be distinct across repeats: a
// broadcast (zero-stride) or overlapping view is for inputs only.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];   // #a
  uint32_t b[8][1];
  __tile_apply("add.rn.f16x2", tile::view<tile::shape<8, 1>, tile::stride<0, 1>>(a), b, b); // expected-error {{destination 'd' of 'add.rn.f16x2' writes storage element 0 more than once (shape [8, 1], strides [0, 1]); a broadcast (stride 0) view is for inputs only}}
                                                                                             // expected-note@#a {{'a' declared here}}
  // The same zero-stride view is a legal input.
  __tile_apply("add.rn.f16x2", b, b, tile::view<tile::shape<8, 1>, tile::stride<0, 1>>(a));
}
