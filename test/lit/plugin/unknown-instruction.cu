// docs/spec.md section 4.1: an opcode that names no PTX instruction.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];
  __tile_apply("fadd.rn.f16x2", a, a, a); // expected-error {{'fadd' is not a PTX instruction tileapply knows}}
  __tile_apply("", a, a, a); // expected-error {{the opcode is an empty string}}
}
