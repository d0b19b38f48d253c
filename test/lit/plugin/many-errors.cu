// Every problem of every call is reported, not just the first one: several
// calls, several problems in one call, several functions.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -ferror-limit=0 -Xclang -verify %s
#include <tileapply/tile.h>

__device__ void first() {
  float f[8][1];                 // #f
  uint32_t a[8][1], c[4][1];     // #c
  __tile_apply("add.rn.f16x2", f, a, c); // expected-error {{destination 'd' of 'add.rn.f16x2' must be uint32_t or __half2 (PTX .f16x2), found float}}
                                         // expected-note@#f {{'f' declared here}}
                                         // expected-error@-2 {{repeat extents differ}}
                                         // expected-note@#c {{'c' declared here}}
  __tile_apply("add.rn.f16x", a, a, a); // expected-error {{did you mean 'add.rn.f16x2'?}}
  __tile_apply("add.rn.f16x2", a, a); // expected-error {{takes 3 operands}}
}

__global__ void second(bool on) {
  uint32_t a[8][1];              // #a
  const uint32_t k[8][1] = {};   // #k
  __tile_apply("add.rn.f16x2", k, a, a, tile::preserve_dst); // expected-error {{destination 'd' of 'add.rn.f16x2' is const}}
                                                             // expected-note@#k {{'k' declared here}}
                                                             // expected-error@-2 {{tile::preserve_dst keeps the destination where the predicate is off, but the call has no tile::pred}}
  __tile_apply("add.rn.f16x2", a, a, 2); // expected-warning {{integer literal 2}} expected-note {{two halves of 2.0}}
  __tile_apply("add.rn.f32x2", a, a, a); // expected-error {{needs sm_100 or newer}} expected-note {{compile for a newer GPU}}
                                         // expected-error@-1 3 {{must be uint64_t or float2 (PTX .f32x2), found uint32_t}}
                                         // expected-note@#a 3 {{'a' declared here}}
}
