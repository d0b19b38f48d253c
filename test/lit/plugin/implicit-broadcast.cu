// docs/spec.md section 4.6: an input with extent 1 on a repeat axis where the others have
// more is not broadcast implicitly; a scalar or a zero-stride view is.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(uint32_t s) {
  uint32_t a[8][1];
  uint32_t one[1][1];  // #one
  __tile_apply("add.rn.f16x2", a, a, one); // expected-error {{operand 'b' has extent 1 on repeat axis 0 where 'd' has 8; tileapply never broadcasts implicitly}}
                                           // expected-note@-1 {{pass a scalar, or broadcast explicitly with a zero-stride view: tile::view<tile::shape<8, 1>, tile::stride<0, 1>>(...)}}
                                           // expected-note@#one {{'one' declared here}}
  __tile_apply("add.rn.f16x2", a, a, s);
  __tile_apply("add.rn.f16x2", a, a, tile::view<tile::shape<8, 1>, tile::stride<0, 1>>(one));
}
