// Calls in templates are checked in each instance (a problem common to
// several instances is reported once, with the instance that first hit it);
// calls in templates never instantiated are not checked; calls in lambdas,
// generic lambdas and through pack expansions are.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

template <int N> __device__ void rows(uint32_t (&a)[N][1]) {
  float f[N][1]; // #rows_f
  __tile_apply("add.rn.f16x2", f, a, a); // expected-error {{destination 'd' of 'add.rn.f16x2' must be uint32_t or __half2 (PTX .f16x2), found float}}
                                         // expected-note@#rows_f {{'f' declared here}}
}

template <class T> __device__ void by_type(T (&a)[8][1]) { // #by_type_a
  __tile_apply("add.s32", a, a, a); // expected-error {{destination 'd' of 'add.s32' must be int32_t (PTX .s32), found uint32_t}}
                                    // expected-error@-1 {{operand 'a' of 'add.s32' must be int32_t}}
                                    // expected-error@-2 {{operand 'b' of 'add.s32' must be int32_t}}
                                    // expected-note@#by_type_a 3 {{'a' declared here}}
}

template <class... T> __device__ void forward(T &&...t) { // #forward_t
  __tile_apply("add.rn.f16x2", t...); // expected-error {{'add.rn.f16x2' takes 3 operands (d, a, b), found 2}}
}

template <class T> struct Holder {
  T data[8][1]; // #holder_data
  __device__ void apply() {
    __tile_apply("add.rn.f16x2", data, data, data); // expected-error 3 {{must be uint32_t or __half2 (PTX .f16x2), found float}}
                                                    // expected-note@#holder_data 3 {{'data' declared here}}
  }
};

template <class T> __device__ void never_instantiated(T &t) {
  __tile_apply("no.such.opcode", t, t, t);
}

__global__ void kernel() {
  uint32_t a[8][1], b[4][1];
  int32_t s[8][1];
  rows(a); // expected-note {{in instantiation of 'rows<8>' requested here}}
  rows(b);
  by_type(a); // expected-note 3 {{in instantiation of 'by_type<unsigned int>' requested here}}
  by_type(s);
  forward(a, a); // expected-note {{in instantiation of 'forward<unsigned int (&)[8][1], unsigned int (&)[8][1]>' requested here}}
  forward(a, a, a);
  Holder<float> h;
  h.apply(); // expected-note 3 {{in instantiation of 'Holder<float>::apply' requested here}}

  float f[8][1]; // #kernel_f
  auto plain = [&] {
    __tile_apply("add.rn.f16x2", a, f, a); // expected-error {{operand 'a' of 'add.rn.f16x2' must be uint32_t or __half2 (PTX .f16x2), found float}}
                                           // expected-note@#kernel_f {{'f' declared here}}
  };
  plain();
  auto generic = [](auto &x) { // #generic_x
    __tile_apply("add.rn.f16x2", x, x, 2); // expected-warning {{integer literal 2}} expected-note {{two halves of 2.0}}
  };
  generic(a);
  generic(b);
}
