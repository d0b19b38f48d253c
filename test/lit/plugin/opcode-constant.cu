// Any opcode the constant evaluator turns into a string is accepted, and the
// plugin checks the spelling it evaluates to in each instantiation: a problem
// is reported at the opcode, with a note naming the instance and the
// spelling, and no fix-it (the expression is not a literal to replace).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// FIXIT-NOT: fix-it:
#include <tileapply/tile.h>

// A wgmma for every tile width, in one call.
template <int BN> __device__ void wgmma(float (&acc)[BN / 2], uint64_t a, uint64_t b) {
  __tile_apply(tile::fmt<"wgmma.mma_async.sync.aligned.m64n{}k16.f32.bf16.bf16", BN>, // expected-error {{'.m64n100k16' is not a qualifier of 'wgmma'; did you mean 'wgmma.mma_async.sync.aligned.m64n104k16.f32.bf16.bf16'?}}
               acc, a, b, true, 1, 1, 0, 0);
  // expected-note@-2 {{in 'wgmma<100>', the opcode evaluates to "wgmma.mma_async.sync.aligned.m64n100k16.f32.bf16.bf16"}}
  // expected-note@-3 0+ {{}}
}

template <bool Add> __device__ void add_or_sub(float (&a)[4][1]) {
  __tile_apply(Add ? "add.rn.f32" : "sub.rn.f32", a, a, a);
}

// Misspelled in one instance only: reported for that one.
template <int W> __device__ void typo(float (&a)[4][1]) {
  __tile_apply(W == 32 ? "add.rn.f32" : "add.rn.f3", a, a, a); // expected-error {{'.f3' is not a qualifier of 'add'}}
  // expected-note@-1 {{in 'typo<16>', the opcode evaluates to "add.rn.f3"}}
}

constexpr char kMul[] = "mul.rn.f32";
__global__ void kernel(uint64_t a, uint64_t b) {
  float acc[64];
  wgmma<128>(acc, a, b);
  float odd[50];
  wgmma<100>(odd, a, b); // expected-note {{in instantiation of 'wgmma<100>' requested here}}
  float x[4][1] = {};
  add_or_sub<true>(x);
  add_or_sub<false>(x);
  typo<32>(x);
  typo<16>(x); // expected-note {{in instantiation of 'typo<16>' requested here}}
  // (Every accepted form compiles and expands: e2e/opcode-constant.cu.)
  // A non-literal opcode is checked like a literal one.
  __tile_apply(kMul, x, x); // expected-error {{'mul.rn.f32' takes 3 operands (d, a, b), found 2}}
                            // expected-note@-1 {{the opcode evaluates to "mul.rn.f32"}}
}
