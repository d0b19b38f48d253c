// Unusual code neither crashes the plugin nor draws a false diagnostic:
// explicit template arguments, calls Clang already rejected, discarded
// `if constexpr` branches, unevaluated operands, calls through a function
// pointer (refused where the address is taken: not-a-call.cu),
// structured bindings, side effects in scalar arguments, huge tensors.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -ferror-limit=0 -Xclang -verify %s
#include <tileapply/tile.h>

struct Tiles {
  uint32_t x[8][1];
};

template <bool Check, class T> __device__ void maybe(T &t) {
  if constexpr (Check)
    __tile_apply("not.an.opcode", t);
}

__global__ void kernel(int i) {
  uint32_t a[8][1]; // #a
  int32_t s[8][1];
  __tile_apply<uint32_t (&)[8][1], uint32_t (&)[8][1], uint32_t (&)[8][1]>("add.rn.f16x2", a, a, a);
  auto pointer = &__tile_apply<uint32_t (&)[8][1], uint32_t (&)[8][1]>; // expected-error {{__tile_apply is used here other than in a direct call}}
                                                                       // expected-note@-1 {{call __tile_apply directly}}
  pointer("mov.b32", a, a);
  maybe<false>(a);
  using Unevaluated = decltype(__tile_apply("add.rn.f16x2", a, a, a));
  Tiles t;
  auto &[rows] = t;
  __tile_apply("add.rn.f16x2", rows, t.x, rows);
  __tile_apply("add.s32", s, s, i++);
  uint32_t big[65536][1];
  __tile_apply("add.rn.f16x2", big, big, big);

  __tile_apply("add.rn.f16x2", undeclared, a, a); // expected-error {{use of undeclared identifier 'undeclared'}}
  __tile_apply(L"add.rn.f16x2", a, a, a); // expected-error {{no matching function for call to '__tile_apply'}}
                                          // expected-note@*:* {{candidate function template not viable}}
  __tile_apply("add.rn.f16x2\0tail", a, a, a); // expected-error {{is not a qualifier of 'add'}}
  __tile_apply("add.rn.f16x2", tile::view<tile::shape<0, 1>, tile::stride<1, 1>>(a), a, a); // expected-error {{destination 'd' has shape [0, 1], with an empty axis}}
                                                                                          // expected-note@#a {{'a' declared here}}
}
