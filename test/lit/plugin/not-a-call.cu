// Issue 17: __tile_apply used other than in a direct call (its address taken,
// a reference bound to it) is refused where it is used: only a direct call is
// checked and expanded. Before, it was unchecked and reported at tile.h.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

using Fn = void(const char *, uint32_t (&)[4][1], uint32_t (&)[4][1]);

template <class T> __device__ void in_template(T &a) {
  auto *p = &__tile_apply<T &, T &>; // expected-error {{__tile_apply is used here other than in a direct call}}
                                     // expected-note@-1 {{call __tile_apply directly}}
  p("mov.b32", a, a);
}

__global__ void kernel() {
  uint32_t a[4][1];
  auto pointer = &__tile_apply<uint32_t (&)[4][1], uint32_t (&)[4][1]>; // expected-error {{__tile_apply is used here other than in a direct call; only a call written __tile_apply("opcode", operands...) is checked and expanded}}
                                                                         // expected-note@-1 {{call __tile_apply directly; to choose among instructions at run time}}
  pointer("mov.b32", a, a);
  Fn &ref = __tile_apply; // expected-error {{__tile_apply is used here other than in a direct call}}
                          // expected-note@-1 {{call __tile_apply directly}}
  ref("mov.b32", a, a);
  in_template(a); // expected-note {{in instantiation of 'in_template<unsigned int[4][1]>' requested here}}
  // Direct calls, parenthesized or with explicit template arguments, are calls.
  (__tile_apply)("mov.b32", a, a);
  __tile_apply<uint32_t (&)[4][1], uint32_t (&)[4][1]>("mov.b32", a, a);
}
