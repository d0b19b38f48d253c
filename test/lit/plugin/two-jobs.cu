// A normal CUDA build runs the plugin in two cc1 jobs over the same file: the
// device one checks device code, the host one reports only calls in host code,
// so each problem is reported exactly once.
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -fsyntax-only -fplugin=%plugin -fno-color-diagnostics -DHOST_PROBLEM %s 2>&1 | FileCheck %s --check-prefix=HOST --implicit-check-not=error:
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -fsyntax-only -fplugin=%plugin -fno-color-diagnostics -DDEVICE_PROBLEM %s 2>&1 | FileCheck %s --check-prefix=DEVICE --implicit-check-not=error:
// The host job alone is silent about device code.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-host-only -fsyntax-only -fplugin=%plugin -DDEVICE_PROBLEM -Xclang -verify %s
// expected-no-diagnostics
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];
#ifdef DEVICE_PROBLEM
  __tile_apply("add.rn.f16x2", a, a);
  // DEVICE: two-jobs.cu:[[@LINE-1]]:16: error: 'add.rn.f16x2' takes 3 operands (d, a, b), found 2
  // DEVICE: 1 error generated when compiling for sm_90a.
#endif
  __tile_apply("add.rn.f16x2", a, a, a);
}

void host() {
#ifdef HOST_PROBLEM
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, a);
  // HOST: two-jobs.cu:[[@LINE-1]]:3: error: __tile_apply in host code
  // HOST: 1 error generated when compiling for host.
#endif
}
