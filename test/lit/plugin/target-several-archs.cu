// docs/spec.md section 4.9 with several --cuda-gpu-arch: each device compilation checks
// its own target, every too-new call in the file is reported (not only the
// first), and an arch-specific suffix (sm_90a) or a plain one is understood.
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a --cuda-device-only -fsyntax-only -fplugin=%plugin %s 2>&1 | FileCheck %s
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_89 --cuda-device-only -fsyntax-only -fplugin=%plugin %s 2>&1 | FileCheck %s --check-prefix=SM89
#include <tileapply/tile.h>

__global__ void kernel() {
  uint64_t a[2][1];
  uint32_t h[2][1];
  __tile_apply("add.rn.f32x2", a, a, a);
  __tile_apply("mul.rn.f32x2", a, a, a);
  __tile_apply("add.rn.bf16x2", h, h, h);
}

// CHECK-DAG: target-several-archs.cu:11:16: error: 'add.rn.f32x2' needs sm_100 or newer, but this compilation targets sm_90a
// CHECK-DAG: target-several-archs.cu:12:16: error: 'mul.rn.f32x2' needs sm_100 or newer, but this compilation targets sm_90a
// CHECK-NOT: targets sm_100a
// CHECK-NOT: 'add.rn.bf16x2' needs

// SM89-DAG: target-several-archs.cu:11:16: error: 'add.rn.f32x2' needs sm_100 or newer, but this compilation targets sm_89
// SM89-DAG: target-several-archs.cu:12:16: error: 'mul.rn.f32x2' needs sm_100 or newer, but this compilation targets sm_89
// SM89-DAG: target-several-archs.cu:13:16: error: 'add.rn.bf16x2' needs sm_90 or newer, but this compilation targets sm_89
