// docs/spec.md section 4.1: an opcode without its type suffix.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  float f[8][1];
  __tile_apply("add.rn", f, f, f); // expected-error {{'add.rn' has no type suffix (such as .s32 or .f32)}}
}
