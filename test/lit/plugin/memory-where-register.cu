// docs/spec.md section 4.7: arithmetic reads and writes registers; a memory tensor needs
// an explicit ld / st around it.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(tile::global<const uint32_t, 8, 1> In,
                       tile::global<uint32_t, 8, 1> Out) {
  __shared__ uint32_t buffer[8];
  tile::shared<uint32_t, 8, 1> S(buffer);
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, In, a); // expected-error {{operand 'a' of 'add.rn.f16x2' is a global memory tensor, but the instruction reads a register}}
                                          // expected-note@-1 {{load it into a register tensor first with an explicit ld.global}}
  __tile_apply("add.rn.f16x2", S, a, a); // expected-error {{destination 'd' of 'add.rn.f16x2' is a shared memory tensor}}
                                         // expected-note@-1 {{st.shared}}
  __tile_apply("ld.global.b32", a, In);
  __tile_apply("add.rn.f16x2", a, a, a);
  __tile_apply("st.global.b32", Out, a);
}
