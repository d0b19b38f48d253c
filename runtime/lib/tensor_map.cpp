//===- tensor_map.cpp - CUtensorMap encoding through the driver -----------===//
//
// The half of tileapply/tensor_map.h that talks to the driver: the encode()
// functions look up cuTensorMapEncode* through the CUDA runtime's driver entry
// point (cudaGetDriverEntryPointByVersion, or cudaGetDriverEntryPoint before
// CUDA 12.5) and report the driver's refusal by name. The argument checks
// (validate) stay inline in the header. Built as libtileapply_runtime.a, the
// CMake target TileApply::runtime.
//
//===----------------------------------------------------------------------===//
#include "tileapply/tensor_map.h"

namespace tile {
namespace tma {
namespace {
using detail::fail;

void *entry(const char *symbol, unsigned version, std::string &why) {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  cudaError_t e = cudaGetDriverEntryPointByVersion(symbol, &fn, version, cudaEnableDefault, &q);
#else
  (void)version;
  cudaError_t e = cudaGetDriverEntryPoint(symbol, &fn, cudaEnableDefault, &q);
#endif
  if (e != cudaSuccess) {
    why = std::string("the CUDA runtime could not reach the driver for ") + symbol + ": " + cudaGetErrorName(e) + " (" +
          cudaGetErrorString(e) + ")";
    (void)cudaGetLastError(); // do not leave the error sticky for the caller
    return nullptr;
  }
  if (!fn || q != cudaDriverEntryPointSuccess) {
    why = std::string("the driver has no ") + symbol +
          (q == cudaDriverEntryPointVersionNotSufficent ? " (driver too old)" : "");
    return nullptr;
  }
  return fn;
}

std::string driver_error(CUresult r) {
  using name_fn = CUresult(CUDAAPI *)(CUresult, const char **);
  std::string ignore;
  const char *name = nullptr, *text = nullptr;
  if (auto f = reinterpret_cast<name_fn>(entry("cuGetErrorName", 6000, ignore))) f(r, &name);
  if (auto f = reinterpret_cast<name_fn>(entry("cuGetErrorString", 6000, ignore))) f(r, &text);
  std::string s = name ? name : "CUresult " + std::to_string(int(r));
  if (text) s += std::string(" (") + text + ")";
  return s;
}

/// What an encoder returns for the driver's answer `r` from `fn_name`.
status driver_status(const char *fn_name, CUresult r) {
  if (r == CUDA_SUCCESS) return status{};
  status s = fail(std::string(fn_name) + " refused the map: " + driver_error(r));
  s.driver = r;
  return s;
}

/// The per-dimension arrays every encoder passes, in the driver's types:
/// globalDim, globalStrides (dims 1 .. rank-1) and elementStrides.
struct driver_dims {
  cuuint64_t dims[5] = {}, strides[4] = {};
  cuuint32_t element_strides[5] = {};
  template <class Map> explicit driver_dims(const Map &t) {
    for (unsigned i = 0; i < t.rank; ++i) {
      dims[i] = t.dims[i];
      element_strides[i] = t.element_strides[i];
      if (i + 1 < t.rank) strides[i] = t.strides[i];
    }
  }
};

// The driver functions' types (as cudaTypedefs.h spells them for 12.0).
using encode_tiled_fn = CUresult(CUDAAPI *)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                            const cuuint64_t *, const cuuint32_t *, const cuuint32_t *,
                                            CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                                            CUtensorMapFloatOOBfill);
using encode_im2col_fn = CUresult(CUDAAPI *)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                             const cuuint64_t *, const int *, const int *, cuuint32_t, cuuint32_t,
                                             const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                             CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

status check_out(const CUtensorMap *out) {
  if (!out) return fail("the CUtensorMap pointer is null");
  if (reinterpret_cast<uintptr_t>(out) % 64) return fail("the CUtensorMap object must be 64-byte aligned");
  return status{};
}

} // namespace

status encode(CUtensorMap *out, const tiled &t) {
  if (status s = check_out(out); !s) return s;
  if (status s = validate(t); !s) return s;
  std::string why;
  auto fn = reinterpret_cast<encode_tiled_fn>(entry("cuTensorMapEncodeTiled", 12000, why));
  if (!fn) return fail(why);
  const driver_dims d(t);
  cuuint32_t box[5] = {};
  for (unsigned i = 0; i < t.rank; ++i) box[i] = t.box[i];
  return driver_status("cuTensorMapEncodeTiled",
                       fn(out, t.dtype, t.rank, const_cast<void *>(t.address), d.dims, d.strides, box,
                          d.element_strides, t.interleave, t.swizzle, t.l2_promotion, t.oob_fill));
}

status encode(CUtensorMap *out, const im2col &t) {
  if (status s = check_out(out); !s) return s;
  if (status s = validate(t); !s) return s;
  std::string why;
  auto fn = reinterpret_cast<encode_im2col_fn>(entry("cuTensorMapEncodeIm2col", 12000, why));
  if (!fn) return fail(why);
  const driver_dims d(t);
  return driver_status("cuTensorMapEncodeIm2col",
                       fn(out, t.dtype, t.rank, const_cast<void *>(t.address), d.dims, d.strides, t.lower_corner,
                          t.upper_corner, t.channels_per_pixel, t.pixels_per_column, d.element_strides, t.interleave,
                          t.swizzle, t.l2_promotion, t.oob_fill));
}

#if CUDA_VERSION >= 12080
status encode(CUtensorMap *out, const im2col_wide &t) {
  if (status s = check_out(out); !s) return s;
  if (status s = validate(t); !s) return s;
  using encode_wide_fn = CUresult(CUDAAPI *)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                             const cuuint64_t *, int, int, cuuint32_t, cuuint32_t, const cuuint32_t *,
                                             CUtensorMapInterleave, CUtensorMapIm2ColWideMode, CUtensorMapSwizzle,
                                             CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  std::string why;
  auto fn = reinterpret_cast<encode_wide_fn>(entry("cuTensorMapEncodeIm2colWide", 12080, why));
  if (!fn) return fail(why);
  const driver_dims d(t);
  return driver_status("cuTensorMapEncodeIm2colWide",
                       fn(out, t.dtype, t.rank, const_cast<void *>(t.address), d.dims, d.strides, t.lower_corner_width,
                          t.upper_corner_width, t.channels_per_pixel, t.pixels_per_column, d.element_strides,
                          t.interleave, t.mode, t.swizzle, t.l2_promotion, t.oob_fill));
}
#endif

} // namespace tma
} // namespace tile
