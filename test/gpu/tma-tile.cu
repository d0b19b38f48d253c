// TMA 2D tile loads and stores, for every swizzle mode (none, 32B, 64B, 128B):
// one thread announces the bytes (mbarrier.arrive.expect_tx) and issues the
// load, every thread waits on the barrier's phase parity (try_wait.parity, phase
// 0 then 1: two tiles through one barrier). The threads read the tile through
// the swizzle formula (byte offset o lives at o ^ (((o >> 7) & m) << 4), m = 0,
// 1, 3, 7), add 1 in place with ordinary shared-memory stores, order those
// stores before the async proxy with fence.proxy.async.shared::cta and a
// barrier, and one thread stores the tile back with a TMA store (bulk group,
// commit, wait). Checks: every word the threads saw, and every word of the
// output tensor (the two tiles + 1, zero elsewhere). Exact.
#include <tileapply/tile.h>
#include "tma_test.h"

using namespace gpu_test;

constexpr int Cols = 64, Rows = 96, BoxRows = 32, Threads = 128;
constexpr int X0 = 8, Y0[2] = {16, 56};

__global__ void __launch_bounds__(Threads)
roundtrip(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out, int inner,
          uint32_t mask, uint32_t *seen) {
  __shared__ alignas(1024) uint32_t buf[BoxRows * 32];
  __shared__ uint64_t bar[1];
  auto full = tile::shared<uint64_t, 1>(bar);
  const int words = BoxRows * inner;
  if (threadIdx.x == 0) {
    __tile_apply("mbarrier.init.shared::cta.b64", full, 1u);
    __tile_apply("fence.mbarrier_init.release.cluster");
  }
  __tile_apply("bar.sync", 0);
  for (int k = 0; k < 2; ++k) {
    int32_t at[2] = {X0, Y0[k]};
    if (threadIdx.x == 0) {
      __tile_apply("mbarrier.arrive.expect_tx.shared::cta.b64", full, uint32_t(4 * words));
      __tile_apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
                   tile::shared<uint32_t, 1>(buf), tile::tensor_map(in), at, full);
    }
    bool ready[1] = {false};
    while (!ready[0])
      __tile_apply("mbarrier.try_wait.parity.shared::cta.b64", ready, full, uint32_t(k));
    // What the TMA wrote, read through the swizzle: logical word i of the box.
    for (int i = threadIdx.x; i < words; i += Threads) {
      const uint32_t o = 4u * i, phys = o ^ (((o >> 7) & mask) << 4);
      seen[k * BoxRows * 32 + i] = buf[phys / 4];
    }
    __tile_apply("bar.sync", 0);
    // Ordinary stores (the generic proxy), each thread its own words.
    for (int i = threadIdx.x; i < words; i += Threads)
      buf[i] += 1;
    __tile_apply("fence.proxy.async.shared::cta");
    __tile_apply("bar.sync", 0);
    if (threadIdx.x == 0) {
      __tile_apply("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group", tile::tensor_map(out), at,
                   tile::shared<uint32_t, 1>(buf));
      __tile_apply("cp.async.bulk.commit_group");
      // The next load overwrites buf: wait until the store has completed.
      __tile_apply("cp.async.bulk.wait_group", 0);
    }
    __tile_apply("bar.sync", 0);
  }
}

int main() {
  if (!have_gpu("tma-tile"))
    return 0;
  std::vector<uint32_t> in(Cols * Rows);
  for (int r = 0; r < Rows; ++r)
    for (int c = 0; c < Cols; ++c)
      in[r * Cols + c] = uint32_t(r * 1000 + c + 1);
  uint32_t *dIn = upload(in);
  struct Mode {
    const char *name;
    CUtensorMapSwizzle sw;
    int inner;     // box columns: the swizzle span in 4-byte words (none: 128 bytes)
    uint32_t mask; // the swizzle's row bits
  } modes[] = {{"none", CU_TENSOR_MAP_SWIZZLE_NONE, 32, 0},
               {"32B", CU_TENSOR_MAP_SWIZZLE_32B, 8, 1},
               {"64B", CU_TENSOR_MAP_SWIZZLE_64B, 16, 3},
               {"128B", CU_TENSOR_MAP_SWIZZLE_128B, 32, 7}};
  for (const Mode &m : modes) {
    uint32_t *dOut = upload(std::vector<uint32_t>(Cols * Rows, 0));
    uint32_t *dSeen = upload(std::vector<uint32_t>(2 * BoxRows * 32, 0));
    CUtensorMap mi, mo;
    // A refused encoding is counted as a failure (once) and reported.
    if (!encode_u32_2d(&mi, dIn, Rows, Cols, BoxRows, m.inner, m.sw) ||
        !encode_u32_2d(&mo, dOut, Rows, Cols, BoxRows, m.inner, m.sw))
      continue;
    roundtrip<<<1, Threads>>>(mi, mo, m.inner, m.mask, dSeen);
    TILEAPPLY_CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> wantSeen(2 * BoxRows * 32, 0), wantOut(Cols * Rows, 0);
    for (int k = 0; k < 2; ++k)
      for (int r = 0; r < BoxRows; ++r)
        for (int c = 0; c < m.inner; ++c) {
          const uint32_t v = in[(Y0[k] + r) * Cols + X0 + c];
          wantSeen[k * BoxRows * 32 + r * m.inner + c] = v;
          wantOut[(Y0[k] + r) * Cols + X0 + c] = v + 1;
        }
    std::string what = std::string("swizzle ") + m.name;
    expect_bits((what + ": TMA load, mbarrier expect_tx + try_wait.parity 0/1, read through the swizzle").c_str(),
                download(dSeen, wantSeen.size()), wantSeen);
    expect_bits((what + ": st.shared + fence.proxy.async, TMA store, bulk group wait").c_str(),
                download(dOut, wantOut.size()), wantOut);
    TILEAPPLY_CUDA_CHECK(cudaFree(dOut));
    TILEAPPLY_CUDA_CHECK(cudaFree(dSeen));
  }
  return finish("tma-tile");
}
