// setmaxnreg in a warp-specialized kernel: three warpgroups. Warpgroup 0
// gives registers back (setmaxnreg.dec 40) and its first warp's elected lane
// produces TMA loads into a 4-stage ring; warpgroups 1 and 2 take registers
// (setmaxnreg.inc 232) and consume, each thread keeping 16 running sums in
// registers. The kernel is built for 384 threads (ptxas gives it 168
// registers, so 128 x 40 + 256 x 232 fits the register file). Full/empty
// mbarriers as in tma-pipeline.cu; 16 tiles, two CTAs. Exact.
#include <tileapply/tile.h>
#include "tma_test.h"

using namespace gpu_test;

constexpr int Stages = 4, Rows = 8, Cols = 256, Tiles = 16, Consumers = 256, Ctas = 2, Sums = 16;

__global__ void __launch_bounds__(384, 1)
specialized(const __grid_constant__ CUtensorMap map, uint32_t *out) {
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
  const int warpgroup = threadIdx.x / 128;
  if (warpgroup == 0) {
    __tile_apply("setmaxnreg.dec.sync.aligned.u32", 40);
    if (threadIdx.x >= 32)
      return;
    bool leader[1];
    __tile_apply("elect.sync", leader, 0xffffffffu);
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
    __tile_apply("setmaxnreg.inc.sync.aligned.u32", 232);
    const int me = threadIdx.x - 128;
    uint32_t acc[Sums] = {};
    for (int t = 0; t < Tiles; ++t) {
      const int s = t % Stages;
      const uint32_t phase = (t / Stages) & 1;
      bool ready[1] = {false};
      while (!ready[0])
        __tile_apply("mbarrier.try_wait.parity.shared::cta.b64", ready, tile::shared<uint64_t, 1>(&full[s]), phase);
      for (int r = 0; r < Rows; ++r) {
        const uint32_t v = stage[s][r * Cols + me];
#pragma unroll
        for (int j = 0; j < Sums; ++j)
          acc[j] = acc[j] * 3u + (v ^ uint32_t(j * 0x01010101));
      }
      __tile_apply("mbarrier.arrive.shared::cta.b64", tile::shared<uint64_t, 1>(&empty[s]));
    }
#pragma unroll
    for (int j = 0; j < Sums; ++j)
      out[(blockIdx.x * Consumers + me) * Sums + j] = acc[j];
  }
}

int main() {
  if (!have_gpu("warp-specialized"))
    return 0;
  const int rows = Ctas * Tiles * Rows;
  std::vector<uint32_t> in(rows * Cols);
  for (int i = 0; i < rows * Cols; ++i)
    in[i] = uint32_t(i) * 0x9E3779B1u + 7u;
  uint32_t *dIn = upload(in);
  uint32_t *dOut = upload(std::vector<uint32_t>(Ctas * Consumers * Sums, 0));
  CUtensorMap map;
  if (!encode_u32_2d(&map, dIn, rows, Cols, Rows, Cols))
    return finish("warp-specialized");
  specialized<<<Ctas, 384>>>(map, dOut);
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  std::vector<uint32_t> want(Ctas * Consumers * Sums, 0);
  for (int b = 0; b < Ctas; ++b)
    for (int me = 0; me < Consumers; ++me) {
      uint32_t acc[Sums] = {};
      for (int k = 0; k < Tiles; ++k)
        for (int r = 0; r < Rows; ++r) {
          const uint32_t v = in[((b * Tiles + k) * Rows + r) * Cols + me];
          for (int j = 0; j < Sums; ++j)
            acc[j] = acc[j] * 3u + (v ^ uint32_t(j * 0x01010101));
        }
      for (int j = 0; j < Sums; ++j)
        want[(b * Consumers + me) * Sums + j] = acc[j];
    }
  expect_bits("setmaxnreg.dec 40 (producer warpgroup) / inc 232 (two consumer warpgroups), 4-stage TMA ring",
              download(dOut, want.size()), want);
  return finish("warp-specialized");
}
