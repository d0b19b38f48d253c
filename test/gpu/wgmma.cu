// wgmma.mma_async through __tile_apply on one warpgroup (sm_90a), against a
// CPU reference (PTX ISA 9.7.15.5: D = A x B + D, or A x B where scale-d is
// false; imm-scale-a/b = -1 negates A/B):
//   m64nNk16, N in {8, 64, 128, 256}, .f16 and .bf16 inputs, .f32
//   accumulators; A from a shared-memory descriptor and from registers, B from
//   a descriptor; each swizzle mode (none, 32B, 64B, 128B); K = 64, i.e. four
//   mma_async into the same accumulators, the descriptors advanced along K;
//   plus .f16 accumulators (n64) and MN-major ("transposed") A and B
//   (imm-trans-a/b = 1, n64).
// The shared-memory images are built on the host with tileapply/descriptor.h
// (packed_tile: the canonical layout's offset of every element and the LBO /
// SBO; swizzle_address: the swizzle), the descriptors on the device with
// encode() and with_start_address(); A's registers and D are placed and read
// through tileapply/fragment.h's wgmma maps. Nothing here re-derives a layout.
//
// Results within the accumulation error: with S = sum_k |A_ik B_kj| and u =
// 2^-21 (f32 accumulators; four times the f32 unit roundoff: the ISA promises
// at least single precision and leaves order and rounding open) or 2^-10
// (f16 accumulators), |D - reference| <= (K + 2) * u * S. A misplaced element
// or a wrong descriptor gives errors of the order of S.
#include <tileapply/descriptor.h>
#include <tileapply/fragment.h>
#include <tileapply/tile.h>

#include "gpu_test.h"
#include "matrix_ref.h"

#include <random>

using namespace gpu_test;
using namespace matrix_ref;
namespace fr = tile::frag;
namespace td = tile::desc;

namespace {

constexpr int kM = 64, kK = 64, kSteps = kK / 16;
constexpr int kMaxB = 256 * kK * 2; // bytes of the largest B image

// What the device needs to build a descriptor: the encoded LBO / SBO / mode
// (start address 0) and, per k16 step, the byte offset of its first element.
struct operand_desc {
  uint64_t base;
  uint32_t step_offset[kSteps];
};

__device__ uint32_t smem_address(const void *p) { return uint32_t(__cvta_generic_to_shared(p)); }

// Copies both images into shared memory (1024-byte aligned: the swizzle
// patterns repeat every 1024 bytes at most) and makes them visible to the
// asynchronous proxy.
__device__ __forceinline__ void stage(uint8_t *sA, uint8_t *sB, const uint32_t *imgA, int bytesA, const uint32_t *imgB,
                      int bytesB) {
  for (int i = threadIdx.x; i < bytesA / 4; i += 128) reinterpret_cast<uint32_t *>(sA)[i] = imgA[i];
  for (int i = threadIdx.x; i < bytesB / 4; i += 128) reinterpret_cast<uint32_t *>(sB)[i] = imgB[i];
  __tile_apply("fence.proxy.async.shared::cta");
  __syncthreads();
}

// D (64 x N, row-major) through the accumulator's fragment map.
template <int Per, class CT, int R> __device__ __forceinline__ void epilogue(const fr::layout &C, CT (&acc)[R], float *D) {
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int e = 0; e < Per; ++e) {
      const fr::pos p = C.coord(threadIdx.x, r, e);
      float v;
      if constexpr (__is_same(CT, float))
        v = acc[r];
      else
        v = tile::packed::f16_to_float(uint16_t(acc[r] >> (16 * e)));
      D[p.row * C.cols() + p.col] = v;
    }
}

// A and B from descriptors. scale-d is false on the first step: the
// accumulators start as garbage, which it must ignore.
#define WG_DESC(NAME, OPCODE, N, CT, CTYPE, SCALE_B, TRANS_A, TRANS_B)                             \
  __global__ void NAME(const uint32_t *imgA, int bytesA, const uint32_t *imgB, int bytesB,         \
                       operand_desc da, operand_desc db, float *D) {                              \
    __shared__ alignas(1024) uint8_t sA[kM * kK * 2];                                             \
    __shared__ alignas(1024) uint8_t sB[kMaxB];                                                   \
    stage(sA, sB, imgA, bytesA, imgB, bytesB);                                                    \
    constexpr fr::layout C = fr::wgmma(N, 16, fr::operand::d, fr::type::CTYPE);                   \
    CT acc[C.regs()];                                                                             \
    _Pragma("unroll") for (int i = 0; i < C.regs(); ++i) acc[i] = CT(0x7777);                     \
    tile::fence_operand(acc);                                                                     \
    __tile_apply("wgmma.fence.sync.aligned");                                                     \
    _Pragma("unroll") for (int k = 0; k < kSteps; ++k) {                                          \
      const uint64_t a = td::with_start_address(da.base, smem_address(sA) + da.step_offset[k]);   \
      const uint64_t b = td::with_start_address(db.base, smem_address(sB) + db.step_offset[k]);   \
      __tile_apply(OPCODE, acc, a, b, k != 0, 1, SCALE_B, TRANS_A, TRANS_B);                      \
    }                                                                                             \
    __tile_apply("wgmma.commit_group.sync.aligned");                                              \
    __tile_apply("wgmma.wait_group.sync.aligned", 0);                                             \
    tile::fence_operand(acc);                                                                     \
    epilogue<C.elems_per_reg()>(C, acc, D);                                                                        \
  }

// A from registers: regsA is [step][thread][4], placed by the wgmma A map.
#define WG_REG(NAME, OPCODE, N, TYPE)                                                              \
  __global__ void NAME(const uint32_t *regsA, const uint32_t *imgB, int bytesB, operand_desc db,  \
                       float *D) {                                                                \
    __shared__ alignas(1024) uint8_t sB[kMaxB];                                                   \
    stage(sB, sB, imgB, 0, imgB, bytesB);                                                         \
    constexpr fr::layout A = fr::wgmma(N, 16, fr::operand::a, fr::type::TYPE);                    \
    constexpr fr::layout C = fr::wgmma(N, 16, fr::operand::d, fr::type::f32);                     \
    uint32_t a[kSteps][A.regs()];                                                                 \
    _Pragma("unroll") for (int k = 0; k < kSteps; ++k)                                            \
      _Pragma("unroll") for (int i = 0; i < A.regs(); ++i)                                        \
        a[k][i] = regsA[(k * 128 + threadIdx.x) * A.regs() + i];                                  \
    float acc[C.regs()];                                                                          \
    _Pragma("unroll") for (int i = 0; i < C.regs(); ++i) acc[i] = 0.0f;                           \
    tile::fence_operand(acc);                                                                     \
    tile::fence_operand(a);                                                                       \
    __tile_apply("wgmma.fence.sync.aligned");                                                     \
    _Pragma("unroll") for (int k = 0; k < kSteps; ++k) {                                          \
      const uint64_t b = td::with_start_address(db.base, smem_address(sB) + db.step_offset[k]);   \
      __tile_apply(OPCODE, acc, a[k], b, true, 1, 1, 0);                                          \
    }                                                                                             \
    __tile_apply("wgmma.commit_group.sync.aligned");                                              \
    __tile_apply("wgmma.wait_group.sync.aligned", 0);                                             \
    tile::fence_operand(acc);                                                                     \
    epilogue<C.elems_per_reg()>(C, acc, D);                                                                        \
  }

WG_DESC(d8_f16, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", 8, float, f32, 1, 0, 0)
WG_DESC(d64_f16, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", 64, float, f32, 1, 0, 0)
WG_DESC(d128_f16, "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", 128, float, f32, 1, 0, 0)
WG_DESC(d256_f16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", 256, float, f32, 1, 0, 0)
// .bf16 with imm-scale-b = -1: D = -(A x B).
WG_DESC(d8_bf16, "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16", 8, float, f32, -1, 0, 0)
WG_DESC(d64_bf16, "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16", 64, float, f32, -1, 0, 0)
WG_DESC(d128_bf16, "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", 128, float, f32, -1, 0, 0)
WG_DESC(d256_bf16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", 256, float, f32, -1, 0, 0)
// .f16 accumulators; MN-major A and B.
WG_DESC(d64_f16acc, "wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16", 64, uint32_t, f16, 1, 0, 0)
WG_DESC(d64_trans, "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16", 64, float, f32, 1, 1, 1)

WG_REG(r8_f16, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", 8, f16)
WG_REG(r64_f16, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", 64, f16)
WG_REG(r128_f16, "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", 128, f16)
WG_REG(r256_f16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", 256, f16)
WG_REG(r8_bf16, "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16", 8, bf16)
WG_REG(r64_bf16, "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16", 64, bf16)
WG_REG(r128_bf16, "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", 128, bf16)
WG_REG(r256_bf16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", 256, bf16)

// ---- host ------------------------------------------------------------------------------

const char *mode_name(td::swizzle s) {
  return s == td::swizzle::none ? "no swizzle" : s == td::swizzle::b32 ? "32B swizzle"
                                 : s == td::swizzle::b64 ? "64B swizzle" : "128B swizzle";
}

// The shared-memory image of an MN x K operand (element (mn, k) = m.at(0, ...)
// as given by `at`) in the canonical layout, and its descriptor fields.
struct image {
  std::vector<uint32_t> words;
  operand_desc desc;
  bool ok;
};
template <class At> image make_image(td::major mj, td::swizzle sw, int mn, int k, At at) {
  const td::packed p = td::packed_tile(mj, sw, 16, uint32_t(mn), uint32_t(k));
  image img{std::vector<uint32_t>(size_t(mn) * k / 2, 0), {}, p.ok()};
  if (!p.ok()) {
    std::printf("  packed_tile: %s\n", p.error);
    return img;
  }
  auto *bytes = reinterpret_cast<uint16_t *>(img.words.data());
  std::vector<bool> used(size_t(mn) * k, false);
  for (int i = 0; i < mn; ++i)
    for (int j = 0; j < k; ++j) {
      const uint32_t off = td::swizzle_address(sw, p.offset(uint32_t(i), uint32_t(j)));
      // The layout must place every element in the tile, each at its own place.
      if (off / 2 >= used.size() || used[off / 2]) {
        std::printf("  packed_tile: element (%d, %d) at byte %u is outside the tile or taken\n", i, j, off);
        img.ok = false;
        return img;
      }
      used[off / 2] = true;
      bytes[off / 2] = uint16_t(at(i, j));
    }
  const auto e = td::encode(td::wgmma_smem{0, p.lbo, p.sbo, 0, sw});
  if (!e.ok()) {
    std::printf("  encode: %s\n", e.error);
    img.ok = false;
  }
  img.desc.base = e.value;
  for (int s = 0; s < kSteps; ++s) img.desc.step_offset[s] = p.offset(0, uint32_t(16 * s));
  return img;
}

struct result {
  std::vector<double> got, want, bound;
};

// The reference and the comparison for D = sign * A x B (64 x N).
void compare(const char *name, const matrix &A, const matrix &B, int N, const std::vector<float> &D, double sign,
             double u) {
  result r;
  for (int i = 0; i < kM; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0, mag = 0;
      for (int k = 0; k < kK; ++k) {
        const double p = A.val(0, i, k) * B.val(0, k, j);
        s += p;
        mag += std::fabs(p);
      }
      r.want.push_back(sign * s);
      r.bound.push_back((kK + 2) * u * mag);
      r.got.push_back(D[size_t(i) * N + j]);
    }
  expect_close(name, r.got, r.want, r.bound);
}

constexpr double kF32 = 0x1p-21, kF16 = 0x1p-10;
const td::swizzle kModes[] = {td::swizzle::none, td::swizzle::b32, td::swizzle::b64, td::swizzle::b128};

using desc_kernel = void (*)(const uint32_t *, int, const uint32_t *, int, operand_desc, operand_desc, float *);
using reg_kernel = void (*)(const uint32_t *, const uint32_t *, int, operand_desc, float *);

// B is K x N; as an operand it is N x K (K-major: element (n, k)), or K x N
// read MN-major (element (mn = n, k)) with imm-trans-b: the same indexing.
void run_desc(const char *what, desc_kernel k, int N, fr::type t, double sign, bool trans, double u,
              std::mt19937 &rng) {
  for (td::swizzle sw : kModes) {
    matrix A(t, 1, kM, kK), B(t, 1, kK, N);
    A.randomize(rng);
    B.randomize(rng);
    const td::major mj = trans ? td::major::mn : td::major::k;
    const image ia = make_image(mj, sw, kM, kK, [&](int m, int kk) { return A.at(0, m, kk); });
    const image ib = make_image(mj, sw, N, kK, [&](int n, int kk) { return B.at(0, kk, n); });
    char name[160];
    std::snprintf(name, sizeof name, "%s, %s", what, mode_name(sw));
    if (!ia.ok || !ib.ok) {
      std::printf("  FAILED to build the images for %s\n", name);
      ++failures;
      continue;
    }
    uint32_t *dA = upload(ia.words), *dB = upload(ib.words);
    float *dD = upload(std::vector<float>(size_t(kM) * N, -1.0f));
    k<<<1, 128>>>(dA, int(ia.words.size() * 4), dB, int(ib.words.size() * 4), ia.desc, ib.desc, dD);
    compare(name, A, B, N, download(dD, size_t(kM) * N), sign, u);
    TILEAPPLY_CUDA_CHECK(cudaFree(dA));
    TILEAPPLY_CUDA_CHECK(cudaFree(dB));
    TILEAPPLY_CUDA_CHECK(cudaFree(dD));
  }
}

void run_reg(const char *what, reg_kernel k, int N, fr::type t, std::mt19937 &rng) {
  const fr::layout LA = fr::wgmma(N, 16, fr::operand::a, t);
  for (td::swizzle sw : kModes) {
    matrix A(t, 1, kM, kK), B(t, 1, kK, N);
    A.randomize(rng);
    B.randomize(rng);
    // A's registers, one k16 slice per step.
    std::vector<uint32_t> regs;
    for (int s = 0; s < kSteps; ++s) {
      matrix slice(t, 1, kM, 16);
      for (int m = 0; m < kM; ++m)
        for (int kk = 0; kk < 16; ++kk) slice.at(0, m, kk) = A.at(0, m, 16 * s + kk);
      for (uint64_t w : place(LA, slice)) regs.push_back(uint32_t(w));
    }
    const image ib = make_image(td::major::k, sw, N, kK, [&](int n, int kk) { return B.at(0, kk, n); });
    char name[160];
    std::snprintf(name, sizeof name, "%s, B with %s", what, mode_name(sw));
    if (!ib.ok) {
      std::printf("  FAILED to build the image for %s\n", name);
      ++failures;
      continue;
    }
    uint32_t *dA = upload(regs), *dB = upload(ib.words);
    float *dD = upload(std::vector<float>(size_t(kM) * N, -1.0f));
    k<<<1, 128>>>(dA, dB, int(ib.words.size() * 4), ib.desc, dD);
    compare(name, A, B, N, download(dD, size_t(kM) * N), 1.0, kF32);
    TILEAPPLY_CUDA_CHECK(cudaFree(dA));
    TILEAPPLY_CUDA_CHECK(cudaFree(dB));
    TILEAPPLY_CUDA_CHECK(cudaFree(dD));
  }
}

} // namespace

int main() {
  if (!have_gpu("wgmma"))
    return 0;
  cudaDeviceProp prop;
  TILEAPPLY_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major != 9) {
    std::printf("SKIP wgmma: needs an sm_90 GPU (this one is sm_%d%d)\n", prop.major, prop.minor);
    return 0;
  }
  std::mt19937 rng(64);
  using T = fr::type;
  run_desc("m64n8k16 .f16, A and B descriptors", d8_f16, 8, T::f16, 1, false, kF32, rng);
  run_desc("m64n64k16 .f16, A and B descriptors", d64_f16, 64, T::f16, 1, false, kF32, rng);
  run_desc("m64n128k16 .f16, A and B descriptors", d128_f16, 128, T::f16, 1, false, kF32, rng);
  run_desc("m64n256k16 .f16, A and B descriptors", d256_f16, 256, T::f16, 1, false, kF32, rng);
  run_desc("m64n8k16 .bf16, imm-scale-b -1", d8_bf16, 8, T::bf16, -1, false, kF32, rng);
  run_desc("m64n64k16 .bf16, imm-scale-b -1", d64_bf16, 64, T::bf16, -1, false, kF32, rng);
  run_desc("m64n128k16 .bf16, imm-scale-b -1", d128_bf16, 128, T::bf16, -1, false, kF32, rng);
  run_desc("m64n256k16 .bf16, imm-scale-b -1", d256_bf16, 256, T::bf16, -1, false, kF32, rng);
  run_desc("m64n64k16 .f16 -> .f16 accumulators", d64_f16acc, 64, T::f16, 1, false, kF16, rng);
  run_desc("m64n64k16 .bf16, MN-major A and B (imm-trans-a/b 1)", d64_trans, 64, T::bf16, 1, true, kF32, rng);
  run_reg("m64n8k16 .f16, A from registers", r8_f16, 8, T::f16, rng);
  run_reg("m64n64k16 .f16, A from registers", r64_f16, 64, T::f16, rng);
  run_reg("m64n128k16 .f16, A from registers", r128_f16, 128, T::f16, rng);
  run_reg("m64n256k16 .f16, A from registers", r256_f16, 256, T::f16, rng);
  run_reg("m64n8k16 .bf16, A from registers", r8_bf16, 8, T::bf16, rng);
  run_reg("m64n64k16 .bf16, A from registers", r64_bf16, 64, T::bf16, rng);
  run_reg("m64n128k16 .bf16, A from registers", r128_bf16, 128, T::bf16, rng);
  run_reg("m64n256k16 .bf16, A from registers", r256_bf16, 256, T::bf16, rng);
  return finish("wgmma");
}
