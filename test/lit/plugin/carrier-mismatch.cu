// docs/spec.md section 4.3: each operand's carrier dtype must match the opcode's operand
// type, including a result wider than the inputs (mul.wide.s32 writes .s64).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  int32_t x[8][1], y[8][1];
  int32_t narrow[8][1];   // #narrow
  int64_t wide[8][1];
  __tile_apply("mul.wide.s32", narrow, x, y); // expected-error {{destination 'd' of 'mul.wide.s32' must be int64_t (PTX .s64), found int32_t}}
                                              // expected-note@#narrow {{'narrow' declared here}}
  __tile_apply("mul.wide.s32", wide, x, y);

  float f[8][1];          // #f
  uint32_t h[8][1];
  __tile_apply("add.rn.f16x2", h, f, h); // expected-error {{operand 'a' of 'add.rn.f16x2' must be uint32_t or __half2 (PTX .f16x2), found float}}
                                         // expected-note@#f {{'f' declared here}}
  __tile_apply("add.rn.f32", f, f, 1.0);
  __tile_apply("add.rn.f32", f, f, 1.0f);

  uint32_t u[8][1];       // #u
  __tile_apply("add.s32", x, u, x); // expected-error {{operand 'a' of 'add.s32' must be int32_t (PTX .s32), found uint32_t}}
                                    // expected-note@#u {{'u' declared here}}
  __tile_apply("mov.b32", f, f);
  __tile_apply("mov.b32", h, f);
}
