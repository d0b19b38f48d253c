// CONTRACT 4.1: the right qualifiers in the wrong order are not PTX; the
// message names the PTX spelling.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  float f[8][1];
  uint32_t h[8][1];
  __tile_apply("add.f32.rn", f, f, f); // expected-error {{the qualifiers of 'add.f32.rn' are out of order; PTX spells this form 'add.rn.f32'}}
  __tile_apply("add.sat.rn.f16x2", h, h, h); // expected-error {{PTX spells this form 'add.rn.sat.f16x2'}}
}
