// A multi-stage cp.async pipeline (four buffers, wait_group 2): every thread
// copies 16 bytes of each tile (cp.async.cg ... 16), commits one group per
// tile (an empty one past the end, so the count stays in step), waits until
// the tile it needs has landed, and a barrier makes every thread's copies
// visible before the CTA reads them. The last tile is partial: a chunk that
// straddles the end copies src-size bytes and zero-fills the rest, a chunk
// past the end reads nothing (ignore-src = true) and is all zeros: the two
// operand lists of one spelling. A second kernel completes its copies on an
// mbarrier instead (cp.async.mbarrier.arrive.noinc) and copies 4- and 8-byte
// pieces with .ca. Exact.
#include <tileapply/tile.h>
#include "gpu_test.h"

using namespace gpu_test;

constexpr int Threads = 128, Chunk = 4, Tile = Threads * Chunk, Stages = 4, Tiles = 10, Ctas = 3;
constexpr int Span = Tiles * Tile, Total = Span - 6; // words per CTA; the last tile is short

__device__ void issue(uint32_t (*buf)[Tile], const uint32_t *in, int t) {
  const int at = t * Tile + threadIdx.x * Chunk, left = Total - at;
  auto dst = tile::shared<uint32_t, 1>(&buf[t % Stages][threadIdx.x * Chunk]);
  if (left >= Chunk)
    __tile_apply("cp.async.cg.shared.global.L2::128B", dst, tile::global<const uint32_t, 1>(in + at), 16);
  else if (left > 0)
    __tile_apply("cp.async.cg.shared.global", dst, tile::global<const uint32_t, 1>(in + at), 16,
                 uint32_t(4 * left));
  else
    __tile_apply("cp.async.cg.shared.global", dst, tile::global<const uint32_t, 1>(in), 16, true);
}

__global__ void __launch_bounds__(Threads) pipeline(const uint32_t *in, uint32_t *out) {
  __shared__ alignas(16) uint32_t buf[Stages][Tile];
  in += blockIdx.x * Span; // 16-byte aligned
  for (int t = 0; t < Stages - 1; ++t) {
    issue(buf, in, t);
    __tile_apply("cp.async.commit_group");
  }
  uint32_t sum = 0;
  for (int t = 0; t < Tiles; ++t) {
    __tile_apply("cp.async.wait_group", Stages - 2);
    // Tile t has landed for every thread, and every thread is done with t - 1.
    __tile_apply("bar.sync", 0);
    if (t + Stages - 1 < Tiles)
      issue(buf, in, t + Stages - 1); // into the buffer of tile t - 1
    __tile_apply("cp.async.commit_group");
    for (int k = 0; k < Chunk; ++k)
      sum += buf[t % Stages][threadIdx.x + k * Threads] * uint32_t(t + 1);
  }
  __tile_apply("cp.async.wait_all");
  out[blockIdx.x * Threads + threadIdx.x] = sum;
}

// Completion on an mbarrier: each thread's copies arrive on it when they land.
__global__ void __launch_bounds__(Threads) arrive_on(const uint32_t *in, uint32_t *out) {
  __shared__ alignas(16) uint32_t buf[Tile];
  __shared__ uint64_t bar[1];
  auto done = tile::shared<uint64_t, 1>(bar);
  if (threadIdx.x == 0)
    __tile_apply("mbarrier.init.shared::cta.b64", done, uint32_t(Threads)); // one arrive per thread (.noinc)
  __tile_apply("bar.sync", 0);
  const int at = threadIdx.x * Chunk;
  __tile_apply("cp.async.ca.shared.global", tile::shared<uint32_t, 1>(&buf[at]),
               tile::global<const uint32_t, 1>(in + at), 8);
  __tile_apply("cp.async.ca.shared::cta.global", tile::shared<uint32_t, 1>(&buf[at + 2]),
               tile::global<const uint32_t, 1>(in + at + 2), 4);
  __tile_apply("cp.async.ca.shared::cta.global", tile::shared<uint32_t, 1>(&buf[at + 3]),
               tile::global<const uint32_t, 1>(in + at + 3), 4);
  __tile_apply("cp.async.mbarrier.arrive.noinc.shared.b64", done);
  bool ready[1] = {false};
  while (!ready[0])
    __tile_apply("mbarrier.try_wait.parity.shared::cta.b64", ready, done, 0u);
  // Words other threads copied.
  out[threadIdx.x] = buf[(threadIdx.x * 7 + 5) % Tile] + 3u * buf[Tile - 1 - threadIdx.x];
}

int main() {
  if (!have_gpu("cp-async-pipeline"))
    return 0;
  std::vector<uint32_t> in(Ctas * Span);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = uint32_t(i) * 2246822519u + 3266489917u;
  uint32_t *dIn = upload(in);
  uint32_t *dOut = upload(std::vector<uint32_t>(Ctas * Threads, 0));
  pipeline<<<Ctas, Threads>>>(dIn, dOut);
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  std::vector<uint32_t> want(Ctas * Threads, 0);
  for (int b = 0; b < Ctas; ++b)
    for (int tid = 0; tid < Threads; ++tid)
      for (int t = 0; t < Tiles; ++t)
        for (int k = 0; k < Chunk; ++k) {
          const int w = t * Tile + tid + k * Threads; // word of the CTA's range
          const uint32_t v = w < Total ? in[b * Span + w] : 0u;
          want[b * Threads + tid] += v * uint32_t(t + 1);
        }
  expect_bits("4-stage cp.async pipeline (wait_group 2, bar.sync), src-size and ignore-src zero fill",
              download(dOut, want.size()), want);

  uint32_t *dOut2 = upload(std::vector<uint32_t>(Threads, 0));
  arrive_on<<<1, Threads>>>(dIn, dOut2);
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  std::vector<uint32_t> want2(Threads);
  for (int tid = 0; tid < Threads; ++tid)
    want2[tid] = in[(tid * 7 + 5) % Tile] + 3u * in[Tile - 1 - tid];
  expect_bits("cp.async.ca 8 and 4 bytes completing on an mbarrier (cp.async.mbarrier.arrive.noinc)",
              download(dOut2, Threads), want2);
  return finish("cp-async-pipeline");
}
