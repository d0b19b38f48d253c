// `-fplugin-arg-tileapply-<arg>` reaches the plugin in every job; an unknown
// argument is an error naming the known ones.
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fplugin-arg-tileapply-no-packed-literals %s 2>&1 | FileCheck %s
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-host-only -fsyntax-only -fplugin=%plugin -fplugin-arg-tileapply-no-packed-literals %s 2>&1 | FileCheck %s
// CHECK: error: unknown argument 'no-packed-literals' for plugin 'tileapply' (known: no-packed-literal, no-asm-check, no-asm-warnings, asm-stats, asm-migrate, no-local-memory-warning)
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, a);
}
