// CONTRACT 4.1: real PTX, but outside the per-thread register instructions
// tileapply expands.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  float a[8][1];
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", a, a, a); // expected-error {{is PTX, but outside tileapply's per-thread register instructions}}
}
