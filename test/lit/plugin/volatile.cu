// Issue 17 (docs/families/mov.md, "volatile"): a register tensor with volatile
// elements is refused at the argument (a register cannot be volatile); a
// memory tensor with volatile elements is accepted, its accesses being volatile
// asm statements. Neither fails inside tile.h.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin -DMEMORY_ONLY %s -o - | FileCheck %s
// The pass alone reads the reason from the argument's record (abi.h) and
// gives the same message and advice:
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fpass-plugin=%passplugin %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS --implicit-check-not=error:
// PASS: volatile.cu:[[#@LINE+13]]:3: error: destination 'd' of 'mov.b32' is a register tensor with volatile elements, but a register cannot be volatile: declare it without volatile; memory tensors may have volatile elements
// PASS: volatile.cu:[[#@LINE+15]]:3: error: operand 'a' of 'mov.b32' is a register tensor with volatile elements
#include <tileapply/tile.h>

__global__ void kernel(volatile uint32_t *p, uint32_t *out) {
  uint32_t b[4][1];
  // CHECK-COUNT-4: ld.global.b32
  __tile_apply("ld.global.b32", b, tile::global<volatile uint32_t, 4, 1>(p));
  // CHECK-COUNT-4: st.global.b32
  __tile_apply("st.global.b32", tile::global<volatile uint32_t, 4, 1>(p), b);
#ifndef MEMORY_ONLY
  volatile uint32_t v[4][1]; // #v
  tile::reg<volatile uint32_t, 4, 1> r; // #r
  __tile_apply("mov.b32", v, b); // expected-error {{destination 'd' of 'mov.b32' is a register tensor with volatile elements, but a register cannot be volatile: declare it without volatile}}
                                 // expected-note@-1 {{memory tensors may have volatile elements}}
                                 // expected-note@#v {{'v' declared here}}
  __tile_apply("mov.b32", b, r); // expected-error {{operand 'a' of 'mov.b32' is a register tensor with volatile elements}}
                                 // expected-note@-1 {{memory tensors may have volatile elements}}
                                 // expected-note@#r {{'r' declared here}}
#endif
}
