// docs/spec.md section 4.10: __tile_apply in host code. The host compilation reports it;
// the device compilation, which does not compile host code, stays silent, so
// a normal build reports it once. A __host__ __device__ function and a
// __device__ lambda are device code; a lambda without attributes runs where
// the function around it runs. Plain C++ has only host code.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-host-only -fsyntax-only -fplugin=%plugin -Xclang -verify=host %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=device %s
// RUN: %clangxx -std=c++20 -x c++ %{includes} -fsyntax-only -fplugin=%plugin -Xclang -verify=cxx %s
// device-no-diagnostics
#include <tileapply/tile.h>

void host_function() {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, a); // host-error {{__tile_apply in host code}}
                                         // host-note@-1 {{PTX instructions run only on the GPU: call __tile_apply from a __device__ or __global__ function}}
                                         // cxx-error@-2 {{__tile_apply in host code}}
                                         // cxx-note@-3 {{PTX instructions run only on the GPU}}
  auto in_host = [&] {
    __tile_apply("add.rn.f16x2", a, a, a); // host-error {{__tile_apply in host code}}
                                           // host-note@-1 {{PTX instructions run only on the GPU}}
                                           // cxx-error@-2 {{__tile_apply in host code}}
                                           // cxx-note@-3 {{PTX instructions run only on the GPU}}
  };
  in_host();
#ifdef __CUDA__
  auto on_device = [] __device__ {
    uint32_t b[8][1];
    __tile_apply("add.rn.f16x2", b, b, b);
  };
#endif
}

template <class T> void host_template(T &t) {
  __tile_apply("add.rn.f16x2", t, t, t); // host-error {{__tile_apply in host code}}
                                         // host-note@-1 {{PTX instructions run only on the GPU}}
                                         // cxx-error@-2 {{__tile_apply in host code}}
                                         // cxx-note@-3 {{PTX instructions run only on the GPU}}
}
void instantiate() {
  uint32_t a[8][1];
  host_template(a); // host-note {{in instantiation of 'host_template<unsigned int[8][1]>' requested here}}
                    // cxx-note@-1 {{in instantiation of 'host_template<unsigned int[8][1]>' requested here}}
}

#ifdef __CUDA__
__host__ __device__ void both_sides() {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, a);
}

__global__ void kernel() {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, a);
  auto in_kernel = [&] { __tile_apply("add.rn.f16x2", a, a, a); };
  in_kernel();
}
#endif
