//===- bench/stream/emulate.cpp - The stream kernels on the host ----------===//
//
// For bench/common/fake_cudart.cpp: runs the stream benchmark's kernels on
// the host with the same grid arithmetic as kernels.cuh (kBlock threads, four
// rows each, a block's width apart, rows past the end switched off), so that
// stream.cu's plumbing can be run end to end without a GPU (test/lit/bench).
// The sums come from the host reference itself: this checks the harness, not
// the arithmetic (the PTX checks and the GPU run do that).
//
// FAKE_CUDA_BREAK=NAME corrupts one word of the output of the kernel whose
// mangled name contains NAME (the last row it writes), to test the FAIL path.
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime.h>

#include "data.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {
constexpr unsigned kBlock = 256;        // kernels.cuh: stream::kBlock
constexpr unsigned kRowsPerThread = 4;  // kernels.cuh: stream::kRowsPerThread

bool broken(const char *kernel) {
  const char *b = std::getenv("FAKE_CUDA_BREAK");
  return b && *b && std::strstr(kernel, b);
}
} // namespace

extern "C" bool fake_cuda_emulate(const char *kernel, dim3 grid, dim3 block, void **args) {
  if (std::strstr(kernel, "fill_inputs")) {
    uint32_t *buf = *static_cast<uint32_t **>(args[0]);
    const uint64_t n = *static_cast<uint64_t *>(args[1]);
    for (uint64_t i = 0; i < n; ++i)
      buf[i] = stream::input_word(i);
    return true;
  }
  if (!std::strstr(kernel, "stream_add_"))
    return false;
  if (block.x != kBlock || block.y != 1 || block.z != 1 || grid.y != 1 || grid.z != 1)
    return false;
  uint32_t *D = *static_cast<uint32_t **>(args[0]);
  const uint32_t *A = *static_cast<const uint32_t **>(args[1]);
  const uint32_t *B = *static_cast<const uint32_t **>(args[2]);
  const uint64_t rows = *static_cast<uint64_t *>(args[3]);
  const float *hv = stream::half_values().data();
  uint64_t last = UINT64_MAX;
  for (uint64_t bx = 0; bx < grid.x; ++bx)
    for (unsigned r = 0; r < kRowsPerThread; ++r)
      for (unsigned t = 0; t < kBlock; ++t) {
        const uint64_t row = bx * kBlock * kRowsPerThread + r * kBlock + t;
        if (row >= rows)
          continue;
        for (unsigned w = 0; w < 4; ++w)
          D[4 * row + w] = stream::add_f16x2_ref(A[4 * row + w], B[4 * row + w], hv);
        last = row;
      }
  if (broken(kernel) && last != UINT64_MAX)
    D[4 * last + 3] ^= 0x8000u;
  return true;
}
