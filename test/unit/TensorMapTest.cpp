//===- TensorMapTest.cpp - runtime/include/tileapply/tensor_map.h ---------===//
//
// Every argument rule of cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col
// (as CUDA 13.0's cuda.h documents them) is broken once, starting from a
// valid map, and must come back as a message naming the argument, with the
// driver never called. Valid maps of every rank, data type and swizzle pass
// the checks. encode() of a valid map must either succeed (a machine with a
// GPU) or say that the driver is out of reach or refused it -- never crash.
//
//===----------------------------------------------------------------------===//
#include "tileapply/tensor_map.h"

#include <gtest/gtest.h>

#include <functional>

using namespace tile::tma;

namespace {

alignas(256) unsigned char g_buffer[1 << 16];

// A valid 2-D bf16 tile map: 64 x 128 elements, box 64 x 64, 128B swizzle.
tiled validTiled() {
  tiled t;
  t.dtype = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  t.rank = 2;
  t.address = g_buffer;
  t.dims[0] = 128;
  t.dims[1] = 64;
  t.strides[0] = 256;
  t.box[0] = 64;
  t.box[1] = 64;
  t.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  return t;
}

// The tensor both im2col kinds of map below cover: NHWC fp16, 2 x 8 x 8 x 64.
template <class Map> void setNhwc(Map &t) {
  t.dtype = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  t.rank = 4;
  t.address = g_buffer;
  t.dims[0] = 64; // C
  t.dims[1] = 8;  // W
  t.dims[2] = 8;  // H
  t.dims[3] = 2;  // N
  t.strides[0] = 128;
  t.strides[1] = 1024;
  t.strides[2] = 8192;
}

// A valid NHWC fp16 im2col map.
im2col validIm2col() {
  im2col t;
  setNhwc(t);
  t.lower_corner[0] = t.lower_corner[1] = -1;
  t.upper_corner[0] = t.upper_corner[1] = -1;
  t.channels_per_pixel = 64;
  t.pixels_per_column = 64;
  t.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  return t;
}

template <class Spec>
void expectRefused(const Spec &base, const std::function<void(Spec &)> &change, const char *word) {
  Spec s = base;
  change(s);
  const status v = validate(s);
  EXPECT_FALSE(v.ok) << "accepted; expected: " << word;
  EXPECT_NE(v.message.find(word), std::string::npos) << "message: " << v.message << " -- expected: " << word;
  // encode() refuses the same way, before reaching the driver
  CUtensorMap map;
  const status e = encode(&map, s);
  EXPECT_FALSE(e.ok);
  EXPECT_EQ(e.message, v.message);
  EXPECT_EQ(e.driver, CUDA_SUCCESS);
}

} // namespace

TEST(TensorMapValidate, ValidMapsPass) {
  EXPECT_TRUE(validate(validTiled()).ok) << validate(validTiled()).message;
  EXPECT_TRUE(validate(validIm2col()).ok) << validate(validIm2col()).message;
  // every rank
  for (uint32_t rank = 1; rank <= 5; ++rank) {
    tiled t = validTiled();
    t.rank = rank;
    for (uint32_t i = 0; i < 5; ++i) t.dims[i] = i == 0 ? 128 : 4, t.box[i] = i == 0 ? 64 : 2;
    for (uint32_t i = 0; i < 4; ++i) t.strides[i] = 256u << (2 * i);
    EXPECT_TRUE(validate(t).ok) << "rank " << rank << ": " << validate(t).message;
  }
  // every data type with a 16-byte inner box, no swizzle
  const CUtensorMapDataType types[] = {
      CU_TENSOR_MAP_DATA_TYPE_UINT8,        CU_TENSOR_MAP_DATA_TYPE_UINT16,       CU_TENSOR_MAP_DATA_TYPE_UINT32,
      CU_TENSOR_MAP_DATA_TYPE_INT32,        CU_TENSOR_MAP_DATA_TYPE_UINT64,       CU_TENSOR_MAP_DATA_TYPE_INT64,
      CU_TENSOR_MAP_DATA_TYPE_FLOAT16,      CU_TENSOR_MAP_DATA_TYPE_FLOAT32,      CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
      CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,     CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
      CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B,
      CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B};
  for (CUtensorMapDataType dt : types) {
    tiled t = validTiled();
    t.dtype = dt;
    t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    t.dims[0] = 256;
    t.strides[0] = 2048;
    t.box[0] = detail::packed16(dt) ? 128 : uint32_t(128 / element_bits(dt));
    EXPECT_TRUE(validate(t).ok) << "type " << int(dt) << ": " << validate(t).message;
  }
  // every swizzle mode with an inner box that fits it, every L2 promotion
  const CUtensorMapSwizzle swizzles[] = {
      CU_TENSOR_MAP_SWIZZLE_NONE,          CU_TENSOR_MAP_SWIZZLE_32B,
      CU_TENSOR_MAP_SWIZZLE_64B,           CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B,
      CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B};
  for (CUtensorMapSwizzle sw : swizzles) {
    tiled t = validTiled();
    t.swizzle = sw;
    t.box[0] = 16; // 32 bytes
    t.l2_promotion = CUtensorMapL2promotion(int(sw) % 4);
    EXPECT_TRUE(validate(t).ok) << "swizzle " << int(sw) << ": " << validate(t).message;
  }
  // interleaved layouts (NC/8HWC8): rank 3+, 32B interleave with 32B swizzle
  tiled il = validTiled();
  il.rank = 3;
  il.dims[2] = 4;
  il.strides[1] = 4096;
  il.box[0] = 8;
  il.box[2] = 1;
  il.interleave = CU_TENSOR_MAP_INTERLEAVE_16B;
  il.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  EXPECT_TRUE(validate(il).ok) << validate(il).message;
  il.interleave = CU_TENSOR_MAP_INTERLEAVE_32B;
  il.swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
  EXPECT_TRUE(validate(il).ok) << validate(il).message;
  // NaN fill on a floating type
  tiled nan = validTiled();
  nan.oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  EXPECT_TRUE(validate(nan).ok);
  // im2col at ranks 3 and 5 with their corner ranges' extremes
  im2col r3 = validIm2col();
  r3.rank = 3;
  r3.lower_corner[0] = -32768;
  r3.upper_corner[0] = 32767;
  EXPECT_TRUE(validate(r3).ok) << validate(r3).message;
  im2col r5 = validIm2col();
  r5.rank = 5;
  r5.dims[4] = 2;
  r5.strides[3] = 16384;
  r5.lower_corner[2] = -16;
  r5.upper_corner[2] = 15;
  EXPECT_TRUE(validate(r5).ok) << validate(r5).message;
}

// matrix(): a row-major rows x cols matrix as tiled's fields (innermost first).
TEST(TensorMapMatrix, FillsTheTiledFields) {
  const tiled t = matrix(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, g_buffer, 64, 128, 32, 16);
  EXPECT_EQ(t.dtype, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(t.rank, 2u);
  EXPECT_EQ(t.address, g_buffer);
  EXPECT_EQ(t.dims[0], 128u); // columns
  EXPECT_EQ(t.dims[1], 64u);  // rows
  EXPECT_EQ(t.strides[0], 256u); // one row of 128 two-byte elements
  EXPECT_EQ(t.box[0], 16u);
  EXPECT_EQ(t.box[1], 32u);
  EXPECT_EQ(t.swizzle, CU_TENSOR_MAP_SWIZZLE_NONE);
  EXPECT_TRUE(validate(t).ok) << validate(t).message;
  // Row pitch in bytes follows the element size, 4-bit elements included.
  EXPECT_EQ(matrix(CU_TENSOR_MAP_DATA_TYPE_FLOAT64, g_buffer, 8, 16, 8, 16).strides[0], 128u);
  EXPECT_EQ(matrix(CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, g_buffer, 8, 256, 8, 128).strides[0], 128u);
}

TEST(TensorMapValidate, TiledRefusals) {
  const tiled b = validTiled();
  using F = std::function<void(tiled &)>;
  expectRefused<tiled>(b, F([](tiled &t) { t.dtype = CUtensorMapDataType(99); }), "data type");
  expectRefused<tiled>(b, F([](tiled &t) { t.rank = 0; }), "rank 0");
  expectRefused<tiled>(b, F([](tiled &t) { t.rank = 6; }), "rank 6");
  expectRefused<tiled>(
      b, F([](tiled &t) { t.interleave = CU_TENSOR_MAP_INTERLEAVE_16B, t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; }),
      "rank >= 3");
  expectRefused<tiled>(b, F([](tiled &t) { t.address = nullptr; }), "null");
  expectRefused<tiled>(b, F([](tiled &t) { t.address = g_buffer + 8; }), "16-byte aligned");
  expectRefused<tiled>(b, F([](tiled &t) {
                         t.rank = 3, t.dims[2] = 2, t.strides[1] = 8192, t.box[2] = 1;
                         t.interleave = CU_TENSOR_MAP_INTERLEAVE_32B, t.swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
                         t.address = g_buffer + 16;
                       }),
                       "32-byte aligned");
  expectRefused<tiled>(b, F([](tiled &t) { t.dims[1] = 0; }), "globalDim[1]");
  expectRefused<tiled>(b, F([](tiled &t) { t.dims[0] = (uint64_t(1) << 32) + 1; }), "globalDim[0]");
  expectRefused<tiled>(b, F([](tiled &t) { t.strides[0] = 100; }), "globalStrides[0]");
  expectRefused<tiled>(b, F([](tiled &t) { t.strides[0] = uint64_t(1) << 40; }), "2^40");
  expectRefused<tiled>(b, F([](tiled &t) { t.box[1] = 0; }), "boxDim[1]");
  expectRefused<tiled>(b, F([](tiled &t) { t.box[1] = 257; }), "boxDim[1]");
  expectRefused<tiled>(b, F([](tiled &t) { t.box[0] = 12; }), "multiple of 16 bytes");
  expectRefused<tiled>(b, F([](tiled &t) { t.element_strides[1] = 9; }), "elementStrides[1]");
  expectRefused<tiled>(b, F([](tiled &t) { t.element_strides[0] = 0; }), "elementStrides[0]");
  expectRefused<tiled>(b, F([](tiled &t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_64B; }), "64-byte swizzle span");
  expectRefused<tiled>(b, F([](tiled &t) { t.box[0] = 128; }), "128-byte swizzle span");
  expectRefused<tiled>(b, F([](tiled &t) { t.swizzle = CUtensorMapSwizzle(7); }), "CUtensorMapSwizzle");
  expectRefused<tiled>(b, F([](tiled &t) { t.interleave = CUtensorMapInterleave(3); }), "CUtensorMapInterleave");
  expectRefused<tiled>(b, F([](tiled &t) { t.l2_promotion = CUtensorMapL2promotion(4); }), "L2 promotion");
  expectRefused<tiled>(b, F([](tiled &t) { t.oob_fill = CUtensorMapFloatOOBfill(2); }), "OOB fill");
  expectRefused<tiled>(b, F([](tiled &t) {
                         t.rank = 3, t.dims[2] = 2, t.strides[1] = 8192, t.box[2] = 1;
                         t.interleave = CU_TENSOR_MAP_INTERLEAVE_32B, t.swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
                       }),
                       "32B interleave requires 32B swizzle");
  expectRefused<tiled>(b, F([](tiled &t) {
                         t.rank = 3, t.dims[2] = 2, t.strides[0] = 272, t.strides[1] = 8192, t.box[2] = 1;
                         t.interleave = CU_TENSOR_MAP_INTERLEAVE_32B, t.swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
                       }),
                       "multiple of 32");
  expectRefused<tiled>(b, F([](tiled &t) {
                         t.dtype = CU_TENSOR_MAP_DATA_TYPE_UINT8;
                         t.oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
                       }),
                       "floating-point");
  // packed types
  auto packed = [](tiled &t, CUtensorMapDataType dt) {
    t.dtype = dt, t.dims[0] = 256, t.strides[0] = 256, t.box[0] = 128, t.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  };
  expectRefused<tiled>(b, F([&](tiled &t) { packed(t, CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B), t.dims[0] = 200; }),
                       "multiple of 128");
  expectRefused<tiled>(b, F([&](tiled &t) { packed(t, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B), t.box[0] = 64; }),
                       "boxDim[0] must be 128");
  expectRefused<tiled>(
      b, F([&](tiled &t) { packed(t, CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B), t.swizzle = CU_TENSOR_MAP_SWIZZLE_64B; }),
      "16U6_ALIGN16B takes swizzle");
  expectRefused<tiled>(b, F([&](tiled &t) {
                         packed(t, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B);
                         t.swizzle = CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B;
                       }),
                       "16U4_ALIGN16B takes swizzle");
  expectRefused<tiled>(b, F([&](tiled &t) {
                         packed(t, CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B);
                         t.rank = 3, t.dims[2] = 2, t.strides[1] = 8192, t.box[2] = 1;
                         t.interleave = CU_TENSOR_MAP_INTERLEAVE_16B;
                       }),
                       "requires no interleave");
  expectRefused<tiled>(
      b, F([&](tiled &t) { packed(t, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B), t.address = g_buffer + 16; }),
      "32-byte aligned");
  expectRefused<tiled>(
      b, F([](tiled &t) { t.dtype = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, t.dims[0] = 255, t.box[0] = 64; }), "even");
}

TEST(TensorMapValidate, Im2colRefusals) {
  const im2col b = validIm2col();
  using F = std::function<void(im2col &)>;
  expectRefused<im2col>(b, F([](im2col &t) { t.rank = 2; }), "rank 2");
  expectRefused<im2col>(b, F([](im2col &t) { t.lower_corner[1] = -129; }), "pixelBoxLowerCorner[1]");
  expectRefused<im2col>(b, F([](im2col &t) { t.upper_corner[0] = 128; }), "pixelBoxUpperCorner[0]");
  expectRefused<im2col>(b, F([](im2col &t) {
                          t.rank = 5, t.dims[4] = 2, t.strides[3] = 16384;
                          t.upper_corner[2] = 16;
                        }),
                        "pixelBoxUpperCorner[2]");
  expectRefused<im2col>(b, F([](im2col &t) { t.channels_per_pixel = 0; }), "channelsPerPixel");
  expectRefused<im2col>(b, F([](im2col &t) { t.channels_per_pixel = 257, t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; }),
                        "channelsPerPixel");
  expectRefused<im2col>(b, F([](im2col &t) { t.pixels_per_column = 1025; }), "pixelsPerColumn");
  expectRefused<im2col>(b, F([](im2col &t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_32B; }), "32-byte swizzle span");
  expectRefused<im2col>(b, F([](im2col &t) { t.strides[1] = 1000; }), "globalStrides[1]");
  expectRefused<im2col>(b, F([](im2col &t) { t.element_strides[3] = 9; }), "elementStrides[3]");
  expectRefused<im2col>(b, F([](im2col &t) { t.dims[3] = 0; }), "globalDim[3]");
  expectRefused<im2col>(b, F([](im2col &t) {
                          t.dtype = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, t.dims[0] = 128, t.strides[0] = 128;
                          t.channels_per_pixel = 64;
                        }),
                        "channelsPerPixel must be 128");
}

TEST(TensorMapEncode, OutputChecksAndDriverPath) {
  alignas(64) static unsigned char raw[sizeof(CUtensorMap) + 64];
  const tiled t = validTiled();
  status s = encode(static_cast<CUtensorMap *>(nullptr), t);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("null"), std::string::npos);
  s = encode(reinterpret_cast<CUtensorMap *>(raw + 32), t);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("64-byte aligned"), std::string::npos);
  // A valid map: encoded on a machine with a driver; otherwise a message
  // that says the driver could not be reached or refused it. Never a crash.
  CUtensorMap map;
  s = encode(&map, t);
  if (!s.ok) EXPECT_NE(s.message.find("driver"), std::string::npos) << s.message;
  const im2col c = validIm2col();
  s = encode(&map, c);
  if (!s.ok) EXPECT_NE(s.message.find("driver"), std::string::npos) << s.message;
  // the helpers' element sizes
  EXPECT_EQ(element_bits(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16), 16);
  EXPECT_EQ(element_bits(CU_TENSOR_MAP_DATA_TYPE_FLOAT64), 64);
  EXPECT_EQ(element_bits(CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B), 4);
  EXPECT_EQ(element_bits(CUtensorMapDataType(42)), 0);
}

#if CUDA_VERSION >= 12080
namespace {
// A valid NHWC fp16 im2col-wide map (the .im2col::w load modes).
im2col_wide validWide() {
  im2col_wide t;
  setNhwc(t);
  t.lower_corner_width = -1;
  t.upper_corner_width = -1;
  t.channels_per_pixel = 64;
  t.pixels_per_column = 32;
  return t;
}
} // namespace

TEST(TensorMapValidate, Im2colWide) {
  EXPECT_TRUE(validate(validWide()).ok) << validate(validWide()).message;
  im2col_wide w128 = validWide();
  w128.mode = CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128;
  w128.pixels_per_column = 0; // ignored in W128 mode
  w128.swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
  w128.channels_per_pixel = 32;
  EXPECT_TRUE(validate(w128).ok) << validate(w128).message;
  const im2col_wide b = validWide();
  using F = std::function<void(im2col_wide &)>;
  expectRefused<im2col_wide>(b, F([](im2col_wide &t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; }),
                             "im2col-wide map takes");
  expectRefused<im2col_wide>(b, F([](im2col_wide &t) { t.swizzle = CU_TENSOR_MAP_SWIZZLE_32B; }),
                             "im2col-wide map takes");
  expectRefused<im2col_wide>(b, F([](im2col_wide &t) { t.rank = 2; }), "rank 2");
  expectRefused<im2col_wide>(b, F([](im2col_wide &t) { t.mode = CUtensorMapIm2ColWideMode(2); }),
                             "CUtensorMapIm2ColWideMode");
  expectRefused<im2col_wide>(b, F([](im2col_wide &t) { t.lower_corner_width = -32769; }), "pixelBoxLowerCornerWidth");
  expectRefused<im2col_wide>(b, F([](im2col_wide &t) { t.upper_corner_width = 32768; }), "pixelBoxUpperCornerWidth");
  expectRefused<im2col_wide>(b, F([](im2col_wide &t) { t.channels_per_pixel = 0; }), "channelsPerPixel");
  expectRefused<im2col_wide>(b, F([](im2col_wide &t) { t.channels_per_pixel = 128; }), "128-byte swizzle span");
  expectRefused<im2col_wide>(b, F([](im2col_wide &t) { t.pixels_per_column = 1025; }), "pixelsPerColumn");
  expectRefused<im2col_wide>(b, F([](im2col_wide &t) { t.strides[1] = 1000; }), "globalStrides[1]");
  // A valid map reaches the driver, or says why it cannot; it never crashes.
  CUtensorMap map;
  const status e = encode(&map, validWide());
  if (!e.ok) EXPECT_FALSE(e.message.empty());
}
#endif
