// `#pragma clang diagnostic` controls the PackedIntegerLiteral warning for the
// lines it covers, like any -Wliteral-conversion warning, and nowhere else.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, 2); // expected-warning {{integer literal 2}} expected-note {{two halves of 2.0}}
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wliteral-conversion"
  __tile_apply("add.rn.f16x2", a, a, 3);
#pragma clang diagnostic error "-Wliteral-conversion"
  __tile_apply("add.rn.f16x2", a, a, 4); // expected-error {{integer literal 4}} expected-note {{two halves of 4.0}}
#pragma clang diagnostic pop
  __tile_apply("add.rn.f16x2", a, a, 5); // expected-warning {{integer literal 5}} expected-note {{two halves of 5.0}}
}
