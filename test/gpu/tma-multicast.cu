// TMA multicast to the CTAs of a 2-CTA cluster: each CTA initialises its
// barrier (fence.mbarrier_init.release.cluster, then a cluster barrier so no
// peer's copy can land before), announces the whole tile's bytes, and loads
// half of the tile with .multicast::cluster and ctaMask 0b11, through the
// .shared::cluster window (tile::to_cluster of its own buffer and barrier): the
// half lands at the same offset in both CTAs and completes on both barriers.
// One more load carries an L2 cache hint (a policy made by createpolicy). Each
// CTA then copies its whole tile out. Two clusters. Checks every word. Exact.
#include <tileapply/tile.h>
#include "tma_test.h"

using namespace gpu_test;

constexpr int Cols = 32, Half = 16, TileRows = 2 * Half, Clusters = 2, Threads = 128;

// Launched in clusters of 2 by tile::host::launch_in_clusters (clang 22 does not lower
// __cluster_dims__: the kernel would run without a cluster).
__global__ void __launch_bounds__(Threads)
multicast(const __grid_constant__ CUtensorMap map, uint32_t *out) {
  __shared__ alignas(128) uint32_t buf[TileRows * Cols];
  __shared__ uint64_t bar[1];
  auto full = tile::shared<uint64_t, 1>(bar);
  const int rank = blockIdx.x % 2, cluster = blockIdx.x / 2;
  if (threadIdx.x == 0) {
    __tile_apply("mbarrier.init.shared::cta.b64", full, 1u);
    __tile_apply("fence.mbarrier_init.release.cluster");
  }
  // Both CTAs' barriers are initialised before either issues a copy.
  __tile_apply("barrier.cluster.arrive.release.aligned");
  __tile_apply("barrier.cluster.wait.acquire.aligned");
  if (threadIdx.x == 0) {
    __tile_apply("mbarrier.arrive.expect_tx.shared::cta.b64", full, uint32_t(sizeof buf));
    int32_t at[2] = {0, cluster * TileRows + rank * Half};
    auto dst = tile::to_cluster(tile::shared<uint32_t, 1>(buf + rank * Half * Cols));
    if (rank == 0) {
      __tile_apply("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster",
                   dst, tile::tensor_map(map), at, tile::to_cluster(full), uint16_t(0b11));
    } else {
      uint64_t policy[1];
      __tile_apply("createpolicy.fractional.L2::evict_first.b64", policy, 1.0f);
      __tile_apply("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint",
                   dst, tile::tensor_map(map), at, tile::to_cluster(full), uint16_t(0b11), policy[0]);
    }
  }
  bool ready[1] = {false};
  while (!ready[0])
    __tile_apply("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64", ready, full, 0u);
  for (int i = threadIdx.x; i < TileRows * Cols; i += Threads)
    out[blockIdx.x * TileRows * Cols + i] = buf[i];
  // Neither CTA leaves while the cluster is still in use.
  __tile_apply("barrier.cluster.arrive.release.aligned");
  __tile_apply("barrier.cluster.wait.acquire.aligned");
}

int main() {
  if (!have_gpu("tma-multicast"))
    return 0;
  const int rows = Clusters * TileRows;
  std::vector<uint32_t> in(rows * Cols);
  for (int i = 0; i < rows * Cols; ++i)
    in[i] = 0x9E3779B9u * uint32_t(i + 1);
  uint32_t *dIn = upload(in);
  uint32_t *dOut = upload(std::vector<uint32_t>(2 * Clusters * TileRows * Cols, 0));
  CUtensorMap map;
  if (!encode_u32_2d(&map, dIn, rows, Cols, Half, Cols))
    return finish("tma-multicast");
  TILEAPPLY_CUDA_CHECK(tile::host::launch_in_clusters(multicast, dim3(2 * Clusters), dim3(Threads), dim3(2), 0, 0, map, dOut));
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  std::vector<uint32_t> want(2 * Clusters * TileRows * Cols);
  for (int b = 0; b < 2 * Clusters; ++b)
    for (int i = 0; i < TileRows * Cols; ++i)
      want[b * TileRows * Cols + i] = in[(b / 2) * TileRows * Cols + i];
  expect_bits("cluster of 2: each CTA's half multicast (.multicast::cluster, ctaMask 0b11, one with .L2::cache_hint) "
              "into both CTAs, completing on both barriers",
              download(dOut, want.size()), want);
  return finish("tma-multicast");
}
