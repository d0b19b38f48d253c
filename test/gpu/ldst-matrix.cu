// ldmatrix, stmatrix and movmatrix through __tile_apply (PTX ISA 9.7.14.5.15
// - 17), bit-exact:
//   ldmatrix .m8n8 .x1/.x2/.x4, with and without .trans, from .shared,
//     .shared::cta and a generic address: every register of every lane must
//     hold the elements tileapply/fragment.h's ldmatrix map names;
//   stmatrix .m8n8 .x1/.x2/.x4, with and without .trans: registers placed by
//     the stmatrix map must land at their rows and columns in shared memory;
//   movmatrix .m8n8.trans.b16: a fragment placed by the movmatrix(a) map
//     comes back as the movmatrix(d) map says;
//   round trips: ldmatrix then stmatrix (identity), .trans then .trans
//     (identity), plain then .trans (each 8 x 8 matrix transposed), and
//     ldmatrix, movmatrix on each register, stmatrix (transposed as well).
// Each lane supplies the address of one row (lane l: row l % 8 of matrix
// l / 8); rows are 24 halves apart in shared memory, so no two are adjacent
// and a wrong row address shows.
#include <tileapply/fragment.h>
#include <tileapply/tile.h>

#include "gpu_test.h"
#include "m8n8_ref.h"

#include <vector>

using namespace gpu_test;
namespace fr = tile::frag;

namespace {

constexpr int kRow = 24; // halves from one shared-memory row to the next
constexpr int kPoison = 0xDEAD;

// src: 4 matrices of 8 x 8 .b16, [m][row][col] = smem row 8m + row.
__device__ void fill(uint16_t *smem, const uint16_t *src) {
  const int l = threadIdx.x;
  for (int c = 0; c < kRow; ++c) smem[l * kRow + c] = c < 8 ? src[l * 8 + c] : kPoison;
  __syncwarp();
}
__device__ void drain(const uint16_t *smem, uint16_t *dst) {
  __syncwarp();
  const int l = threadIdx.x;
  for (int c = 0; c < 8; ++c) dst[l * 8 + c] = smem[l * kRow + c];
}

#define LD_KERNEL(NAME, OPCODE, NUM, VIEW)                                                        \
  __global__ void NAME(const uint16_t *src, uint32_t *out) {                                      \
    __shared__ alignas(16) uint16_t smem[32 * kRow];                                              \
    fill(smem, src);                                                                              \
    uint32_t r[NUM];                                                                              \
    __tile_apply(OPCODE, r, VIEW<uint16_t, 1>(&smem[threadIdx.x * kRow]));                        \
    for (int i = 0; i < NUM; ++i) out[threadIdx.x * 4 + i] = r[i];                                \
  }
LD_KERNEL(ld_x1, "ldmatrix.sync.aligned.m8n8.x1.shared.b16", 1, tile::shared)
LD_KERNEL(ld_x2, "ldmatrix.sync.aligned.m8n8.x2.shared::cta.b16", 2, tile::shared)
LD_KERNEL(ld_x4, "ldmatrix.sync.aligned.m8n8.x4.b16", 4, tile::generic)
LD_KERNEL(ld_x1_t, "ldmatrix.sync.aligned.m8n8.x1.trans.b16", 1, tile::generic)
LD_KERNEL(ld_x2_t, "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16", 2, tile::shared)
LD_KERNEL(ld_x4_t, "ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16", 4, tile::shared)

#define ST_KERNEL(NAME, OPCODE, NUM, VIEW)                                                        \
  __global__ void NAME(const uint32_t *in, uint16_t *dst) {                                       \
    __shared__ alignas(16) uint16_t smem[32 * kRow];                                              \
    for (int c = 0; c < kRow; ++c) smem[threadIdx.x * kRow + c] = kPoison;                        \
    __syncwarp();                                                                                 \
    uint32_t r[NUM];                                                                              \
    for (int i = 0; i < NUM; ++i) r[i] = in[threadIdx.x * 4 + i];                                 \
    __tile_apply(OPCODE, VIEW<uint16_t, 1>(&smem[threadIdx.x * kRow]), r);                        \
    drain(smem, dst);                                                                             \
  }
ST_KERNEL(st_x1, "stmatrix.sync.aligned.m8n8.x1.shared.b16", 1, tile::shared)
ST_KERNEL(st_x2, "stmatrix.sync.aligned.m8n8.x2.b16", 2, tile::generic)
ST_KERNEL(st_x4, "stmatrix.sync.aligned.m8n8.x4.shared::cta.b16", 4, tile::shared)
ST_KERNEL(st_x1_t, "stmatrix.sync.aligned.m8n8.x1.trans.shared::cta.b16", 1, tile::shared)
ST_KERNEL(st_x2_t, "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16", 2, tile::shared)
ST_KERNEL(st_x4_t, "stmatrix.sync.aligned.m8n8.x4.trans.b16", 4, tile::generic)

__global__ void mov_t(const uint32_t *in, uint32_t *out) {
  uint32_t d[1];
  __tile_apply("movmatrix.sync.aligned.m8n8.trans.b16", d, in[threadIdx.x]);
  out[threadIdx.x] = d[0];
}

// Round trips through registers, 4 matrices each; dst: the 4 matrices as
// stored, [m][row][col].
#define TRIP_KERNEL(NAME, LD_OPCODE, ST_OPCODE)                                                   \
  __global__ void NAME(const uint16_t *src, uint16_t *dst) {                                      \
    __shared__ alignas(16) uint16_t smem[32 * kRow];                                              \
    fill(smem, src);                                                                              \
    auto row = tile::shared<uint16_t, 1>(&smem[threadIdx.x * kRow]);                              \
    uint32_t r[4];                                                                                \
    __tile_apply(LD_OPCODE, r, row);                                                              \
    __syncwarp();                                                                                 \
    for (int c = 0; c < kRow; ++c) smem[threadIdx.x * kRow + c] = kPoison;                        \
    __syncwarp();                                                                                 \
    __tile_apply(ST_OPCODE, row, r);                                                              \
    drain(smem, dst);                                                                             \
  }
TRIP_KERNEL(trip_plain, "ldmatrix.sync.aligned.m8n8.x4.shared.b16", "stmatrix.sync.aligned.m8n8.x4.shared.b16")
TRIP_KERNEL(trip_trans_trans, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
            "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16")
TRIP_KERNEL(trip_plain_trans, "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
            "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16")
// movmatrix on each of the four registers: a view of one register per repeat
// (shape [4, 1]): four movmatrix instructions from one call.
__global__ void trip_movmatrix(const uint16_t *src, uint16_t *dst) {
  __shared__ alignas(16) uint16_t smem[32 * kRow];
  fill(smem, src);
  auto row = tile::shared<uint16_t, 1>(&smem[threadIdx.x * kRow]);
  uint32_t r[4][1], t[4][1];
  __tile_apply("ldmatrix.sync.aligned.m8n8.x4.shared.b16", tile::view<tile::shape<4>, tile::stride<1>>(r), row);
  __tile_apply("movmatrix.sync.aligned.m8n8.trans.b16", t, r);
  __syncwarp();
  for (int c = 0; c < kRow; ++c) smem[threadIdx.x * kRow + c] = kPoison;
  __syncwarp();
  __tile_apply("stmatrix.sync.aligned.m8n8.x4.shared.b16", row, tile::view<tile::shape<4>, tile::stride<1>>(t));
  drain(smem, dst);
}

// ---- host ----------------------------------------------------------------------------

using m8n8_ref::fragment_word;
using m8n8_ref::matval;
using m8n8_ref::source;

void check_ld(const char *name, void (*k)(const uint16_t *, uint32_t *), int num, bool trans) {
  const fr::layout l = fr::ldmatrix(fr::m8n8, num, trans);
  uint16_t *dS = upload(source());
  uint32_t *dO = upload(std::vector<uint32_t>(32 * 4, 0));
  k<<<1, 32>>>(dS, dO);
  const auto out = download(dO, 32 * 4);
  std::vector<uint32_t> got, want;
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < l.regs(); ++r) {
      got.push_back(out[lane * 4 + r]);
      want.push_back(fragment_word(l, lane, r));
    }
  expect_bits(name, got, want);
  TILEAPPLY_CUDA_CHECK(cudaFree(dS));
  TILEAPPLY_CUDA_CHECK(cudaFree(dO));
}

void check_st(const char *name, void (*k)(const uint32_t *, uint16_t *), int num, bool trans) {
  const fr::layout l = fr::stmatrix(fr::m8n8, num, trans);
  std::vector<uint32_t> in(32 * 4, 0);
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < l.regs(); ++r) in[lane * 4 + r] = fragment_word(l, lane, r);
  uint32_t *dI = upload(in);
  uint16_t *dO = upload(std::vector<uint16_t>(32 * 8, 0));
  k<<<1, 32>>>(dI, dO);
  const auto out = download(dO, 32 * 8);
  std::vector<uint16_t> got, want;
  for (int m = 0; m < 4; ++m)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) {
        // Matrix m's row r goes where lane address_lane(m, r) points; rows of
        // matrices beyond .num are not written (still the poison).
        got.push_back(out[l.address_lane(m, r) * 8 + c]);
        want.push_back(m < num ? matval(m, r, c) : uint16_t(kPoison));
      }
  expect_bits(name, got, want);
  TILEAPPLY_CUDA_CHECK(cudaFree(dI));
  TILEAPPLY_CUDA_CHECK(cudaFree(dO));
}

void check_movmatrix() {
  const fr::layout a = fr::movmatrix(fr::operand::a), d = fr::movmatrix(fr::operand::d);
  std::vector<uint32_t> in(32), want(32);
  for (int lane = 0; lane < 32; ++lane) {
    in[lane] = fragment_word(a, lane, 0);
    want[lane] = fragment_word(d, lane, 0);
  }
  uint32_t *dI = upload(in), *dO = upload(std::vector<uint32_t>(32, 0));
  mov_t<<<1, 32>>>(dI, dO);
  expect_bits("movmatrix.m8n8.trans.b16", download(dO, 32), want);
  TILEAPPLY_CUDA_CHECK(cudaFree(dI));
  TILEAPPLY_CUDA_CHECK(cudaFree(dO));
}

void check_trip(const char *name, void (*k)(const uint16_t *, uint16_t *), bool transposed) {
  uint16_t *dS = upload(source()), *dO = upload(std::vector<uint16_t>(32 * 8, 0));
  k<<<1, 32>>>(dS, dO);
  const auto out = download(dO, 32 * 8);
  std::vector<uint16_t> want(32 * 8);
  for (int m = 0; m < 4; ++m)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) want[(8 * m + r) * 8 + c] = transposed ? matval(m, c, r) : matval(m, r, c);
  expect_bits(name, out, want);
  TILEAPPLY_CUDA_CHECK(cudaFree(dS));
  TILEAPPLY_CUDA_CHECK(cudaFree(dO));
}

} // namespace

int main() {
  if (!have_gpu("ldst-matrix"))
    return 0;
  check_ld("ldmatrix.m8n8.x1.shared", ld_x1, 1, false);
  check_ld("ldmatrix.m8n8.x2.shared::cta", ld_x2, 2, false);
  check_ld("ldmatrix.m8n8.x4 (generic address)", ld_x4, 4, false);
  check_ld("ldmatrix.m8n8.x1.trans (generic address)", ld_x1_t, 1, true);
  check_ld("ldmatrix.m8n8.x2.trans.shared", ld_x2_t, 2, true);
  check_ld("ldmatrix.m8n8.x4.trans.shared::cta", ld_x4_t, 4, true);
  check_st("stmatrix.m8n8.x1.shared", st_x1, 1, false);
  check_st("stmatrix.m8n8.x2 (generic address)", st_x2, 2, false);
  check_st("stmatrix.m8n8.x4.shared::cta", st_x4, 4, false);
  check_st("stmatrix.m8n8.x1.trans.shared::cta", st_x1_t, 1, true);
  check_st("stmatrix.m8n8.x2.trans.shared", st_x2_t, 2, true);
  check_st("stmatrix.m8n8.x4.trans (generic address)", st_x4_t, 4, true);
  check_movmatrix();
  check_trip("round trip ldmatrix.x4 -> stmatrix.x4 (identity)", trip_plain, false);
  check_trip("round trip ldmatrix.x4.trans -> stmatrix.x4.trans (identity)", trip_trans_trans, false);
  check_trip("round trip ldmatrix.x4 -> stmatrix.x4.trans (transposed)", trip_plain_trans, true);
  check_trip("round trip ldmatrix.x4 -> 4 x movmatrix -> stmatrix.x4 (transposed)", trip_movmatrix, true);
  return finish("ldst-matrix");
}
