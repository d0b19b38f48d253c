// Calls written through user macros: a problem with an argument the user
// wrote points at that argument; one written inside the macro body points at
// the macro's use (with Clang's "expanded from macro" note), and the fix-it
// is left out because the literal is not in the user's text at that spot.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fno-color-diagnostics -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --implicit-check-not=fix-it: --implicit-check-not=tile.h
#include <tileapply/tile.h>

#define ADD_H2(d, x, y) __tile_apply("add.rn.f16x2", d, x, y)
#define APPLY(...) __tile_apply(__VA_ARGS__)
#define BAD_ADD(d, x, y) __tile_apply("add.rn.f16x", d, x, y)
#define OPCODE "add.rn.f16x"

__global__ void kernel() {
  uint32_t a[8][1];
  float f[8][1]; // #f
  ADD_H2(f, a, a); // expected-error {{destination 'd' of 'add.rn.f16x2' must be uint32_t or __half2}}
                   // expected-note@#f {{'f' declared here}}
  // CHECK: macro.cu:[[@LINE-2]]:10: error: destination 'd'
  APPLY("add.rn.f16x2", a, f, a); // expected-error {{operand 'a' of 'add.rn.f16x2' must be uint32_t or __half2}}
                                  // expected-note@#f {{'f' declared here}}
  // CHECK: macro.cu:[[@LINE-2]]:28: error: operand 'a'
  BAD_ADD(a, a, a); // expected-error {{did you mean 'add.rn.f16x2'?}}
  // CHECK: macro.cu:[[@LINE-1]]:3: error: '.f16x' is not a qualifier of 'add'
  // CHECK: macro.cu:11:{{[0-9]+}}: note: expanded from macro 'BAD_ADD'
  __tile_apply(OPCODE, a, a, a); // expected-error {{did you mean 'add.rn.f16x2'?}}
  // CHECK: macro.cu:[[@LINE-1]]:16: error: '.f16x' is not a qualifier of 'add'
  // CHECK: macro.cu:12:{{[0-9]+}}: note: expanded from macro 'OPCODE'
}

// A literal passed through a macro argument is the user's text: it gets the
// fix-it.
__global__ void through_argument() {
  uint32_t a[8][1];
  APPLY("add.rn.f16x", a, a, a); // expected-error {{did you mean 'add.rn.f16x2'?}}
  // CHECK: macro.cu:[[@LINE-1]]:9: error: '.f16x' is not a qualifier of 'add'
  // CHECK: fix-it:"{{.*}}macro.cu":{[[@LINE-2]]:9-[[@LINE-2]]:22}:"\"add.rn.f16x2\""
}
