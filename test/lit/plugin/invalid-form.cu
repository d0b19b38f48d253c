// docs/spec.md section 4.1: every token is a qualifier of the instruction, but together
// they are no form of it (rounding on integer add, mul without .lo/.hi/.wide).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  int a[8][1];
  __tile_apply("add.rn.s32", a, a, a); // expected-error {{'add.rn.s32' is not a valid form of 'add'}}
  __tile_apply("mul.s32", a, a, a); // expected-error {{'mul.s32' is not a valid form of 'mul'}}
  __tile_apply("add..s32", a, a, a); // expected-error {{'add..s32' is not a PTX opcode spelling}}
}
