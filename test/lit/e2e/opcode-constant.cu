// One verdict for constant-expression opcodes: every opcode below is not a
// literal, passes the plugin, and the full compile expands it into the
// instruction it evaluated to, at every -O level and with -g (the plugin pins
// the spelling as a constant string before code generation, so the pass reads
// the same one, whatever the expression was: a consteval result in a
// temporary, a local constexpr array, a conditional on a template parameter).
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O0 -fplugin=%plugin %s -o - | FileCheck %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o - | FileCheck %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O0 -g -fplugin=%plugin %s -o - | FileCheck %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O3 -g -fplugin=%plugin %s -o - | FileCheck %s
#include <tileapply/tile.h>

template <bool Add> __global__ void add_or_sub(float *out) {
  float a[2][1] = {{1}, {2}};
  __tile_apply(Add ? "add.rn.f32" : "sub.rn.f32", a, a, a);
  out[0] = a[0][0];
  out[1] = a[1][0];
}
template __global__ void add_or_sub<true>(float *);
template __global__ void add_or_sub<false>(float *);
// CHECK-LABEL: .entry _Z10add_or_subILb1EEvPf(
// CHECK-COUNT-2: add.rn.f32
// CHECK-NOT: sub.rn.f32
// CHECK-LABEL: .entry _Z10add_or_subILb0EEvPf(
// CHECK-COUNT-2: sub.rn.f32
// CHECK-NOT: add.rn.f32

template <int BN> __global__ void widths(tile::global<const float, BN / 4, 2> in, float *out) {
  float v[BN / 4][2];
  __tile_apply(tile::fmt<"ld.global.v{}.f{}", 2, 32>, v, in);
  for (int i = 0; i < BN / 4; ++i)
    out[i] = v[i][0] + v[i][1];
}
template __global__ void widths<8>(tile::global<const float, 2, 2>, float *);
// CHECK-LABEL: .entry _Z6widthsILi8EE
// CHECK-COUNT-2: ld.global.v2.f32

constexpr char kMul[] = "mul.rn.f32";
consteval const char *min_or_max(bool max) { return max ? "max.f32" : "min.f32"; }
struct Spelled {
  char text[16];
};
consteval Spelled spelled() { return Spelled{"sub.rn.f32"}; }

__global__ void forms(float *out) {
  float x[1][1] = {{3}};
  constexpr const char *kLocal = "add.rn.f32";
  constexpr char kLocalArray[] = "div.rn.f32";
  __tile_apply(kLocal, x, x, x);
  __tile_apply(kLocalArray, x, x, x);
  __tile_apply(kMul, x, x, x);
  __tile_apply(min_or_max(true), x, x, x);
  __tile_apply(spelled().text, x, x, x);
  __tile_apply(tile::fmt<"fma.rn.f{}", 32>, x, x, x, x);
  out[0] = x[0][0];
}
// CHECK-LABEL: .entry _Z5formsPf(
// CHECK: add.rn.f32
// CHECK: div.rn.f32
// CHECK: mul.rn.f32
// CHECK: max.f32
// CHECK: sub.rn.f32
// CHECK: fma.rn.f32
