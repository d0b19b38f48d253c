// Plain C++ against the runtime library (TileApply::runtime): a tensor map is
// checked and handed to the library's encoder. The output pointer is null, so
// the encoder refuses before it would reach the driver: this runs the same on
// a machine without a GPU, and proves that the library links.
#include "example.h"

#include <tileapply/tensor_map.h>

#include <cstdio>

bool check_runtime_library() {
  static uint16_t data[64 * 64]; // any 16-byte-aligned address will do
  tile::tma::tiled t = tile::tma::matrix(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, data, 64, 64, 64, 64);
  if (tile::tma::status s = tile::tma::validate(t); !s) {
    std::printf("FAIL: a valid tensor map was refused: %s\n", s.message.c_str());
    return false;
  }
  tile::tma::status s = tile::tma::encode(nullptr, t);
  if (s) {
    std::printf("FAIL: tile::tma::encode accepted a null CUtensorMap pointer\n");
    return false;
  }
  std::printf("runtime library: tile::tma::encode refused a null map (%s)\n", s.message.c_str());
  return true;
}
