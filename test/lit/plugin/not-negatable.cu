// tile::negated(c) is PTX's `{!}c`, which only the predicate source of setp
// and set with a boolean combiner has. Anywhere else it is refused at the
// argument, with what PTX allows.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(int a, int b, bool c) {
  int d[1];
  bool p[1];
  __tile_apply("setp.lt.and.s32", p, a, b, tile::negated(c));
  __tile_apply("selp.s32", d, a, b, tile::negated(c));
  // expected-error@-1 {{operand 'c' of 'selp.s32' cannot be negated: PTX has no `!c` there}}
  // expected-note@-2 {{PTX reads a predicate negated only where its syntax says {!}c: the predicate source of setp and set with .and, .or or .xor}}
  // expected-note@-3 {{for a bool, negate it in C++ instead (!c)}}
  __tile_apply("add.s32", d, tile::negated(a), b);
  // expected-error@-1 {{operand 'a' of 'add.s32' cannot be negated: PTX has no `!a` there}}
  // expected-note@-2 {{PTX reads a predicate negated only where}}
  __tile_apply("setp.lt.and.s32", p, a, b, tile::negated(tile::negated(c)));
  // expected-error@*:* {{tile::negated(tile::negated(c)) would read c itself: pass c}}
  // expected-note@-2 {{in instantiation of function template specialization}}
  __tile_apply("setp.lt.s32", tile::negated(p), a, b);
  // expected-error@-1 {{destination 'p' of 'setp.lt.s32' cannot be negated: PTX has no `!p` there}}
  // expected-note@-2 {{PTX reads a predicate negated only where}}
}
