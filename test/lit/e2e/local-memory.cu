// LocalMemoryTensor: a register tensor that __tile_apply touches and that the
// optimizer could not promote to registers gets a warning at its declaration,
// with the reason and the line of the use that keeps it in memory (with or
// without -g), in the -Wframe-larger-than group; never at -O0, and not for
// a tensor that is promoted (constant indices, a fully unrolled loop, an
// inlined helper).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -o /dev/null -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O3 -g -o /dev/null -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O0 -o /dev/null -fplugin=%plugin -Xclang -verify=none %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -o /dev/null -fplugin=%plugin -Wno-frame-larger-than -Xclang -verify=none %s
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -o /dev/null -fplugin=%plugin -Werror=frame-larger-than %s 2>&1 | FileCheck %s --check-prefix=WERROR
// WERROR: error: register tensor 'a' lives in local memory, not in registers: it is indexed at run time at line [[#@LINE+7]] [-Werror,-Wframe-larger-than]
// none-no-diagnostics
#include <tileapply/tile.h>

__global__ void indexed(tile::global<const float, 8, 1> X, float *out, int i) {
  float a[8][1]; // expected-warning {{register tensor 'a' lives in local memory, not in registers: it is indexed at run time at line 19}}
  __tile_apply("ld.global.f32", a, X);
  out[0] = a[i & 7][0]; // expected-note {{indexed at run time here: make every index a compile-time constant}}
}

__device__ __noinline__ void consume(float (&a)[8][1], float *out);

__global__ void passed(tile::global<const float, 8, 1> X, float *out) {
  float b[8][1]; // expected-warning {{register tensor 'b' lives in local memory, not in registers: it is passed to 'consume(float (&) [8][1], float*)', which is not inlined at line 27}}
  __tile_apply("ld.global.f32", b, X);
  consume(b, out); // expected-note {{passed here: inline that function (__forceinline__), or pass it the elements it needs by value}}
}

__device__ float *escaped;

__global__ void address(tile::global<const float, 8, 1> X) {
  tile::reg<float, 8, 1> c; // expected-warning {{register tensor 'c' lives in local memory, not in registers: its address is taken at line 35}}
  __tile_apply("ld.global.f32", c, X);
  escaped = &c[3][0]; // expected-note {{address taken here: use the tensor only through __tile_apply, tile::view and constant indices, inside this function}}
}

// Promoted: no warning.
__device__ __forceinline__ void twice(float (&a)[8][1]) { __tile_apply("add.rn.f32", a, a, a); }

__global__ void promoted(tile::global<const float, 8, 1> X, float *out, int i) {
  float a[8][1];
  __tile_apply("ld.global.f32", a, X);
  twice(a);
#pragma unroll
  for (int k = 0; k < 8; ++k)
    out[k] = a[k][0];
  out[8] = i ? a[2][0] : a[5][0];
}

// Off for tileapply alone (Clang's own -Wframe-larger-than stays):
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -o /dev/null -fplugin=%plugin -fplugin-arg-tileapply-no-local-memory-warning -Werror -Xclang -verify=none %s
