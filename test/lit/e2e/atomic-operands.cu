// atom and red end to end: every kind of address (tile::global, a generic
// address, tile::shared, the .shared::cluster window), atom's old value in its
// destination tensor, cas with its second source, exch of a .b128, vectors,
// .L2::cache_hint's policy operand, repeats that update one counter (a
// read-modify-write address may repeat), and qualifiers in another order,
// emitted as written.
// COVERS-FAMILIES: atom red
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <cuda_fp16.h>
#include <tileapply/tile.h>

// CHECK-LABEL: .entry {{.*}}atomics
__global__ void atomics(uint32_t *counters, unsigned long long *wide, float *sums, __half2 *h2,
                        uint32_t *out, uint64_t policy) {
  __shared__ uint32_t smem[4];
  uint32_t v[2][1] = {{1u}, {2u}}, old[2][1];
  // Two repeats, two counters; the old values come back.
  // CHECK-COUNT-2: atom.global.add.u32 {{%r[0-9]+}}, [{{%rd[0-9]+}}{{(\+4)?}}], {{%r[0-9]+}};
  __tile_apply("atom.global.add.u32", old, tile::global<uint32_t, 2, 1>(counters), v);
  // A generic address, written in another order (ptxas reads it as
  // atom.relaxed.gpu.add.u32): emitted as written.
  // CHECK: atom.add.gpu.relaxed.u32 {{%r[0-9]+}}, [{{%rd[0-9]+}}], 7;
  uint32_t o1[1][1];
  __tile_apply("atom.add.gpu.relaxed.u32", o1, tile::generic<uint32_t, 1, 1>(counters + 2), 7u);
  // One counter, four increments: a read-modify-write address may repeat.
  // CHECK-COUNT-4: red.release.gpu.global.add.u32 [{{%rd[0-9]+}}], 1;
  __tile_apply("red.release.gpu.global.add.u32",
               tile::view<tile::shape<4, 1>, tile::stride<0, 1>>(tile::global<uint32_t, 1, 1>(counters + 3)),
               1u);
  // cas: compare b, swap in c.
  // CHECK: atom.acq_rel.cta.shared.cas.b32 {{%r[0-9]+}}, [{{%rd[0-9]+}}], 0, {{%r[0-9]+}};
  uint32_t seen[1][1];
  __tile_apply("atom.acq_rel.cta.shared.cas.b32", seen, tile::shared<uint32_t, 1, 1>(smem), 0u, v[0][0]);
  // The .shared::cluster window (a 32-bit address).
  // CHECK: atom.shared::cluster.or.b32 {{%r[0-9]+}}, [{{%r[0-9]+}}], 16;
  uint32_t o2[1][1];
  __tile_apply("atom.shared::cluster.or.b32", o2, tile::to_cluster(tile::shared<uint32_t, 1, 1>(smem + 1)), 16u);
  // 64-bit integer min with an L2 cache policy.
  // CHECK: atom.global.min.L2::cache_hint.u64 {{%rd[0-9]+}}, [{{%rd[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}};
  unsigned long long m[1][1] = {{5ull}}, o3[1][1];
  __tile_apply("atom.global.min.L2::cache_hint.u64", o3, tile::global<unsigned long long, 1, 1>(wide), m, policy);
  // A vector of four floats added at once (sm_90).
  // CHECK: red.global.add.v4.f32 [{{%rd[0-9]+}}], {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}};
  float f[1][4] = {{1.f, 2.f, 3.f, 4.f}};
  __tile_apply("red.global.add.v4.f32", tile::global<float, 1, 4>(sums), f);
  // A half pair with .noftz.
  // CHECK: atom.global.add.noftz.f16x2 {{%r[0-9]+}}, [{{%rd[0-9]+}}], {{%r[0-9]+}};
  __half2 hv[1][1] = {{__floats2half2_rn(1.f, 1.f)}}, ho[1][1];
  __tile_apply("atom.global.add.noftz.f16x2", ho, tile::global<__half2, 1, 1>(h2), hv);
  // exch of 128 bits.
  // CHECK: atom.global.exch.b128 {{%rq[0-9]+}}, [{{%rd[0-9]+}}], {{%rq[0-9]+}};
  unsigned __int128 x[1][1] = {{(unsigned __int128)out[0] << 64}}, xo[1][1];
  __tile_apply("atom.global.exch.b128", xo, tile::global<unsigned __int128, 1, 1>((unsigned __int128 *)wide + 1), x);
  out[0] = old[0][0] + old[1][0] + o1[0][0] + seen[0][0] + o2[0][0] + (uint32_t)o3[0][0] +
           (uint32_t)xo[0][0] + __half2float(ho[0][0].x);
}
