// ld/st (and cvt) data of 8- and 16-bit types in a 32- or 64-bit integer
// register tensor, as hand-written asm writes them (`ld.global.u8 %r1`): PTX
// extends a wider destination as the type says and stores a wider source's
// low bits. The same fact lets the asm checker accept `"=r"` for ld.u8.
// test/gpu/wider-data-registers.cu checks the extension on the GPU.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fplugin=%plugin -DVALID_ONLY %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

__global__ void kernel(const int8_t *in, uint8_t *out, int32_t *w) {
  int32_t s[2][1];
  uint64_t u[2][1];
  // CHECK-COUNT-2: ld.global.s8 %r{{[0-9]+}}, [%rd{{[0-9]+}}{{(\+1)?}}];
  __tile_apply("ld.global.s8", s, tile::global<const int8_t, 2, 1>(in));
  // CHECK-COUNT-2: ld.global.u16 %rd{{[0-9]+}}, [%rd{{[0-9]+}}{{(\+2)?}}];
  __tile_apply("ld.global.u16", u, tile::global<const uint16_t, 2, 1>((const uint16_t *)in));
  // CHECK-COUNT-2: st.global.b8 [%rd{{[0-9]+}}{{(\+1)?}}], %r{{[0-9]+}};
  __tile_apply("st.global.b8", tile::global<uint8_t, 2, 1>(out), s);
  // CHECK-COUNT-2: st.global.b16 [%rd{{[0-9]+}}{{(\+2)?}}], %rd{{[0-9]+}};
  __tile_apply("st.global.b16", tile::global<uint16_t, 2, 1>((uint16_t *)out), u);
  __tile_apply("st.global.b32", tile::global<int32_t, 2, 1>(w), s);
#ifndef VALID_ONLY
  float f[2][1]; // expected-note {{'f' declared here}}
  __tile_apply("ld.global.b8", f, tile::global<const int8_t, 2, 1>(in)); // expected-error {{destination 'd' of 'ld.global.b8' must be any 8-bit type (uint8_t, int8_t) (PTX .b8), found float}}
  // expected-note@-1 {{a 32- or 64-bit integer register tensor (uint32_t, int32_t, uint64_t, int64_t) works too: 'ld.global.b8' zero- or sign-extends the value into it}}
  // Arithmetic takes exactly its type: no wider carrier for add.u16.
  uint32_t a[2][1] = {}; // expected-note 4 {{'a' declared here}}
  __tile_apply("add.u16", a, a, a); // expected-error {{destination 'd' of 'add.u16' must be uint16_t (PTX .u16), found uint32_t}}
  // expected-error@-1 {{operand 'a' of 'add.u16'}}
  // expected-error@-2 {{operand 'b' of 'add.u16'}}
  // st.async is an instruction of its own in the st family: exactly its
  // type's width (ptxas: "Arguments mismatch" for a 32-bit register).
  __tile_apply("st.async.release.gpu.global.b16", tile::global<uint16_t, 2, 1>((uint16_t *)out), a); // expected-error {{operand 'b' of 'st.async.release.gpu.global.b16' must be any 16-bit type}}
  // expected-error@-1 {{needs sm_100}} expected-note@-1 {{compile for a newer GPU}}
#endif
}
