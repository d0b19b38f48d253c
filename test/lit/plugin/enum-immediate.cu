// Issue 17: an unscoped enumerator is its integer value, as a scalar and as an
// immediate; so are a scoped one cast to int and a constexpr int. A scoped
// enumerator itself does not convert implicitly: refused, with how to pass it.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin -DVALID_ONLY %s -o - | FileCheck %s
// The pass alone gives the same advice (the header records why, abi.h):
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fpass-plugin=%passplugin %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS --implicit-check-not=error:
// PASS: error: operand 'c' of 'shf.l.clamp.b32' is not a tensor, view or scalar tileapply knows; a scoped enumerator does not convert to an integer implicitly: pass static_cast<int>(...) of it
#include <tileapply/tile.h>

enum Shift { None, One, Five = 5 };
enum Small : unsigned char { Seven = 7 };
enum class Scoped { Three = 3 };
constexpr int Two = 2;

__global__ void kernel(uint32_t *out) {
  uint32_t a[4][1] = {{1}, {2}, {3}, {4}};
  // CHECK-COUNT-4: shf.l.clamp.b32 {{.*}}, 5;
  __tile_apply("shf.l.clamp.b32", a, a, a, Five);
  // CHECK-COUNT-4: shf.l.clamp.b32 {{.*}}, 3;
  __tile_apply("shf.l.clamp.b32", a, a, a, static_cast<int>(Scoped::Three));
  // CHECK-COUNT-4: shf.l.clamp.b32 {{.*}}, 2;
  __tile_apply("shf.l.clamp.b32", a, a, a, Two);
  // CHECK-COUNT-4: bfe.u32 {{.*}}, 1, 7;
  __tile_apply("bfe.u32", a, a, One, Seven);
#ifndef VALID_ONLY
  __tile_apply("shf.l.clamp.b32", a, a, a, Scoped::Three); // expected-error {{operand 'c' of 'shf.l.clamp.b32' is not a tensor, view or scalar tileapply knows; the argument has type 'Scoped'}}
                                                          // expected-note@-1 {{a scoped enumerator does not convert to an integer implicitly: pass static_cast<int>(...) of it}}
#endif
  for (int i = 0; i < 4; ++i)
    out[i] = a[i][0];
}
