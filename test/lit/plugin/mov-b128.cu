// mov.b128: a .b128 operand takes any 128-bit carrier (unsigned __int128,
// __int128), or a group of 2 x 64-bit or 4 x 32-bit registers on one side.
// 64-bit values, wrong groups and both sides split are refused; the row's
// floor is sm_70 (and PTX ISA 8.3, see ptx-too-old.cu).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_60 --cuda-device-only -fsyntax-only -fplugin=%plugin -DOLD_GPU -Xclang -verify=sm60 %s
#include <tileapply/tile.h>

#ifndef OLD_GPU
__global__ void kernel(uint64_t s) {
  unsigned __int128 q[4][1]; // #q
  __int128 sq[4][1];
  uint64_t w[4][1];      // #w
  uint64_t pair[4][2];
  uint32_t quad[4][4];   // #quad
  uint32_t half[4][2];   // #half
  uint32_t three[4][3];  // #three

  // Accepted: a copy between any two 128-bit carriers, a pack, an unpack, a
  // 128-bit scalar, and a constant that is exactly a .b128 value.
  __tile_apply("mov.b128", sq, q);
  __tile_apply("mov.b128", q, pair);
  __tile_apply("mov.b128", quad, q);
  __tile_apply("mov.b128", q, static_cast<unsigned __int128>(s) << 64);
  __tile_apply("mov.b128", q, 5);

  // A 64-bit value where the .b128 needs 128 bits, as a tensor and as a scalar.
  __tile_apply("mov.b128", q, w); // expected-error {{operand 'a' of 'mov.b128' must be any 128-bit type (unsigned __int128, __int128) (PTX .b128), found uint64_t}}
                                  // expected-note@#w {{'w' declared here}}
  __tile_apply("mov.b128", q, s); // expected-error {{operand 'a' of 'mov.b128' must be any 128-bit type (unsigned __int128, __int128) (PTX .b128), found uint64_t}}
  // A negative constant is not a .b128 bit pattern.
  __tile_apply("mov.b128", q, -1); // expected-error {{operand 'a' of 'mov.b128' must be any 128-bit type (unsigned __int128, __int128) (PTX .b128), found int32_t}}
                                   // expected-note@-1 {{a constant is accepted only when it converts to .b128 without changing its value}}
  // Two 32-bit registers are 64 bits, not 128.
  __tile_apply("mov.b128", q, half); // expected-error {{operand 'a' of 'mov.b128' given as a group of 2 registers must hold 64-bit elements (2 x .b64 = .b128), found uint32_t}}
                                     // expected-note@#half {{'half' declared here}}
  // Three registers are no group of a .b128.
  __tile_apply("mov.b128", three, q); // expected-error {{destination 'd' of 'mov.b128' must be any 128-bit type (unsigned __int128, __int128) (PTX .b128), found uint32_t}}
                                      // expected-error@-1 {{destination 'd' of 'mov.b128' needs a group axis of 1 (one register), or 2 (64-bit) or 4 (32-bit) registers that fill the .b128, found shape [4, 3] whose last axis is 3}}
                                      // expected-note@#three 2 {{'three' declared here}}
  // PTX has no group-to-group mov.
  __tile_apply("mov.b128", pair, quad); // expected-error {{'mov.b128' packs or unpacks one register group at a time: give either the destination or the source as a group of narrower registers, not both}}
  // And a 128-bit carrier is not a 64-bit operand.
  __tile_apply("mov.b64", w, q); // expected-error {{operand 'a' of 'mov.b64' must be any 64-bit type (uint64_t, int64_t, double, float2) (PTX .b64), found unsigned __int128}}
                                 // expected-note@#q {{'q' declared here}}
}
#else
__global__ void old_gpu() {
  unsigned __int128 q[4][1];
  __tile_apply("mov.b128", q, q); // sm60-error {{'mov.b128' needs sm_70 or newer, but this compilation targets sm_60}}
                                  // sm60-note@-1 {{compile for a newer GPU (--cuda-gpu-arch=sm_70) or choose a form that sm_60 has}}
}
#endif
