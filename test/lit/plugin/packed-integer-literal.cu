// docs/spec.md section 4.11: an integer literal passed to a packed floating-point operand
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
  // A decimal literal warns whatever its suffix, and through integer casts
  // (issue 17): `2u` is as much the bits 0x2 as `2` is.
  __tile_apply("add.rn.f16x2", a, a, 2u); // expected-warning {{integer literal 2 passed to operand 'b' of 'add.rn.f16x2' is the raw bits 0x00000002}}
                                          // expected-note@-1 {{write tile::packed::f16x2(2.0f), or 0x40004000u where the raw bits are meant}}
  __tile_apply("add.rn.f16x2", a, a, static_cast<uint32_t>(3)); // expected-warning {{integer literal 3 passed to operand 'b'}}
                                                                // expected-note@-1 {{two halves of 3.0 are 0x42004200}}
  __tile_apply("add.rn.f16x2", a, a, (uint32_t)-0 + 4ull); // not a literal: an expression
  // Already the whole carrier: no warning. Hexadecimal, octal and binary
  // literals spell bits on purpose; zero is zero in every format.
  __tile_apply("add.rn.f16x2", a, a, 0x40004000u);
  __tile_apply("add.rn.f16x2", a, a, 0x40004000);
  __tile_apply("add.rn.f16x2", a, a, 0b1);
  __tile_apply("add.rn.f16x2", a, a, 0);
  __tile_apply("add.rn.f16x2", a, a, bits);
  __tile_apply("add.rn.f16x2", a, a, tile::packed::f16x2(2.0f));
}

// .f16 and .bf16 take the bits of one value (issue 17): an integer constant
// that fits 16 bits is those bits, as for a packed operand; a decimal literal
// warns, with the note for one value. (Before, `1` was an error and
// `(uint16_t)1` silent.) A floating constant stays an error: no conversion.
__global__ void halves() {
  uint16_t h[8][1];
  __tile_apply("add.rn.f16", h, h, 1); // expected-warning {{integer literal 1 passed to operand 'b' of 'add.rn.f16' is the raw bits 0x0001, not a .f16 of value 1}}
                                       // expected-note@-1 {{the half 1.0 is 0x3C00: write tile::packed::f16_bits(1.0f), or (uint16_t)0x3C00 where the raw bits are meant}}
  __tile_apply("add.rn.f16", h, h, (uint16_t)2); // expected-warning {{integer literal 2 passed to operand 'b' of 'add.rn.f16' is the raw bits 0x0002}}
                                                 // expected-note@-1 {{the half 2.0 is 0x4000}}
  __tile_apply("add.rn.bf16", h, h, 2u); // expected-warning {{integer literal 2 passed to operand 'b' of 'add.rn.bf16' is the raw bits 0x0002, not a .bf16 of value 2}}
                                         // expected-note@-1 {{the bfloat16 2.0 is 0x4000: write tile::packed::bf16_bits(2.0f), or (uint16_t)0x4000 where the raw bits are meant}}
  __tile_apply("add.rn.f16", h, h, 0x3C00);
  __tile_apply("add.rn.f16", h, h, (uint16_t)0x3C00);
  __tile_apply("add.rn.f16", h, h, tile::packed::f16_bits(1.0f));
  __tile_apply("add.rn.f16", h, h, 70000); // expected-error {{operand 'b' of 'add.rn.f16' must be uint16_t or __half (PTX .f16), found int32_t}}
                                           // expected-note@-1 {{a .f16 operand takes the bits of one value, never a numeric conversion: write tile::packed::f16_bits(1.0f)}}
  __tile_apply("add.rn.f16", h, h, 1.0); // expected-error {{operand 'b' of 'add.rn.f16' must be uint16_t or __half (PTX .f16), found double}}
                                         // expected-note@-1 {{a .f16 operand takes the bits of one value}}
}
