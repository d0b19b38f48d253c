//===- gpu_test.h - A tiny harness for the self-checking GPU tests --------===//
//
// Each test/gpu/*.cu program runs its kernels once on the GPU, compares every
// output word with a value computed on the host, prints one line per check and
// "PASS <name>" / "FAIL <name>" at the end (scripts/build-gpu-tests.sh runs
// them). Where no GPU is present a program prints SKIP and exits 0, so it can
// never be mistaken for a pass by the harness (which needs a PASS line).
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_TEST_GPU_TEST_H
#define TILEAPPLY_TEST_GPU_TEST_H

#include <tileapply/host.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace gpu_test {

inline int failures = 0;

/// Copies `n` words of type T to the device and returns the device pointer.
template <class T> T *upload(const std::vector<T> &v) {
  T *d = nullptr;
  TILEAPPLY_CUDA_CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
  TILEAPPLY_CUDA_CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <class T> std::vector<T> download(const T *d, size_t n) {
  TILEAPPLY_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<T> v(n);
  TILEAPPLY_CUDA_CHECK(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

/// Bit-exact comparison of two word vectors.
template <class T>
void expect_bits(const char *what, const std::vector<T> &got, const std::vector<T> &want) {
  // The bits of a value as hex, most significant byte first (little-endian host).
  auto hex = [](const T &v) {
    std::string s = "0x";
    const unsigned char *b = reinterpret_cast<const unsigned char *>(&v);
    for (size_t k = sizeof(T); k-- > 0;) {
      char two[3];
      std::snprintf(two, sizeof two, "%02x", b[k]);
      s += two;
    }
    return s;
  };
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (i >= got.size() || std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      if (bad++ < 4)
        std::printf("  %s[%zu]: got %s, want %s\n", what, i,
                    i < got.size() ? hex(got[i]).c_str() : "(missing)", hex(want[i]).c_str());
    }
  std::printf("%s %s (%zu values)\n", bad ? "  mismatch" : "  ok      ", what, want.size());
  failures += bad != 0;
}

/// True when a GPU is present; otherwise prints SKIP for `name`.
inline bool have_gpu(const char *name) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    std::printf("SKIP %s: no CUDA device\n", name);
    return false;
  }
  return true;
}

inline int finish(const char *name) { return tile::host::report(failures == 0, name); }

} // namespace gpu_test

#endif
