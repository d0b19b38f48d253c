//===- tileapply/host.h - Host-side helpers for examples and tests -*- C++ -*-===//
//
// Small conveniences for the host half of a tileapply program: turning arrays
// of float into packed `.f16x2` / `.bf16x2` words and back, comparing results
// with a tolerance, reporting PASS / FAIL, and (only when compiled as CUDA) a
// CUDA error-check macro and a launch in thread block clusters. Host code
// only: nothing here runs on the device.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_HOST_H
#define TILEAPPLY_HOST_H

#include "packed.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace tile {
namespace host {

// ---- packing arrays ------------------------------------------------------------------

namespace detail {
// Pairs of floats <-> 32-bit words, whatever the 16-bit lane format: value 2k
// goes to the low lane of word k, value 2k+1 to the high lane.
template <class Pack> std::vector<uint32_t> pack_pairs(const float *v, size_t n, Pack pack) {
  std::vector<uint32_t> out((n + 1) / 2);
  for (size_t k = 0; k < out.size(); ++k) out[k] = pack(v[2 * k], 2 * k + 1 < n ? v[2 * k + 1] : 0.0f);
  return out;
}
template <class Lo, class Hi> std::vector<float> unpack_pairs(const uint32_t *w, size_t n, Lo lo, Hi hi) {
  std::vector<float> out(2 * n);
  for (size_t k = 0; k < n; ++k) {
    out[2 * k] = lo(w[k]);
    out[2 * k + 1] = hi(w[k]);
  }
  return out;
}
} // namespace detail

/// Packs `n` floats into `(n + 1) / 2` `.f16x2` words: value 2k goes to the low
/// half of word k, value 2k+1 to the high half (an odd tail is padded with +0).
inline std::vector<uint32_t> pack_f16x2(const float *v, size_t n) {
  return detail::pack_pairs(v, n, [](float a, float b) { return packed::f16x2(a, b); });
}
inline std::vector<uint32_t> pack_f16x2(const std::vector<float> &v) { return pack_f16x2(v.data(), v.size()); }

/// Unpacks `n` `.f16x2` words into `2 n` floats, low half first.
inline std::vector<float> unpack_f16x2(const uint32_t *w, size_t n) {
  return detail::unpack_pairs(
      w, n, [](uint32_t x) { return packed::f16x2_lo(x); }, [](uint32_t x) { return packed::f16x2_hi(x); });
}
inline std::vector<float> unpack_f16x2(const std::vector<uint32_t> &w) { return unpack_f16x2(w.data(), w.size()); }

/// The `.bf16x2` counterparts of pack_f16x2 / unpack_f16x2.
inline std::vector<uint32_t> pack_bf16x2(const float *v, size_t n) {
  return detail::pack_pairs(v, n, [](float a, float b) { return packed::bf16x2(a, b); });
}
inline std::vector<uint32_t> pack_bf16x2(const std::vector<float> &v) { return pack_bf16x2(v.data(), v.size()); }
inline std::vector<float> unpack_bf16x2(const uint32_t *w, size_t n) {
  return detail::unpack_pairs(
      w, n, [](uint32_t x) { return packed::bf16x2_lo(x); }, [](uint32_t x) { return packed::bf16x2_hi(x); });
}
inline std::vector<float> unpack_bf16x2(const std::vector<uint32_t> &w) { return unpack_bf16x2(w.data(), w.size()); }

// ---- comparing ------------------------------------------------------------------------

/// True when `got` is within `atol + rtol * |want|` of `want`. Two NaNs match;
/// infinities match only the same infinity.
inline bool is_close(float got, float want, float atol = 0.0f, float rtol = 0.0f) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

/// Compares `n` values element by element (see `is_close`), prints the first few
/// mismatches to stderr prefixed with `what`, and returns true when all match.
inline bool all_close(const float *got, const float *want, size_t n, float atol = 0.0f, float rtol = 0.0f,
                      const char *what = "result") {
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    if (is_close(got[i], want[i], atol, rtol)) continue;
    if (bad < 8)
      std::fprintf(stderr, "%s[%zu]: got %.9g, want %.9g\n", what, i, static_cast<double>(got[i]),
                   static_cast<double>(want[i]));
    ++bad;
  }
  if (bad) std::fprintf(stderr, "%s: %zu of %zu values differ\n", what, bad, n);
  return bad == 0;
}
inline bool all_close(const std::vector<float> &got, const std::vector<float> &want, float atol = 0.0f,
                      float rtol = 0.0f, const char *what = "result") {
  if (got.size() != want.size()) {
    std::fprintf(stderr, "%s: got %zu values, want %zu\n", what, got.size(), want.size());
    return false;
  }
  return all_close(got.data(), want.data(), got.size(), atol, rtol, what);
}

/// Prints "PASS <name>" or "FAIL <name>" on stdout and returns the process
/// exit status to use (0 / 1): `return tile::host::report(ok, "packed_add");`
inline int report(bool ok, const char *name) {
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", name);
  std::fflush(stdout);
  return ok ? 0 : 1;
}

} // namespace host
} // namespace tile

// ---- CUDA error checks and cluster launches (CUDA translation units only) ----------------
#if defined(__CUDACC__) || defined(__CUDA__)
/// Evaluates a CUDA runtime call; on failure prints the call, its location and
/// CUDA's message, prints "FAIL", and exits with status 1.
#define TILEAPPLY_CUDA_CHECK(call)                                                                                     \
  do {                                                                                                                 \
    cudaError_t tileapply_err_ = (call);                                                                               \
    if (tileapply_err_ != cudaSuccess) {                                                                               \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,                                   \
                   cudaGetErrorString(tileapply_err_), cudaGetErrorName(tileapply_err_));                              \
      std::printf("FAIL\n");                                                                                           \
      std::exit(1);                                                                                                    \
    }                                                                                                                  \
  } while (0)

namespace tile {
namespace host {

/// Launches `kernel(args...)` on `grid` blocks of `block` threads, grouped in
/// thread block clusters of `cluster` blocks, with `smem` bytes of dynamic
/// shared memory, on `stream`; returns what cudaLaunchKernelEx returns.
/// clang 22 parses `__cluster_dims__` but does not lower it, so a kernel
/// marked only with it runs without a cluster: launch it through here.
///   TILEAPPLY_CUDA_CHECK(tile::host::launch_in_clusters(k, dim3(8), dim3(128), dim3(2), 0, 0, out));
template <class... Params, class... Args>
cudaError_t launch_in_clusters(void (*kernel)(Params...), dim3 grid, dim3 block, dim3 cluster, size_t smem,
                               cudaStream_t stream, Args &&...args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  cudaLaunchAttribute attr = {};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = cluster.x;
  attr.val.clusterDim.y = cluster.y;
  attr.val.clusterDim.z = cluster.z;
  config.attrs = &attr;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Args &&>(args)...);
}

} // namespace host
} // namespace tile
#endif

#endif // TILEAPPLY_HOST_H
