// tile::negated(c) writes PTX's `!c` into setp / set with a boolean combiner:
// no extra instruction negates the predicate (the only setp.ne lines are the
// backend's bool -> .pred conversions, which the plain call needs too).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

// CHECK-LABEL: .entry _Z6tensor
// CHECK-COUNT-4: setp.lt.and.s32 %p{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, !%p{{[0-9]+}};
// CHECK-NOT: setp.lt.and
// CHECK: ret;
__global__ void tensor(tile::global<int, 4, 1> A, tile::global<int, 4, 1> B,
                       tile::global<int, 4, 1> C, tile::global<int, 4, 1> Out) {
  int a[4][1], b[4][1], c[4][1];
  __tile_apply("ld.global.s32", a, A);
  __tile_apply("ld.global.s32", b, B);
  __tile_apply("ld.global.s32", c, C);
  bool cp[4][1], p[4][1];
  for (int i = 0; i < 4; ++i)
    cp[i][0] = c[i][0] != 0;
  __tile_apply("setp.lt.and.s32", p, a, b, tile::negated(cp));
  int o[4][1];
  for (int i = 0; i < 4; ++i)
    o[i][0] = p[i][0];
  __tile_apply("st.global.s32", Out, o);
}

// The scalar form, in set and in setp's p|q; a negated constant stays a
// register (PTX has `!%p`, not `!1`).
// CHECK-LABEL: .entry _Z6scalar
// CHECK: set.ge.or.u32.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, !%p{{[0-9]+}};
// CHECK: setp.eq.xor.s32 %p{{[0-9]+}}|%p{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, !%p{{[0-9]+}};
// CHECK: ret;
__global__ void scalar(unsigned *out, int a, int b, bool c) {
  unsigned d[1];
  __tile_apply("set.ge.or.u32.s32", d, a, b, tile::negated(c));
  bool p[1], q[1];
  __tile_apply("setp.eq.xor.s32", p, q, a, b, tile::negated(true));
  out[0] = d[0] + p[0] + 2 * q[0];
}
