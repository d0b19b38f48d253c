// The warp collectives end to end: the member mask as an operand (a constant
// becomes an immediate, a variable a register), shfl.sync with and without
// its predicate output, vote.sync with a negated source, match.sync's d|p,
// redux.sync (with the f32 forms of sm_100a), activemask, bar.warp.sync.
// Each is volatile (collectives are never merged or dropped).
// COVERS-FAMILIES: shfl vote match redux activemask bar
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_100a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <tileapply/tile.h>

// CHECK-LABEL: .entry {{.*}}collectives
__global__ void collectives(uint32_t *out, const float *in, uint32_t mask) {
  uint32_t x[2][1] = {{threadIdx.x}, {threadIdx.x * 3}}, y[2][1];
  bool inRange[2][1];
  // CHECK-COUNT-2: shfl.sync.bfly.b32 {{%r[0-9]+}}|{{%p[0-9]+}}, {{%r[0-9]+}}, 1, 31, 4294967295;
  __tile_apply("shfl.sync.bfly.b32", y, inRange, x, 1u, 31u, 0xffffffffu);
  uint32_t z[1][1];
  // CHECK: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0, 31, {{%r[0-9]+}};
  __tile_apply("shfl.sync.idx.b32", z, x[0][0], 0u, 31u, mask);
  bool all[1][1];
  // CHECK: vote.sync.all.pred {{%p[0-9]+}}, !{{%p[0-9]+}}, {{%r[0-9]+}};
  __tile_apply("vote.sync.all.pred", all, tile::negated(inRange[0][0]), mask);
  uint32_t ballot[1][1];
  // CHECK: vote.sync.ballot.b32 {{%r[0-9]+}}, {{%p[0-9]+}}, 4294967295;
  __tile_apply("vote.sync.ballot.b32", ballot, inRange[1][0], 0xffffffffu);
  uint32_t peers[1][1];
  bool same[1][1];
  // CHECK: match.all.sync.b32 {{%r[0-9]+}}|{{%p[0-9]+}}, {{%r[0-9]+}}, 4294967295;
  __tile_apply("match.all.sync.b32", peers, same, x[1][0], 0xffffffffu);
  // CHECK: match.any.sync.b64 {{%r[0-9]+}}, {{%rd[0-9]+}}, 4294967295;
  uint32_t anyPeers[1][1];
  __tile_apply("match.any.sync.b64", anyPeers, (uint64_t)x[0][0], 0xffffffffu);
  uint32_t sum[1][1];
  // CHECK: redux.sync.add.u32 {{%r[0-9]+}}, {{%r[0-9]+}}, 4294967295;
  __tile_apply("redux.sync.add.u32", sum, x[0][0], 0xffffffffu);
  float fmax[1][1];
  // CHECK: redux.sync.max.abs.NaN.f32 {{%r[0-9]+}}, {{%r[0-9]+}}, 4294967295;
  __tile_apply("redux.sync.max.abs.NaN.f32", fmax, in[threadIdx.x], 0xffffffffu);
  uint32_t active[1][1];
  // CHECK: activemask.b32 {{%r[0-9]+}};
  __tile_apply("activemask.b32", active);
  // CHECK: bar.warp.sync {{%r[0-9]+}};
  __tile_apply("bar.warp.sync", active[0][0]);
  out[threadIdx.x] = y[0][0] + y[1][0] + inRange[0][0] + z[0][0] + all[0][0] + ballot[0][0] + peers[0][0] +
                     same[0][0] + anyPeers[0][0] + sum[0][0] + (uint32_t)fmax[0][0] + active[0][0];
}
