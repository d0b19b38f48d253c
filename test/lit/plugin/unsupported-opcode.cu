// docs/spec.md section 4.1: real PTX, but outside the per-thread register instructions
// tileapply expands.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  float a[8][1];
  __tile_apply("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", a, a, a); // expected-error {{is PTX, but outside tileapply's per-thread register instructions}}
}
