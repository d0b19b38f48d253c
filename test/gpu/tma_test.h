//===- tma_test.h - Tensor maps for the TMA GPU tests ------------*- C++ -*-===//
//
// The GPU tests that move tiles with the tensor memory accelerator all copy
// boxes out of a row-major array of 32-bit words; this encodes such a map
// with the runtime's host encoder (tileapply/tensor_map.h) and reports a
// refusal as a failed check.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_TEST_TMA_TEST_H
#define TILEAPPLY_TEST_TMA_TEST_H

#include <cuda.h>
#include <tileapply/tensor_map.h>
#include "gpu_test.h"

namespace gpu_test {

/// Encodes a 2-D tensor map over the row-major `rows` x `cols` u32 array at
/// `base`, moving boxes of `box_rows` x `box_cols` words (the order of
/// tile::tma::matrix). When the encoding is refused, prints why, counts a
/// failure and returns false.
inline bool encode_u32_2d(CUtensorMap *map, const uint32_t *base, int rows, int cols,
                          int box_rows, int box_cols,
                          CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE) {
  tile::tma::tiled t = tile::tma::matrix(CU_TENSOR_MAP_DATA_TYPE_UINT32, base, rows, cols, box_rows, box_cols);
  t.swizzle = swizzle;
  tile::tma::status s = tile::tma::encode(map, t);
  if (!s) {
    std::printf("  tensor map: %s\n", s.message.c_str());
    ++failures;
  }
  return bool(s);
}

} // namespace gpu_test

#endif
