//===- tileapply/fragment.h - Matrix fragment layouts of the PTX ISA -*- C++ -*-===//
//
// Which element of a matrix each thread holds in which register, for every
// register operand of the matrix instructions: mma.sync (dense and sparse),
// ldmatrix / stmatrix / movmatrix, wgmma.mma_async (A from registers and the
// accumulator D) and tcgen05.ld / tcgen05.st. One set of rules, used by host
// code (to place data into fragments and read results back) and by device
// code (epilogues). The compiler does not include it: the register counts the
// plugin checks are written in the PTX table (core/ptx/matrix.def), and
// test/unit/FragmentCountTest.cpp compares every matrix form's with regs().
//
// Plain constexpr C++17, no library beyond <stdint.h>: usable in host C++,
// in CUDA device code (every function is __host__ __device__ under CUDA) and
// in static_assert.
//
// ---- API ---------------------------------------------------------------------
//
//   namespace tile::frag
//
//   constexpr layout mma(shape s, operand op, type t, major m = major::natural);
//   constexpr layout mma_sp(shape s, operand op, type t);      // mma.sp{::ordered_metadata}
//   constexpr layout wgmma(int n, int k, operand op, type t);   // op: a (registers), c or d
//   constexpr layout wgmma_sp(int n, int k, operand op, type t);
//   constexpr int    acc_to_a(acc, a, kstep, reg, elem);         // accumulator reg feeding a wgmma A
//   constexpr layout ldmatrix(shape s, int num, bool trans, type t = type::b16);
//   constexpr layout stmatrix(shape s, int num, bool trans, type t = type::b16);
//   constexpr layout movmatrix(operand op);                      // op: a (source) or d
//   constexpr layout tcgen05(tmem_shape s, int num, bool pack16 = false,
//                            int half_split = 0);                // tcgen05.ld / .st
//
// A `layout` is a literal value:
//
//   l.ok(), l.error()      false and a sentence when the form does not exist
//   l.regs()               registers per thread (the operand's vector length)
//   l.reg_bits()           32, or 64 for .f64 operands
//   l.elems_per_reg()      elements packed in one register (low bits first)
//   l.elem_bits()          bits of one element in the register (its container)
//   l.threads()            32, or 128 for wgmma (thread index in the warpgroup)
//   l.rows(), l.cols()     extent of one matrix (for sparse A: the compressed
//                          matrix, K/2 columns); l.matrices(): how many
//   l.coord(t, r, e)       {row, col, matrix} of element e of register r of
//                          thread t ({-1,-1,-1} when out of range)
//   l.find(row, col, m)    the inverse, {thread, reg, elem} (a search)
//
// Element e of a register occupies bits [e*elem_bits, (e+1)*elem_bits): the
// ISA's "elements (low to high)" a0, a1, ... are element i = reg *
// elems_per_reg + e.
//
//   constexpr auto A = tile::frag::mma(tile::frag::m16n8k16, tile::frag::operand::a,
//                                      tile::frag::type::bf16);
//   static_assert(A.regs() == 4 && A.elems_per_reg() == 2);
//   A.coord(5, 2, 1)  // lane 5 (groupID 1, threadID_in_group 1), a5: {1, 11, 0}
//
// Conventions:
// - mma / wgmma: (row, col) index the operand matrix as the ISA draws it: A is
//   M x K, B is K x N, C and D are M x N. The natural order (major::natural)
//   is .row for A and .col for B, the only one every shape but m8n8k4 has.
// - mma.m8n8k4 with .f16 runs four independent MMAs, one per quad-pair
//   (lanes 0-3 with 16-19, 4-7 with 20-23, ...): `matrix` is that MMA's index.
// - sparse A (mma_sp, wgmma_sp): (row, col) index the compressed matrix the
//   registers hold (M x K/2). Which logical columns a compressed column may
//   stand for is given by l.sparse_first_col(col) / l.sparse_last_col(col);
//   the metadata picks the column inside that chunk.
// - ldmatrix / stmatrix: (row, col) index the matrix as it lies in shared
//   memory: `row` is the row whose address lane l.address_lane(matrix, row)
//   supplies and `col` the element within that row. With .trans a thread's
//   register therefore holds a column of it.
// - movmatrix: operand a is the source fragment; operand d tells, for each
//   destination element, the (row, col) of the *source* matrix it receives.
// - tcgen05.ld/st: `row` is the Tensor Memory lane relative to the lane field
//   of taddr, `col` the 32-bit column relative to its column field (with
//   .pack::16b: the column whose low 16 bits element e is). A warp may only
//   touch lanes 32 * (warp id % 4) ... + 31 (tcgen05_lane_base).
//
// ---- Sources -----------------------------------------------------------------
//
// PTX ISA 9.1, section 9.7.14.5 "Matrix multiply-accumulate operation using
// mma instruction" (9.7.14.5.1 - 9.7.14.5.13: the fragment formulas; 9.7.14.5.15
// - 17: ldmatrix, stmatrix, movmatrix), 9.7.14.6.2 (sparse A), 9.7.15.5.1.1
// and 9.7.15.6.2 (wgmma register fragments), 9.7.16.2.3.1 (tcgen05 data
// movement shapes). Where the ISA gives a figure but no formula, the comment
// at that case says so and where the rule comes from.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_FRAGMENT_H
#define TILEAPPLY_FRAGMENT_H

#include <stdint.h>

#ifndef TILEAPPLY_HD
#if !defined(__CUDACC__) && !defined(__CUDA__)
#define TILEAPPLY_HD
#else
#define TILEAPPLY_HD __host__ __device__
#endif
#endif

namespace tile {
namespace frag {

// clang-format off: grouped enumerators and case labels, one group a line
/// Element types of the matrix instructions' operands.
enum class type : unsigned char {
  f16, bf16, tf32, f32, f64, s32, // floating point and accumulators
  s8, u8, s4, u4, b1,             // integer and single bit
  e4m3, e5m2, e3m2, e2m3, e2m1,   // FP8 / FP6 / FP4
  b16, b8                         // untyped (ldmatrix, stmatrix, movmatrix)
};

/// Storage bits of one element of `t` (FP6 and FP4: the bits of the value).
TILEAPPLY_HD constexpr int type_bits(type t) {
  switch (t) {
  case type::f64: return 64;
  case type::f32: case type::s32: case type::tf32: return 32;
  case type::f16: case type::bf16: case type::b16: return 16;
  case type::s8: case type::u8: case type::e4m3: case type::e5m2: case type::b8: return 8;
  case type::e3m2: case type::e2m3: return 6;
  case type::s4: case type::u4: case type::e2m1: return 4;
  case type::b1: return 1;
  }
  return 0;
}

// clang-format on

enum class operand : unsigned char { a, b, c, d };

/// The .alayout / .blayout of mma.m8n8k4 (every other shape is .row.col).
enum class major : unsigned char { natural, row, col };

/// An M x N x K instruction shape (ldmatrix/stmatrix use m and n only).
struct shape {
  int m, n, k;
};
constexpr shape m8n8k4{8, 8, 4}, m8n8k16{8, 8, 16}, m8n8k32{8, 8, 32}, m8n8k128{8, 8, 128}, m16n8k4{16, 8, 4},
    m16n8k8{16, 8, 8}, m16n8k16{16, 8, 16}, m16n8k32{16, 8, 32}, m16n8k64{16, 8, 64}, m16n8k128{16, 8, 128},
    m16n8k256{16, 8, 256};
// ldmatrix / stmatrix shapes.
constexpr shape m8n8{8, 8, 0}, m16n16{16, 16, 0}, m8n16{8, 16, 0}, m16n8{16, 8, 0};

/// tcgen05.ld / tcgen05.st data-movement shapes.
enum class tmem_shape : unsigned char { s32x32b, s16x64b, s16x128b, s16x256b, s16x32bx2 };

/// Where an element lives in the matrix.
struct pos {
  int row, col, matrix;
};
/// Who holds an element.
struct holder {
  int thread, reg, elem;
};

/// The formula a layout evaluates. The names say the source; i is the ISA's
/// element index (reg * elems_per_reg + elem), g = lane >> 2 (groupID),
/// t = lane % 4 (threadID_in_group).
// clang-format off: aligned comments and grouped enumerators
enum class formula : unsigned char {
  invalid,
  qp_a_row,  // m8n8k4 .f16 A .row: row = lane%4 (+4 for lanes >= 16), col = i
  qp_a_col,  // m8n8k4 .f16 A .col: row = i (+4), col = lane%4
  qp_b_row,  // m8n8k4 .f16 B .row: row = lane%4, col = i (+4)
  qp_b_col,  // m8n8k4 .f16 B .col: row = i, col = lane%4 (+4)
  qp_c_f16,  // m8n8k4 C/D .f16: row = lane%4 (+4), col = i
  qp_c_f32,  // m8n8k4 C/D .f32: row = (lane&1) + (i&2) (+4), col = (i&4) + (lane&2) + (i&1)
  a884_f64,  // m8n8k4 .f64 A: row = lane >> 2, col = lane % 4
  b884_f64,  // m8n8k4 .f64 B: row = lane % 4, col = lane >> 2
  // A with w consecutive K elements per thread and step:
  //   row = g + 8 * ((i / w) % 2), col = w*t + i%w + 4w * (i / 2w)
  // (m8n8k16/32/128, m16n8k8/k16 .f16/.bf16, m16n8k16/k32 8-bit,
  //  m16n8k32/k64 4-bit, m16n8k128/k256 .b1)
  a_w,
  // B with w consecutive K elements per thread:
  //   row = w*t + i%w + 4w * (i / w), col = g
  b_w,
  a_tf,  // .tf32 / .f64 A: row = g + 8 * (i%2), col = t + 4 * (i/2)
  b_tf,  // .tf32 / .f64 B: row = t + 4 * i, col = g
  c_16,  // C/D: row = g + 8 * ((i/2)%2), col = 2t + i%2 + 8 * (i/4)
  ld_n,  // ldmatrix/stmatrix, no .trans: row = lane >> 2, col = w * (lane%4) + e
  ld_t,  // ldmatrix/stmatrix .m8n8 .trans: row = 2 * (lane%4) + e, col = lane >> 2
  ld_16x16_t, // ldmatrix .m16n16 .trans .b8
  st_16x8_t,  // stmatrix .m16n8 .trans .b8
  mov_d,      // movmatrix destination
  tm_32x32b, tm_16x64b, tm_16x128b, tm_16x256b, tm_16x32bx2,
};
// clang-format on

class layout {
public:
  formula f = formula::invalid;
  int w = 0;             // formula parameter
  int rows_ = 0, cols_ = 0, matrices_ = 0;
  int threads_ = 0, regs_ = 0, per_reg_ = 0, reg_bits_ = 0, elem_bits_ = 0;
  int warp_rows = 0;     // wgmma: rows per warp of the warpgroup (16)
  int sparse_kept = 0, sparse_chunk = 0; // sparse A: kept of chunk columns
  int half_split = 0;    // tcgen05 .16x32bx2: immHalfSplitoff
  bool pack16 = false;   // tcgen05 .pack::16b / .unpack::16b
  const char *error_ = "unsupported form";

  TILEAPPLY_HD constexpr bool ok() const { return error_ == nullptr; }
  TILEAPPLY_HD constexpr const char *error() const { return error_; }
  TILEAPPLY_HD constexpr int regs() const { return regs_; }
  TILEAPPLY_HD constexpr int reg_bits() const { return reg_bits_; }
  TILEAPPLY_HD constexpr int elems_per_reg() const { return per_reg_; }
  TILEAPPLY_HD constexpr int elem_bits() const { return elem_bits_; }
  TILEAPPLY_HD constexpr int elems() const { return regs_ * per_reg_; }
  TILEAPPLY_HD constexpr int threads() const { return threads_; }
  TILEAPPLY_HD constexpr int rows() const { return rows_; }
  TILEAPPLY_HD constexpr int cols() const { return cols_; }
  TILEAPPLY_HD constexpr int matrices() const { return matrices_; }
  TILEAPPLY_HD constexpr bool sparse() const { return sparse_chunk != 0; }
  /// Sparse A: the first and last logical column of the chunk that
  /// compressed column `col` belongs to.
  TILEAPPLY_HD constexpr int sparse_first_col(int col) const {
    return sparse_chunk ? col / sparse_kept * sparse_chunk : col;
  }
  TILEAPPLY_HD constexpr int sparse_last_col(int col) const {
    return sparse_chunk ? sparse_first_col(col) + sparse_chunk - 1 : col;
  }
  /// ldmatrix / stmatrix: the lane whose address is row `row` of matrix `m`.
  TILEAPPLY_HD constexpr int address_lane(int m, int row) const {
    return (f == formula::ld_16x16_t ? 16 : 8) * m + row;
  }

  TILEAPPLY_HD constexpr pos coord(int thread, int reg, int elem) const {
    if (!ok() || thread < 0 || thread >= threads_ || reg < 0 || reg >= regs_ || elem < 0 || elem >= per_reg_)
      return {-1, -1, -1};
    const int lane = thread & 31, warp = thread >> 5;
    const int i = reg * per_reg_ + elem;
    const int g = lane >> 2, t = lane & 3, hi = lane >> 4;
    const int base = warp * warp_rows;
    switch (f) {
    case formula::qp_a_row: return {t + 4 * hi, i, g & 3};
    case formula::qp_a_col: return {i + 4 * hi, t, g & 3};
    case formula::qp_b_row: return {t, i + 4 * hi, g & 3};
    case formula::qp_b_col: return {i, t + 4 * hi, g & 3};
    case formula::qp_c_f16: return {t + 4 * hi, i, g & 3};
    case formula::qp_c_f32: return {(lane & 1) + (i & 2) + 4 * hi, (i & 4) + (lane & 2) + (i & 1), g & 3};
    case formula::a884_f64: return {g, t, 0};
    case formula::b884_f64: return {t, g, 0};
    case formula::a_w: return {base + g + 8 * ((i / w) % 2), w * t + i % w + 4 * w * (i / (2 * w)), 0};
    case formula::b_w: return {w * t + i % w + 4 * w * (i / w), g, 0};
    case formula::a_tf: return {base + g + 8 * (i % 2), t + 4 * (i / 2), 0};
    case formula::b_tf: return {t + 4 * i, g, 0};
    case formula::c_16: return {base + g + 8 * ((i / 2) % 2), 2 * t + i % 2 + 8 * (i / 4), 0};
    case formula::ld_n: return {g, w * t + elem, reg};
    case formula::ld_t: return {2 * t + elem, g, reg};
    case formula::ld_16x16_t: return {(elem & 1) + 2 * (reg & 1) + 4 * t, g + 8 * (elem >> 1), reg >> 1};
    case formula::st_16x8_t: return {2 * t + (elem & 1), g + 8 * (elem >> 1), reg};
    case formula::mov_d: return {2 * t + elem, g, 0};
    case formula::tm_32x32b: return {lane, tm_col(reg, elem), 0};
    case formula::tm_16x64b: return {g + 8 * (lane & 1), tm_col(((lane >> 1) & 1) + 2 * reg, elem), 0};
    case formula::tm_16x128b: return {g + 8 * (reg & 1), tm_col(t + 4 * (reg >> 1), elem), 0};
    case formula::tm_16x256b: return {g + 8 * ((reg >> 1) & 1), tm_col(2 * t + (reg & 1) + 8 * (reg >> 2), elem), 0};
    case formula::tm_16x32bx2: return {lane & 15, tm_col(reg, elem) + (lane >= 16 ? half_split : 0), 0};
    case formula::invalid: break;
    }
    return {-1, -1, -1};
  }

  /// The thread, register and element holding (row, col) of matrix `m`;
  /// {-1,-1,-1} when no one does. A linear search: for tests and host code.
  TILEAPPLY_HD constexpr holder find(int row, int col, int m = 0) const {
    for (int th = 0; th < threads_; ++th)
      for (int r = 0; r < regs_; ++r)
        for (int e = 0; e < per_reg_; ++e) {
          pos p = coord(th, r, e);
          if (p.row == row && p.col == col && p.matrix == m) return {th, r, e};
        }
    return {-1, -1, -1};
  }

private:
  TILEAPPLY_HD constexpr int tm_col(int c, int elem) const { return pack16 ? 2 * c + elem : c; }
};

namespace detail {

TILEAPPLY_HD constexpr layout fail(const char *why) {
  layout l;
  l.error_ = why;
  return l;
}

TILEAPPLY_HD constexpr layout make(formula f, int w, int rows, int cols, int regs, int per_reg, int elem_bits,
                                   int reg_bits = 32, int threads = 32, int matrices = 1) {
  layout l;
  l.f = f;
  l.w = w;
  l.rows_ = rows;
  l.cols_ = cols;
  l.regs_ = regs;
  l.per_reg_ = per_reg;
  l.elem_bits_ = elem_bits;
  l.reg_bits_ = reg_bits;
  l.threads_ = threads;
  l.matrices_ = matrices;
  l.error_ = nullptr;
  return l;
}

// Marks a layout as a sparse A: `kept` of every `chunk` logical columns.
TILEAPPLY_HD constexpr layout sp(layout l, int kept, int chunk) {
  l.sparse_kept = kept;
  l.sparse_chunk = chunk;
  return l;
}

TILEAPPLY_HD constexpr bool is(shape s, shape r) { return s.m == r.m && s.n == r.n && s.k == r.k; }
TILEAPPLY_HD constexpr bool int8(type t) { return t == type::s8 || t == type::u8; }
TILEAPPLY_HD constexpr bool int4(type t) { return t == type::s4 || t == type::u4; }
TILEAPPLY_HD constexpr bool f8(type t) { return t == type::e4m3 || t == type::e5m2; }
TILEAPPLY_HD constexpr bool f8f6f4(type t) { return f8(t) || t == type::e3m2 || t == type::e2m3 || t == type::e2m1; }
TILEAPPLY_HD constexpr bool half(type t) { return t == type::f16 || t == type::bf16; }

// An A or B fragment of `elems` elements of `bits` each (container bits), in
// 32-bit registers (64-bit for .f64).
TILEAPPLY_HD constexpr layout ab(formula f, int w, int rows, int cols, int elems, int bits) {
  const int reg_bits = bits == 64 ? 64 : 32;
  const int per = reg_bits / bits;
  return make(f, w, rows, cols, elems / per, per, bits, reg_bits);
}

// The C/D fragment of a 16 x 8 (or 8 x 8) tile for accumulator type t.
TILEAPPLY_HD constexpr layout acc(int m, type t) {
  const int elems = m == 16 ? 4 : 2;
  switch (t) {
  case type::f32:
  case type::s32: return make(formula::c_16, 0, m, 8, elems, 1, 32);
  case type::f64: return make(formula::c_16, 0, m, 8, elems, 1, 64, 64);
  case type::f16: return make(formula::c_16, 0, m, 8, elems / 2, 2, 16);
  default: return fail("not an accumulator type of this shape (.f16, .f32, .s32 or .f64)");
  }
}

} // namespace detail

/// The fragment of operand `op` of mma.sync.aligned.<s> with element type `t`
/// (A/B: .atype/.btype, C/D: .ctype/.dtype). PTX ISA 9.7.14.5.1 - 9.7.14.5.13.
TILEAPPLY_HD constexpr layout mma(shape s, operand op, type t, major order = major::natural) {
  using namespace detail;
  const bool is_a = op == operand::a, is_b = op == operand::b;
  if (order != major::natural && !is(s, m8n8k4))
    return fail("only mma.m8n8k4 takes a .row/.col layout other than .row.col");
  const bool row = order == major::row, col = order == major::col;
  if (!is_a && !is_b) { // ---- accumulators
    if (is(s, m8n8k4)) { // 9.7.14.5.1 / 9.7.14.5.2
      if (t == type::f16) return make(formula::qp_c_f16, 0, 8, 8, 4, 2, 16, 32, 32, 4);
      if (t == type::f32) return make(formula::qp_c_f32, 0, 8, 8, 8, 1, 32, 32, 32, 4);
      if (t == type::f64) return acc(8, t);
      return fail("mma.m8n8k4 accumulates in .f16, .f32 or .f64");
    }
    if (is(s, m8n8k16) || is(s, m8n8k32) || is(s, m8n8k128)) // 9.7.14.5.3 - 5
      return t == type::s32 ? acc(8, t) : fail("this integer shape accumulates in .s32");
    if (is(s, m16n8k4)) // 9.7.14.5.6
      return t == type::f32 || t == type::f64 ? acc(16, t) : fail("m16n8k4 accumulates in .f32 or .f64");
    if (is(s, m16n8k8)) // 9.7.14.5.7
      return t == type::s32 ? fail("m16n8k8 has no integer form") : acc(16, t);
    if (is(s, m16n8k16)) return acc(16, t); // 9.7.14.5.8 / 9.7.14.5.9
    if (is(s, m16n8k32)) // 9.7.14.5.10
      return t == type::f64 ? fail("m16n8k32 has no .f64 form") : acc(16, t);
    if (is(s, m16n8k64)) // 9.7.14.5.11
      return t == type::f32 || t == type::s32 ? acc(16, t) : fail("m16n8k64 accumulates in .f32 or .s32");
    if (is(s, m16n8k128) || is(s, m16n8k256)) // 9.7.14.5.12 / 13
      return t == type::s32 ? acc(16, t) : fail("the .b1 shapes accumulate in .s32");
    return fail("no mma.sync shape of that size");
  }
  // ---- multiplicands
  if (is(s, m8n8k4)) {
    if (t == type::f16) { // 9.7.14.5.1: four MMAs, one per quad-pair
      if (is_a) return make(col ? formula::qp_a_col : formula::qp_a_row, 0, 8, 4, 2, 2, 16, 32, 32, 4);
      return make(row ? formula::qp_b_row : formula::qp_b_col, 0, 4, 8, 2, 2, 16, 32, 32, 4);
    }
    if (t == type::f64) { // 9.7.14.5.2
      if ((is_a && col) || (is_b && row)) return fail("mma.m8n8k4 .f64 is .row.col only");
      return is_a ? ab(formula::a884_f64, 0, 8, 4, 1, 64) : ab(formula::b884_f64, 0, 4, 8, 1, 64);
    }
    return fail("mma.m8n8k4 multiplies .f16 or .f64");
  }
  if (is(s, m8n8k16) || is(s, m8n8k32) || is(s, m8n8k128)) { // 9.7.14.5.3 - 5
    const int w = s.k / 4;
    const bool okt = (s.k == 16 && int8(t)) || (s.k == 32 && int4(t)) || (s.k == 128 && t == type::b1);
    if (!okt) return fail("m8n8k16 takes .s8/.u8, m8n8k32 .s4/.u4, m8n8k128 .b1");
    return is_a ? ab(formula::a_w, w, 8, s.k, w, type_bits(t)) : ab(formula::b_w, w, s.k, 8, w, type_bits(t));
  }
  if (is(s, m16n8k4)) { // 9.7.14.5.6
    if (t != type::tf32 && t != type::f64) return fail("m16n8k4 multiplies .tf32 or .f64");
    return is_a ? ab(formula::a_tf, 0, 16, 4, 2, type_bits(t)) : ab(formula::b_tf, 0, 4, 8, 1, type_bits(t));
  }
  if (is(s, m16n8k8)) { // 9.7.14.5.7
    if (half(t)) return is_a ? ab(formula::a_w, 2, 16, 8, 4, 16) : ab(formula::b_w, 2, 8, 8, 2, 16);
    if (t == type::tf32 || t == type::f64)
      return is_a ? ab(formula::a_tf, 0, 16, 8, 4, type_bits(t)) : ab(formula::b_tf, 0, 8, 8, 2, type_bits(t));
    return fail("m16n8k8 multiplies .f16, .bf16, .tf32 or .f64");
  }
  if (is(s, m16n8k16)) {
    if (half(t)) // 9.7.14.5.8
      return is_a ? ab(formula::a_w, 2, 16, 16, 8, 16) : ab(formula::b_w, 2, 16, 8, 4, 16);
    if (t == type::f64) // 9.7.14.5.8: a_i at row g + 8*(i%2), col 4*(i/2) + t
      return is_a ? ab(formula::a_tf, 0, 16, 16, 8, 64) : ab(formula::b_tf, 0, 16, 8, 4, 64);
    if (int8(t) || f8(t)) // 9.7.14.5.9
      return is_a ? ab(formula::a_w, 4, 16, 16, 8, 8) : ab(formula::b_w, 4, 16, 8, 4, 8);
    return fail("m16n8k16 multiplies .f16, .bf16, .f64, .s8/.u8 or .e4m3/.e5m2");
  }
  if (is(s, m16n8k32)) { // 9.7.14.5.10
    if (int4(t)) return is_a ? ab(formula::a_w, 8, 16, 32, 16, 4) : ab(formula::b_w, 8, 32, 8, 8, 4);
    // .kind::f8f6f4 puts FP6 and FP4 elements in 8-bit containers.
    if (int8(t) || f8f6f4(t)) return is_a ? ab(formula::a_w, 4, 16, 32, 16, 8) : ab(formula::b_w, 4, 32, 8, 8, 8);
    return fail("m16n8k32 multiplies .s4/.u4, .s8/.u8 or .e4m3/.e5m2/.e3m2/.e2m3/.e2m1");
  }
  if (is(s, m16n8k64)) { // 9.7.14.5.11 (.e2m1: .kind::mxf4 / mxf4nvf4, packed)
    if (!int4(t) && t != type::e2m1) return fail("m16n8k64 multiplies .s4/.u4 or .e2m1");
    return is_a ? ab(formula::a_w, 8, 16, 64, 32, 4) : ab(formula::b_w, 8, 64, 8, 16, 4);
  }
  if (is(s, m16n8k128) || is(s, m16n8k256)) { // 9.7.14.5.12 / 13
    // The ISA's m16n8k256 A formula reads "col = t*32 + i for i < 64"; with
    // rows switching at i = 32 that is t*32 + (i & 0x1F), as its figure shows.
    if (t != type::b1) return fail("m16n8k128 and m16n8k256 multiply .b1");
    const int n = s.k / 2;
    return is_a ? ab(formula::a_w, 32, 16, s.k, n, 1) : ab(formula::b_w, 32, s.k, 8, n / 2, 1);
  }
  return fail("no mma.sync shape of that size");
}

/// The fragment of operand `op` of mma.sp{::ordered_metadata}.sync.aligned.<s>.
/// A is the compressed M x K/2 matrix. PTX ISA 9.7.14.6.
TILEAPPLY_HD constexpr layout mma_sp(shape s, operand op, type t) {
  using namespace detail;
  if (op == operand::c || op == operand::d) { // same as the dense m16n8 accumulators
    if (s.m != 16 || s.n != 8 || (s.k != 8 && s.k != 16 && s.k != 32 && s.k != 64 && s.k != 128))
      return fail("no mma.sp shape of that size");
    return acc(16, t);
  }
  const bool is_a = op == operand::a;
  // Each sparse A below has the layout of the dense A with half the K
  // (9.7.14.6.2.1 - 8 state the rows and the chunk [firstcol, lastcol] of
  // every a_i; the compressed column is its position among the kept ones).
  if (is(s, m16n8k8)) { // 9.7.14.6.2.4: .tf32 1:2; B as dense m16n8k8
    if (t != type::tf32) return fail("sparse m16n8k8 multiplies .tf32");
    return is_a ? sp(ab(formula::a_tf, 0, 16, 4, 2, 32), 1, 2) : mma(m16n8k8, op, t);
  }
  if (is(s, m16n8k16)) {
    if (half(t)) // 9.7.14.6.2.1: 2:4; B as dense m16n8k16
      return is_a ? sp(ab(formula::a_w, 2, 16, 8, 4, 16), 2, 4) : mma(m16n8k16, op, t);
    if (t == type::tf32) // 9.7.14.6.2.3: 1:2. B: the ISA shows only Figure 124;
      // this is the dense .tf32 B rule (row = t + 4i) continued over 16 rows.
      return is_a ? sp(ab(formula::a_tf, 0, 16, 8, 4, 32), 1, 2) : ab(formula::b_tf, 0, 16, 8, 4, 32);
    return fail("sparse m16n8k16 multiplies .f16, .bf16 or .tf32");
  }
  if (is(s, m16n8k32)) {
    if (half(t)) // 9.7.14.6.2.2: 2:4. B: only Figure 121; the dense .f16 B
      // rule (row = 2t + i%2 + 8*(i/2)) continued over 32 rows.
      return is_a ? sp(ab(formula::a_w, 2, 16, 16, 8, 16), 2, 4) : ab(formula::b_w, 2, 32, 8, 8, 16);
    if (int8(t)) // 9.7.14.6.2.5: 2:4; B as dense m16n8k32
      return is_a ? sp(ab(formula::a_w, 4, 16, 16, 8, 8), 2, 4) : mma(m16n8k32, op, t);
    return fail("sparse m16n8k32 multiplies .f16, .bf16 or .s8/.u8");
  }
  if (is(s, m16n8k64)) {
    if (int8(t) || f8f6f4(t)) // 9.7.14.6.2.6: 2:4. B: only Figures 132-135;
      // the dense 8-bit B rule (row = 4t + i%4 + 16*(i/4)) over 64 rows.
      return is_a ? sp(ab(formula::a_w, 4, 16, 32, 16, 8), 2, 4) : ab(formula::b_w, 4, 64, 8, 16, 8);
    if (int4(t)) // 9.7.14.6.2.7: pairwise 4:8; B as dense m16n8k64
      return is_a ? sp(ab(formula::a_w, 8, 16, 32, 16, 4), 4, 8) : mma(m16n8k64, op, t);
    return fail("sparse m16n8k64 multiplies 8-bit types or .s4/.u4");
  }
  if (is(s, m16n8k128)) {
    if (int4(t) || t == type::e2m1) // 9.7.14.6.2.8: pairwise 4:8. B: only Figures
      // 142-145; the dense 4-bit B rule (row = 8t + i%8 + 32*(i/8)) over 128 rows.
      return is_a ? sp(ab(formula::a_w, 8, 16, 64, 32, 4), 4, 8) : ab(formula::b_w, 8, 128, 8, 32, 4);
    return fail("sparse m16n8k128 multiplies .s4/.u4 or .e2m1");
  }
  return fail("no mma.sp shape of that size");
}

namespace detail {
TILEAPPLY_HD constexpr bool wgmma_n_ok(int n, bool integer) {
  if (n < 8 || n > 256 || n % 8) return false;
  return !integer || n <= 32 || n % 16 == 0;
}
TILEAPPLY_HD constexpr layout warpgroup(layout l) {
  if (!l.ok()) return l;
  l.threads_ = 128;
  l.warp_rows = 16;
  l.rows_ = 64;
  return l;
}
} // namespace detail

/// wgmma.mma_async.m64n<n>k<k>: operand a (A from registers) of element type
/// `t`, or c/d (the accumulator) of type `t`. Each warp of the warpgroup holds
/// rows 16 * warp ... + 15 in the m16n8 pattern; D repeats it every 8 columns.
/// PTX ISA 9.7.15.5.1.1 (Figures 148 - 155 give these only as pictures; the
/// per-warp patterns are the mma.m16n8k{8,16,32,256} A and C formulas).
TILEAPPLY_HD constexpr layout wgmma(int n, int k, operand op, type t) {
  using namespace detail;
  if (op == operand::b) return fail("wgmma reads B from shared memory only (a descriptor)");
  if (op == operand::a) {
    if (k == 16 && half(t)) return warpgroup(ab(formula::a_w, 2, 64, 16, 8, 16));
    if (k == 8 && t == type::tf32) return warpgroup(ab(formula::a_tf, 0, 64, 8, 4, 32));
    if (k == 32 && (int8(t) || f8(t))) return warpgroup(ab(formula::a_w, 4, 64, 32, 16, 8));
    if (k == 256 && t == type::b1) return warpgroup(ab(formula::a_w, 32, 64, 256, 128, 1));
    return fail("wgmma A: k16 .f16/.bf16, k8 .tf32, k32 .s8/.u8/.e4m3/.e5m2 or k256 .b1");
  }
  if (k != 8 && k != 16 && k != 32 && k != 256) return fail("wgmma has k 8, 16, 32 or 256");
  if (!wgmma_n_ok(n, t == type::s32))
    return fail("wgmma n is 8..256 in steps of 8 (.s32: 8, 16, 24, 32, then steps of 16)");
  layout l;
  if (t == type::f32 || t == type::s32)
    l = make(formula::c_16, 0, 64, n, n / 2, 1, 32);
  else if (t == type::f16 && k != 8 && k != 256)
    l = make(formula::c_16, 0, 64, n, n / 4, 2, 16);
  else
    return fail("wgmma D is .f32, .f16 (not with .tf32) or .s32");
  return warpgroup(l);
}

/// wgmma.mma_async.sp: A from registers is the compressed 64 x k/2 matrix,
/// laid out like the dense A of half the k (9.7.15.6.2.1 - 3); D as the dense
/// D of that half k (k64 .s8 is k32's, k16 .tf32 k8's: same accumulators).
TILEAPPLY_HD constexpr layout wgmma_sp(int n, int k, operand op, type t) {
  using namespace detail;
  if (op != operand::a) {
    if (k != 16 && k != 32 && k != 64) return fail("sparse wgmma has k 16, 32 or 64");
    return wgmma(n, k / 2, op, t);
  }
  if (k == 32 && half(t)) return sp(wgmma(n, 16, op, t), 2, 4);
  if (k == 16 && t == type::tf32) return sp(wgmma(n, 8, op, t), 1, 2);
  if (k == 64 && (int8(t) || f8(t))) return sp(wgmma(n, 32, op, t), 2, 4);
  return fail("sparse wgmma A: k32 .f16/.bf16, k16 .tf32 or k64 .s8/.u8/.e4m3/.e5m2");
}

/// Register reuse of a wgmma accumulator as a wgmma A operand (FlashAttention's
/// P = softmax(S) fed from registers into O += P x V): the register of the
/// m64nNk* accumulator `acc` (wgmma(n, k, d or c, f32)) that holds element
/// `elem` of register `reg` of the k16 A fragment `a` (wgmma(n2, 16, a, f16 or
/// bf16)) of the same thread, when the accumulator's columns 16 * kstep ...
/// 16 * kstep + 15 are that A's K. Both put (row, col) in the same thread (the
/// m16n8 accumulator and k16 A patterns of each warp's 16 rows), so the
/// conversion is in-thread packing only: A register r of step kk is the pair
/// of accumulators 8 kk + 2 r (low half) and 8 kk + 2 r + 1 (high half),
/// packed to f16x2 / bf16x2 (cvt.rn.bf16x2.f32 d, hi, lo). -1 when the
/// layouts are not such a pair (f16 accumulators, other A types) or an index
/// is out of range.
TILEAPPLY_HD constexpr int acc_to_a(const layout &acc, const layout &a, int kstep, int reg, int elem) {
  if (!acc.ok() || !a.ok() || acc.f != formula::c_16 || acc.elems_per_reg() != 1 || acc.threads() != 128) return -1;
  if (a.f != formula::a_w || a.w != 2 || a.threads() != 128 || a.regs() != 4 || a.elems_per_reg() != 2) return -1;
  if (kstep < 0 || 16 * (kstep + 1) > acc.cols() || reg < 0 || reg >= 4 || elem < 0 || elem >= 2) return -1;
  return 8 * kstep + 2 * reg + elem;
}

/// ldmatrix.sync.aligned.<s>.x<num>{.trans}.<t>. PTX ISA 9.7.14.5.15.
/// .m8n8 .b16: lane l receives row l/4, elements 2*(l%4) and +1 (with .trans:
/// rows 2*(l%4) and +1 of column l/4). .m8n16 (.b8x16 from .b6x16_p32 /
/// .b4x16_p64): row l/4, elements 4*(l%4) ... +3. .m16n16 .trans .b8: the ISA
/// shows only Figure 105 ("4 consecutive columns across 2 rows"); the rule
/// here is the one CUTLASS's SM100_U8x8_LDSM_T / U8x16_LDSM_T encode: byte e
/// of register r is element l/4 + 8*(e/2) of the row supplied by lane
/// 16*(r/2) + (e%2) + 2*(r%2) + 4*(l%4).
TILEAPPLY_HD constexpr layout ldmatrix(shape s, int num, bool trans, type t = type::b16) {
  using namespace detail;
  if (num != 1 && num != 2 && num != 4) return fail("ldmatrix takes .x1, .x2 or .x4");
  if (is(s, m8n8)) {
    if (t != type::b16) return fail("ldmatrix .m8n8 loads .b16");
    return make(trans ? formula::ld_t : formula::ld_n, 2, 8, 8, num, 2, 16, 32, 32, num);
  }
  if (is(s, m16n16)) {
    if (t != type::b8) return fail("ldmatrix .m16n16 loads .b8 (or .b8x16 from 6/4-bit sources)");
    if (!trans) return fail("ldmatrix .m16n16 needs .trans");
    if (num == 4) return fail("ldmatrix .m16n16 takes .x1 or .x2");
    return make(formula::ld_16x16_t, 0, 16, 16, 2 * num, 4, 8, 32, 32, num);
  }
  if (is(s, m8n16)) {
    if (t != type::b8) return fail("ldmatrix .m8n16 loads .b8x16 from .b6x16_p32 or .b4x16_p64");
    if (trans) return fail("ldmatrix .m8n16 has no .trans");
    return make(formula::ld_n, 4, 8, 16, num, 4, 8, 32, 32, num);
  }
  return fail("ldmatrix shapes are .m8n8, .m16n16 and .m8n16");
}

/// stmatrix.sync.aligned.<s>.x<num>{.trans}.<t>. PTX ISA 9.7.14.5.16.
/// .m8n8 .b16: as ldmatrix. .m16n8 .trans .b8 (Figure 108 only; the rule of
/// CUTLASS's SM100_U8x4/x8/x16_STSM_T): byte e of register r of lane l is the
/// 16 x 8 register tile's element (l/4 + 8*(e/2), 2*(l%4) + e%2), the
/// m16n8 accumulator pattern, stored transposed: it lands at element
/// l/4 + 8*(e/2) of the row supplied by lane 8*r + 2*(l%4) + e%2.
TILEAPPLY_HD constexpr layout stmatrix(shape s, int num, bool trans, type t = type::b16) {
  using namespace detail;
  if (num != 1 && num != 2 && num != 4) return fail("stmatrix takes .x1, .x2 or .x4");
  if (is(s, m8n8)) {
    if (t != type::b16) return fail("stmatrix .m8n8 stores .b16");
    return make(trans ? formula::ld_t : formula::ld_n, 2, 8, 8, num, 2, 16, 32, 32, num);
  }
  if (is(s, m16n8)) {
    if (t != type::b8) return fail("stmatrix .m16n8 stores .b8");
    if (!trans) return fail("stmatrix .m16n8 needs .trans");
    return make(formula::st_16x8_t, 0, 8, 16, num, 4, 8, 32, 32, num);
  }
  return fail("stmatrix shapes are .m8n8 and .m16n8");
}

/// movmatrix.sync.aligned.m8n8.trans.b16. PTX ISA 9.7.14.5.17: lane l holds
/// row l/4, elements 2*(l%4) and +1 of the source in `a`; in `d` it holds the
/// same positions of the transpose, i.e. source elements (2*(l%4) + e, l/4).
TILEAPPLY_HD constexpr layout movmatrix(operand op) {
  using namespace detail;
  if (op == operand::a) return make(formula::ld_n, 2, 8, 8, 1, 2, 16);
  if (op == operand::d) return make(formula::mov_d, 0, 8, 8, 1, 2, 16);
  return fail("movmatrix has operands d and a");
}

/// tcgen05.ld / tcgen05.st .<s>.x<num>{.pack::16b / .unpack::16b}. The
/// register counts are the ISA's Table 49 (9.7.16.8.3). The lane/column
/// patterns are drawn in Figures 183 - 187 (9.7.16.2.3.1) only; the rules here
/// are the ones CUTLASS's SM100_TMEM_LOAD_* copy traits encode:
///   .32x32b    lane l <-> TMEM lane l, register r <-> column r
///   .16x64b    TMEM lane l/4 + 8*(l%2), column (l/2)%2 + 2r
///   .16x128b   TMEM lane l/4 + 8*(r%2), column l%4 + 4*(r/2)
///   .16x256b   TMEM lane l/4 + 8*((r/2)%2), column 2*(l%4) + r%2 + 8*(r/4)
///   .16x32bx2  TMEM lane l%16, column r (+ immHalfSplitoff for lanes 16-31)
TILEAPPLY_HD constexpr layout tcgen05(tmem_shape s, int num, bool pack16 = false, int half_split = 0) {
  using namespace detail;
  int per = 1, rows = 16, cols = 0, maxnum = 128;
  formula f = formula::invalid;
  switch (s) {
  case tmem_shape::s32x32b: f = formula::tm_32x32b, rows = 32, cols = num; break;
  case tmem_shape::s16x64b: f = formula::tm_16x64b, cols = 2 * num; break;
  case tmem_shape::s16x128b: f = formula::tm_16x128b, per = 2, cols = 4 * num, maxnum = 64; break;
  case tmem_shape::s16x256b: f = formula::tm_16x256b, per = 4, cols = 8 * num, maxnum = 32; break;
  case tmem_shape::s16x32bx2: f = formula::tm_16x32bx2, cols = half_split + num; break;
  }
  if (num < 1 || num > maxnum || (num & (num - 1)))
    return fail("tcgen05.ld/st .num is .x1 ... .x128 (.16x128b up to .x64, .16x256b up to .x32)");
  const int span = pack16 ? 2 * num : num; // columns one half covers
  if (s == tmem_shape::s16x32bx2 && (half_split < span || half_split > 0xFFFF))
    return fail("the .16x32bx2 immHalfSplitoff must not overlap the first half (>= .num columns)");
  if (s != tmem_shape::s16x32bx2 && half_split != 0) return fail("only .16x32bx2 takes an immHalfSplitoff");
  layout l = pack16 ? make(f, 0, rows, 2 * cols, per * num, 2, 16) : make(f, 0, rows, cols, per * num, 1, 32);
  l.pack16 = pack16;
  l.half_split = half_split;
  if (s == tmem_shape::s16x32bx2) l.cols_ = half_split + span;
  return l;
}

/// The first Tensor Memory lane warp `warp` of a warpgroup may access with
/// tcgen05.ld / tcgen05.st (9.7.16.8.1): 32 * (warp % 4).
TILEAPPLY_HD constexpr int tcgen05_lane_base(int warp) { return 32 * (warp % 4); }

} // namespace frag
} // namespace tile

#endif // TILEAPPLY_FRAGMENT_H
