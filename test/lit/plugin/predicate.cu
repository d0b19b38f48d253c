// docs/spec.md section 2: a predicate tensor is bool or uint32_t, shaped like the repeat
// axes followed by a group axis of 1.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];
  bool four[4][1]; // #four
  float f[8][1]; // #f
  __tile_apply("add.rn.f16x2", a, a, a, tile::pred(four)); // expected-error {{the predicate tensor has shape [4, 1]; one predicate per repeat needs shape [8, 1]}}
                                                           // expected-note@#four {{'four' declared here}}
  __tile_apply("add.rn.f16x2", a, a, a, tile::pred(f)); // expected-error {{predicate tensor elements must be bool or uint32_t, found float}}
                                                        // expected-note@#f {{'f' declared here}}
  bool p[8][1];
  uint32_t q[8][1];
  __tile_apply("add.rn.f16x2", a, a, a, tile::pred(p));
  __tile_apply("add.rn.f16x2", a, a, a, tile::pred(q), tile::preserve_dst);
}
