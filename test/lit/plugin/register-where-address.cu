// docs/spec.md section 4.7: an opcode that takes an address needs a memory tensor there,
// not a register tensor or a scalar.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(uint32_t s) {
  uint32_t a[8][1], b[8][1]; // #b
  __tile_apply("ld.global.b32", a, b); // expected-error {{operand 'a' of 'ld.global.b32' is an address in global memory, but the argument is a register tensor; pass a tile::global<T, ...> memory tensor}}
                                       // expected-note@#b {{'b' declared here}}
  __tile_apply("st.global.b32", b, a); // expected-error {{is an address in global memory, but the argument is a register tensor}}
                                       // expected-note@#b {{'b' declared here}}
}
