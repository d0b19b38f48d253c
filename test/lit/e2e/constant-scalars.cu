// One verdict for constant scalars. Clang's constant evaluator (the plugin)
// and the IR (the pass) must agree on which scalar arguments are constants
// and on their values: a constant `double` is accepted for a .f32 operand
// only when it converts exactly, and an immediate operand needs a constant.
// Each call below passes the plugin; the full compile must accept it too, at
// every -O level, with and without -g, and put the same immediates in the PTX.
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O0 -fplugin=%plugin %s -o - | FileCheck %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O1 -fplugin=%plugin %s -o - | FileCheck %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o - | FileCheck %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O3 -fplugin=%plugin %s -o - | FileCheck %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O0 -g -fplugin=%plugin %s -o - | FileCheck %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -g -fplugin=%plugin %s -o - | FileCheck %s
//
// The pass alone (no plugin to pin the constants) reads constant globals
// itself, but not the result of a constexpr call: that is its own verdict,
// reported at the call's line even without -g.
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fpass-plugin=%passplugin -DPASS_ONLY %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASSONLY

#include <tileapply/tile.h>

struct S {
  double v;
};
constexpr S s{1.0};
constexpr double arr[2] = {1.5, 2.0};
constexpr double square(double x) { return x * x; }
template <int N> struct lut {
  static constexpr unsigned value = N;
};

template <int Lut>
__device__ void lop(uint32_t (&d)[2][1], uint32_t (&a)[2][1]) {
  __tile_apply("lop3.b32", d, a, a, a, Lut);
}

__global__ void k(float *p, uint32_t *q) {
  float f[2][1];
  uint32_t u[2][1], w[2][1], x[2][1];
  __tile_apply("ld.global.f32", f, tile::global<float, 2, 1>(p));
  __tile_apply("ld.global.b32", u, tile::global<uint32_t, 2, 1>(q));
  // CHECK-COUNT-2: add.rn.f32 {{%r[0-9]+|%f[0-9]+}}, {{%r[0-9]+|%f[0-9]+}}, 0f3F800000;
  __tile_apply("add.rn.f32", f, f, s.v); // a member of a constexpr struct (the issue's case)
  // CHECK-COUNT-2: add.rn.f32 {{%r[0-9]+|%f[0-9]+}}, {{%r[0-9]+|%f[0-9]+}}, 0f40000000;
  __tile_apply("add.rn.f32", f, f, arr[1]); // an element of a constexpr array (the issue's case)
#ifndef PASS_ONLY
  // CHECK-COUNT-2: mul.rn.f32 {{%r[0-9]+|%f[0-9]+}}, {{%r[0-9]+|%f[0-9]+}}, 0f40800000;
  __tile_apply("mul.rn.f32", f, f, square(2.0)); // a constexpr call
  constexpr S local{3.0};
  // CHECK-COUNT-2: add.rn.f32 {{%r[0-9]+|%f[0-9]+}}, {{%r[0-9]+|%f[0-9]+}}, 0f40400000;
  __tile_apply("add.rn.f32", f, f, local.v); // a local constexpr aggregate
  // CHECK-COUNT-2: lop3.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, 150;
  __tile_apply("lop3.b32", w, u, u, u, (int)lut<150>::value); // immediate from a static member
  // CHECK-COUNT-2: lop3.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, 9;
  lop<(int)square(3.0)>(x, u); // immediate from a template argument
#else
  // PASSONLY: constant-scalars.cu:[[@LINE+1]]:3: error: operand 'b' of 'mul.rn.f32' must be float (PTX .f32), found double
  __tile_apply("mul.rn.f32", f, f, square(2.0));
#endif
  __tile_apply("st.global.f32", tile::global<float, 2, 1>(p), f);
#ifndef PASS_ONLY
  __tile_apply("st.global.b32", tile::global<uint32_t, 2, 1>(q), w);
  __tile_apply("st.global.b32", tile::global<uint32_t, 2, 1>(q + 2), x);
#endif
}
