// docs/spec.md section 4.9: an opcode newer than the GPU being compiled for is refused,
// naming both architectures; at sm_100a the same call is accepted.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=sm90 %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=sm100 %s
// sm100-no-diagnostics
#include <tileapply/tile.h>

__global__ void kernel() {
  uint64_t a[8][1];
  __tile_apply("add.rn.f32x2", a, a, a); // sm90-error {{'add.rn.f32x2' needs sm_100 or newer, but this compilation targets sm_90a}}
                                         // sm90-note@-1 {{compile for a newer GPU (--cuda-gpu-arch=sm_100) or choose a form that sm_90a has}}
}
