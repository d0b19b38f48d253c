// Issue 17 item 6: a wide memory access (a .vN group, cp.async's cp-size)
// needs every repeat aligned to its size. Repeat 0's address is a run-time
// value, but each later repeat sits at a constant offset from it: an offset
// that is no multiple of the access size is refused at the call.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fpass-plugin=%passplugin %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
#include <tileapply/tile.h>

__global__ void kernel(tile::global<const float, 8> G, const float *g) {
  float v[2][4];
  // Repeats one float apart: repeat 1 is 4 bytes past repeat 0.
  __tile_apply("ld.global.v4.f32", v, tile::view<tile::shape<2, 4>, tile::stride<1, 1>>(G)); // expected-error {{operand 'a' of 'ld.global.v4.f32': repeat 1 is 4 bytes past repeat 0, but each repeat accesses 16 bytes, which must be 16-byte aligned; whatever the alignment of repeat 0, repeat 1 cannot be (shape [2, 4], strides [1, 1])}} expected-note {{give the repeat axes strides that are multiples of 4 elements, so that every repeat starts a multiple of 16 bytes after the first}}
  // PASS: error: {{.*}}operand 'a' of 'ld.global.v4.f32': repeat 1 is 4 bytes past repeat 0
  // Whole groups apart: fine.
  __tile_apply("ld.global.v4.f32", v, tile::view<tile::shape<2, 4>, tile::stride<4, 1>>(G));
  // .v2 with repeats 2 floats apart is aligned (8 bytes); 3 apart is not.
  float w[3][2];
  __tile_apply("ld.global.v2.f32", w, tile::view<tile::shape<3, 2>, tile::stride<2, 1>>(G));
  float w2[2][2];
  __tile_apply("ld.global.v2.f32", w2, tile::view<tile::shape<2, 2>, tile::stride<3, 1>>(G)); // expected-error {{repeat 1 is 12 bytes past repeat 0, but each repeat accesses 8 bytes}} expected-note {{multiples of 2 elements}}
}

__global__ void copies(const float *g) {
  __shared__ alignas(16) float s[64];
  // Four 16-byte copies one float apart: overlapping and misaligned.
  __tile_apply("cp.async.cg.shared.global", tile::shared<float, 4, 1>(s), tile::global<const float, 4, 1>(g), 16); // expected-error {{destination 'dst' of 'cp.async.cg.shared.global': repeat 1 is 4 bytes past repeat 0, but each repeat accesses 16 bytes}} expected-note {{multiples of 4 elements}} expected-error {{operand 'src' of 'cp.async.cg.shared.global': repeat 1 is 4 bytes past repeat 0}} expected-note {{multiples of 4 elements}} expected-note {{also takes these operands}}
  // Repeats 16 bytes apart: fine.
  auto dst = tile::view<tile::shape<4, 1>, tile::stride<4, 1>>(tile::shared<float, 64>(s));
  auto src = tile::view<tile::shape<4, 1>, tile::stride<4, 1>>(tile::global<const float, 16>(g));
  __tile_apply("cp.async.cg.shared.global", dst, src, 16);
  // An 8-byte .ca copy 2 floats apart: fine; 1 float apart: refused.
  auto d2 = tile::view<tile::shape<4, 1>, tile::stride<2, 1>>(tile::shared<float, 64>(s));
  auto s2 = tile::view<tile::shape<4, 1>, tile::stride<2, 1>>(tile::global<const float, 16>(g));
  __tile_apply("cp.async.ca.shared.global", d2, s2, 8);
  __tile_apply("cp.async.ca.shared.global", tile::shared<float, 4, 1>(s), s2, 8); // expected-error {{destination 'dst' of 'cp.async.ca.shared.global': repeat 1 is 4 bytes past repeat 0, but each repeat accesses 8 bytes}} expected-note {{multiples of 2 elements}} expected-note {{also takes these operands}}
}
