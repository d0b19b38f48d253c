// Bulk reductions to global memory: each of 8 CTAs loads 4 KiB with a bulk
// copy (cp.async.bulk.shared::cta.global, completing on an mbarrier), changes
// it with ordinary stores, orders those before the async proxy
// (fence.proxy.async.shared::cta + bar.sync), and one thread adds it into
// global memory three ways: cp.reduce.async.bulk .add.u32 into one array all
// CTAs share (split-K style), the same into the CTA's own slice, and
// cp.reduce.async.bulk.tensor .add through a tensor map (a 32 x 32 box all CTAs
// share); then commit_group and wait_group 0. Exact (integers, wrapping).
#include <tileapply/tile.h>
#include "tma_test.h"

using namespace gpu_test;

constexpr int N = 1024, Threads = 128, Ctas = 8;

__global__ void __launch_bounds__(Threads)
reduce(const __grid_constant__ CUtensorMap grid, const uint32_t *src, uint32_t *total, uint32_t *slices) {
  __shared__ alignas(128) uint32_t buf[N];
  __shared__ uint64_t bar[1];
  auto done = tile::shared<uint64_t, 1>(bar);
  if (threadIdx.x == 0) {
    __tile_apply("mbarrier.init.shared::cta.b64", done, 1u);
    __tile_apply("fence.mbarrier_init.release.cluster");
  }
  __tile_apply("bar.sync", 0);
  if (threadIdx.x == 0) {
    __tile_apply("mbarrier.arrive.expect_tx.shared::cta.b64", done, uint32_t(sizeof buf));
    __tile_apply("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes", tile::shared<uint32_t, 1>(buf),
                 tile::global<const uint32_t, 1>(src + blockIdx.x * N), uint32_t(sizeof buf), done);
  }
  bool ready[1] = {false};
  while (!ready[0])
    __tile_apply("mbarrier.try_wait.parity.shared::cta.b64", ready, done, 0u);
  for (int i = threadIdx.x; i < N; i += Threads)
    buf[i] = buf[i] * (blockIdx.x + 1) + uint32_t(i);
  __tile_apply("fence.proxy.async.shared::cta");
  __tile_apply("bar.sync", 0);
  if (threadIdx.x == 0) {
    auto from = tile::shared<uint32_t, 1>(buf);
    __tile_apply("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32", tile::global<uint32_t, 1>(total), from,
                 uint32_t(sizeof buf));
    __tile_apply("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32",
                 tile::global<uint32_t, 1>(slices + blockIdx.x * N), from, uint32_t(sizeof buf));
    int32_t at[2] = {0, 0};
    __tile_apply("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group", tile::tensor_map(grid), at,
                 from);
    __tile_apply("cp.async.bulk.commit_group");
    __tile_apply("cp.async.bulk.wait_group", 0);
  }
}

int main() {
  if (!have_gpu("bulk-reduce"))
    return 0;
  std::vector<uint32_t> src(Ctas * N), total(N), slices(Ctas * N), grid(N);
  for (int i = 0; i < Ctas * N; ++i) {
    src[i] = uint32_t(i) * 0x45D9F3Bu + 11u;
    slices[i] = uint32_t(i) ^ 0xA5A5A5A5u;
  }
  for (int i = 0; i < N; ++i) {
    total[i] = uint32_t(i) * 7u;
    grid[i] = 0xFFFFFF00u + uint32_t(i);
  }
  uint32_t *dSrc = upload(src), *dTotal = upload(total), *dSlices = upload(slices), *dGrid = upload(grid);
  CUtensorMap map;
  if (!encode_u32_2d(&map, dGrid, 32, 32, 32, 32))
    return finish("bulk-reduce");
  reduce<<<Ctas, Threads>>>(map, dSrc, dTotal, dSlices);
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  std::vector<uint32_t> wantTotal = total, wantSlices = slices, wantGrid = grid;
  for (int b = 0; b < Ctas; ++b)
    for (int i = 0; i < N; ++i) {
      const uint32_t v = src[b * N + i] * uint32_t(b + 1) + uint32_t(i);
      wantTotal[i] += v;
      wantSlices[b * N + i] += v;
      wantGrid[i] += v;
    }
  expect_bits("cp.reduce.async.bulk .add.u32, 8 CTAs into one array", download(dTotal, N), wantTotal);
  expect_bits("cp.reduce.async.bulk .add.u32, each CTA into its own slice", download(dSlices, Ctas * N), wantSlices);
  expect_bits("cp.reduce.async.bulk.tensor.2d .add through a tensor map, 8 CTAs into one box", download(dGrid, N),
              wantGrid);
  return finish("bulk-reduce");
}
