// packed_add: sixteen half additions as eight add.rn.f16x2 instructions.
//
// Each thread-owned register tensor a[8][1] holds eight 32-bit words; every
// word carries two halves (lane 0 in the low 16 bits). The opcode decides that
// the words are pairs of halves: tileapply never packs or unpacks.
//
// Build (from the repository root, after scripts/setup.sh):
//   /usr/lib/llvm-22/bin/clang++ -std=c++20 -x cuda --cuda-gpu-arch=sm_90a \
//     -Wno-unknown-cuda-version --cuda-path=/usr/local/cuda -O2 \
//     -fplugin=build/lib/TileApply.so -I include -I runtime/include \
//     examples/packed_add.cu -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt \
//     -pthread -o packed_add
//
// The PTX holds exactly one instruction per repeat (checked by scripts/demo.sh):
// expect-ptx: ld.global.b32 16
// expect-ptx: add.rn.f16x2 8
// expect-ptx: st.global.b32 8
#include <tileapply/tile.h>
#include <tileapply/host.h>

#include <cstdio>
#include <vector>

__global__ void packed_add(tile::global<const uint32_t, 8, 1> A,
                           tile::global<const uint32_t, 8, 1> B,
                           tile::global<uint32_t, 8, 1> Out) {
  uint32_t a[8][1], b[8][1];             // register tensors owned by this thread
  __tile_apply("ld.global.b32", a, A);   // eight loads
  __tile_apply("ld.global.b32", b, B);   // eight loads
  __tile_apply("add.rn.f16x2", a, a, b); // eight add.rn.f16x2, sixteen halves
  __tile_apply("st.global.b32", Out, a); // eight stores
}

int main() {
  // x = 0, 1, ..., 15 and y = 2.0 everywhere, as halves packed two per word.
  std::vector<float> x(16), y(16, 2.0f), want(16);
  for (int i = 0; i < 16; ++i) {
    x[i] = static_cast<float>(i);
    want[i] = x[i] + y[i]; // exact in half precision
  }
  std::vector<uint32_t> hx = tile::host::pack_f16x2(x);
  std::vector<uint32_t> hy(8, tile::packed::f16x2(2.0f)); // 0x40004000
  std::vector<uint32_t> hout(8, 0xFFFFFFFFu);
  const size_t bytes = 8 * sizeof(uint32_t);

  uint32_t *dA = nullptr, *dB = nullptr, *dOut = nullptr;
  TILEAPPLY_CUDA_CHECK(cudaMalloc(&dA, bytes));
  TILEAPPLY_CUDA_CHECK(cudaMalloc(&dB, bytes));
  TILEAPPLY_CUDA_CHECK(cudaMalloc(&dOut, bytes));
  TILEAPPLY_CUDA_CHECK(cudaMemcpy(dA, hx.data(), bytes, cudaMemcpyHostToDevice));
  TILEAPPLY_CUDA_CHECK(cudaMemcpy(dB, hy.data(), bytes, cudaMemcpyHostToDevice));
  TILEAPPLY_CUDA_CHECK(cudaMemcpy(dOut, hout.data(), bytes, cudaMemcpyHostToDevice));

  packed_add<<<1, 1>>>(tile::global<const uint32_t, 8, 1>(dA),
                       tile::global<const uint32_t, 8, 1>(dB),
                       tile::global<uint32_t, 8, 1>(dOut));
  TILEAPPLY_CUDA_CHECK(cudaGetLastError());
  TILEAPPLY_CUDA_CHECK(cudaDeviceSynchronize());
  TILEAPPLY_CUDA_CHECK(cudaMemcpy(hout.data(), dOut, bytes, cudaMemcpyDeviceToHost));
  TILEAPPLY_CUDA_CHECK(cudaFree(dA));
  TILEAPPLY_CUDA_CHECK(cudaFree(dB));
  TILEAPPLY_CUDA_CHECK(cudaFree(dOut));

  std::vector<float> got = tile::host::unpack_f16x2(hout);
  bool ok = tile::host::all_close(got, want, 0.0f, 0.0f, "packed_add");
  for (int k = 0; k < 8; ++k) {
    uint32_t expect = tile::packed::f16x2(want[2 * k], want[2 * k + 1]);
    std::printf("Out[%d] = 0x%08x  (%g, %g)%s\n", k, hout[k], got[2 * k],
                got[2 * k + 1], hout[k] == expect ? "" : "  <-- wrong");
    ok = ok && hout[k] == expect;
  }
  return tile::host::report(ok, "packed_add");
}
