// mapa and the .shared::cluster window across a 2-CTA cluster
// (tile::host::launch_in_clusters, a cluster dimension of 2). Each CTA fills its own
// shared memory; after a cluster barrier, each maps the same variable in the
// other CTA (mapa.shared::cluster.u32: a 32-bit window address, used through
// tile::cluster), reads it with ld.shared::cluster (.v4 and scalar), asks
// getctarank whose it is, adds to the other CTA's counter with
// atom.shared::cluster and writes into its mailbox with st.shared::cluster;
// after a second barrier each CTA checks what it received.
#include <tileapply/tile.h>
#include "gpu_test.h"

using namespace gpu_test;

constexpr int Threads = 128, Clusters = 4, Blocks = 2 * Clusters;

static __device__ __forceinline__ void cluster_barrier() {
  // barrier.cluster orders the shared memory of the cluster's CTAs.
  __tile_apply("barrier.cluster.arrive.aligned");
  __tile_apply("barrier.cluster.wait.aligned");
}

__global__ void cluster_exchange(uint32_t *out) {
  __shared__ alignas(16) uint32_t data[Threads * 4];
  __shared__ uint32_t counter[1];
  __shared__ uint32_t mailbox[Threads];
  uint32_t t = threadIdx.x, rank = blockIdx.x % 2, peer = rank ^ 1;
  for (int k = 0; k < 4; ++k)
    data[4 * t + k] = blockIdx.x * 0x10000u + 4 * t + k;
  if (t == 0)
    counter[0] = 0;
  mailbox[t] = 0;
  cluster_barrier();

  // The peer's copy of data[4t .. 4t+3] and of counter and mailbox[t].
  uint32_t mine = static_cast<uint32_t>(__cvta_generic_to_shared(data + 4 * t));
  uint32_t theirs[1][1], theirCounter[1][1], theirBox[1][1], owner[1][1];
  __tile_apply("mapa.shared::cluster.u32", theirs, mine, peer);
  __tile_apply("mapa.shared::cluster.u32", theirCounter,
               static_cast<uint32_t>(__cvta_generic_to_shared(counter)), peer);
  __tile_apply("mapa.shared::cluster.u32", theirBox,
               static_cast<uint32_t>(__cvta_generic_to_shared(mailbox + t)), peer);
  __tile_apply("getctarank.shared::cluster.u32", owner, theirs[0][0]);
  uint32_t v[1][4], first[1][1];
  __tile_apply("ld.shared::cluster.v4.u32", v, tile::cluster<uint32_t, 1, 4>(theirs[0][0]));
  __tile_apply("ld.relaxed.cluster.shared::cluster.u32", first, tile::cluster<uint32_t, 1, 1>(theirs[0][0]));
  // Every thread adds t + 1 to the peer's counter and leaves a word in the
  // peer's mailbox.
  uint32_t old[1][1];
  __tile_apply("atom.shared::cluster.add.u32", old, tile::cluster<uint32_t, 1, 1>(theirCounter[0][0]), t + 1);
  __tile_apply("st.shared::cluster.u32", tile::cluster<uint32_t, 1, 1>(theirBox[0][0]), 0xa0000000u | blockIdx.x << 16 | t);
  cluster_barrier();

  uint32_t *o = out + (blockIdx.x * Threads + t) * 8;
  o[0] = v[0][0], o[1] = v[0][1], o[2] = v[0][2], o[3] = v[0][3];
  o[4] = first[0][0];
  o[5] = owner[0][0];
  o[6] = mailbox[t];
  o[7] = counter[0];
  // No CTA may leave while the other still reads its shared memory.
  cluster_barrier();
}

int main() {
  if (!have_gpu("cluster"))
    return 0;
  int major = 0;
  TILEAPPLY_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  if (major < 9) {
    std::printf("SKIP cluster: needs sm_90 (thread block clusters)\n");
    return 0;
  }
  const size_t n = Blocks * Threads * 8;
  uint32_t *dOut = upload(std::vector<uint32_t>(n, 0));
  TILEAPPLY_CUDA_CHECK(tile::host::launch_in_clusters(cluster_exchange, dim3(Blocks), dim3(Threads), dim3(2), 0, 0, dOut));
  std::vector<uint32_t> got = download(dOut, n), want(n);
  for (uint32_t b = 0; b < Blocks; ++b)
    for (uint32_t t = 0; t < Threads; ++t) {
      uint32_t peerBlock = b ^ 1, *w = &want[(b * Threads + t) * 8];
      for (int k = 0; k < 4; ++k)
        w[k] = peerBlock * 0x10000u + 4 * t + k;
      w[4] = w[0];
      w[5] = peerBlock % 2; // the peer's rank in the cluster
      w[6] = 0xa0000000u | peerBlock << 16 | t;
      w[7] = Threads * (Threads + 1) / 2; // sum of t + 1 over the peer's threads
    }
  expect_bits("mapa, getctarank, ld/st/atom.shared::cluster across a 2-CTA cluster", got, want);
  return finish("cluster");
}
