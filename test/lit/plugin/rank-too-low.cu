// docs/spec.md section 2 / 4.4: a tensor operand needs at least its register-group axis.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  tile::reg<uint32_t> r0;
  uint32_t a[1];
  __tile_apply("mov.b32", r0, a); // expected-error {{destination 'd' has no axes; a tensor operand ends in its register-group axis}}
}
