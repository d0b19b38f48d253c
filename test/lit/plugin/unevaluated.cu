// Issue 17: a __tile_apply call in an unevaluated operand (decltype, sizeof,
// noexcept, a requires-expression) runs nowhere: it is neither checked nor
// expanded, and leaves no marker in IR.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -emit-llvm -O0 -Xclang -disable-llvm-passes -fplugin=%plugin %s -o - | FileCheck %s
// expected-no-diagnostics
// CHECK: define {{.*}}kernel
// CHECK-NOT: __tileapply_apply
#include <tileapply/tile.h>

__global__ void kernel(uint32_t *out) {
  uint32_t a[4][1] = {};
  using U = decltype(__tile_apply("not.an.opcode", a, a));
  constexpr bool N = noexcept(__tile_apply("add.f32", a, a));
  constexpr auto S = sizeof(__tile_apply("mov.b32", a), 1);
  constexpr bool R = requires { __tile_apply("mov.b64", a, a); };
  using P = decltype(&__tile_apply<uint32_t (&)[4][1]>);
  out[0] = N + S + R + a[0][0];
}
