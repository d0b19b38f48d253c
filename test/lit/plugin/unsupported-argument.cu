// An argument of a type tileapply does not know (not a tensor, view, scalar
// carrier or option) is refused at the argument, naming its C++ type.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

struct Pair {
  int x, y;
};

__global__ void kernel(uint32_t *p) { // #p
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, p); // expected-error {{operand 'b' of 'add.rn.f16x2' is not a tensor, view or scalar tileapply knows; the argument has type 'uint32_t *' (aka 'unsigned int *')}}
                                         // expected-note@#p {{'p' declared here}}
  __tile_apply("add.rn.f16x2", a, a, Pair{1, 2}); // expected-error {{the argument has type 'Pair'}}
}
