// Issue 17 item 5: a destination over the storage of another operand. The
// repeats run one after another: a repeat that reads an element an earlier
// repeat wrote is refused (OverwrittenInput); two destinations of one call
// sharing storage are refused (SharedDestinations). In-place forms where each
// repeat reads only elements no earlier repeat wrote stay legal.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90 --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(float x, int y) {
  float t[2][2][1] = {{{x}, {x + 1}}, {{x + 2}, {x + 3}}};
  // An in-place transpose: repeat 1 writes t[0][1], which repeat 2 then reads.
  __tile_apply("mov.f32", t, tile::view<tile::shape<2, 2, 1>, tile::stride<1, 2, 1>>(t)); // expected-error {{destination 'd' of 'mov.f32' writes storage element 1 at repeat 1, and operand 'a' (argument 2) reads that element at repeat 2: the repeats run one after another}}
  // expected-note@-1 {{write the result to a separate destination tensor}}
  float m[4][1] = {{x}, {x + 1}, {x + 2}, {x + 3}};
  // v[r] += v[0]: repeat 0 writes v[0] before repeat 1 reads it.
  float v[4][1] = {{x}, {x}, {x}, {x}};
  __tile_apply("add.f32", v, v, tile::view<tile::shape<4, 1>, tile::stride<0, 1>>(v)); // expected-error {{writes storage element 0 at repeat 0, and operand 'b' (argument 3) reads that element at repeat 1}}
  // expected-note@-1 {{separate destination}}
  // setp with one tensor for both predicate outputs.
  int a[2][1] = {{y}, {y + 1}}, b[2][1] = {{1}, {2}};
  bool p[2][1];
  __tile_apply("setp.lt.s32", p, p, a, b); // expected-error {{destination 'p' and destination 'q' of 'setp.lt.s32' both write storage element 0: one result would silently overwrite the other}}
  // expected-note@-1 {{give each destination its own tensor}}

  // Legal in-place forms.
  float c[4][1] = {{1}, {2}, {3}, {4}};
  __tile_apply("add.f32", m, m, c);
  __tile_apply("mul.f32", m, m, m);
  __tile_apply("fma.rn.f32", m, m, c, m);
  // Reads only elements no earlier repeat wrote: w[r] = w[2r] reads ahead.
  float w[8][1] = {{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}};
  __tile_apply("mov.f32", tile::view<tile::shape<4, 1>, tile::stride<1, 1>>(w),
               tile::view<tile::shape<4, 1>, tile::stride<2, 1>>(w));
  bool q[2][1];
  __tile_apply("setp.lt.s32", p, q, a, b);
}
