// Issue 17: a view whose tile::shape and tile::stride have different ranks is
// refused at the user's tile::view call, by a message that names the problem
// (before, the header wrote a short layout record that the plugin misread as
// a stride of 0, or as "record 1 has unknown kind 12"). A tile::ref spelled
// out with such a pair is no tensor: refused at the __tile_apply argument.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(uint32_t *p) {
  uint32_t a[4][1];
  __tile_apply("mov.b32", a, tile::view<tile::shape<4, 1>, tile::stride<1>>(a)); // expected-error {{call to deleted function 'view': tile::view needs one stride per axis: its tile::shape and tile::stride have different numbers of entries}}
  // expected-note@*:* {{candidate function [with Shape = tile::shape<4, 1>, Stride = tile::stride<1>}}
  // expected-note@*:* {{candidate template ignored: constraints not satisfied}}
  // expected-note@*:* {{because '!detail::rank_mismatch_v<tile::shape<4, 1>, tile::stride<1>>' evaluated to false}}
  // expected-error@-4 {{no matching function for call to '__tile_apply'}}
  // expected-note@*:* {{candidate template ignored: substitution failure}}
  tile::ref<uint32_t, TILEAPPLY_SPACE_GLOBAL, tile::shape<4, 1>, tile::stride<1>, 4> r(p);
  __tile_apply("ld.global.b32", a, r); // expected-error {{operand 'a' of 'ld.global.b32' is not a tensor, view or scalar tileapply knows}}
                                       // expected-note@-2 {{'r' declared here}}
  // Equal ranks are still views.
  __tile_apply("mov.b32", a, tile::view<tile::shape<4, 1>, tile::stride<1, 1>>(a));
}
