// docs/spec.md section 4.2: the operands must be exactly the opcode's PTX operands (then
// only options). Too few is reported at the opcode, too many at the first
// extra argument.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(bool on) {
  uint32_t a[8][1], b[8][1];
  __tile_apply("add.rn.f16x2", a, b); // expected-error {{'add.rn.f16x2' takes 3 operands (d, a, b), found 2}}
  __tile_apply("add.rn.f16x2", a, a, b, b); // expected-error {{'add.rn.f16x2' takes 3 operands (d, a, b), found 4}}
  __tile_apply("abs.s32"); // expected-error {{'abs.s32' takes 2 operands (d, a), found 0}}
  __tile_apply("add.rn.f16x2", a, a, b, tile::pred(on));
}
