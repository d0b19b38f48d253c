// Every inline asm the expansion emits is `convergent`, as every inline asm
// Clang emits for CUDA is: the optimizer never makes it depend on more control
// flow. Checked on the IR right after the pass (-O0 keeps every call) for an
// arithmetic, a predicated, a memory and a warp-synchronous form: the script
// fails if any asm call's attribute group lacks `convergent`, or if there is
// none.
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -emit-llvm -O0 -fplugin=%plugin %s -o %t.ll
// RUN: %python %srcroot/test/tools/check_convergent.py %t.ll 6 | FileCheck %s
// CHECK: all convergent

#include <tileapply/tile.h>

__global__ void k(float *p, bool on) {
  float a[2][1];
  __tile_apply("ld.global.f32", a, tile::global<float, 2, 1>(p));
  __tile_apply("add.rn.f32", a, a, a);
  __tile_apply("mul.rn.f32", a, a, a, tile::pred(on));
  uint32_t lane[1];
  bool leader[1];
  __tile_apply("elect.sync", lane, leader, 0xffffffffu);
  __tile_apply("st.global.f32", tile::global<float, 2, 1>(p), a);
  p[2] = leader[0] ? lane[0] : 0;
}
