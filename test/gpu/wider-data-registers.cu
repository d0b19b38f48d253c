// 8- and 16-bit loads and stores through 32- and 64-bit integer register
// tensors (ld/st data in a register wider than the type): ld.s8/.s16 must
// sign-extend, ld.u8/.u16/.b8 zero-extend, st.b8/.b16 store the low bits.
// Every byte pattern, checked bit for bit against the host.
#include <tileapply/tile.h>
#include "gpu_test.h"
#include <cstdint>
#include <random>

using namespace gpu_test;
constexpr int R = 4;          // repeats per thread
constexpr int Threads = 256;  // threads: 1024 bytes cover every pattern 4 times
constexpr int Total = R * Threads;

__global__ void wider(const uint8_t *B, const uint16_t *H, int32_t *S8, uint32_t *U8,
                      int64_t *S16, uint64_t *U16, uint8_t *StB, uint16_t *StH) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int32_t s8[R][1];
  uint32_t u8[R][1], b8[R][1];
  int64_t s16[R][1];
  uint64_t u16[R][1];
  uint32_t h16[R][1];
  auto bytes = tile::global<const uint8_t, R, 1>(B + t * R);
  auto sbytes = tile::global<const int8_t, R, 1>(reinterpret_cast<const int8_t *>(B) + t * R);
  auto halves = tile::global<const uint16_t, R, 1>(H + t * R);
  auto shalves = tile::global<const int16_t, R, 1>(reinterpret_cast<const int16_t *>(H) + t * R);
  __tile_apply("ld.global.s8", s8, sbytes);
  __tile_apply("ld.global.u8", u8, bytes);
  __tile_apply("ld.global.b8", b8, bytes);
  __tile_apply("ld.global.s16", s16, shalves);
  __tile_apply("ld.global.u16", u16, halves);
  __tile_apply("ld.global.b16", h16, halves);
  __tile_apply("st.global.b32", tile::global<int32_t, R, 1>(S8 + t * R), s8);
  __tile_apply("st.global.b32", tile::global<uint32_t, R, 1>(U8 + t * R), u8);
  __tile_apply("st.global.b64", tile::global<int64_t, R, 1>(S16 + t * R), s16);
  __tile_apply("st.global.b64", tile::global<uint64_t, R, 1>(U16 + t * R), u16);
  // Stores of the low bits: put garbage in the high bits first.
  __tile_apply("xor.b32", b8, b8, 0xABCDEF00u);
  __tile_apply("xor.b32", h16, h16, 0x5A5A0000u);
  __tile_apply("st.global.b8", tile::global<uint8_t, R, 1>(StB + t * R), b8);
  __tile_apply("st.global.b16", tile::global<uint16_t, R, 1>(StH + t * R), h16);
}

int main() {
  if (!have_gpu("wider-data-registers"))
    return 0;
  std::mt19937 rng(8);
  std::vector<uint8_t> B(Total);
  std::vector<uint16_t> H(Total);
  for (int i = 0; i < Total; ++i) {
    B[i] = static_cast<uint8_t>(i);  // every byte, four times
    H[i] = static_cast<uint16_t>(i % 4 == 0 ? 0x8000 + i : rng());
  }
  std::vector<int32_t> wS8(Total);
  std::vector<uint32_t> wU8(Total);
  std::vector<int64_t> wS16(Total);
  std::vector<uint64_t> wU16(Total);
  for (int i = 0; i < Total; ++i) {
    wS8[i] = static_cast<int8_t>(B[i]);
    wU8[i] = B[i];
    wS16[i] = static_cast<int16_t>(H[i]);
    wU16[i] = H[i];
  }
  uint8_t *dB = upload(B);
  uint16_t *dH = upload(H);
  int32_t *dS8 = upload(std::vector<int32_t>(Total, 0x7F7F7F7F));
  uint32_t *dU8 = upload(std::vector<uint32_t>(Total, 0x7F7F7F7F));
  int64_t *dS16 = upload(std::vector<int64_t>(Total, 0x7F7F7F7F7F7F7F7F));
  uint64_t *dU16 = upload(std::vector<uint64_t>(Total, 0x7F7F7F7F7F7F7F7F));
  uint8_t *dStB = upload(std::vector<uint8_t>(Total, 0x11));
  uint16_t *dStH = upload(std::vector<uint16_t>(Total, 0x1111));
  wider<<<Threads / 128, 128>>>(dB, dH, dS8, dU8, dS16, dU16, dStB, dStH);
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  expect_bits("ld.s8 into int32_t sign-extends", download(dS8, Total), wS8);
  expect_bits("ld.u8 into uint32_t zero-extends", download(dU8, Total), wU8);
  expect_bits("ld.s16 into int64_t sign-extends", download(dS16, Total), wS16);
  expect_bits("ld.u16 into uint64_t zero-extends", download(dU16, Total), wU16);
  expect_bits("st.b8 from uint32_t stores the low byte", download(dStB, Total), B);
  expect_bits("st.b16 from uint32_t stores the low half", download(dStH, Total), H);
  return finish("wider-data-registers");
}
