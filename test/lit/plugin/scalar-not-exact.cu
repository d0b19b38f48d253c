// docs/spec.md section 2 / 4.3: a constant scalar is accepted only when it converts to
// the operand type without changing its value (`1.0` for .f32, `5` for .s32).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  int32_t a[8][1];
  float f[8][1];
  __tile_apply("add.s32", a, a, 1.5); // expected-error {{operand 'b' of 'add.s32' must be int32_t (PTX .s32), found double}}
                                      // expected-note@-1 {{a constant is accepted only when it converts to .s32 without changing its value}}
  __tile_apply("add.s32", a, a, 5);
  __tile_apply("add.rn.f32", f, f, 2.0);
}
