// Loads and stores through generic addresses (tile::generic) that point to
// global memory and to shared memory, .shared::cta under its own name, the
// memory-order forms (ld.acquire / st.release / ld.relaxed) without a state
// space, a .mmio load and store on global memory, qualifiers in another order,
// and the address instructions between them: cvta to and from the shared
// window (a round trip to the same generic address) and isspacep.
#include <tileapply/tile.h>
#include "gpu_test.h"

using namespace gpu_test;

constexpr int Threads = 64;

__global__ void generic_memory(const uint32_t *in, uint32_t *out, uint32_t *flags) {
  __shared__ alignas(16) uint32_t buf[Threads * 4];
  uint32_t t = threadIdx.x;
  // A generic .v4 load from global memory, a generic .v4 store to shared
  // memory (the same generic ld/st instructions, another window).
  uint32_t v[1][4];
  __tile_apply("ld.v4.u32", v, tile::generic<const uint32_t, 1, 4>(in + 4 * t));
  __tile_apply("add.u32", tile::view<tile::shape<4, 1>, tile::stride<1, 1>>(v),
               tile::view<tile::shape<4, 1>, tile::stride<1, 1>>(v), t);
  __tile_apply("st.v4.u32", tile::generic<uint32_t, 1, 4>(buf + 4 * t), v);
  __syncthreads();
  // Read a neighbour's row back through .shared::cta (tile::shared) and
  // through a generic pointer in the other order of qualifiers.
  uint32_t u = (t + 1) % Threads;
  uint32_t w[1][2], x[1][2];
  __tile_apply("ld.shared::cta.v2.u32", w, tile::shared<uint32_t, 1, 2>(buf + 4 * u));
  __tile_apply("ld.cta.relaxed.v2.u32", x, tile::generic<uint32_t, 1, 2>(buf + 4 * u + 2));
  // Generic stores to global memory: weak, .cg, release.
  __tile_apply("st.v2.u32", tile::generic<uint32_t, 1, 2>(out + 4 * t), w);
  __tile_apply("st.cg.v2.u32", tile::generic<uint32_t, 1, 2>(out + 4 * t + 2), x);

  // cvta: generic to the shared window and back; isspacep on both kinds.
  uint64_t gen = reinterpret_cast<uint64_t>(buf + t), win[1][1], back[1][1];
  __tile_apply("cvta.to.shared.u64", win, gen);
  __tile_apply("cvta.shared.u64", back, win[0][0]);
  bool isShared[1][1], isGlobal[1][1], globalIsShared[1][1];
  __tile_apply("isspacep.shared", isShared, gen);
  __tile_apply("isspacep.global", isGlobal, gen);
  __tile_apply("isspacep.shared", globalIsShared, reinterpret_cast<uint64_t>(out));
  out[Threads * 4 + t] = (back[0][0] == gen) | isShared[0][0] << 1 | isGlobal[0][0] << 2 |
                         globalIsShared[0][0] << 3 | (win[0][0] < 0x100000000ull) << 4;

  // Release / acquire through generic addresses: thread 0 of the block
  // publishes a word and a flag, the last thread waits for the flag.
  if (t == 0) {
    __tile_apply("st.relaxed.gpu.u32", tile::generic<uint32_t, 1, 1>(flags + 1), 0x600dcafeu);
    __tile_apply("st.release.gpu.u32", tile::generic<uint32_t, 1, 1>(flags), 1u);
  }
  if (t == Threads - 1) {
    uint32_t f[1][1] = {{0}};
    while (f[0][0] == 0)
      __tile_apply("ld.acquire.gpu.u32", f, tile::generic<uint32_t, 1, 1>(flags));
    uint32_t word[1][1];
    __tile_apply("ld.relaxed.gpu.u32", word, tile::generic<uint32_t, 1, 1>(flags + 1));
    flags[2] = word[0][0];
  }
  // .mmio on ordinary global memory: a relaxed.sys load and store.
  if (t == 1) {
    uint32_t m[1][1];
    __tile_apply("ld.mmio.relaxed.sys.global.u32", m, tile::global<const uint32_t, 1, 1>(in));
    __tile_apply("st.mmio.relaxed.sys.u32", tile::generic<uint32_t, 1, 1>(flags + 3), m[0][0] + 5u);
  }
}

int main() {
  if (!have_gpu("generic-memory"))
    return 0;
  std::vector<uint32_t> in(Threads * 4);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = 0x10000u * i + 3u * i + 1u;
  uint32_t *dIn = upload(in);
  uint32_t *dOut = upload(std::vector<uint32_t>(Threads * 5, 0));
  uint32_t *dFlags = upload(std::vector<uint32_t>(4, 0));
  generic_memory<<<1, Threads>>>(dIn, dOut, dFlags);
  std::vector<uint32_t> want(Threads * 5);
  for (uint32_t t = 0; t < Threads; ++t) {
    uint32_t u = (t + 1) % Threads;
    for (int k = 0; k < 4; ++k)
      want[4 * t + k] = in[4 * u + k] + u;
    want[Threads * 4 + t] = 1 | 2 | 0 | 0 | 16; // round trip, shared, not global, global not shared, 32-bit window
  }
  expect_bits("generic ld/st to global and shared, .shared::cta, reordered qualifiers, cvta and isspacep",
              download(dOut, Threads * 5), want);
  std::vector<uint32_t> flags = download(dFlags, 4);
  expect_bits("st.release / ld.acquire through generic addresses, .mmio load and store",
              std::vector<uint32_t>{flags[0], flags[1], flags[2], flags[3]},
              std::vector<uint32_t>{1u, 0x600dcafeu, 0x600dcafeu, in[0] + 5u});
  return finish("generic-memory");
}
