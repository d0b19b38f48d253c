// griddepcontrol with programmatic dependent launch: the primary grid lets
// its dependent start early (griddepcontrol.launch_dependents, first thing),
// then writes its output; the secondary grid, launched with
// cudaLaunchKernelEx and cudaLaunchAttributeProgrammaticStreamSerialization,
// does work of its own first, then griddepcontrol.wait (which returns once the
// primary grid has completed and its memory is visible) and reads the
// primary's output. Three rounds over one pair of buffers; each round's
// secondary output must come from that round's primary values. Exact.
#include <tileapply/tile.h>
#include "gpu_test.h"

using namespace gpu_test;

constexpr int N = 1 << 16, Threads = 256;

__global__ void primary(uint32_t *a, uint32_t round) {
  __tile_apply("griddepcontrol.launch_dependents");
  const int i = blockIdx.x * Threads + threadIdx.x;
  // Some work per element, so the dependent really starts before this ends.
  uint32_t v = uint32_t(i) ^ round;
  for (int k = 0; k < 64; ++k)
    v = v * 1664525u + 1013904223u;
  a[i] = v;
}

__global__ void secondary(const uint32_t *a, uint32_t *b, uint32_t *own, uint32_t round) {
  const int i = blockIdx.x * Threads + threadIdx.x;
  own[i] = uint32_t(i) * 3u + round; // independent of the primary
  __tile_apply("griddepcontrol.wait");
  b[i] = a[i] + round;
}

int main() {
  if (!have_gpu("pdl"))
    return 0;
  uint32_t *dA = upload(std::vector<uint32_t>(N, 0));
  uint32_t *dB = upload(std::vector<uint32_t>(N, 0));
  uint32_t *dOwn = upload(std::vector<uint32_t>(N, 0));
  cudaStream_t stream;
  TILEAPPLY_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (uint32_t round = 1; round <= 3; ++round) {
    primary<<<N / Threads, Threads, 0, stream>>>(dA, round);
    TILEAPPLY_CUDA_CHECK(cudaGetLastError());
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(N / Threads);
    config.blockDim = dim3(Threads);
    config.stream = stream;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    config.attrs = attr;
    config.numAttrs = 1;
    TILEAPPLY_CUDA_CHECK(cudaLaunchKernelEx(&config, secondary, static_cast<const uint32_t *>(dA), dB, dOwn, round));
    TILEAPPLY_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<uint32_t> want(N), wantOwn(N);
    for (int i = 0; i < N; ++i) {
      uint32_t v = uint32_t(i) ^ round;
      for (int k = 0; k < 64; ++k)
        v = v * 1664525u + 1013904223u;
      want[i] = v + round;
      wantOwn[i] = uint32_t(i) * 3u + round;
    }
    std::string what = "round " + std::to_string(round) + ": secondary reads the primary's output after griddepcontrol.wait";
    expect_bits(what.c_str(), download(dB, N), want);
    expect_bits(("round " + std::to_string(round) + ": the secondary's own work before the wait").c_str(),
                download(dOwn, N), wantOwn);
  }
  TILEAPPLY_CUDA_CHECK(cudaStreamDestroy(stream));
  return finish("pdl");
}
