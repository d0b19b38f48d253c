// Issue 17 (3, 4): operands whose variable fits their state space, or whose
// variable is not known, compile as before under the plugin and under the
// pass alone (no false alarm), and each view's opcode reaches the PTX.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fplugin=%plugin %s -o %t.plugin.ptx
// RUN: FileCheck %s --input-file=%t.plugin.ptx
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O0 -S -fpass-plugin=%passplugin %s -o %t.pass0.ptx
// RUN: FileCheck %s --input-file=%t.pass0.ptx
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fpass-plugin=%passplugin %s -o %t.pass2.ptx
// RUN: FileCheck %s --input-file=%t.pass2.ptx
// RUN: %ptxas -arch=sm_90a %t.plugin.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

__device__ float gdev[4];
__constant__ float gconst[4];
constexpr float table[4][1] = {{1}, {2}, {3}, {4}};

// A pointer parameter: its space is not known, so nothing is said.
__device__ __noinline__ void load_param(float (&r)[4][1], const float *p) {
  __tile_apply("ld.global.f32", r, tile::global<const float, 4, 1>(p));
}

// CHECK-LABEL: .entry _Z7fitting
// CHECK-COUNT-4: ld.shared.f32
// CHECK-COUNT-4: ld.global.f32
// CHECK-COUNT-4: ld.const.f32
// CHECK-COUNT-4: ld.f32
// CHECK-COUNT-4: ld.f32
// CHECK-COUNT-4: st.shared.f32
// CHECK: ret;
__global__ void fitting(float *p, tile::global<float, 4, 1> Out) {
  __shared__ float s[4];
  float r[4][1], t[4][1];
  __tile_apply("ld.shared.f32", r, tile::shared<const float, 4, 1>(s));
  __tile_apply("ld.global.f32", t, tile::global<const float, 4, 1>(gdev));
  __tile_apply("add.f32", r, r, t);
  __tile_apply("ld.const.f32", t, tile::constant<const float, 4, 1>(gconst));
  __tile_apply("add.f32", r, r, t);
  // tile::generic takes a variable of any space.
  __tile_apply("ld.f32", t, tile::generic<const float, 4, 1>(s));
  __tile_apply("add.f32", r, r, t);
  __tile_apply("ld.f32", t, tile::generic<const float, 4, 1>(gdev));
  __tile_apply("add.f32", r, r, t);
  // A constexpr array is a read-only input.
  __tile_apply("add.f32", r, r, table);
  __tile_apply("st.shared.f32", tile::shared<float, 4, 1>(s), r);
  load_param(t, p);
  __tile_apply("add.f32", r, r, t);
  __tile_apply("st.global.f32", Out, r);
}
