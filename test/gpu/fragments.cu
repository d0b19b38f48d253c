// The fragment maps of tileapply/fragment.h, proved on the GPU with raw inline
// asm (this program deliberately does not go through __tile_apply: it checks
// the maps independently of the table). The host places every input element
// into the registers the map says, the GPU runs the instruction, and the
// results, read back through the map, must equal a CPU reference:
//   mma.sync m16n8k16 .f16 / .bf16 (f32 and f16 accumulators), the epilogue
//     done on the device through the map;
//   mma.sp::ordered_metadata m16n8k32 .f16 and m16n8k16 .tf32 (their B
//     layouts are figure-only in the ISA), with metadata that keeps elements
//     0 and 1 of every 4-chunk (0 of every 2-chunk for .tf32);
//   ldmatrix .m8n8 .x1/.x2/.x4, with and without .trans;
//   stmatrix .m8n8 .x1/.x4, with and without .trans;
//   movmatrix .m8n8.trans.
// Values are small multiples of 1/2 and 1/4, so every product and sum is exact
// in f32 (and in f16 for the f16 accumulator): results must match exactly.
#include <tileapply/fragment.h>
#include "gpu_test.h"
#include "m8n8_ref.h"

#include <random>

using namespace gpu_test;
namespace fr = tile::frag;
using tile::packed::bf16_bits;
using tile::packed::bf16_to_float;
using tile::packed::f16_bits;
using tile::packed::f16_to_float;

namespace {

constexpr fr::layout kA = fr::mma(fr::m16n8k16, fr::operand::a, fr::type::f16);
constexpr fr::layout kB = fr::mma(fr::m16n8k16, fr::operand::b, fr::type::f16);
constexpr fr::layout kC = fr::mma(fr::m16n8k16, fr::operand::c, fr::type::f32);
constexpr fr::layout kC16 = fr::mma(fr::m16n8k16, fr::operand::c, fr::type::f16);
static_assert(kA.regs() == 4 && kB.regs() == 2 && kC.regs() == 4 && kC16.regs() == 2, "");

// Registers of every lane, lane-major: regs[lane * l.regs() + r], element e
// in bits [e * elem_bits, (e + 1) * elem_bits). `bits(p)` gives the element
// stored at position p.
template <class F> std::vector<uint32_t> place(const fr::layout &l, F bits) {
  std::vector<uint32_t> regs(32 * l.regs(), 0);
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < l.regs(); ++r)
      for (int e = 0; e < l.elems_per_reg(); ++e) {
        const fr::pos p = l.coord(lane, r, e);
        regs[lane * l.regs() + r] |= uint32_t(bits(p)) << (e * l.elem_bits());
      }
  return regs;
}

float pick(std::mt19937 &rng, float step, int range, bool nonzero = false) {
  for (;;) {
    const int v = int(rng() % (2 * range + 1)) - range;
    if (!nonzero || v != 0) return v * step;
  }
}

// Compares values (so +0 == -0); prints the first few mismatches.
void expect_values(const char *what, const std::vector<float> &got, const std::vector<float> &want) {
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (!(got[i] == want[i]) && bad++ < 4)
      std::printf("  %s[%zu]: got %g, want %g\n", what, i, double(got[i]), double(want[i]));
  std::printf("%s %s (%zu values)\n", bad ? "  mismatch" : "  ok      ", what, want.size());
  failures += bad != 0;
}

// ---- kernels -------------------------------------------------------------------

// D = A * B + C for one m16n8k16 tile with an f32 accumulator. The epilogue
// writes D row-major through the fragment map, on the device.
template <bool BF16>
__global__ void mma_16816_f32(const uint32_t *a, const uint32_t *b, const float *c, float *D) {
  const int l = threadIdx.x;
  uint32_t ra[kA.regs()], rb[kB.regs()];
  float rc[kC.regs()], rd[kC.regs()];
  for (int i = 0; i < kA.regs(); ++i) ra[i] = a[l * kA.regs() + i];
  for (int i = 0; i < kB.regs(); ++i) rb[i] = b[l * kB.regs() + i];
  for (int i = 0; i < kC.regs(); ++i) rc[i] = c[l * kC.regs() + i];
  if (BF16)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};"
                 : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "f"(rc[0]), "f"(rc[1]),
                   "f"(rc[2]), "f"(rc[3]));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};"
                 : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "f"(rc[0]), "f"(rc[1]),
                   "f"(rc[2]), "f"(rc[3]));
  for (int r = 0; r < kC.regs(); ++r) {
    const fr::pos p = kC.coord(l, r, 0);
    D[p.row * 8 + p.col] = rd[r];
  }
}

// The same with .f16 C and D (two .f16x2 registers); registers come back raw.
__global__ void mma_16816_f16(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d) {
  const int l = threadIdx.x;
  uint32_t ra[4], rb[2], rc[2], rd[2];
  for (int i = 0; i < 4; ++i) ra[i] = a[l * 4 + i];
  for (int i = 0; i < 2; ++i) rb[i] = b[l * 2 + i], rc[i] = c[l * 2 + i];
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
               : "=r"(rd[0]), "=r"(rd[1])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "r"(rc[0]), "r"(rc[1]));
  d[l * 2] = rd[0];
  d[l * 2 + 1] = rd[1];
}

// Sparse m16n8k32 .f16 (A: 4 registers of the compressed 16 x 16, B: 4
// registers of 32 x 8) and m16n8k16 .tf32 (A: 4, B: 4). Metadata `e` in every
// lane, sparsity selector 0.
#define MMA_SP_KERNEL(NAME, SHAPE_TYPES)                                                                      \
  __global__ void NAME(const uint32_t *a, const uint32_t *b, const float *c, float *d, uint32_t e) {          \
    const int l = threadIdx.x;                                                                                \
    uint32_t ra[4], rb[4];                                                                                    \
    float rc[4], rd[4];                                                                                       \
    for (int i = 0; i < 4; ++i) ra[i] = a[l * 4 + i], rb[i] = b[l * 4 + i], rc[i] = c[l * 4 + i];             \
    asm volatile("mma.sp::ordered_metadata.sync.aligned." SHAPE_TYPES " {%0,%1,%2,%3}, "                      \
                 "{%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;"                               \
                 : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])                                         \
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "r"(rb[2]),        \
                   "r"(rb[3]), "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]), "r"(e));                       \
    for (int i = 0; i < 4; ++i) d[l * 4 + i] = rd[i];                                                         \
  }
MMA_SP_KERNEL(mma_sp_f16, "m16n8k32.row.col.f32.f16.f16.f32")
MMA_SP_KERNEL(mma_sp_tf32, "m16n8k16.row.col.f32.tf32.tf32.f32")

// Shared-memory rows are 24 halves (48 bytes) apart: no two matrix rows are
// adjacent, so the per-lane row addresses matter. Lane l addresses row l % 8
// of matrix l / 8, i.e. smem row l.
constexpr int kRowStride = 24;

__device__ uint32_t smem_addr(const void *p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// src: 4 matrices of 8 x 8 .b16, [m][row][col]. out: 6 variants x 32 lanes x 4 registers.
__global__ void ldmatrix_all(const uint16_t *src, uint32_t *out) {
  __shared__ alignas(16) uint16_t smem[32 * kRowStride];
  const int l = threadIdx.x;
  for (int c = 0; c < 8; ++c) smem[l * kRowStride + c] = src[l * 8 + c];
  __syncwarp();
  const uint32_t addr = smem_addr(&smem[l * kRowStride]);
  uint32_t r[4];
  uint32_t *o = out + l * 4;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
  o[0] = r[0];
  o += 128;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
  o[0] = r[0], o[1] = r[1];
  o += 128;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
  for (int i = 0; i < 4; ++i) o[i] = r[i];
  o += 128;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
  o[0] = r[0];
  o += 128;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
  o[0] = r[0], o[1] = r[1];
  o += 128;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
  for (int i = 0; i < 4; ++i) o[i] = r[i];
}

// in: 32 lanes x 4 registers. out: the 4 matrices stored, [m][row][col].
template <bool TRANS, int NUM>
__global__ void stmatrix_m8n8(const uint32_t *in, uint16_t *out) {
  __shared__ alignas(16) uint16_t smem[32 * kRowStride];
  const int l = threadIdx.x;
  for (int c = 0; c < kRowStride; ++c) smem[l * kRowStride + c] = 0xDEAD;
  __syncwarp();
  const uint32_t addr = smem_addr(&smem[l * kRowStride]);
  const uint32_t r0 = in[l * 4], r1 = in[l * 4 + 1], r2 = in[l * 4 + 2], r3 = in[l * 4 + 3];
  if (NUM == 1) {
    if (TRANS) asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(addr), "r"(r0) : "memory");
    else asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(addr), "r"(r0) : "memory");
  } else {
    if (TRANS)
      asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(addr), "r"(r0), "r"(r1),
                   "r"(r2), "r"(r3)
                   : "memory");
    else
      asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(addr), "r"(r0), "r"(r1),
                   "r"(r2), "r"(r3)
                   : "memory");
  }
  __syncwarp();
  for (int c = 0; c < 8; ++c) out[l * 8 + c] = smem[l * kRowStride + c];
}

__global__ void movmatrix_t(const uint32_t *in, uint32_t *out) {
  uint32_t d;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(in[threadIdx.x]));
  out[threadIdx.x] = d;
}

// ---- host checks -----------------------------------------------------------------

void check_mma_dense(std::mt19937 &rng) {
  for (int bf = 0; bf < 2; ++bf) {
    float A[16][16], B[16][8], C[16][8];
    for (auto &row : A) for (float &v : row) v = pick(rng, 0.5f, 6);
    for (auto &row : B) for (float &v : row) v = pick(rng, 0.5f, 6);
    for (auto &row : C) for (float &v : row) v = pick(rng, 0.25f, 32, true);
    auto h = [&](float v) { return bf ? bf16_bits(v) : f16_bits(v); };
    const auto a = place(kA, [&](fr::pos p) { return h(A[p.row][p.col]); });
    const auto b = place(kB, [&](fr::pos p) { return h(B[p.row][p.col]); });
    std::vector<float> c(32 * 4), want(16 * 8);
    for (int l = 0; l < 32; ++l)
      for (int r = 0; r < 4; ++r) {
        const fr::pos p = kC.coord(l, r, 0);
        c[l * 4 + r] = C[p.row][p.col];
      }
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 8; ++j) {
        float s = C[i][j];
        for (int k = 0; k < 16; ++k) s += A[i][k] * B[k][j];
        want[i * 8 + j] = s;
      }
    uint32_t *dA = upload(a), *dB = upload(b);
    float *dC = upload(c), *dD = upload(std::vector<float>(128, -1234.0f));
    if (bf) mma_16816_f32<true><<<1, 32>>>(dA, dB, dC, dD);
    else mma_16816_f32<false><<<1, 32>>>(dA, dB, dC, dD);
    expect_values(bf ? "mma.m16n8k16 .bf16 -> .f32 (device epilogue through the C map)"
                     : "mma.m16n8k16 .f16 -> .f32 (device epilogue through the C map)",
                  download(dD, 128), want);
    TILEAPPLY_CUDA_CHECK(cudaFree(dA));
    TILEAPPLY_CUDA_CHECK(cudaFree(dB));
    TILEAPPLY_CUDA_CHECK(cudaFree(dC));
    TILEAPPLY_CUDA_CHECK(cudaFree(dD));
  }
  // .f16 accumulator: C and D packed two per register, read back via the map.
  float A[16][16], B[16][8], C[16][8];
  for (auto &row : A) for (float &v : row) v = pick(rng, 0.5f, 6);
  for (auto &row : B) for (float &v : row) v = pick(rng, 0.5f, 6);
  for (auto &row : C) for (float &v : row) v = pick(rng, 0.25f, 32, true);
  const auto a = place(kA, [&](fr::pos p) { return f16_bits(A[p.row][p.col]); });
  const auto b = place(kB, [&](fr::pos p) { return f16_bits(B[p.row][p.col]); });
  const auto c = place(kC16, [&](fr::pos p) { return f16_bits(C[p.row][p.col]); });
  uint32_t *dA = upload(a), *dB = upload(b), *dC = upload(c), *dD = upload(std::vector<uint32_t>(64, 0));
  mma_16816_f16<<<1, 32>>>(dA, dB, dC, dD);
  const auto d = download(dD, 64);
  std::vector<float> got(128, -1234.0f), want(128);
  for (int l = 0; l < 32; ++l)
    for (int r = 0; r < 2; ++r)
      for (int e = 0; e < 2; ++e) {
        const fr::pos p = kC16.coord(l, r, e);
        got[p.row * 8 + p.col] = f16_to_float(uint16_t(d[l * 2 + r] >> (16 * e)));
      }
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      float s = C[i][j];
      for (int k = 0; k < 16; ++k) s += A[i][k] * B[k][j];
      want[i * 8 + j] = s;
    }
  expect_values("mma.m16n8k16 .f16 -> .f16 (C/D packed through the map)", got, want);
}

// Sparse: the compressed A holds, for every chunk, the kept elements in
// order; metadata 0x4 per chunk keeps positions 0 and 1 (f16, 2:4) or
// position 0 (tf32, 1:2 -- the 4-bit index 0b0100).
void check_mma_sparse(std::mt19937 &rng) {
  for (int tf = 0; tf < 2; ++tf) {
    const fr::layout SA = tf ? fr::mma_sp(fr::m16n8k16, fr::operand::a, fr::type::tf32)
                             : fr::mma_sp(fr::m16n8k32, fr::operand::a, fr::type::f16);
    const fr::layout SB = tf ? fr::mma_sp(fr::m16n8k16, fr::operand::b, fr::type::tf32)
                             : fr::mma_sp(fr::m16n8k32, fr::operand::b, fr::type::f16);
    const fr::layout SC = fr::mma_sp(fr::m16n8k32, fr::operand::c, fr::type::f32);
    const int K = tf ? 16 : 32;
    std::vector<float> Ac(16 * K / 2), Al(16 * K, 0.0f), B(K * 8), C(16 * 8);
    for (float &v : Ac) v = pick(rng, 0.5f, 6);
    for (float &v : B) v = pick(rng, 0.5f, 6);
    for (float &v : C) v = pick(rng, 0.25f, 32, true);
    // logical A: compressed column c sits at sparse_first_col(c) + its rank in the chunk
    for (int i = 0; i < 16; ++i)
      for (int c = 0; c < K / 2; ++c) {
        const int kept = tf ? 1 : 2;
        Al[i * K + SA.sparse_first_col(c) + c % kept] = Ac[i * (K / 2) + c];
      }
    auto bits = [&](float v) { return tf ? tile::packed::float_bits(v) : uint32_t(f16_bits(v)); };
    const auto a = place(SA, [&](fr::pos p) { return bits(Ac[p.row * (K / 2) + p.col]); });
    const auto b = place(SB, [&](fr::pos p) { return bits(B[p.row * 8 + p.col]); });
    std::vector<float> c(128), want(128), got(128, -1234.0f);
    for (int l = 0; l < 32; ++l)
      for (int r = 0; r < 4; ++r) {
        const fr::pos p = SC.coord(l, r, 0);
        c[l * 4 + r] = C[p.row * 8 + p.col];
      }
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 8; ++j) {
        float s = C[i * 8 + j];
        for (int k = 0; k < K; ++k) s += Al[i * K + k] * B[k * 8 + j];
        want[i * 8 + j] = s;
      }
    uint32_t *dA = upload(a), *dB = upload(b);
    float *dC = upload(c), *dD = upload(std::vector<float>(128, 0.0f));
    if (tf) mma_sp_tf32<<<1, 32>>>(dA, dB, dC, dD, 0x44444444u);
    else mma_sp_f16<<<1, 32>>>(dA, dB, dC, dD, 0x44444444u);
    const auto d = download(dD, 128);
    for (int l = 0; l < 32; ++l)
      for (int r = 0; r < 4; ++r) {
        const fr::pos p = SC.coord(l, r, 0);
        got[p.row * 8 + p.col] = d[l * 4 + r];
      }
    expect_values(tf ? "mma.sp m16n8k16 .tf32 (compressed A, figure-only B)"
                     : "mma.sp m16n8k32 .f16 (compressed A, figure-only B)",
                  got, want);
  }
}

using m8n8_ref::fragment_word;
using m8n8_ref::matval;

void check_ldmatrix() {
  uint16_t *dS = upload(m8n8_ref::source());
  uint32_t *dO = upload(std::vector<uint32_t>(6 * 128, 0));
  ldmatrix_all<<<1, 32>>>(dS, dO);
  const auto out = download(dO, 6 * 128);
  const struct {
    const char *name;
    int num;
    bool trans;
  } variants[] = {{"ldmatrix.m8n8.x1", 1, false},       {"ldmatrix.m8n8.x2", 2, false},
                  {"ldmatrix.m8n8.x4", 4, false},       {"ldmatrix.m8n8.x1.trans", 1, true},
                  {"ldmatrix.m8n8.x2.trans", 2, true}, {"ldmatrix.m8n8.x4.trans", 4, true}};
  for (int v = 0; v < 6; ++v) {
    const fr::layout l = fr::ldmatrix(fr::m8n8, variants[v].num, variants[v].trans);
    std::vector<uint32_t> got, want;
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < l.regs(); ++r) {
        got.push_back(out[v * 128 + lane * 4 + r]);
        want.push_back(fragment_word(l, lane, r));
      }
    expect_bits(variants[v].name, got, want);
  }
}

template <bool TRANS, int NUM> void check_stmatrix(const char *name) {
  const fr::layout l = fr::stmatrix(fr::m8n8, NUM, TRANS);
  std::vector<uint32_t> in(32 * 4, 0);
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < NUM; ++r) in[lane * 4 + r] = fragment_word(l, lane, r);
  uint32_t *dI = upload(in);
  uint16_t *dO = upload(std::vector<uint16_t>(4 * 64, 0));
  stmatrix_m8n8<TRANS, NUM><<<1, 32>>>(dI, dO);
  const auto out = download(dO, 4 * 64);
  std::vector<uint16_t> got, want;
  for (int m = 0; m < NUM; ++m) // rows beyond .num matrices are not written
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) {
        // the row at lane address_lane(m, r)'s address, i.e. smem row 8m + r
        got.push_back(out[l.address_lane(m, r) * 8 + c]);
        want.push_back(matval(m, r, c));
      }
  expect_bits(name, got, want);
}

void check_movmatrix() {
  const fr::layout a = fr::movmatrix(fr::operand::a), d = fr::movmatrix(fr::operand::d);
  std::vector<uint32_t> in(32), want(32);
  for (int lane = 0; lane < 32; ++lane) {
    in[lane] = fragment_word(a, lane, 0);
    want[lane] = fragment_word(d, lane, 0);
  }
  uint32_t *dI = upload(in), *dO = upload(std::vector<uint32_t>(32, 0));
  movmatrix_t<<<1, 32>>>(dI, dO);
  expect_bits("movmatrix.m8n8.trans.b16", download(dO, 32), want);
}

} // namespace

int main() {
  if (!have_gpu("fragments"))
    return 0;
  std::mt19937 rng(2024);
  check_mma_dense(rng);
  check_mma_sparse(rng);
  check_ldmatrix();
  check_stmatrix<false, 1>("stmatrix.m8n8.x1");
  check_stmatrix<false, 4>("stmatrix.m8n8.x4");
  check_stmatrix<true, 1>("stmatrix.m8n8.x1.trans");
  check_stmatrix<true, 4>("stmatrix.m8n8.x4.trans");
  check_movmatrix();
  return finish("fragments");
}
