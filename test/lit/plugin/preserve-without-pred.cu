// docs/spec.md section 4.8: tile::preserve_dst keeps the old destination where the
// predicate is off, so it needs tile::pred before it.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(bool on) {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, a, tile::preserve_dst); // expected-error {{tile::preserve_dst keeps the destination where the predicate is off, but the call has no tile::pred}}
  __tile_apply("add.rn.f16x2", a, a, a, tile::pred(on), tile::preserve_dst);
}
