// tile::pred and tile::preserve_dst on the GPU: a false scalar predicate with
// preserve_dst leaves the destination untouched; a predicate tensor guards
// each repeat (stores are skipped where it is zero).
#include <tileapply/tile.h>
#include "gpu_test.h"

using namespace gpu_test;
constexpr int N = 8;

__global__ void scalar_pred(tile::global<int, N, 1> X, bool on) {
  int a[N][1], d[N][1];
  __tile_apply("ld.global.s32", a, X);
  __tile_apply("ld.global.s32", d, X);
  __tile_apply("add.s32", d, a, 1000, tile::pred(on), tile::preserve_dst);
  __tile_apply("st.global.s32", X, d);
}

__global__ void tensor_pred(tile::global<float, N, 1> X, tile::global<const uint32_t, N, 1> M) {
  float v[N][1];
  uint32_t m[N][1];
  __tile_apply("ld.global.f32", v, X);
  __tile_apply("ld.global.u32", m, M);
  __tile_apply("neg.f32", v, v);
  __tile_apply("st.global.f32", X, v, tile::pred(m));
}

int main() {
  if (!have_gpu("predication"))
    return 0;
  std::vector<int> x = {1, 2, 3, 4, 5, 6, 7, 8};
  int *dX = upload(x);
  scalar_pred<<<1, 1>>>(dX, false);
  expect_bits("pred(false) + preserve_dst keeps the destination", download(dX, N), x);
  scalar_pred<<<1, 1>>>(dX, true);
  std::vector<int> plus = x;
  for (int &v : plus)
    v += 1000;
  expect_bits("pred(true) applies every repeat", download(dX, N), plus);

  std::vector<float> f = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<uint32_t> m = {1, 0, 1, 0, 0, 0, 7, 1};
  float *dF = upload(f);
  uint32_t *dM = upload(m);
  tensor_pred<<<1, 1>>>(dF, dM);
  std::vector<float> want = f;
  for (int i = 0; i < N; ++i)
    if (m[i])
      want[i] = -f[i];
  expect_bits("pred(tensor) guards each repeat's store", download(dF, N), want);
  return finish("predication");
}
