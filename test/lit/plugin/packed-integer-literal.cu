// CONTRACT 4.11: an integer literal passed to a packed floating-point operand
// is a warning (`2` is the raw bits 0x00000002, not two halves of 2.0), with a
// note showing how to write the packed constant. It is a Clang warning in the
// -Wliteral-conversion group; packed-literal-control.cu tests the switches.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(uint32_t bits) {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, 2); // expected-warning {{integer literal 2 passed to operand 'b' of 'add.rn.f16x2' is the raw bits 0x00000002, not .f16x2 lanes of value 2}}
                                         // expected-note@-1 {{two halves of 2.0 are 0x40004000: write tile::packed::f16x2(2.0f), or 0x40004000u where the raw bits are meant}}
  __tile_apply("mul.rn.bf16x2", a, (1), a); // expected-warning {{integer literal 1 passed to operand 'a' of 'mul.rn.bf16x2'}}
                                            // expected-note@-1 {{two bfloat16s of 1.0 are 0x3F803F80}}
  // Already the whole carrier: no warning. Hexadecimal, octal and binary
  // literals, and any literal with a u suffix, spell bits on purpose.
  __tile_apply("add.rn.f16x2", a, a, 0x40004000u);
  __tile_apply("add.rn.f16x2", a, a, 0x40004000);
  __tile_apply("add.rn.f16x2", a, a, 0b1);
  __tile_apply("add.rn.f16x2", a, a, 2u);
  __tile_apply("add.rn.f16x2", a, a, bits);
  __tile_apply("add.rn.f16x2", a, a, static_cast<uint32_t>(2));
}
