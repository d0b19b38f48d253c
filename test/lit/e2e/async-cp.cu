// cp.async (sm_80): per-thread copies from global to shared memory, 4, 8 or
// 16 bytes each, with a zero-filling source size or an ignore-src predicate
// (two operand lists of one spelling), L2 prefetch sizes and cache hints;
// groups (commit_group, wait_group N, wait_all) and the mbarrier arrive.
// COVERS-FAMILIES: cp
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_80 --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o /dev/null
// REQUIRES: ptxas

#include <tileapply/tile.h>

__global__ void k(const float *g, uint32_t n, bool skip, uint64_t policy, float *out) {
  __shared__ alignas(16) float s[4][64];
  __shared__ uint64_t bar[1];
  // One thread, four 16-byte copies: the repeats walk both views by 4 floats.
  auto dst = tile::view<tile::shape<4, 1>, tile::stride<4, 1>>(tile::shared<float, 256>(&s[0][threadIdx.x % 16 * 4]));
  auto src = tile::view<tile::shape<4, 1>, tile::stride<4, 1>>(tile::global<const float, 16>(g + threadIdx.x % 16 * 4));
  // CHECK-COUNT-4: cp.async.cg.shared.global.L2::128B [{{%rd[0-9]+}}{{(\+[0-9]+)?}}], [{{%rd[0-9]+}}{{(\+[0-9]+)?}}], 16;
  __tile_apply("cp.async.cg.shared.global.L2::128B", dst, src, 16);
  // CHECK: cp.async.commit_group;
  __tile_apply("cp.async.commit_group");
  auto one = tile::shared<float, 1>(&s[1][threadIdx.x % 64]);
  auto from = tile::global<const float, 1>(g + threadIdx.x);
  // CHECK: cp.async.ca.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 4, {{%r[0-9]+}};
  __tile_apply("cp.async.ca.shared.global", one, from, 4, n);
  // CHECK: cp.async.ca.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 4, {{%p[0-9]+}};
  __tile_apply("cp.async.ca.shared.global", one, from, 4, skip);
  // A constant bool is ignore-src in a predicate register: an immediate there
  // would be read as src-size. A constant number is src-size, an immediate.
  // CHECK: cp.async.ca.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 4, {{%p[0-9]+}};
  __tile_apply("cp.async.ca.shared.global", one, from, 4, true);
  // CHECK: cp.async.ca.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 4, 2;
  __tile_apply("cp.async.ca.shared.global", one, from, 4, 2u);
  // CHECK: cp.async.ca.shared::cta.global.L2::cache_hint [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 8, {{%rd[0-9]+}};
  __tile_apply("cp.async.ca.shared::cta.global.L2::cache_hint", tile::shared<float, 1>(&s[2][threadIdx.x % 32 * 2]),
               tile::global<const float, 1>(g + 2 * threadIdx.x), 8, policy);
  // CHECK: cp.async.commit_group;
  __tile_apply("cp.async.commit_group");
  // CHECK: cp.async.wait_group 1;
  __tile_apply("cp.async.wait_group", 1);
  // CHECK: cp.async.mbarrier.arrive.noinc.shared.b64 [{{%rd[0-9]+}}];
  __tile_apply("cp.async.mbarrier.arrive.noinc.shared.b64", tile::shared<uint64_t, 1>(bar));
  // CHECK: cp.async.wait_all;
  __tile_apply("cp.async.wait_all");
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x / 64][threadIdx.x % 64];
}
