// A __host__ __device__ function may hold __tile_apply: its device side
// expands the call as usual. When its host side is compiled into code (the
// function is called from host code), the build stops with an error at the
// call, at every -O level: the host has no PTX to run, and the call must never
// silently do nothing there. An HD function whose host side is never emitted
// (inline, static or a template, and not called from host code) compiles.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-host-only -O0 -S -o /dev/null -fplugin=%plugin -Xclang -verify=host %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-host-only -O2 -S -o /dev/null -fplugin=%plugin -Xclang -verify=host %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -o - -fplugin=%plugin %s | FileCheck %s --check-prefix=DEVICE
// Without any call from host code, the host side of the same file compiles.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-host-only -O0 -S -o /dev/null -fplugin=%plugin -DNO_HOST_CALL -Xclang -verify=none %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-host-only -O2 -S -o /dev/null -fplugin=%plugin -DNO_HOST_CALL -Xclang -verify=none %s
// none-no-diagnostics
#include <tileapply/tile.h>

__host__ __device__ inline void twice(float (&a)[4][1]) {
  __tile_apply("add.rn.f32", a, a, a); // host-error-re {{call to 'void __tile_apply<{{.*}}>({{.*}})' declared with 'error' attribute: __tile_apply runs only on the GPU, and the host side of the function holding this call is being compiled}}
}

template <int N> __host__ __device__ void scaled(float (&a)[4][1]) {
  __tile_apply("mul.rn.f32", a, a, float(N));
}

// Device code calling both: unaffected.
__global__ void kernel(float *out) {
  float a[4][1] = {{1}, {2}, {3}, {4}};
  twice(a);
  scaled<3>(a);
  for (int i = 0; i < 4; ++i)
    out[i] = a[i][0];
}
// DEVICE-COUNT-4: add.rn.f32
// DEVICE-COUNT-4: mul.rn.f32

#ifndef NO_HOST_CALL
int main() {
  float a[4][1] = {{1}, {2}, {3}, {4}};
  twice(a);
  return static_cast<int>(a[0][0]);
}
#endif
