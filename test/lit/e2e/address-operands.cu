// The address instructions and the loads and stores they lead to, end to end:
// cvta and isspacep on 64-bit addresses, mapa.shared::cluster to another
// CTA's window address (a uint32_t) used through tile::cluster by
// ld.shared::cluster, getctarank, loads and stores through a generic address
// (tile::generic), .shared::cta (tile::shared), .mmio, and qualifiers in
// orders ptxas accepts, emitted as written.
// COVERS-FAMILIES: cvta isspacep mapa getctarank ld st
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <tileapply/tile.h>

// Meant for clusters of 2 CTAs, launched with cudaLaunchKernelEx and a
// cluster dimension (clang 22 parses __cluster_dims__ but does not lower it).
// CHECK-LABEL: .entry {{.*}}addresses
__global__ void addresses(float *out, const float *in) {
  __shared__ float buf[64];
  uint64_t generic = reinterpret_cast<uint64_t>(buf);
  uint64_t win[1][1];
  // CHECK: cvta.to.shared.u64 {{%rd[0-9]+}}, {{%rd[0-9]+}};
  __tile_apply("cvta.to.shared.u64", win, generic);
  bool isShared[1][1];
  // CHECK: isspacep.shared {{%p[0-9]+}}, {{%rd[0-9]+}};
  __tile_apply("isspacep.shared", isShared, generic);
  // The same variable in the other CTA of the cluster.
  uint32_t mine = static_cast<uint32_t>(win[0][0]), theirs[1][1], rank[1][1];
  // CHECK: mapa.shared::cluster.u32 [[W:%r[0-9]+]], {{%r[0-9]+}}, {{%r[0-9]+}};
  __tile_apply("mapa.shared::cluster.u32", theirs, mine, (uint32_t)(threadIdx.x & 1));
  // CHECK: getctarank.shared::cluster.u32 {{%r[0-9]+}}, [[W]];
  __tile_apply("getctarank.shared::cluster.u32", rank, theirs[0][0]);
  // CHECK: ld.shared::cluster.v4.f32 {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}, [[[W]]];
  float v[1][4];
  __tile_apply("ld.shared::cluster.v4.f32", v, tile::cluster<float, 1, 4>(theirs[0][0]));
  // Generic loads and stores: two repeats through one base register.
  // CHECK: ld.relaxed.gpu.v2.f32 {{{%r[0-9]+}}, {{%r[0-9]+}}}, [[[G:%rd[0-9]+]]];
  // CHECK: ld.relaxed.gpu.v2.f32 {{{%r[0-9]+}}, {{%r[0-9]+}}}, [[[G]]+8];
  float g[2][2];
  __tile_apply("ld.relaxed.gpu.v2.f32", g, tile::generic<const float, 2, 2>(in));
  // CHECK: st.cg.v2.f32 [{{%rd[0-9]+}}], {{{%r[0-9]+}}, {{%r[0-9]+}}};
  __tile_apply("st.cg.v2.f32", tile::generic<float, 1, 2>(out + 8), tile::view<tile::shape<1, 2>, tile::stride<2, 1>>(g));
  // .shared::cta is .shared under its own name (tile::shared).
  // CHECK: st.shared::cta.f32 [{{%rd[0-9]+}}], {{%r[0-9]+}};
  __tile_apply("st.shared::cta.f32", tile::shared<float, 1, 1>(buf + threadIdx.x), v[0][0]);
  // Orders ptxas accepts, emitted as written.
  // CHECK: ld.global.acquire.gpu.b32 {{%r[0-9]+}}, [{{%rd[0-9]+}}];
  uint32_t flag[1][1];
  __tile_apply("ld.global.acquire.gpu.b32", flag, tile::global<const uint32_t, 1, 1>(reinterpret_cast<const uint32_t *>(in) + 16));
  // CHECK: st.b32.release.sys [{{%rd[0-9]+}}], 1;
  __tile_apply("st.b32.release.sys", tile::generic<uint32_t, 1, 1>(reinterpret_cast<uint32_t *>(out) + 16), 1u);
  // Memory-mapped I/O.
  // CHECK: ld.mmio.relaxed.sys.global.u32 {{%r[0-9]+}}, [{{%rd[0-9]+}}];
  uint32_t io[1][1];
  __tile_apply("ld.mmio.relaxed.sys.global.u32", io, tile::global<const uint32_t, 1, 1>(reinterpret_cast<const uint32_t *>(in) + 20));
  out[threadIdx.x] = v[0][0] + v[0][1] + v[0][2] + v[0][3] + g[1][1] + (float)rank[0][0] +
                     (float)isShared[0][0] + (float)flag[0][0] + (float)io[0][0];
}
