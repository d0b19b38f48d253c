// docs/spec.md section 4.1 and 6: the right qualifiers in an order ptxas refuses are not
// PTX (a word of the instruction name moved, a conversion's types swapped);
// the message names the PTX spelling. Orders ptxas accepts are forms.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  float f[8][1];
  uint32_t h[8][1];
  int32_t s[8][1];
  int64_t w[8][1];
  __tile_apply("mul.s32.wide", w, s, s); // expected-error {{the qualifiers of 'mul.s32.wide' are those of 'mul.wide.s32' in an order ptxas does not read as that instruction}}
  __tile_apply("cvt.rn.f16x2.f32.relu", h, f, f); // fine: ptxas reads .relu anywhere
  __tile_apply("cvt.rn.relu.f32.f16x2", h, f, f); // expected-error {{are those of 'cvt.rn.relu.f16x2.f32' in an order}}
  __tile_apply("add.f32.rn", f, f, f); // fine: ptxas reads the type anywhere
  __tile_apply("add.sat.rn.f16x2", h, h, h);
}
