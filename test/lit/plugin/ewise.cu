// tile::ewise(dst, f, srcs..., [tile::pred(p) [, tile::preserve_dst]]) is
// checked like a __tile_apply whose operands are one register each of their
// own carrier: the same diagnostics for shapes, destinations, memory operands
// and options, at the argument, naming 'tile::ewise'. A call the plugin
// accepts compiles (RUN line 2).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -o - -fplugin=%plugin -DACCEPTED %s | FileCheck %s
#include <tileapply/tile.h>

#ifndef ACCEPTED
__global__ void refused(tile::global<const float, 8, 1> X, bool on) {
  float a[8][1], b[4][1], c[8]; // expected-note {{'c' declared here}} expected-note 2 {{'a' declared here}}
  const float k[8][1] = {}; // expected-note {{'k' declared here}}
  tile::ewise(b, [](float x) { return x; }, a); // expected-error {{repeat extents differ: 'd' has shape [4, 1] (repeats [4]) but 'a' has shape [8, 1] (repeats [8])}}
  tile::ewise(c, [](float x) { return x; }, a); // expected-error {{destination 'd' of 'tile::ewise' needs a group axis of 1 (one register), found shape [8] whose last axis is 8}}
                                                // expected-error@-1 {{repeat extents differ}}
  tile::ewise(k, [](float x) { return x; }, a); // expected-error {{destination 'd' of 'tile::ewise' is const}}
  tile::ewise(a, [](float x) { return x; }, X); // expected-error {{operand 'a' of 'tile::ewise' is a global memory tensor, but the instruction reads a register}}
                                                // expected-note@-1 0+ {{}}
  tile::ewise(a, [](float x) { return x; }, a, tile::preserve_dst); // expected-error {{tile::preserve_dst keeps the destination where the predicate is off, but the call has no tile::pred}}
}
#else
// CHECK-LABEL: .entry _Z8accepted
// CHECK-COUNT-8: fma.rn.f32
__global__ void accepted(tile::global<const float, 8, 1> X, float *out, float s, bool on) {
  float a[8][1], b[8][1];
  bool p[8][1];
  __tile_apply("ld.global.f32", a, X);
  tile::ewise(b, [](float x, float y) { return x * y + 1.0f; }, a, s);
  tile::ewise(p, [](float x) { return x > 0.0f; }, b);
  tile::ewise(a, [](float x) { return -x; }, b, tile::pred(p), tile::preserve_dst);
  tile::ewise(a, [](float x, float y) { return x + y; }, a,
              tile::view<tile::shape<8, 1>, tile::stride<0, 1>>(b), tile::pred(on));
  for (int i = 0; i < 8; ++i)
    out[i] = a[i][0];
}
#endif
