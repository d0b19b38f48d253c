//===- m8n8_ref.h - Host references for the 8 x 8 .b16 matrix tests -*- C++ -*-===//
//
// fragments.cu (the maps, through raw inline asm) and ldst-matrix.cu (the
// table's ldmatrix / stmatrix / movmatrix forms) move the same four 8 x 8
// matrices of 16-bit values between shared memory and registers. Every value
// names its own place (matrix, row, column), so a misplaced element shows in
// the hex dump of a mismatch; a 32-bit register holds two of them, placed by
// a map of tileapply/fragment.h.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_TEST_M8N8_REF_H
#define TILEAPPLY_TEST_M8N8_REF_H

#include <tileapply/fragment.h>

#include <cstdint>
#include <vector>

namespace m8n8_ref {

/// The value at (row, col) of matrix m: 0xM000 + 16 row + col, with M = m + 1.
inline uint16_t matval(int m, int row, int col) { return uint16_t(0x1000 * (m + 1) + 16 * row + col); }

/// The four matrices, [m][row][col].
inline std::vector<uint16_t> source() {
  std::vector<uint16_t> s(4 * 64);
  for (int m = 0; m < 4; ++m)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) s[(8 * m + r) * 8 + c] = matval(m, r, c);
  return s;
}

/// Register `reg` of `lane` as the map `l` fills it: element e in bits
/// [16 e, 16 e + 16).
inline uint32_t fragment_word(const tile::frag::layout &l, int lane, int reg) {
  uint32_t w = 0;
  for (int e = 0; e < l.elems_per_reg(); ++e) {
    const tile::frag::pos p = l.coord(lane, reg, e);
    w |= uint32_t(matval(p.matrix, p.row, p.col)) << (16 * e);
  }
  return w;
}

} // namespace m8n8_ref

#endif
