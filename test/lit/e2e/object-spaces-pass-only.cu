// Issue 17 (3, 4): the pass alone (-fpass-plugin=TileApplyPass.so) is the
// checker: it finds the variable behind each operand in the IR and refuses a
// state space that does not fit, with the plugin's words, at the call's line.
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O0 -S -o /dev/null -fpass-plugin=%passplugin %s 2>&1 | FileCheck %s --check-prefixes=CHECK,HELPER --implicit-check-not=error:
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -o /dev/null -fpass-plugin=%passplugin %s 2>&1 | FileCheck %s --check-prefixes=CHECK,HELPER --implicit-check-not=error:
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O0 -g -S -o /dev/null -fpass-plugin=%passplugin %s 2>&1 | FileCheck %s --check-prefixes=CHECK,HELPER,DEBUG --implicit-check-not=error:
// After inlining the pass sees more than the source shows: under the plugin,
// only the call inside the always-inline helper gets through the plugin, and
// the pass refuses it, once.
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -o /dev/null -fplugin=%plugin -DONLY_HELPER %s 2>&1 | FileCheck %s --check-prefix=HELPER --implicit-check-not=error:
#include <tileapply/tile.h>

__device__ float gdev[4][1];
__constant__ float gconst[4][1];

// The pointer is a parameter: the source does not say what it points to,
// but once the helper is inlined the IR does.
__device__ __forceinline__ void load_global(float (&r)[4][1], const float *p) {
  __tile_apply("ld.global.f32", r, tile::global<const float, 4, 1>(p));
}

__global__ void helper(tile::global<float, 4, 1> Out) {
  __shared__ float s[4];
  float r[4][1];
  // HELPER: object-spaces-pass-only.cu:[[#@LINE-6]]:3: error: operand 2 of 'ld.global.f32' is a tile::global view of 's', which is a __shared__ variable; use tile::shared<...>(s) with an opcode for shared memory (such as ld.shared), or tile::generic<...>(s) with one that names no state space
  load_global(r, s);
  __tile_apply("st.global.f32", Out, r);
}

#ifndef ONLY_HELPER
__global__ void kernel(tile::global<float, 4, 1> Out, float *p) {
  __shared__ float s[4];
  __shared__ float s2[4][1];
  float loc[4];
  float r[4][1];
  // CHECK: object-spaces-pass-only.cu:[[#@LINE+1]]:3: error: operand 2 of 'ld.global.f32' is a tile::global view of 's', which is a __shared__ variable; use tile::shared<...>(s)
  __tile_apply("ld.global.f32", r, tile::global<const float, 4, 1>(s));
  // CHECK: object-spaces-pass-only.cu:[[#@LINE+1]]:3: error: operand 2 of 'ld.shared.f32' is a tile::shared view of 'gdev', which is a __device__ variable; use tile::global<...>(gdev)
  __tile_apply("ld.shared.f32", r, tile::shared<const float, 4, 1>(gdev[0]));
  // Without debug information a local variable has no name in the IR (clang
  // keeps variables in device debug information only at -O0).
  // CHECK: object-spaces-pass-only.cu:[[#@LINE+2]]:3: error: operand 2 of 'ld.shared.f32' is a tile::shared view of
  // DEBUG-SAME: 'loc', which is a local variable of the calling thread; use tile::local<...>(loc)
  __tile_apply("ld.shared.f32", r, tile::shared<const float, 4, 1>(loc));
  // CHECK: object-spaces-pass-only.cu:[[#@LINE+2]]:3: error: operand 1 of 'add.f32' is a register tensor, but 's2' is a __shared__ variable; a register tensor is the calling thread's own storage (a local C array or tile::reg), and tileapply inserts no loads, stores or barriers for it; declare a local register tensor, load it from 's2' with ld.shared through tile::shared<...>(s2), and store results back with st.shared
  // CHECK: object-spaces-pass-only.cu:[[#@LINE+1]]:3: error: operand 2 of 'add.f32' is a register tensor, but 's2' is a __shared__ variable
  __tile_apply("add.f32", s2, s2, 1.0f);
  // CHECK: object-spaces-pass-only.cu:[[#@LINE+1]]:3: error: operand 2 of 'add.f32' is a register tensor, but 'gconst' is a __constant__ variable; {{.*}}; declare a local register tensor and load it from 'gconst' with ld.const through tile::constant<...>(gconst)
  __tile_apply("add.f32", r, gconst, 1.0f);
  // CHECK: object-spaces-pass-only.cu:[[#@LINE+1]]:3: error: operand 1 of 'mov.f32' is a register tensor, but 'gdev' is a __device__ variable
  __tile_apply("mov.f32", gdev, r);
  // Not known, or fitting: accepted.
  __tile_apply("ld.global.f32", r, tile::global<const float, 4, 1>(p));
  __tile_apply("ld.f32", r, tile::generic<const float, 4, 1>(s));
  __tile_apply("ld.shared.f32", r, tile::shared<const float, 4, 1>(s));
  __tile_apply("st.global.f32", Out, r);
}
#endif
