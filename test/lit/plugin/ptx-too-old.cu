// An opcode newer than the PTX ISA version being emitted (the cc1
// `-target-feature +ptxNN` the driver derives from the CUDA version).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -target-feature -Xclang -ptx88 -Xclang -target-feature -Xclang +ptx80 -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  uint64_t a[8][1];
  __tile_apply("add.rn.f32x2", a, a, a); // expected-error {{'add.rn.f32x2' needs PTX ISA 8.6, but this compilation emits PTX ISA 8.0}}
  unsigned __int128 q[8][1];
  __tile_apply("mov.b128", q, q); // expected-error {{'mov.b128' needs PTX ISA 8.3, but this compilation emits PTX ISA 8.0}}
}
