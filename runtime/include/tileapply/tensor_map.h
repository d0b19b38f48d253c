//===- tileapply/tensor_map.h - CUtensorMap encoding on the host -*- C++ -*-===//
//
// Builds the CUtensorMap a cp.async.bulk.tensor (TMA) instruction reads:
// tiled, im2col and im2col-wide (the .im2col::w / .im2col::w::128 load modes
// of sm_100), rank 1 to 5, every data type, swizzle, interleave, L2 promotion
// and out-of-bounds fill mode. Host code only.
//
// The driver functions cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col /
// cuTensorMapEncodeIm2colWide (CUDA 12.8 and newer) are
// reached through cudaGetDriverEntryPointByVersion, the driver entry point
// the CUDA runtime exposes, so a program links only cudart_static (no
// -lcuda). Every argument is checked first against the rules cuda.h documents
// for those functions; a violation comes back as a sentence naming the
// argument, and the driver is not called. When the driver refuses anyway (a
// rule cuda.h does not state, a device that lacks a mode, no driver at all),
// its error name and text come back. Nothing here aborts or throws.
//
// The checks (validate) are inline here; the encoders, which reach the
// driver, are in the runtime library: link TileApply::runtime (CMake), or
// <prefix>/lib/libtileapply_runtime.a with cudart_static.
//
//   #include <tileapply/tensor_map.h>
//
//   tile::tma::tiled t;
//   t.dtype = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
//   t.rank = 2;
//   t.address = d_a;                       // 16-byte aligned global memory
//   t.dims[0] = K; t.dims[1] = M;          // innermost first, in elements
//   t.strides[0] = K * 2;                  // bytes, dims 1 .. rank-1
//   t.box[0] = 64; t.box[1] = 128;         // 64 bf16 = 128 bytes: fits 128B swizzle
//   t.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
//   CUtensorMap map;
//   if (auto s = tile::tma::encode(&map, t); !s) fprintf(stderr, "%s\n", s.message.c_str());
//
// Sources: the documentation of cuTensorMapEncodeTiled,
// cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide in CUDA 13.0's
// cuda.h; cudaGetDriverEntryPointByVersion in cuda_runtime_api.h.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_TENSOR_MAP_H
#define TILEAPPLY_TENSOR_MAP_H

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <stdint.h>
#include <string>

namespace tile {
namespace tma {

/// The outcome of a check or an encode: ok, or a message saying why not.
struct status {
  bool ok = true;
  std::string message;          ///< empty when ok
  CUresult driver = CUDA_SUCCESS; ///< the driver's result when it was called and refused
  explicit operator bool() const { return ok; }
};

/// cuTensorMapEncodeTiled's arguments. Arrays are indexed innermost first;
/// only the first `rank` entries (rank - 1 for strides) are read.
struct tiled {
  CUtensorMapDataType dtype = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  uint32_t rank = 0;
  const void *address = nullptr;
  uint64_t dims[5] = {};              ///< globalDim, in elements
  uint64_t strides[4] = {};           ///< globalStrides of dims 1 .. rank-1, in bytes
  uint32_t box[5] = {};               ///< boxDim, in elements
  uint32_t element_strides[5] = {1, 1, 1, 1, 1};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapL2promotion l2_promotion = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  CUtensorMapFloatOOBfill oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

/// cuTensorMapEncodeIm2col's arguments (rank 3 to 5: NWC, NHWC, NDHWC with C
/// innermost). Corners are the {D, H, W} offsets, innermost (W) first, rank - 2
/// of them.
struct im2col {
  CUtensorMapDataType dtype = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  uint32_t rank = 0;
  const void *address = nullptr;
  uint64_t dims[5] = {};
  uint64_t strides[4] = {};
  int lower_corner[3] = {};
  int upper_corner[3] = {};
  uint32_t channels_per_pixel = 0;
  uint32_t pixels_per_column = 0;
  uint32_t element_strides[5] = {1, 1, 1, 1, 1};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapL2promotion l2_promotion = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  CUtensorMapFloatOOBfill oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

#if CUDA_VERSION >= 12080
/// cuTensorMapEncodeIm2colWide's arguments (rank 3 to 5, NWC / NHWC / NDHWC):
/// the box spans W only (its D and H sizes are 1), between the two width
/// offsets. Devices of compute capability 10.0 and newer; `mode` picks
/// .im2col::w (pixels_per_column elements along W) or .im2col::w::128.
struct im2col_wide {
  CUtensorMapDataType dtype = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  uint32_t rank = 0;
  const void *address = nullptr;
  uint64_t dims[5] = {};
  uint64_t strides[4] = {};
  int lower_corner_width = 0;
  int upper_corner_width = 0;
  uint32_t channels_per_pixel = 0;
  uint32_t pixels_per_column = 0; ///< ignored with CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128
  uint32_t element_strides[5] = {1, 1, 1, 1, 1};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapIm2ColWideMode mode = CU_TENSOR_MAP_IM2COL_WIDE_MODE_W;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  CUtensorMapL2promotion l2_promotion = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  CUtensorMapFloatOOBfill oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};
#endif

/// Bits one element of `t` occupies in global memory: 4 for 16U4_ALIGN8B,
/// 8 for the 16-byte-aligned packed types (16 values in 16 bytes); 0 when
/// `t` is not a CUtensorMapDataType.
inline int element_bits(CUtensorMapDataType t) {
  switch (t) {
  case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 8;
  case CU_TENSOR_MAP_DATA_TYPE_UINT16:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
  case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 16;
  case CU_TENSOR_MAP_DATA_TYPE_UINT32:
  case CU_TENSOR_MAP_DATA_TYPE_INT32:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
  case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
  case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return 32;
  case CU_TENSOR_MAP_DATA_TYPE_UINT64:
  case CU_TENSOR_MAP_DATA_TYPE_INT64:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 64;
  case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B: return 4;
  case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B:
  case CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B: return 8;
  }
  return 0;
}

/// The common 2-D case of `tiled`: a row-major matrix of `rows` x `cols`
/// elements of `dtype` whose rows are packed (`cols` elements apart), moved
/// in boxes of `box_rows` x `box_cols`. Every other field keeps its default
/// (no swizzle, interleave or L2 promotion); set them on the result.
inline tiled matrix(CUtensorMapDataType dtype, const void *address, uint64_t rows, uint64_t cols, uint32_t box_rows,
                    uint32_t box_cols) {
  tiled t;
  t.dtype = dtype;
  t.rank = 2;
  t.address = address;
  t.dims[0] = cols;
  t.dims[1] = rows;
  t.strides[0] = cols * uint64_t(element_bits(dtype)) / 8;
  t.box[0] = box_cols;
  t.box[1] = box_rows;
  return t;
}

namespace detail {

inline status fail(std::string m) {
  status s;
  s.ok = false;
  s.message = std::move(m);
  return s;
}
inline std::string at(const char *name, unsigned i) { return std::string(name) + "[" + std::to_string(i) + "]"; }

inline bool packed16(CUtensorMapDataType t) {
  return t == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B || t == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
}
inline bool floating(CUtensorMapDataType t) {
  switch (t) {
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT64:
  case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
  case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
  case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return true;
  default: return false;
  }
}
/// Bytes of one swizzle span, 0 for none, -1 for an unknown mode.
inline int swizzle_span(CUtensorMapSwizzle s) {
  switch (s) {
  case CU_TENSOR_MAP_SWIZZLE_NONE: return 0;
  case CU_TENSOR_MAP_SWIZZLE_32B: return 32;
  case CU_TENSOR_MAP_SWIZZLE_64B: return 64;
  case CU_TENSOR_MAP_SWIZZLE_128B:
  case CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B:
  case CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B:
  case CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B: return 128;
  }
  return -1;
}

// The checks both kinds share: everything but the box (tiled) or the
// pixel box (im2col). `inner` is the inner box extent in elements.
template <class Spec> status check_common(const Spec &s, uint32_t min_rank, const char *inner_name, uint64_t inner) {
  const int bits = element_bits(s.dtype);
  if (bits == 0) return fail("data type " + std::to_string(int(s.dtype)) + " is not a CUtensorMapDataType");
  if (s.rank < min_rank || s.rank > 5)
    return fail("rank " + std::to_string(s.rank) + " is outside " + std::to_string(min_rank) + " ... 5");
  if (s.interleave != CU_TENSOR_MAP_INTERLEAVE_NONE && s.interleave != CU_TENSOR_MAP_INTERLEAVE_16B &&
      s.interleave != CU_TENSOR_MAP_INTERLEAVE_32B)
    return fail("interleave " + std::to_string(int(s.interleave)) + " is not a CUtensorMapInterleave");
  const int span = swizzle_span(s.swizzle);
  if (span < 0) return fail("swizzle " + std::to_string(int(s.swizzle)) + " is not a CUtensorMapSwizzle");
  if (int(s.l2_promotion) < 0 || int(s.l2_promotion) > int(CU_TENSOR_MAP_L2_PROMOTION_L2_256B))
    return fail("L2 promotion " + std::to_string(int(s.l2_promotion)) + " is not a CUtensorMapL2promotion");
  if (s.oob_fill != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE &&
      s.oob_fill != CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
    return fail("OOB fill " + std::to_string(int(s.oob_fill)) + " is not a CUtensorMapFloatOOBfill");
  const bool il32 = s.interleave == CU_TENSOR_MAP_INTERLEAVE_32B;
  if (s.interleave != CU_TENSOR_MAP_INTERLEAVE_NONE && s.rank < 3)
    return fail("an interleaved layout needs rank >= 3 (rank is " + std::to_string(s.rank) + ")");
  // Address.
  const uintptr_t addr = reinterpret_cast<uintptr_t>(s.address);
  const unsigned align = il32 || packed16(s.dtype) ? 32 : 16;
  if (!s.address) return fail("the global address is null");
  if (addr % align)
    return fail("the global address must be " + std::to_string(align) + "-byte aligned" +
                (align == 32 ? std::string(" (32B interleave or a 16-byte-aligned packed type)") : std::string()));
  // Dimensions.
  for (unsigned i = 0; i < s.rank; ++i)
    if (s.dims[i] == 0 || s.dims[i] > (uint64_t(1) << 32))
      return fail(at("globalDim", i) + " = " + std::to_string(s.dims[i]) + " is outside 1 ... 2^32");
  if (packed16(s.dtype) && s.dims[0] % 128)
    return fail("globalDim[0] must be a multiple of 128 for the 16-byte-aligned packed types");
  if (s.dtype == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B && s.dims[0] % 2)
    return fail("globalDim[0] must be even for CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B");
  // Strides.
  const unsigned smul = il32 || packed16(s.dtype) ? 32 : 16;
  for (unsigned i = 0; i + 1 < s.rank; ++i) {
    if (s.strides[i] % smul)
      return fail(at("globalStrides", i) + " = " + std::to_string(s.strides[i]) + " bytes is not a multiple of " +
                  std::to_string(smul));
    if (s.strides[i] >= (uint64_t(1) << 40))
      return fail(at("globalStrides", i) + " = " + std::to_string(s.strides[i]) + " bytes is not below 2^40");
  }
  // Element strides.
  for (unsigned i = 0; i < s.rank; ++i)
    if (s.element_strides[i] < 1 || s.element_strides[i] > 8)
      return fail(at("elementStrides", i) + " = " + std::to_string(s.element_strides[i]) + " is outside 1 ... 8");
  // Swizzle and interleave.
  if (il32 && s.swizzle != CU_TENSOR_MAP_SWIZZLE_32B) return fail("32B interleave requires 32B swizzle");
  if (s.dtype == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B) {
    if (s.interleave != CU_TENSOR_MAP_INTERLEAVE_NONE)
      return fail("CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires no interleave");
    if (s.swizzle != CU_TENSOR_MAP_SWIZZLE_NONE && s.swizzle != CU_TENSOR_MAP_SWIZZLE_128B &&
        s.swizzle != CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B && s.swizzle != CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B)
      return fail("CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B takes swizzle NONE, 128B, 128B_ATOM_32B or 128B_ATOM_64B");
  }
  if (s.dtype == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B && s.swizzle != CU_TENSOR_MAP_SWIZZLE_NONE &&
      s.swizzle != CU_TENSOR_MAP_SWIZZLE_128B && s.swizzle != CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B)
    return fail("CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B takes swizzle NONE, 128B or 128B_ATOM_32B");
  const uint64_t inner_bytes = inner * uint64_t(bits) / 8;
  if (s.interleave == CU_TENSOR_MAP_INTERLEAVE_NONE && span > 0 && inner_bytes > uint64_t(span))
    return fail(std::string("the inner box (") + inner_name + " = " + std::to_string(inner) + " elements, " +
                std::to_string(inner_bytes) + " bytes) is wider than the " + std::to_string(span) +
                "-byte swizzle span");
  // OOB fill.
  if (s.oob_fill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && !floating(s.dtype))
    return fail("NaN out-of-bounds fill needs a floating-point data type");
  return status{};
}

} // namespace detail

/// Checks a tiled map's arguments without calling the driver.
inline status validate(const tiled &t) {
  if (status s = detail::check_common(t, 1, "boxDim[0]", t.box[0]); !s) return s;
  for (unsigned i = 0; i < t.rank; ++i)
    if (t.box[i] < 1 || t.box[i] > 256)
      return detail::fail(detail::at("boxDim", i) + " = " + std::to_string(t.box[i]) + " is outside 1 ... 256");
  if (detail::packed16(t.dtype) && t.box[0] != 128)
    return detail::fail("boxDim[0] must be 128 for the 16-byte-aligned packed types");
  if (t.interleave == CU_TENSOR_MAP_INTERLEAVE_NONE && uint64_t(t.box[0]) * element_bits(t.dtype) % 128)
    return detail::fail("boxDim[0] = " + std::to_string(t.box[0]) +
                        " elements is not a multiple of 16 bytes (required without interleave)");
  return status{};
}

/// Checks an im2col map's arguments without calling the driver.
inline status validate(const im2col &t) {
  if (status s = detail::check_common(t, 3, "channelsPerPixel", t.channels_per_pixel); !s) return s;
  const unsigned spatial = t.rank - 2;
  const int lim_lo = t.rank == 3 ? -32768 : t.rank == 4 ? -128 : -16;
  const int lim_hi = t.rank == 3 ? 32767 : t.rank == 4 ? 127 : 15;
  for (unsigned i = 0; i < spatial; ++i) {
    if (t.lower_corner[i] < lim_lo || t.lower_corner[i] > lim_hi)
      return detail::fail(detail::at("pixelBoxLowerCorner", i) + " = " + std::to_string(t.lower_corner[i]) +
                          " is outside " + std::to_string(lim_lo) + " ... " + std::to_string(lim_hi) + " for rank " +
                          std::to_string(t.rank));
    if (t.upper_corner[i] < lim_lo || t.upper_corner[i] > lim_hi)
      return detail::fail(detail::at("pixelBoxUpperCorner", i) + " = " + std::to_string(t.upper_corner[i]) +
                          " is outside " + std::to_string(lim_lo) + " ... " + std::to_string(lim_hi) + " for rank " +
                          std::to_string(t.rank));
  }
  if (t.channels_per_pixel < 1 || t.channels_per_pixel > 256)
    return detail::fail("channelsPerPixel = " + std::to_string(t.channels_per_pixel) + " is outside 1 ... 256");
  if (detail::packed16(t.dtype) && t.channels_per_pixel != 128)
    return detail::fail("channelsPerPixel must be 128 for the 16-byte-aligned packed types");
  if (t.pixels_per_column < 1 || t.pixels_per_column > 1024)
    return detail::fail("pixelsPerColumn = " + std::to_string(t.pixels_per_column) + " is outside 1 ... 1024");
  return status{};
}

#if CUDA_VERSION >= 12080
/// Checks an im2col-wide map's arguments without calling the driver.
inline status validate(const im2col_wide &t) {
  if (t.swizzle != CU_TENSOR_MAP_SWIZZLE_64B && t.swizzle != CU_TENSOR_MAP_SWIZZLE_128B &&
      t.swizzle != CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B)
    return detail::fail("swizzle " + std::to_string(int(t.swizzle)) +
                        " is not one an im2col-wide map takes (64B, 128B or 128B_ATOM_32B)");
  if (status s = detail::check_common(t, 3, "channelsPerPixel", t.channels_per_pixel); !s) return s;
  if (t.mode != CU_TENSOR_MAP_IM2COL_WIDE_MODE_W && t.mode != CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128)
    return detail::fail("mode " + std::to_string(int(t.mode)) + " is not a CUtensorMapIm2ColWideMode");
  if (t.lower_corner_width < -32768 || t.lower_corner_width > 32767)
    return detail::fail("pixelBoxLowerCornerWidth = " + std::to_string(t.lower_corner_width) +
                        " is outside -32768 ... 32767");
  if (t.upper_corner_width < -32768 || t.upper_corner_width > 32767)
    return detail::fail("pixelBoxUpperCornerWidth = " + std::to_string(t.upper_corner_width) +
                        " is outside -32768 ... 32767");
  if (t.channels_per_pixel < 1 || t.channels_per_pixel > 256)
    return detail::fail("channelsPerPixel = " + std::to_string(t.channels_per_pixel) + " is outside 1 ... 256");
  if (detail::packed16(t.dtype) && t.channels_per_pixel != 128)
    return detail::fail("channelsPerPixel must be 128 for the 16-byte-aligned packed types");
  if (t.mode == CU_TENSOR_MAP_IM2COL_WIDE_MODE_W && (t.pixels_per_column < 1 || t.pixels_per_column > 1024))
    return detail::fail("pixelsPerColumn = " + std::to_string(t.pixels_per_column) + " is outside 1 ... 1024");
  return status{};
}
#endif

/// Validates, then encodes `t` into `*out` with cuTensorMapEncodeTiled.
/// Defined in the runtime library (TileApply::runtime, libtileapply_runtime.a).
status encode(CUtensorMap *out, const tiled &t);

/// Validates, then encodes `t` into `*out` with cuTensorMapEncodeIm2col.
status encode(CUtensorMap *out, const im2col &t);

#if CUDA_VERSION >= 12080
/// Validates, then encodes `t` into `*out` with cuTensorMapEncodeIm2colWide
/// (reached by version 12080; an older driver comes back as a message).
status encode(CUtensorMap *out, const im2col_wide &t);
#endif

} // namespace tma
} // namespace tile

#endif // TILEAPPLY_TENSOR_MAP_H
