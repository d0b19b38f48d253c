// Issue 17: fns.b32 (find the n-th set bit) is a form: sm_30 and PTX ISA 6.0
// (ptxas refuses it below .version 6.0). Immediates for base and offset,
// a negative offset counting downwards.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o - | FileCheck %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -DWRONG -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(const uint32_t *in, uint32_t *out, int32_t off) {
  uint32_t mask[2][1] = {{in[0]}, {in[1]}};
  uint32_t d[2][1];
  // CHECK-COUNT-2: fns.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 3, -1;
  __tile_apply("fns.b32", d, mask, 3, -1);
  // CHECK-COUNT-2: fns.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
  __tile_apply("fns.b32", d, d, d, off);
#ifdef WRONG
  __tile_apply("fns.b32", d, mask, 3); // expected-error {{'fns.b32' takes 4 operands (d, mask, base, offset), found 3}}
#endif
  out[0] = d[0][0];
  out[1] = d[1][0];
}
