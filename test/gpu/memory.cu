// Memory forms: .v4 vector loads/stores, a shared-memory round trip, a reshape
// view, a gapped view and an explicit zero-stride broadcast.
#include <tileapply/tile.h>
#include "gpu_test.h"

using namespace gpu_test;

__global__ void vectors(tile::global<const uint32_t, 4, 4> In, tile::global<uint32_t, 4, 4> Out) {
  __shared__ uint32_t smem[16];
  tile::reg<uint32_t, 4, 4> r;
  __tile_apply("ld.global.v4.b32", r, In);
  __tile_apply("st.shared.v4.b32", tile::shared<uint32_t, 4, 4>(smem), r);
  __tile_apply("ld.shared.v2.b32", tile::view<tile::shape<8, 2>, tile::stride<2, 1>>(r),
               tile::shared<uint32_t, 8, 2>(smem));
  auto flat = tile::view<tile::shape<16, 1>, tile::stride<1, 1>>(r);
  __tile_apply("add.u32", flat, flat, 1);
  __tile_apply("st.global.v4.b32", Out, r);
}

__global__ void views(tile::global<float, 8, 1> Out, tile::global<const float, 4, 1> In,
                      tile::global<const float, 1, 1> Bias) {
  float v[4][1], b[1][1];
  __tile_apply("ld.global.f32", v, In);
  __tile_apply("ld.global.f32", b, Bias);
  __tile_apply("add.rn.f32", v, v, tile::view<tile::shape<4, 1>, tile::stride<0, 1>>(b));
  // Every other element of Out.
  __tile_apply("st.global.f32", tile::view<tile::shape<4, 1>, tile::stride<2, 1>>(Out), v);
}

// 128-bit loads and stores and mov.b128: each 128-bit word is unpacked into
// its two 64-bit halves (low half first), both halves get +1, and the pair is
// packed back and stored.
__global__ void wide(tile::global<const unsigned __int128, 4, 1> In,
                     tile::global<unsigned __int128, 4, 1> Out) {
  unsigned __int128 q[4][1];
  uint64_t halves[4][2];
  __tile_apply("ld.global.b128", q, In);
  __tile_apply("mov.b128", halves, q);
  // The same storage as 8 repeats of one register each.
  auto each = tile::view<tile::shape<8, 1>, tile::stride<1, 1>>(halves);
  __tile_apply("add.u64", each, each, uint64_t{1});
  __tile_apply("mov.b128", q, halves);
  __tile_apply("st.global.b128", Out, q);
}

int main() {
  if (!have_gpu("memory"))
    return 0;
  std::vector<uint32_t> in(16), want(16);
  for (int i = 0; i < 16; ++i) {
    in[i] = 0x01000000u * i + 17u * i;
    want[i] = in[i] + 1;
  }
  uint32_t *dIn = upload(in), *dOut = upload(std::vector<uint32_t>(16));
  vectors<<<1, 1>>>(dIn, dOut);
  expect_bits("ld.global.v4 / st.shared.v4 / ld.shared.v2 / add / st.global.v4",
              download(dOut, 16), want);

  std::vector<float> x = {1, 2, 3, 4}, bias = {0.5f}, out(8, -1.0f);
  float *dX = upload(x), *dB = upload(bias), *dO = upload(out);
  views<<<1, 1>>>(dO, dX, dB);
  std::vector<float> fwant = {1.5f, -1, 2.5f, -1, 3.5f, -1, 4.5f, -1};
  expect_bits("broadcast view + gapped destination", download(dO, 8), fwant);
  std::vector<unsigned __int128> w(4), wantW(4);
  for (int i = 0; i < 4; ++i) {
    uint64_t lo = 0xfffffffffffffff0ull + i, hi = 0x0123456789abcdefull * (i + 1);
    w[i] = (static_cast<unsigned __int128>(hi) << 64) | lo;
    wantW[i] = (static_cast<unsigned __int128>(hi + 1) << 64) | (lo + 1); // no carry between halves
  }
  unsigned __int128 *dW = upload(w), *dWOut = upload(std::vector<unsigned __int128>(4, 0));
  wide<<<1, 1>>>(dW, dWOut);
  expect_bits("ld/st.global.b128 and mov.b128 pack/unpack", download(dWOut, 4), wantW);
  return finish("memory");
}
