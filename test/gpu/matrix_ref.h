//===- matrix_ref.h - CPU reference pieces for the matrix GPU tests -------===//
//
// What test/gpu/mma.cu, ldst-matrix.cu and wgmma.cu share: element types as
// the PTX ISA defines them (code <-> value, section 5.2.5 "Alternate
// Floating-Point Data Formats" for .e4m3 / .e5m2; .tf32 is an f32 whose low
// 13 mantissa bits the instruction ignores), random elements, placing a
// matrix into the registers of a fragment (tileapply/fragment.h decides which
// element goes where: nothing here re-derives a layout), and a comparison
// against a stated error bound.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_TEST_GPU_MATRIX_REF_H
#define TILEAPPLY_TEST_GPU_MATRIX_REF_H

#include <tileapply/fragment.h>
#include <tileapply/packed.h>

#include "gpu_test.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace matrix_ref {

namespace fr = tile::frag;

/// .e4m3: sign, 4 exponent bits (bias 7), 3 mantissa bits; no infinities;
/// S.1111.111 is NaN. .e5m2: sign, 5 exponent bits (bias 15), 2 mantissa
/// bits, IEEE-like (exponent 31: infinity or NaN).
inline double e4m3_value(uint32_t b) {
  const double s = (b & 0x80) ? -1.0 : 1.0;
  const int e = (b >> 3) & 0xF, m = b & 7;
  if (e == 0) return s * std::ldexp(m / 8.0, -6);
  return s * std::ldexp(1.0 + m / 8.0, e - 7);
}
inline double e5m2_value(uint32_t b) {
  const double s = (b & 0x80) ? -1.0 : 1.0;
  const int e = (b >> 2) & 0x1F, m = b & 3;
  if (e == 0) return s * std::ldexp(m / 4.0, -14);
  return s * std::ldexp(1.0 + m / 4.0, e - 15);
}

inline bool is_float(fr::type t) {
  switch (t) {
  case fr::type::f16: case fr::type::bf16: case fr::type::tf32: case fr::type::f32:
  case fr::type::f64: case fr::type::e4m3: case fr::type::e5m2:
    return true;
  default:
    return false;
  }
}

/// The value an element code stands for (integers exactly, as double).
inline double value(fr::type t, uint64_t code) {
  switch (t) {
  case fr::type::f16: return tile::packed::f16_to_float(uint16_t(code));
  case fr::type::bf16: return tile::packed::bf16_to_float(uint16_t(code));
  case fr::type::tf32: // the instruction ignores the low 13 bits
    return tile::packed::float_from_bits(uint32_t(code) & ~0x1FFFu);
  case fr::type::f32: return tile::packed::float_from_bits(uint32_t(code));
  case fr::type::f64: {
    double d;
    std::memcpy(&d, &code, 8);
    return d;
  }
  case fr::type::s32: return double(int32_t(uint32_t(code)));
  case fr::type::s8: return double(int8_t(uint8_t(code)));
  case fr::type::u8: return double(uint8_t(code));
  case fr::type::s4: return double(int((code & 0xF) ^ 8) - 8);
  case fr::type::u4: return double(code & 0xF);
  case fr::type::b1: return double(code & 1);
  case fr::type::e4m3: return e4m3_value(uint32_t(code));
  case fr::type::e5m2: return e5m2_value(uint32_t(code));
  default: return 0.0;
  }
}

/// A random element of type t, as its code. Floating values are drawn from
/// about [-4, 4] with full mantissas (products and sums are not exact).
inline uint64_t random_code(fr::type t, std::mt19937 &rng) {
  std::uniform_real_distribution<double> u(-4.0, 4.0);
  switch (t) {
  case fr::type::f16: return tile::packed::f16_bits(float(u(rng)));
  case fr::type::bf16: return tile::packed::bf16_bits(float(u(rng)));
  case fr::type::tf32: // a tf32 value: the low 13 bits zero (whether the
    // instruction truncates or rounds them is not what these tests check)
    return tile::packed::float_bits(float(u(rng))) & ~0x1FFFu;
  case fr::type::f32: return tile::packed::float_bits(float(u(rng)));
  case fr::type::f64: {
    double d = u(rng);
    uint64_t c;
    std::memcpy(&c, &d, 8);
    return c;
  }
  case fr::type::s32: return uint32_t(rng());
  case fr::type::s8: case fr::type::u8: return rng() & 0xFF;
  case fr::type::s4: case fr::type::u4: return rng() & 0xF;
  case fr::type::b1: return rng() & 1;
  case fr::type::e4m3:
    for (;;) { // no NaN; exponents up to 2^3 keep the sums moderate
      const uint32_t b = rng() & 0xFF;
      if (((b >> 3) & 0xF) <= 10) return b;
    }
  case fr::type::e5m2:
    for (;;) {
      const uint32_t b = rng() & 0xFF;
      if (((b >> 2) & 0x1F) <= 18) return b;
    }
  default: return 0;
  }
}

/// A matrices x rows x cols array of element codes.
struct matrix {
  fr::type t;
  int count, rows, cols;
  std::vector<uint64_t> code;
  matrix(fr::type t, int count, int rows, int cols)
      : t(t), count(count), rows(rows), cols(cols), code(size_t(count) * rows * cols, 0) {}
  uint64_t &at(int m, int r, int c) { return code[(size_t(m) * rows + r) * cols + c]; }
  uint64_t at(int m, int r, int c) const { return code[(size_t(m) * rows + r) * cols + c]; }
  double val(int m, int r, int c) const { return value(t, at(m, r, c)); }
  void randomize(std::mt19937 &rng) {
    for (uint64_t &c : code) c = random_code(t, rng);
  }
};

/// The registers of every thread, thread-major (regs[thread * l.regs() + r]),
/// for matrix `m`: element e of register r holds the code at l.coord(). Each
/// register is returned in 64 bits; 32-bit fragments use the low half.
inline std::vector<uint64_t> place(const fr::layout &l, const matrix &m) {
  std::vector<uint64_t> regs(size_t(l.threads()) * l.regs(), 0);
  const uint64_t mask = l.elem_bits() == 64 ? ~uint64_t(0) : (uint64_t(1) << l.elem_bits()) - 1;
  for (int th = 0; th < l.threads(); ++th)
    for (int r = 0; r < l.regs(); ++r)
      for (int e = 0; e < l.elems_per_reg(); ++e) {
        const fr::pos p = l.coord(th, r, e);
        regs[size_t(th) * l.regs() + r] |= (m.at(p.matrix, p.row, p.col) & mask) << (e * l.elem_bits());
      }
  return regs;
}

template <class T> std::vector<T> as(const std::vector<uint64_t> &regs) {
  std::vector<T> out(regs.size());
  for (size_t i = 0; i < regs.size(); ++i) {
    if constexpr (sizeof(T) == 8)
      std::memcpy(&out[i], &regs[i], 8);
    else {
      const uint32_t w = uint32_t(regs[i]);
      std::memcpy(&out[i], &w, 4);
    }
  }
  return out;
}

/// Compares got with want where |got - want| <= bound (element-wise); prints
/// the largest error and its bound, and the first few violations.
inline void expect_close(const char *what, const std::vector<double> &got, const std::vector<double> &want,
                         const std::vector<double> &bound) {
  size_t bad = 0;
  double worst = 0, worst_bound = 0, worst_ratio = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double err = std::fabs(got[i] - want[i]);
    if (!(err <= bound[i])) { // NaN fails too
      if (bad++ < 4)
        std::printf("  %s[%zu]: got %.17g, want %.17g (error %.3g, bound %.3g)\n", what, i, got[i], want[i], err,
                    bound[i]);
    }
    if (bound[i] > 0 && err / bound[i] >= worst_ratio)
      worst_ratio = err / bound[i], worst = err, worst_bound = bound[i];
  }
  std::printf("%s %s (%zu values, largest error %.3g of its bound %.3g)\n", bad ? "  mismatch" : "  ok      ", what,
              want.size(), worst, worst_bound);
  gpu_test::failures += bad != 0;
}

} // namespace matrix_ref

#endif
