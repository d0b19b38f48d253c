// docs/spec.md section 4.1: a qualifier the instruction does not take, with a
// "did you mean" fix-it when a form is close.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x", a, a, a); // expected-error {{'.f16x' is not a qualifier of 'add'; did you mean 'add.rn.f16x2'?}}
}
