// docs/spec.md section 4.1: the opcode must be a string literal, so that the PTX
// instruction is known at compile time. Parentheses, adjacent literals and
// macros that expand to a literal are still literals.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

#define OPCODE "add.rn.f16x2"

__device__ void apply_to(const char *op, uint32_t (&d)[8][1]) {
  __tile_apply(op, d, d, d); // expected-error {{opcode is not a string literal}} expected-note {{write it as a literal, e.g. "add.rn.f16x2"}}
}

__global__ void kernel(bool c) {
  uint32_t a[8][1];
  const char *op = "add.rn.f16x2";
  __tile_apply(op, a, a, a); // expected-error {{opcode is not a string literal}} expected-note {{write it as a literal, e.g. "add.rn.f16x2"}}
  static constexpr const char *constant_op = "add.rn.f16x2";
  __tile_apply(constant_op, a, a, a); // expected-error {{opcode is not a string literal}} expected-note {{write it as a literal, e.g. "add.rn.f16x2"}}
  __tile_apply(c ? "add.rn.f16x2" : "sub.rn.f16x2", a, a, a); // expected-error {{opcode is not a string literal}} expected-note {{write it as a literal, e.g. "add.rn.f16x2"}}

  __tile_apply(("add.rn.f16x2"), a, a, a);
  __tile_apply("add.rn." "f16x2", a, a, a);
  __tile_apply(OPCODE, a, a, a);
}
