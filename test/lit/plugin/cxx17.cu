// Issue 17: clang compiles CUDA as C++17 by default; tile.h then says once
// which flag is missing, instead of a wall of requires-clause errors.
// RUN: %clangxx %cuda_flags -std=c++17 --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// expected-error@*:* {{tileapply/tile.h needs C++20: compile with -std=c++20}}
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[4][1];
  __tile_apply("mov.b32", a, a); // expected-error {{use of undeclared identifier '__tile_apply'}}
}
