// An elect.sync producer with consumers on mbarriers: three stage buffers, a
// full and an empty barrier per stage. Warp 0's elected lane waits for an
// empty stage (try_wait.parity, the first round passing on fresh barriers),
// announces the bytes (arrive.expect_tx) and issues the TMA load completing
// on the full barrier; warps 1-4 wait for full (try_wait.parity with the
// .acquire.cta scope), read the tile and arrive on empty (.release.cta). Twelve
// tiles per CTA (four rounds of the three stages, so both parities of every
// barrier), two CTAs. Each consumer thread sums its column of every tile, and
// every thread records the leader's lane id from elect.sync. Exact.
#include <tileapply/tile.h>
#include "tma_test.h"

using namespace gpu_test;

constexpr int Stages = 3, Rows = 16, Cols = 128, Tiles = 12, Consumers = 128, Ctas = 2;

__global__ void __launch_bounds__(32 + Consumers)
pipeline(const __grid_constant__ CUtensorMap map, uint32_t *sums, uint32_t *leaders) {
  __shared__ alignas(128) uint32_t stage[Stages][Rows * Cols];
  __shared__ uint64_t full[Stages], empty[Stages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s) {
      __tile_apply("mbarrier.init.shared::cta.b64", tile::shared<uint64_t, 1>(&full[s]), 1u);
      __tile_apply("mbarrier.init.shared::cta.b64", tile::shared<uint64_t, 1>(&empty[s]), uint32_t(Consumers));
    }
    __tile_apply("fence.mbarrier_init.release.cluster");
  }
  __tile_apply("bar.sync", 0);
  if (threadIdx.x < 32) {
    uint32_t lane[1];
    bool leader[1];
    __tile_apply("elect.sync", lane, leader, 0xffffffffu);
    leaders[blockIdx.x * 32 + threadIdx.x] = lane[0] + (leader[0] ? 100u : 0u);
    if (!leader[0])
      return;
    for (int t = 0; t < Tiles; ++t) {
      const int s = t % Stages;
      const uint32_t phase = (t / Stages) & 1;
      auto fullBar = tile::shared<uint64_t, 1>(&full[s]);
      bool free_[1] = {false};
      while (!free_[0])
        __tile_apply("mbarrier.try_wait.parity.shared::cta.b64", free_, tile::shared<uint64_t, 1>(&empty[s]),
                     phase ^ 1);
      __tile_apply("mbarrier.arrive.expect_tx.shared::cta.b64", fullBar, uint32_t(sizeof stage[s]));
      int32_t at[2] = {0, (int32_t(blockIdx.x) * Tiles + t) * Rows};
      __tile_apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
                   tile::shared<uint32_t, 1>(stage[s]), tile::tensor_map(map), at, fullBar);
    }
  } else {
    const int me = threadIdx.x - 32;
    uint32_t sum = 0;
    for (int t = 0; t < Tiles; ++t) {
      const int s = t % Stages;
      const uint32_t phase = (t / Stages) & 1;
      bool ready[1] = {false};
      while (!ready[0])
        __tile_apply("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64", ready,
                     tile::shared<uint64_t, 1>(&full[s]), phase);
      for (int r = 0; r < Rows; ++r)
        sum += stage[s][r * Cols + me] * uint32_t(t + 1);
      __tile_apply("mbarrier.arrive.release.cta.shared::cta.b64", tile::shared<uint64_t, 1>(&empty[s]));
    }
    sums[blockIdx.x * Consumers + me] = sum;
  }
}

int main() {
  if (!have_gpu("tma-pipeline"))
    return 0;
  const int rows = Ctas * Tiles * Rows;
  std::vector<uint32_t> in(rows * Cols);
  for (int i = 0; i < rows * Cols; ++i)
    in[i] = uint32_t(i) * 2654435761u;
  uint32_t *dIn = upload(in);
  uint32_t *dSums = upload(std::vector<uint32_t>(Ctas * Consumers, 0));
  uint32_t *dLeaders = upload(std::vector<uint32_t>(Ctas * 32, 0));
  CUtensorMap map;
  if (!encode_u32_2d(&map, dIn, rows, Cols, Rows, Cols))
    return finish("tma-pipeline");
  pipeline<<<Ctas, 32 + Consumers>>>(map, dSums, dLeaders);
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  std::vector<uint32_t> want(Ctas * Consumers, 0);
  for (int b = 0; b < Ctas; ++b)
    for (int me = 0; me < Consumers; ++me)
      for (int k = 0; k < Tiles; ++k)
        for (int r = 0; r < Rows; ++r)
          want[b * Consumers + me] += in[((b * Tiles + k) * Rows + r) * Cols + me] * uint32_t(k + 1);
  expect_bits("3-stage TMA pipeline: elect.sync producer, full/empty mbarriers, both parities",
              download(dSums, want.size()), want);
  // Every lane sees the same leader lane id; exactly one lane is the leader,
  // and it is that lane.
  std::vector<uint32_t> got = download(dLeaders, Ctas * 32);
  int bad = 0;
  for (int b = 0; b < Ctas; ++b) {
    const uint32_t id = got[b * 32] % 100;
    int leaders = 0;
    for (int l = 0; l < 32; ++l) {
      bad += got[b * 32 + l] % 100 != id;
      leaders += got[b * 32 + l] >= 100;
      bad += got[b * 32 + l] >= 100 && uint32_t(l) != id;
    }
    bad += leaders != 1 || id >= 32;
  }
  std::printf("%s elect.sync: one leader per warp, its lane id in every lane (%d values)\n",
              bad ? "  mismatch" : "  ok      ", Ctas * 32);
  failures += bad != 0;
  return finish("tma-pipeline");
}
