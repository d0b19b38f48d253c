// Issue 17: a call with more arguments than a layout can describe is refused
// at the call with the limit and the count (before, "layout array: argument
// count 65 out of range").
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// The pass alone (no plugin) says the same, at the call.
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fpass-plugin=%passplugin %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: too-many-operands.cu:[[@LINE+8]]:{{[0-9]+}}: error: __tile_apply takes at most 64 operands and options after the opcode; this call has 65
// PASS-NOT: layout array
// PASS-NOT: malformed
#include <tileapply/tile.h>

#define X8 a, a, a, a, a, a, a, a
__global__ void kernel() {
  uint32_t a[4][1];
  __tile_apply("mov.b32", X8, X8, X8, X8, X8, X8, X8, X8, a); // expected-error {{__tile_apply takes at most 64 operands and options after the opcode; this call has 65}}
                                                             // expected-note@-1 {{pass each register group as one tensor}}
  // 64 is not refused for its count (mov.b32 takes two).
  __tile_apply("mov.b32", X8, X8, X8, X8, X8, X8, X8, X8); // expected-error {{'mov.b32' takes 2 operands (d, a), found 64}}
}
