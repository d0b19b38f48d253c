// docs/spec.md section 4.5: the destination must be a register tensor, not a scalar.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];
  uint32_t s = 0; // #s
  __tile_apply("add.rn.f16x2", s, a, a); // expected-error {{destination 'd' of 'add.rn.f16x2' is a scalar; a destination must be a register tensor (a C array or tile::reg) with a group axis}}
                                         // expected-note@#s {{'s' declared here}}
  __tile_apply("add.rn.f16x2", 5u, a, a); // expected-error {{destination 'd' of 'add.rn.f16x2' is a scalar}}
}
