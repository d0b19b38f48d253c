// Issue 17 item 6: a wide memory access (a .v2/.v4 group, cp.async's cp-size)
// whose repeats sit at constant offsets from repeat 0 that are no multiple of
// the access size: whatever repeat 0's alignment, some repeat is misaligned
// (MisalignedRepeat). Strides that keep every repeat a whole access apart
// stay legal.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90 --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(const float *g, float *o, const double *gd) {
  __shared__ alignas(16) float s[16];
  float r[2][4];
  // Repeat 1 starts one float after repeat 0.
  __tile_apply("ld.global.v4.f32", r, tile::view<tile::shape<2, 4>, tile::stride<1, 1>>(tile::global<const float, 8>(g))); // expected-error {{operand 'a' of 'ld.global.v4.f32': repeat 1 is 4 bytes past repeat 0, but each repeat accesses 16 bytes, which must be 16-byte aligned; whatever the alignment of repeat 0, repeat 1 cannot be (shape [2, 4], strides [1, 1])}}
  // expected-note@-1 {{give the repeat axes strides that are multiples of 4 elements, so that every repeat starts a multiple of 16 bytes after the first}}
  __tile_apply("st.global.v4.f32", tile::view<tile::shape<2, 4>, tile::stride<6, 1>>(tile::global<float, 16>(o)), r); // expected-error {{destination 'a' of 'st.global.v4.f32': repeat 1 is 24 bytes past repeat 0}}
  // expected-note@-1 {{multiples of 4 elements}}
  double d[3][2];
  __tile_apply("ld.global.v2.f64", d, tile::view<tile::shape<3, 2>, tile::stride<3, 1>>(tile::global<const double, 9>(gd))); // expected-error {{repeat 1 is 24 bytes past repeat 0, but each repeat accesses 16 bytes}}
  // expected-note@-1 {{multiples of 2 elements}}
  // Four 16-byte copies one float apart.
  __tile_apply("cp.async.cg.shared.global", tile::shared<float, 4, 1>(s), tile::global<const float, 4, 1>(g), 16); // expected-error {{destination 'dst' of 'cp.async.cg.shared.global': repeat 1 is 4 bytes past repeat 0, but each repeat accesses 16 bytes}}
  // expected-note@-1 {{multiples of 4 elements}}
  // expected-note@-2 {{also takes these operands}}
  // expected-error@-3 {{operand 'src' of 'cp.async.cg.shared.global': repeat 1 is 4 bytes past repeat 0}}
  // expected-note@-4 {{multiples of 4 elements}}

  // Legal: every repeat a whole access after the first.
  __tile_apply("ld.global.v4.f32", r, tile::global<const float, 2, 4>(g));
  __tile_apply("ld.global.v4.f32", r, tile::view<tile::shape<2, 4>, tile::stride<8, 1>>(tile::global<const float, 12>(g)));
  __tile_apply("ld.global.v4.f32", r, tile::view<tile::shape<2, 4>, tile::stride<0, 1>>(tile::global<const float, 4>(g)));
  __tile_apply("cp.async.cg.shared.global", tile::view<tile::shape<4, 1>, tile::stride<4, 1>>(tile::shared<float, 16>(s)),
               tile::view<tile::shape<4, 1>, tile::stride<4, 1>>(tile::global<const float, 16>(g)), 16);
  float one[3][1];
  __tile_apply("ld.global.f32", one, tile::view<tile::shape<3, 1>, tile::stride<1, 1>>(tile::global<const float, 3>(g)));
}
