// The opcode must be a string known at compile time: a literal (parenthesized,
// adjacent literals, a macro), or any expression Clang's constant evaluator
// turns into a string (opcode-constant.cu). A run-time pointer or condition
// is refused at the opcode, with the evaluator's reason as notes.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

#define OPCODE "add.rn.f16x2"

__device__ void apply_to(const char *op, uint32_t (&d)[8][1]) { // expected-note {{declared here}}
  __tile_apply(op, d, d, d); // expected-error {{opcode is not a string known at compile time}} expected-note {{write a literal ("add.rn.f16x2"), a constexpr string, a condition on template parameters, or tile::fmt<"pattern{}", N>}}
                             // expected-note@-1 {{function parameter 'op' with unknown value cannot be used in a constant expression}}
}

__device__ const char *run_time_choice(int i); // expected-note {{declared here}}

__global__ void kernel(bool c) { // expected-note {{declared here}}
  uint32_t a[8][1];
  const char *op = "add.rn.f16x2"; // expected-note {{declared here}}
  __tile_apply(op, a, a, a); // expected-error {{opcode is not a string known at compile time}} expected-note {{the PTX instruction is chosen at compile time}}
                             // expected-note@-1 {{read of non-constexpr variable 'op' is not allowed in a constant expression}}
  __tile_apply(c ? "add.rn.f16x2" : "sub.rn.f16x2", a, a, a); // expected-error {{opcode is not a string known at compile time}} expected-note {{the PTX instruction is chosen at compile time}}
                                                             // expected-note@-1 {{function parameter 'c' with unknown value}}
  __tile_apply(run_time_choice(1), a, a, a); // expected-error {{opcode is not a string known at compile time}} expected-note {{the PTX instruction is chosen at compile time}}
                                             // expected-note@-1 {{non-constexpr function 'run_time_choice' cannot be used in a constant expression}}
  // Accepted: literals in every spelling, and a constexpr pointer.
  static constexpr const char *constant_op = "add.rn.f16x2";
  __tile_apply(constant_op, a, a, a);
  __tile_apply(("add.rn.f16x2"), a, a, a);
  __tile_apply("add.rn." "f16x2", a, a, a);
  __tile_apply(OPCODE, a, a, a);
}
