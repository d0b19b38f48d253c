// docs/spec.md section 4.4: all tensor operands share the same repeat extents.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];
  uint32_t c[4][1];                 // #c
  uint32_t m[2][4][1], n[4][2][1];  // #n
  __tile_apply("add.rn.f16x2", a, a, c); // expected-error {{repeat extents differ: 'd' has shape [8, 1] (repeats [8]) but 'b' has shape [4, 1] (repeats [4])}}
                                         // expected-note@#c {{'c' declared here}}
  __tile_apply("add.rn.f16x2", m, m, n); // expected-error {{repeat extents differ}}
                                         // expected-note@#n {{'n' declared here}}
  // Same repeats through a reshaping view.
  __tile_apply("add.rn.f16x2", m, m, tile::view<tile::shape<2, 4, 1>, tile::stride<4, 1, 1>>(a));
}
