// docs/spec.md section 4.7: the memory tensor's state space must be the opcode's
// (`ld.global` from tile::shared is refused).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(tile::global<uint32_t, 8, 1> G) { // #G
  __shared__ uint32_t buffer[8];
  tile::shared<uint32_t, 8, 1> S(buffer); // #S
  uint32_t a[8][1];
  __tile_apply("ld.global.b32", a, S); // expected-error {{'ld.global.b32' accesses global memory, but operand 'a' is a tile::shared tensor}}
                                       // expected-note@#S {{'S' declared here}}
  __tile_apply("st.shared.b32", G, a); // expected-error-re {{'st.shared.b32' accesses shared memory, but {{.*}} is a tile::global tensor}}
                                       // expected-note@#G {{'G' declared here}}
  __tile_apply("ld.shared.b32", a, S);
  __tile_apply("st.global.b32", G, a);
}
