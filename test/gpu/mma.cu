// mma.sync through __tile_apply, one warp per form, against a CPU reference
// written from the ISA's definition (PTX ISA 9.7.14.5.14): D = A x B + C
// (.b1: D = C + popc(A op B) over K; integers: two's-complement wrap, or
// .satfinite clamping to [INT32_MIN, INT32_MAX]). Every type class the H200
// runs: .f16 (incl. m8n8k4's four quad-pair products), .bf16, .tf32, .f64,
// .s8/.u8, .s4/.u4, .b1, .e4m3/.e5m2.
//
// The fragments come from tileapply/fragment.h: the host places each element
// of A, B and C into the register the map names (matrix_ref.h's place), and
// the device epilogue writes D row-major through the same map. The table's
// register counts must agree with the map's: each kernel declares its
// registers as `X r[L.regs()]`, and the plugin checks them against the form.
//
// Results: integers bit-exact. Floating types within the accumulation error
// the ISA allows (it leaves the order and rounding of the sums open): with S
// = |C| + sum_k |A_ik B_kj| and u the unit roundoff of the accumulation,
//   |D - reference| <= (K + 2) * u * S,
// u = 2^-23 (f32 accumulators, a one-ulp error per step: truncating sums
// included), 2^-10 (f16 accumulators), 2^-52 (f64), and 2^-13 for FP8
// inputs with f32 accumulators (the ISA warns that FP8 sums may keep less
// than single precision; Hopper keeps about 14 bits). A misplaced element
// gives an error of the order of S itself.
#include <tileapply/fragment.h>
#include <tileapply/tile.h>

#include "gpu_test.h"
#include "matrix_ref.h"

#include <cmath>
#include <random>

using namespace gpu_test;
using namespace matrix_ref;
namespace fr = tile::frag;

namespace {

// ---- the device side -------------------------------------------------------------
// Element e of register r of the accumulator, as written to D.
template <class CT> __device__ auto element(CT reg, int e, int per) {
  if constexpr (sizeof(CT) == 4 && !__is_same(CT, float) && !__is_same(CT, int32_t))
    return uint16_t(per == 2 ? reg >> (16 * e) : reg); // .f16x2: two halves
  else
    return reg;
}

// One kernel per form: load the fragments (thread-major), one __tile_apply,
// the epilogue through the C/D map (D is matrices x M x N, row-major).
#define MMA_KERNEL(NAME, OPCODE, AT, CT, DT, LA, LB, LC)                                           \
  __global__ void NAME(const AT *a, const AT *b, const CT *c, DT *d) {                            \
    constexpr fr::layout A = LA, B = LB, C = LC;                                                  \
    static_assert(A.ok() && B.ok() && C.ok(), "fragment");                                        \
    const int l = threadIdx.x;                                                                    \
    AT ra[A.regs()], rb[B.regs()];                                                                \
    CT acc[C.regs()];                                                                             \
    _Pragma("unroll") for (int i = 0; i < A.regs(); ++i) ra[i] = a[l * A.regs() + i];             \
    _Pragma("unroll") for (int i = 0; i < B.regs(); ++i) rb[i] = b[l * B.regs() + i];             \
    _Pragma("unroll") for (int i = 0; i < C.regs(); ++i) acc[i] = c[l * C.regs() + i];            \
    __tile_apply(OPCODE, acc, ra, rb, acc);                                                       \
    _Pragma("unroll") for (int r = 0; r < C.regs(); ++r)                                          \
      _Pragma("unroll") for (int e = 0; e < C.elems_per_reg(); ++e) {                             \
        const fr::pos p = C.coord(l, r, e);                                                       \
        d[(p.matrix * C.rows() + p.row) * C.cols() + p.col] = element(acc[r], e, C.elems_per_reg()); \
      }                                                                                           \
  }

#define L(S, OP, T, ...) fr::mma(fr::S, fr::operand::OP, fr::type::T, ##__VA_ARGS__)

// .f16
MMA_KERNEL(k_16816_f32_f16, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", uint32_t, float, float,
           L(m16n8k16, a, f16), L(m16n8k16, b, f16), L(m16n8k16, c, f32))
MMA_KERNEL(k_16816_f16_f16, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", uint32_t, uint32_t, uint16_t,
           L(m16n8k16, a, f16), L(m16n8k16, b, f16), L(m16n8k16, c, f16))
MMA_KERNEL(k_1688_f32_f16, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", uint32_t, float, float,
           L(m16n8k8, a, f16), L(m16n8k8, b, f16), L(m16n8k8, c, f32))
MMA_KERNEL(k_884_rc_f32, "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32", uint32_t, float, float,
           L(m8n8k4, a, f16, fr::major::row), L(m8n8k4, b, f16, fr::major::col), L(m8n8k4, c, f32))
MMA_KERNEL(k_884_cr_f16, "mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16", uint32_t, uint32_t, uint16_t,
           L(m8n8k4, a, f16, fr::major::col), L(m8n8k4, b, f16, fr::major::row), L(m8n8k4, c, f16))
// .bf16
MMA_KERNEL(k_16816_bf16, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", uint32_t, float, float,
           L(m16n8k16, a, bf16), L(m16n8k16, b, bf16), L(m16n8k16, c, f32))
MMA_KERNEL(k_1688_bf16, "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", uint32_t, float, float,
           L(m16n8k8, a, bf16), L(m16n8k8, b, bf16), L(m16n8k8, c, f32))
// .tf32
MMA_KERNEL(k_1688_tf32, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", uint32_t, float, float,
           L(m16n8k8, a, tf32), L(m16n8k8, b, tf32), L(m16n8k8, c, f32))
MMA_KERNEL(k_1684_tf32, "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", uint32_t, float, float,
           L(m16n8k4, a, tf32), L(m16n8k4, b, tf32), L(m16n8k4, c, f32))
// .f64
MMA_KERNEL(k_884_f64, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", double, double, double,
           L(m8n8k4, a, f64), L(m8n8k4, b, f64), L(m8n8k4, c, f64))
MMA_KERNEL(k_1684_f64, "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64.rn", double, double, double,
           L(m16n8k4, a, f64), L(m16n8k4, b, f64), L(m16n8k4, c, f64))
MMA_KERNEL(k_1688_f64, "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", double, double, double,
           L(m16n8k8, a, f64), L(m16n8k8, b, f64), L(m16n8k8, c, f64))
MMA_KERNEL(k_16816_f64, "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64.rn", double, double, double,
           L(m16n8k16, a, f64), L(m16n8k16, b, f64), L(m16n8k16, c, f64))
// .s8 / .u8
MMA_KERNEL(k_16832_s8, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", uint32_t, int32_t, int32_t,
           L(m16n8k32, a, s8), L(m16n8k32, b, s8), L(m16n8k32, c, s32))
MMA_KERNEL(k_16832_u8s8_sat, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32", uint32_t, int32_t,
           int32_t, L(m16n8k32, a, u8), L(m16n8k32, b, s8), L(m16n8k32, c, s32))
MMA_KERNEL(k_16816_u8, "mma.sync.aligned.m16n8k16.row.col.s32.u8.u8.s32", uint32_t, int32_t, int32_t,
           L(m16n8k16, a, u8), L(m16n8k16, b, u8), L(m16n8k16, c, s32))
MMA_KERNEL(k_8816_s8u8_sat, "mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.u8.s32", uint32_t, int32_t,
           int32_t, L(m8n8k16, a, s8), L(m8n8k16, b, u8), L(m8n8k16, c, s32))
// .s4 / .u4
MMA_KERNEL(k_16864_s4, "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", uint32_t, int32_t, int32_t,
           L(m16n8k64, a, s4), L(m16n8k64, b, s4), L(m16n8k64, c, s32))
MMA_KERNEL(k_16832_u4s4_sat, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.s4.s32", uint32_t, int32_t,
           int32_t, L(m16n8k32, a, u4), L(m16n8k32, b, s4), L(m16n8k32, c, s32))
MMA_KERNEL(k_8832_u4, "mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32", uint32_t, int32_t, int32_t,
           L(m8n8k32, a, u4), L(m8n8k32, b, u4), L(m8n8k32, c, s32))
// .b1
MMA_KERNEL(k_168256_xor, "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc", uint32_t, int32_t, int32_t,
           L(m16n8k256, a, b1), L(m16n8k256, b, b1), L(m16n8k256, c, s32))
MMA_KERNEL(k_168128_and, "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc", uint32_t, int32_t, int32_t,
           L(m16n8k128, a, b1), L(m16n8k128, b, b1), L(m16n8k128, c, s32))
MMA_KERNEL(k_88128_xor, "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc", uint32_t, int32_t, int32_t,
           L(m8n8k128, a, b1), L(m8n8k128, b, b1), L(m8n8k128, c, s32))
// .e4m3 / .e5m2
MMA_KERNEL(k_16832_e4m3, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", uint32_t, float, float,
           L(m16n8k32, a, e4m3), L(m16n8k32, b, e4m3), L(m16n8k32, c, f32))
MMA_KERNEL(k_16832_e5m2e4m3, "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32", uint32_t, float, float,
           L(m16n8k32, a, e5m2), L(m16n8k32, b, e4m3), L(m16n8k32, c, f32))
MMA_KERNEL(k_16832_e4m3e5m2_f16, "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16", uint32_t, uint32_t,
           uint16_t, L(m16n8k32, a, e4m3), L(m16n8k32, b, e5m2), L(m16n8k32, c, f16))
MMA_KERNEL(k_16816_e4m3, "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32", uint32_t, float, float,
           L(m16n8k16, a, e4m3), L(m16n8k16, b, e4m3), L(m16n8k16, c, f32))

// ---- the host side ---------------------------------------------------------------------

enum class op { mad, xor_popc, and_popc };

struct form {
  const char *name;
  fr::layout A, B, C;
  fr::type ta, tb, tc;
  op how;
  bool satfinite;
  double u; // unit roundoff of the accumulation (0: integers, exact)
};

template <class AT, class CT, class DT>
void run(const form &f, void (*kernel)(const AT *, const AT *, const CT *, DT *), std::mt19937 &rng) {
  const int mats = f.C.matrices(), M = f.C.rows(), N = f.C.cols(), K = f.A.cols();
  matrix A(f.ta, mats, M, K), B(f.tb, mats, K, N), C(f.tc, mats, M, N);
  A.randomize(rng);
  B.randomize(rng);
  C.randomize(rng);
  if (f.tc == fr::type::s32) // near the ends of the range: wrap-around and .satfinite show
    for (uint64_t &c : C.code) {
      const uint32_t r = rng();
      c = uint32_t(r & 1 ? 0x7FFFFFFFu - (r >> 12) : 0x80000000u + (r >> 12));
    }
  AT *dA = upload(as<AT>(place(f.A, A))), *dB = upload(as<AT>(place(f.B, B)));
  CT *dC = upload(as<CT>(place(f.C, C)));
  DT *dD = upload(std::vector<DT>(size_t(mats) * M * N, DT(0)));
  kernel<<<1, 32>>>(dA, dB, dC, dD);
  const std::vector<DT> D = download(dD, size_t(mats) * M * N);
  std::vector<double> got, want, bound;
  std::vector<int32_t> igot, iwant;
  for (int m = 0; m < mats; ++m)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        const size_t at = (size_t(m) * M + i) * N + j;
        if (f.u == 0) { // integers: exact, in 64 bits, then wrap or clamp
          int64_t s = int64_t(C.val(m, i, j));
          for (int k = 0; k < K; ++k) {
            const int64_t a = int64_t(A.val(m, i, k)), b = int64_t(B.val(m, k, j));
            s += f.how == op::mad ? a * b : f.how == op::xor_popc ? (a ^ b) : (a & b);
          }
          if (f.satfinite) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
          iwant.push_back(int32_t(uint32_t(uint64_t(s))));
          int32_t g;
          std::memcpy(&g, &D[at], 4);
          igot.push_back(g);
          continue;
        }
        double s = C.val(m, i, j), mag = std::fabs(s);
        for (int k = 0; k < K; ++k) {
          const double p = A.val(m, i, k) * B.val(m, k, j);
          s += p;
          mag += std::fabs(p);
        }
        want.push_back(s);
        bound.push_back((K + 2) * f.u * mag);
        if constexpr (sizeof(DT) == 2)
          got.push_back(tile::packed::f16_to_float(D[at]));
        else
          got.push_back(double(D[at]));
      }
  if (f.u == 0)
    expect_bits(f.name, igot, iwant);
  else
    expect_close(f.name, got, want, bound);
  TILEAPPLY_CUDA_CHECK(cudaFree(dA));
  TILEAPPLY_CUDA_CHECK(cudaFree(dB));
  TILEAPPLY_CUDA_CHECK(cudaFree(dC));
  TILEAPPLY_CUDA_CHECK(cudaFree(dD));
}

constexpr double kF32 = 0x1p-23, kF16 = 0x1p-10, kF64 = 0x1p-52, kF8 = 0x1p-13;
using T = fr::type;

} // namespace

#define RUN(K, NAME, LA, LB, LC, TA, TB, TC, HOW, SAT, U)                                      \
  run(form{NAME, LA, LB, LC, T::TA, T::TB, T::TC, op::HOW, SAT, U}, K, rng)

int main() {
  if (!have_gpu("mma"))
    return 0;
  std::mt19937 rng(90);
  RUN(k_16816_f32_f16, "m16n8k16 .f32.f16.f16.f32", L(m16n8k16, a, f16), L(m16n8k16, b, f16), L(m16n8k16, c, f32), f16, f16, f32, mad, false, kF32);
  RUN(k_16816_f16_f16, "m16n8k16 .f16.f16.f16.f16", L(m16n8k16, a, f16), L(m16n8k16, b, f16), L(m16n8k16, c, f16), f16, f16, f16, mad, false, kF16);
  RUN(k_1688_f32_f16, "m16n8k8 .f32.f16.f16.f32", L(m16n8k8, a, f16), L(m16n8k8, b, f16), L(m16n8k8, c, f32), f16, f16, f32, mad, false, kF32);
  RUN(k_884_rc_f32, "m8n8k4 .row.col .f32.f16.f16.f32 (four quad-pair products)", L(m8n8k4, a, f16, fr::major::row), L(m8n8k4, b, f16, fr::major::col), L(m8n8k4, c, f32), f16, f16, f32, mad, false, kF32);
  RUN(k_884_cr_f16, "m8n8k4 .col.row .f16.f16.f16.f16 (four quad-pair products)", L(m8n8k4, a, f16, fr::major::col), L(m8n8k4, b, f16, fr::major::row), L(m8n8k4, c, f16), f16, f16, f16, mad, false, kF16);
  RUN(k_16816_bf16, "m16n8k16 .f32.bf16.bf16.f32", L(m16n8k16, a, bf16), L(m16n8k16, b, bf16), L(m16n8k16, c, f32), bf16, bf16, f32, mad, false, kF32);
  RUN(k_1688_bf16, "m16n8k8 .f32.bf16.bf16.f32", L(m16n8k8, a, bf16), L(m16n8k8, b, bf16), L(m16n8k8, c, f32), bf16, bf16, f32, mad, false, kF32);
  RUN(k_1688_tf32, "m16n8k8 .f32.tf32.tf32.f32", L(m16n8k8, a, tf32), L(m16n8k8, b, tf32), L(m16n8k8, c, f32), tf32, tf32, f32, mad, false, kF32);
  RUN(k_1684_tf32, "m16n8k4 .f32.tf32.tf32.f32", L(m16n8k4, a, tf32), L(m16n8k4, b, tf32), L(m16n8k4, c, f32), tf32, tf32, f32, mad, false, kF32);
  RUN(k_884_f64, "m8n8k4 .f64", L(m8n8k4, a, f64), L(m8n8k4, b, f64), L(m8n8k4, c, f64), f64, f64, f64, mad, false, kF64);
  RUN(k_1684_f64, "m16n8k4 .f64 .rn", L(m16n8k4, a, f64), L(m16n8k4, b, f64), L(m16n8k4, c, f64), f64, f64, f64, mad, false, kF64);
  RUN(k_1688_f64, "m16n8k8 .f64", L(m16n8k8, a, f64), L(m16n8k8, b, f64), L(m16n8k8, c, f64), f64, f64, f64, mad, false, kF64);
  RUN(k_16816_f64, "m16n8k16 .f64 .rn", L(m16n8k16, a, f64), L(m16n8k16, b, f64), L(m16n8k16, c, f64), f64, f64, f64, mad, false, kF64);
  RUN(k_16832_s8, "m16n8k32 .s32.s8.s8.s32 (wrap-around)", L(m16n8k32, a, s8), L(m16n8k32, b, s8), L(m16n8k32, c, s32), s8, s8, s32, mad, false, 0);
  RUN(k_16832_u8s8_sat, "m16n8k32 .satfinite.s32.u8.s8.s32", L(m16n8k32, a, u8), L(m16n8k32, b, s8), L(m16n8k32, c, s32), u8, s8, s32, mad, true, 0);
  RUN(k_16816_u8, "m16n8k16 .s32.u8.u8.s32", L(m16n8k16, a, u8), L(m16n8k16, b, u8), L(m16n8k16, c, s32), u8, u8, s32, mad, false, 0);
  RUN(k_8816_s8u8_sat, "m8n8k16 .satfinite.s32.s8.u8.s32", L(m8n8k16, a, s8), L(m8n8k16, b, u8), L(m8n8k16, c, s32), s8, u8, s32, mad, true, 0);
  RUN(k_16864_s4, "m16n8k64 .s32.s4.s4.s32", L(m16n8k64, a, s4), L(m16n8k64, b, s4), L(m16n8k64, c, s32), s4, s4, s32, mad, false, 0);
  RUN(k_16832_u4s4_sat, "m16n8k32 .satfinite.s32.u4.s4.s32", L(m16n8k32, a, u4), L(m16n8k32, b, s4), L(m16n8k32, c, s32), u4, s4, s32, mad, true, 0);
  RUN(k_8832_u4, "m8n8k32 .s32.u4.u4.s32", L(m8n8k32, a, u4), L(m8n8k32, b, u4), L(m8n8k32, c, s32), u4, u4, s32, mad, false, 0);
  RUN(k_168256_xor, "m16n8k256 .b1 .xor.popc", L(m16n8k256, a, b1), L(m16n8k256, b, b1), L(m16n8k256, c, s32), b1, b1, s32, xor_popc, false, 0);
  RUN(k_168128_and, "m16n8k128 .b1 .and.popc", L(m16n8k128, a, b1), L(m16n8k128, b, b1), L(m16n8k128, c, s32), b1, b1, s32, and_popc, false, 0);
  RUN(k_88128_xor, "m8n8k128 .b1 .xor.popc", L(m8n8k128, a, b1), L(m8n8k128, b, b1), L(m8n8k128, c, s32), b1, b1, s32, xor_popc, false, 0);
  RUN(k_16832_e4m3, "m16n8k32 .f32.e4m3.e4m3.f32", L(m16n8k32, a, e4m3), L(m16n8k32, b, e4m3), L(m16n8k32, c, f32), e4m3, e4m3, f32, mad, false, kF8);
  RUN(k_16832_e5m2e4m3, "m16n8k32 .f32.e5m2.e4m3.f32", L(m16n8k32, a, e5m2), L(m16n8k32, b, e4m3), L(m16n8k32, c, f32), e5m2, e4m3, f32, mad, false, kF8);
  RUN(k_16832_e4m3e5m2_f16, "m16n8k32 .f16.e4m3.e5m2.f16", L(m16n8k32, a, e4m3), L(m16n8k32, b, e5m2), L(m16n8k32, c, f16), e4m3, e5m2, f16, mad, false, kF16);
  RUN(k_16816_e4m3, "m16n8k16 .f32.e4m3.e4m3.f32", L(m16n8k16, a, e4m3), L(m16n8k16, b, e4m3), L(m16n8k16, c, f32), e4m3, e4m3, f32, mad, false, kF8);
  return finish("mma");
}
