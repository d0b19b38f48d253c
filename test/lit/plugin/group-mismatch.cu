// docs/spec.md section 4.4: the last axis of a tensor operand is its register group, whose
// extent must be the opcode's register count (1, or 2/4/8 for .v2/.v4/.v8).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(tile::global<const uint32_t, 8, 4> G) { // #G
  uint32_t a[8][1];
  uint32_t v[8][2];    // #v
  uint32_t flat[8];    // #flat
  __tile_apply("add.rn.f16x2", a, a, v); // expected-error {{operand 'b' of 'add.rn.f16x2' needs a group axis of 1 (one register), found shape [8, 2] whose last axis is 2}}
                                         // expected-note@#v {{'v' declared here}}
  __tile_apply("mov.b32", flat, flat); // expected-error {{destination 'd' of 'mov.b32' needs a group axis of 1 (one register), or 2 (16-bit) registers that fill the .b32, found shape [8] whose last axis is 8}}
                                       // expected-error@-1 {{operand 'a' of 'mov.b32' needs a group axis of 1 (one register), or 2 (16-bit) registers that fill the .b32, found shape [8] whose last axis is 8}}
                                       // expected-note@#flat 2 {{'flat' declared here}}
  uint32_t q[8][4];
  __tile_apply("ld.global.v4.b32", q, G);
  uint32_t p[8][2];
  __tile_apply("ld.global.v2.b32", p, G); // expected-error {{operand 'a' of 'ld.global.v2.b32' needs a group axis of 2 (a .v2 group), found shape [8, 4] whose last axis is 4}}
                                          // expected-note@#G {{'G' declared here}}
}
