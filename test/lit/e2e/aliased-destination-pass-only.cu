// The aliasing rules of aliased-destination.cu, checked by the pass alone
// (-fpass-plugin, no Clang plugin): the pass follows a view of a register
// tensor through its temporary to the array it views, so an in-place
// transpose is refused in the IR too, at -O0 and -O2, at the call's line.
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O0 -S -o /dev/null -fpass-plugin=%passplugin %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -o /dev/null -fpass-plugin=%passplugin %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <tileapply/tile.h>

template <class S, class T, class V> __device__ __forceinline__ auto view(V &v) {
  return tile::view<S, T>(v);
}

__global__ void kernel(float x, float *out) {
  float t[2][2][1] = {{{x}, {x + 1}}, {{x + 2}, {x + 3}}};
  // CHECK: aliased-destination-pass-only.cu:[[#@LINE+1]]:3: error: destination 'd' of 'mov.f32' writes storage element 1 at repeat 1, and operand 'a' (argument 2) reads that element at repeat 2: {{.*}}; write the result to a separate destination tensor
  __tile_apply("mov.f32", t, tile::view<tile::shape<2, 2, 1>, tile::stride<1, 2, 1>>(t));
  float v[4][1] = {{x}, {x}, {x}, {x}};
  // A broadcast view of v[0] as the second source of v = v + v[0].
  // CHECK: aliased-destination-pass-only.cu:[[#@LINE+1]]:3: error: destination 'd' of 'add.f32' writes storage element 0 at repeat 0, and operand 'b' (argument 3) reads that element at repeat 1
  __tile_apply("add.f32", v, v, tile::view<tile::shape<4, 1>, tile::stride<0, 1>>(v));
  // The view made in a helper function: visible once the helper is inlined.
  float u[4][1] = {{x}, {x}, {x}, {x}};
  // CHECK: aliased-destination-pass-only.cu:[[#@LINE+1]]:3: error: destination 'd' of 'mov.f32' writes storage element 0 at repeat 0, and operand 'a' (argument 2) reads that element at repeat 1
  __tile_apply("mov.f32", u, view<tile::shape<4, 1>, tile::stride<0, 1>>(u));
  // Two views of one array with different strides: w[2r] = w[r].
  float w[8][1] = {{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}};
  // CHECK: aliased-destination-pass-only.cu:[[#@LINE+1]]:3: error: destination 'd' of 'mov.f32' writes storage element 2 at repeat 1, and operand 'a' (argument 2) reads that element at repeat 2
  __tile_apply("mov.f32", tile::view<tile::shape<4, 1>, tile::stride<2, 1>>(w),
               tile::view<tile::shape<4, 1>, tile::stride<1, 1>>(w));
  // Legal in place: each repeat reads only elements no earlier one wrote.
  __tile_apply("add.f32", v, v, v);
  __tile_apply("mov.f32", tile::view<tile::shape<4, 1>, tile::stride<1, 1>>(w),
               tile::view<tile::shape<4, 1>, tile::stride<2, 1>>(w));
  out[0] = t[0][1][0] + v[1][0] + u[0][0] + w[0][0] + w[3][0];
}
