// docs/spec.md section 2: options come last, tile::pred before tile::preserve_dst.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(bool on) {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, a, tile::preserve_dst, tile::pred(on)); // expected-error {{tile::pred must come before tile::preserve_dst}}
                                                                             // expected-error@-1 {{tile::preserve_dst keeps the destination where the predicate is off, but the call has no tile::pred}}
}
