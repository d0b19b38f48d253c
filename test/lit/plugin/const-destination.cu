// docs/spec.md section 4.5: a const destination cannot be written; the note points at the
// declaration that made it const.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(tile::global<const uint32_t, 8, 1> In) {
  uint32_t a[8][1];
  const uint32_t c[8][1] = {};              // #c
  const tile::reg<uint32_t, 8, 1> r = {};   // #r
  __tile_apply("add.rn.f16x2", c, a, a); // expected-error {{destination 'd' of 'add.rn.f16x2' is const}}
                                         // expected-note@#c {{'c' declared here}}
  __tile_apply("add.rn.f16x2", r, a, a); // expected-error {{destination 'd' of 'add.rn.f16x2' is const}}
                                         // expected-note@#r {{'r' declared here}}
  __tile_apply("add.rn.f16x2", tile::view<tile::shape<8, 1>, tile::stride<1, 1>>(c), a, a); // expected-error {{is const}}
                                                                                             // expected-note@#c {{'c' declared here}}
}
