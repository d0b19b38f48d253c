//===- bench/gemm/gemm.cu - The GEMM kernels as a shared library -------*- CUDA -*-===//
//
// Built by bench/gemm/build.sh (clang 22 + the TileApply plugin, -fPIC
// -shared, CUDA's static runtime linked in) into bench/.bin/libgemm.so, which
// bench/gemm/run.py loads with ctypes on the GPU machine. The C interface:
//
//   int         gemm_variants(void)                 how many kernel variants
//   const char *gemm_variant_name(int v)            "ta_128x256_s4", ...
//   const char *gemm_variant_info(int v)            tile, stages, cluster, smem, ...
//   int         gemm_variant_fused(int v)           1: D = GELU(A x B + bias)
//   void       *gemm_plan(int v, A, B, D, bias, M, N, K)
//                 encodes the three tensor maps and picks the grid; null on
//                 error (gemm_error() says why)
//   int         gemm_run(void *plan, void *stream)  launches; 0 or a cudaError_t
//   int         gemm_plan_grid(void *plan)          CTAs launched
//   void        gemm_plan_free(void *plan)
//   const char *gemm_error(void)                    the last error, "" if none
//   const char *gemm_variant_dtype(int v)           "bf16", "e4m3" or "e5m2" (A's type; B e4m3)
//   void       *gemm_plan_scaled(int v, A, B, D, bias, scale_a, scale_b, M, N, K)
//                 plans an fp8 variant: D = bf16(*scale_a * *scale_b * (A x B) (+ bias)),
//                 A M x K and B N x K (both K-major, as torch._scaled_mm takes
//                 them), fp8; scale_a, scale_b device pointers to one float each;
//                 bias null or N bf16; K a multiple of 16
//   int         gemm_pick(int M, int N, int K)      the bf16 variant for the shape
//   int         gemm_pick_dtype(const char *dtype, int M, int N, int K)   the same per dtype
//                 (a *_splitk variant where split-K pays; its plan then takes
//                 the heuristic's slices)
//   int         gemm_pick_nosplit(const char *dtype, int M, int N, int K)
//                 the pick without split-K (the heuristic before it)
//   int         gemm_variant_splitk(int v)          1: a split-K variant
//   void       *gemm_plan_ex(int v, A, B, D, bias, scale_a, scale_b, M, N, K, int splits)
//                 either dtype (scale_a, scale_b null for bf16); splits: 0 the
//                 heuristic's (1 for a variant without split-K), else 1 ...
//                 16 slices of K (split-K variants only; at most the k-blocks).
//                 A split-K plan allocates its workspace (f32 partial tiles
//                 and arrival counters, layout.h's split_ws), freed by
//                 gemm_plan_free; launches of one plan must not overlap
//   int         gemm_plan_splits(void *plan)        slices of K the plan runs
//   int         gemm_plan_whole(void *plan)         tiles it computes whole before
//                 the split ones (splits 0 on bf16: the tail split), else 0
//
// A: M x K bf16 row-major; B: K x N bf16 column-major (N rows of K, K
// contiguous); D: M x N bf16 row-major; bias: N bf16 (fused variants only).
// The ta_skinny_* variants (split-K, no bias) compute D^T = B A^T for small
// M and store D directly; their interface is the same.
// All device pointers; N and K multiples of 8, pointers 16-byte aligned.
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime.h>

#include <stdio.h>
#include <string>

#include <tileapply/tensor_map.h>

#include "../common/bench.h"
#include "gemm.cuh"

namespace {

using gemm::config;

// The variants: the default configuration first; the others trade stages for
// epilogue buffers or tile width, add the cluster multicast, or take out one
// mechanism (wgmma overlap, persistence) to tell where a fault lies.
struct variant {
  const char *name;
  config c;
  bool persistent; // grid = SMs (walk the tiles); else one scheduling unit per CTA
  const void *kernel;
  const char *about;
};

constexpr config kMain{256, 4, 2, 1, false, true};
constexpr config kC2{256, 4, 2, 2, false, true};
constexpr config kN128{128, 6, 2, 1, false, true};
constexpr config kS3{256, 3, 4, 1, false, true};
constexpr config kWait0{256, 4, 2, 1, false, false};
constexpr config kFused{256, 4, 2, 1, true, true};
constexpr config kFusedC2{256, 4, 2, 2, true, true};
constexpr config kF8{256, 4, 2, 1, false, true, gemm::kE4m3};
constexpr config kF8C2{256, 4, 2, 2, false, true, gemm::kE4m3};
constexpr config kF8N128{128, 6, 2, 1, false, true, gemm::kE4m3, true};
constexpr config kF8E5N128{128, 6, 2, 1, false, true, gemm::kE5m2, true};
constexpr config kF8N128PP{128, 6, 2, 1, false, true, gemm::kE4m3, true, false, true};
constexpr config kF8E5{256, 4, 2, 1, false, true, gemm::kE5m2};
constexpr config kF8N128Fast{128, 6, 2, 1, false, true, gemm::kE4m3};
// Promoted every 8 k-blocks (config::promote_every).
constexpr config kF8G8{128, 6, 2, 1, false, true, gemm::kE4m3, true, false, false, false, 8};
constexpr config kF8E5G8{128, 6, 2, 1, false, true, gemm::kE5m2, true, false, false, false, 8};
constexpr config kF8G8C2{128, 6, 2, 2, false, true, gemm::kE4m3, true, false, false, false, 8};
constexpr config kF8E5G8C2{128, 6, 2, 2, false, true, gemm::kE5m2, true, false, false, false, 8};
// Split-K (gemm_splitk_kernel / gemm_scaled_splitk_kernel).
constexpr config kMainSK{256, 4, 2, 1, false, true, gemm::kBf16, false, true};
constexpr config kN128SK{128, 6, 2, 1, false, true, gemm::kBf16, false, true};
constexpr config kFusedSK{256, 4, 2, 1, true, true, gemm::kBf16, false, true};
constexpr config kF8N128SK{128, 6, 2, 1, false, true, gemm::kE4m3, true, true};
constexpr config kF8E5N128SK{128, 6, 2, 1, false, true, gemm::kE5m2, true, true};
// Skinny M (gemm_swap_kernel: D^T = B A^T, split-K), A's rows 16, 32 or 64 a tile.
constexpr config kSkinny16{16, 12, 0, 1, false, true, gemm::kBf16, false, true, false, true};
constexpr config kSkinny32{32, 11, 0, 1, false, true, gemm::kBf16, false, true, false, true};
constexpr config kSkinny64{64, 9, 0, 1, false, true, gemm::kBf16, false, true, false, true};

const variant kVariants[] = {
    {"ta_128x256_s4", kMain, true, (const void *)gemm::gemm_kernel<kMain>,
     "128x256 tile, 4 stages, 2 epilogue boxes, persistent"},
    {"ta_128x256_s4_c2", kC2, true, (const void *)gemm::gemm_kernel<kC2>,
     "as ta_128x256_s4, clusters of 2 along M multicasting B"},
    {"ta_128x128_s6", kN128, true, (const void *)gemm::gemm_kernel<kN128>,
     "128x128 tile, 6 stages, 2 epilogue boxes, persistent"},
    {"ta_128x256_s3_e4", kS3, true, (const void *)gemm::gemm_kernel<kS3>,
     "128x256 tile, 3 stages, 4 epilogue boxes (one round of stores), persistent"},
    {"ta_128x256_s4_wait0", kWait0, true, (const void *)gemm::gemm_kernel<kWait0>,
     "as ta_128x256_s4, waiting for each k-block's wgmma group (no overlap)"},
    {"ta_128x256_s4_tiles", kMain, false, (const void *)gemm::gemm_kernel<kMain>,
     "the ta_128x256_s4 kernel on a grid of one tile per CTA (not persistent)"},
    {"ta_fused_128x256_s4", kFused, true, (const void *)gemm::gemm_kernel<kFused>,
     "as ta_128x256_s4, D = GELU_tanh(A x B + bias)"},
    {"ta_fused_128x256_s4_c2", kFusedC2, true, (const void *)gemm::gemm_kernel<kFusedC2>,
     "as ta_128x256_s4_c2, D = GELU_tanh(A x B + bias)"},
    {"ta_fp8_128x256_s4_fastacc", kF8, true, (const void *)gemm::gemm_scaled_kernel<kF8>,
     "e4m3 x e4m3, D = bf16(scale_a scale_b A x B (+ bias)), 128x256 tile (K 128 a stage), 4 stages, persistent, fast accumulation (the tensor core accumulates over all of K: error grows with K, as torch's use_fast_accum)"},
    {"ta_fp8_128x256_s4_c2_fastacc", kF8C2, true, (const void *)gemm::gemm_scaled_kernel<kF8C2>,
     "as ta_fp8_128x256_s4_fastacc, clusters of 2 along M multicasting B"},
    {"ta_fp8_128x128_s6", kF8N128, true, (const void *)gemm::gemm_scaled_kernel<kF8N128>,
     "e4m3 x e4m3, 128x128 tile, 6 stages, persistent, each k-block of 128 added into f32 accumulators (as cuBLASLt without fast accumulation)"},
    {"ta_fp8_128x128_s6_pp", kF8N128PP, true, (const void *)gemm::gemm_scaled_kernel<kF8N128PP>,
     "as ta_fp8_128x128_s6, the consumer warpgroups taking turns at each k-block's wgmma (one adds while the other multiplies)"},
    {"ta_fp8_128x128_s6_g8", kF8G8, true, (const void *)gemm::gemm_scaled_kernel<kF8G8>,
     "as ta_fp8_128x128_s6, the tensor core accumulating 8 k-blocks (K 1024) with one wgmma group in flight before each f32 add, warpgroup 1 offset by 4"},
    {"ta_fp8_128x128_s6_g8_c2", kF8G8C2, true, (const void *)gemm::gemm_scaled_kernel<kF8G8C2>,
     "as ta_fp8_128x128_s6_g8 on clusters of two CTAs along M, B multicast"},
    {"ta_e5m2_128x128_s6_g8", kF8E5G8, true, (const void *)gemm::gemm_scaled_kernel<kF8E5G8>,
     "e5m2 (A) x e4m3 (B), otherwise as ta_fp8_128x128_s6_g8"},
    {"ta_e5m2_128x128_s6_g8_c2", kF8E5G8C2, true, (const void *)gemm::gemm_scaled_kernel<kF8E5G8C2>,
     "e5m2 (A) x e4m3 (B), otherwise as ta_fp8_128x128_s6_g8_c2"},
    {"ta_fp8_128x128_s6_fastacc", kF8N128Fast, true, (const void *)gemm::gemm_scaled_kernel<kF8N128Fast>,
     "e4m3 x e4m3, 128x128 tile, 6 stages, persistent, fast accumulation (as ta_fp8_128x256_s4_fastacc): the promoted 128x128 kernels' ceiling"},
    {"ta_e5m2_128x256_s4_fastacc", kF8E5, true, (const void *)gemm::gemm_scaled_kernel<kF8E5>,
     "e5m2 (A) x e4m3 (B), otherwise as ta_fp8_128x256_s4_fastacc"},
    {"ta_e5m2_128x128_s6", kF8E5N128, true, (const void *)gemm::gemm_scaled_kernel<kF8E5N128>,
     "e5m2 (A) x e4m3 (B), otherwise as ta_fp8_128x128_s6"},
    {"ta_128x256_s4_splitk", kMainSK, true, (const void *)gemm::gemm_splitk_kernel<kMainSK>,
     "as ta_128x256_s4, split-K: each tile's K in slices on different CTAs, f32 partials summed by the last"},
    {"ta_128x128_s6_splitk", kN128SK, true, (const void *)gemm::gemm_splitk_kernel<kN128SK>,
     "as ta_128x128_s6, split-K"},
    {"ta_fused_128x256_s4_splitk", kFusedSK, true, (const void *)gemm::gemm_splitk_kernel<kFusedSK>,
     "as ta_fused_128x256_s4, split-K (bias + GELU after the sum)"},
    {"ta_fp8_128x128_s6_splitk", kF8N128SK, true, (const void *)gemm::gemm_scaled_splitk_kernel<kF8N128SK>,
     "as ta_fp8_128x128_s6, split-K (scales and bias after the sum)"},
    {"ta_e5m2_128x128_s6_splitk", kF8E5N128SK, true, (const void *)gemm::gemm_scaled_splitk_kernel<kF8E5N128SK>,
     "as ta_e5m2_128x128_s6, split-K"},
    {"ta_skinny_16_s12", kSkinny16, true, (const void *)gemm::gemm_swap_kernel<kSkinny16>,
     "skinny M: D^T = B A^T, tiles of 128 rows of B x 16 rows of A, 12 stages, split-K, D stored directly"},
    {"ta_skinny_32_s11", kSkinny32, true, (const void *)gemm::gemm_swap_kernel<kSkinny32>,
     "as ta_skinny_16_s12, 32 rows of A a tile, 11 stages"},
    {"ta_skinny_64_s9", kSkinny64, true, (const void *)gemm::gemm_swap_kernel<kSkinny64>,
     "as ta_skinny_16_s12, 64 rows of A a tile, 9 stages"},
};
constexpr int kNumVariants = int(sizeof(kVariants) / sizeof(kVariants[0]));

thread_local std::string g_error;

struct plan {
  CUtensorMap a, b, d; // 128-byte aligned (the type says so; new honours it)
  const void *bias;
  const float *scale_a, *scale_b; // fp8 variants: device pointers to one float each
  uint32_t m, n, k;
  int v;
  int grid;
  void *d_out = nullptr;     // skinny (swap) variants: D, stored without a tensor map
  uint32_t splits = 1;       // slices of K (split-K variants)
  uint32_t whole = 0;        // split-K: tiles computed whole before the split ones (layout.h's tail_split)
  void *workspace = nullptr; // split-K: layout.h's split_ws, counters zero
  ~plan() {
    if (workspace) cudaFree(workspace);
  }
};

bool fail(std::string why) {
  g_error = std::move(why);
  return false;
}

bool encode(CUtensorMap *map, const void *ptr, uint64_t inner, uint64_t outer, uint32_t box_inner,
            uint32_t box_outer, bool load, const char *what, bool fp8 = false) {
  tile::tma::tiled t = tile::tma::matrix(fp8 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, ptr,
                                         outer, inner, box_outer, box_inner);
  t.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  t.l2_promotion = load ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_NONE;
  t.oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE; // out-of-range elements read as zero
  tile::tma::status s = tile::tma::encode(map, t);
  if (!s) return fail(std::string("tensor map of ") + what + ": " + s.message);
  return true;
}

bool prepare(const variant &v) {
  // Once per kernel: allow more than 48 KiB of dynamic shared memory.
  cudaError_t e = cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(v.c.smem_bytes()));
  if (e != cudaSuccess)
    return fail(std::string("cudaFuncSetAttribute: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
  return true;
}

} // namespace

extern "C" {

int gemm_variants(void) { return kNumVariants; }

const char *gemm_variant_name(int v) { return v >= 0 && v < kNumVariants ? kVariants[v].name : nullptr; }

int gemm_variant_fused(int v) { return v >= 0 && v < kNumVariants ? int(kVariants[v].c.fused) : -1; }

int gemm_variant_splitk(int v) { return v >= 0 && v < kNumVariants ? int(kVariants[v].c.split) : -1; }

const char *gemm_variant_dtype(int v) {
  if (v < 0 || v >= kNumVariants) return nullptr;
  switch (kVariants[v].c.dtype) {
  case gemm::kE4m3: return "e4m3";
  case gemm::kE5m2: return "e5m2";
  default: return "bf16";
  }
}

const char *gemm_variant_info(int v) {
  if (v < 0 || v >= kNumVariants) return nullptr;
  thread_local char buf[512];
  const variant &x = kVariants[v];
  snprintf(buf, sizeof buf,
           "%s; tile %ux%ux%u, %u stages, %u epilogue boxes/warpgroup, cluster %u, %s, %u B shared memory, "
           "%u threads%s",
           x.about, gemm::kBM, x.c.bn, x.c.bk(), x.c.stages, x.c.epi_bufs, x.c.cluster,
           x.persistent ? "persistent" : "one unit per CTA", x.c.smem_bytes(), gemm::kThreads,
           x.c.split ? ", split-K" : "");
  return buf;
}

const char *gemm_error(void) { return g_error.c_str(); }

static int sm_count() {
  const int sms = bench::sm_count();
  return sms ? sms : 132; // an H100 SXM / H200
}

static void *plan_any(int vi, const void *A, const void *B, void *D, const void *bias, const float *scale_a,
                      const float *scale_b, int M, int N, int K, bool scaled_call, int splits) {
  g_error.clear();
  if (vi < 0 || vi >= kNumVariants) {
    fail("no variant " + std::to_string(vi));
    return nullptr;
  }
  const variant &v = kVariants[vi];
  if (v.c.scaled() != scaled_call) {
    fail(std::string("variant ") + v.name + (v.c.scaled() ? " is fp8: plan it with gemm_plan_scaled"
                                                          : " is bf16: plan it with gemm_plan"));
    return nullptr;
  }
  const int kmul = v.c.scaled() ? 16 : 8; // 16-byte rows of A and B
  if (M < 1 || N < 8 || K < kmul || N % 8 || K % kmul) {
    fail("shape " + std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K) +
         ": need M >= 1, N a positive multiple of 8 and K of " + std::to_string(kmul) + " (16-byte rows for TMA)");
    return nullptr;
  }
  if (v.c.scaled() && (!scale_a || !scale_b)) {
    fail("the fp8 variants need scale_a and scale_b (device pointers to one float each)");
    return nullptr;
  }
  if (v.c.fused && !bias) {
    fail("the fused variant needs a bias vector");
    return nullptr;
  }
  const uint32_t kblocks = gemm::ceil_div(uint32_t(K), v.c.bk());
  const int sms = sm_count();
  if (splits < 0 || splits > int(gemm::kMaxSplits)) {
    fail("splits " + std::to_string(splits) + ": 0 (the heuristic's) or 1 ... " + std::to_string(gemm::kMaxSplits));
    return nullptr;
  }
  if (!v.c.split && splits > 1) {
    fail(std::string("variant ") + v.name + " has no split-K: plan a *_splitk variant for " + std::to_string(splits) +
         " slices");
    return nullptr;
  }
  // The kernel's own output shape: D^T (N x M) for the skinny variants.
  const uint32_t tm = v.c.swap ? uint32_t(N) : uint32_t(M), tn = v.c.swap ? uint32_t(M) : uint32_t(N);
  // splits 0: the heuristic's slices, with whole tiles first where it takes the tail split.
  uint32_t whole = 0;
  if (splits == 0 && v.c.split) {
    const gemm::split_plan sp = gemm::plan_splits(tm, tn, kblocks, uint32_t(sms), v.c.bn, !v.c.scaled());
    splits = int(sp.splits), whole = sp.whole;
  } else if (splits == 0) {
    splits = 1;
  }
  if (uint32_t(splits) > kblocks) {
    fail("splits " + std::to_string(splits) + " > the " + std::to_string(kblocks) + " k-block(s) of K = " +
         std::to_string(K) + ": every slice needs at least one");
    return nullptr;
  }
  static bool prepared[kNumVariants];
  if (!prepared[vi]) {
    if (!prepare(v)) return nullptr;
    prepared[vi] = true;
  }
  plan *p = new plan;
  p->bias = bias;
  p->scale_a = scale_a;
  p->scale_b = scale_b;
  p->m = uint32_t(M);
  p->n = uint32_t(N);
  p->k = uint32_t(K);
  p->v = vi;
  p->splits = uint32_t(splits);
  p->whole = whole;
  const bool fp8 = v.c.scaled();
  bool encoded;
  if (v.c.swap) {
    // The 128-row side of the tile is B's N rows, the narrow side A's M rows.
    p->d_out = D;
    p->d = CUtensorMap{};
    encoded = encode(&p->a, B, uint64_t(K), uint64_t(N), v.c.bk(), gemm::kBM, true, "B", fp8) &&
              encode(&p->b, A, uint64_t(K), uint64_t(M), v.c.bk(), v.c.b_box_rows(), true, "A", fp8);
  } else {
    encoded = encode(&p->a, A, uint64_t(K), uint64_t(M), v.c.bk(), gemm::kBM, true, "A", fp8) &&
              encode(&p->b, B, uint64_t(K), uint64_t(N), v.c.bk(), v.c.b_box_rows(), true, "B", fp8) &&
              encode(&p->d, D, uint64_t(N), uint64_t(M), gemm::kEpiCols, gemm::kWgM, false, "D");
  }
  if (!encoded) {
    delete p;
    return nullptr;
  }
  const gemm::schedule s{gemm::ceil_div(tm, gemm::kBM), gemm::ceil_div(tn, v.c.bn), v.c.cluster};
  const uint64_t units64 = uint64_t(whole) + uint64_t(s.units() - whole) * p->splits;
  if (units64 > uint64_t(INT32_MAX)) {
    fail("too many tiles x slices");
    delete p;
    return nullptr;
  }
  const int units = int(units64);
  if (v.c.split) {
    // The workspace, counters zeroed here; each launch leaves them zero.
    const gemm::split_ws ws{s.units() - whole, p->splits, v.c.acc_regs()};
    cudaError_t e = cudaMalloc(&p->workspace, size_t(ws.bytes()));
    if (e == cudaSuccess) e = cudaMemset(p->workspace, 0, size_t(ws.counter_bytes()));
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      fail("split-K workspace of " + std::to_string(ws.bytes()) + " bytes: " + cudaGetErrorName(e) + " (" +
           cudaGetErrorString(e) + ")");
      (void)cudaGetLastError();
      delete p;
      return nullptr;
    }
  }
  int grid = v.persistent ? sms / int(v.c.cluster) : units; // in scheduling units (clusters)
  if (v.c.cluster > 1 && v.persistent) {
    // As many clusters as can be resident at once.
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = v.c.cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3(v.c.cluster * unsigned(grid));
    cfg.blockDim = dim3(gemm::kThreads);
    cfg.dynamicSmemBytes = v.c.smem_bytes();
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, v.kernel, &cfg) == cudaSuccess && clusters > 0 && clusters < grid)
      grid = clusters;
    (void)cudaGetLastError();
  }
  if (grid > units) grid = units;
  if (grid < 1) grid = 1;
  p->grid = grid * int(v.c.cluster);
  return p;
}

void *gemm_plan(int vi, const void *A, const void *B, void *D, const void *bias, int M, int N, int K) {
  return plan_any(vi, A, B, D, bias, nullptr, nullptr, M, N, K, false, 0);
}

void *gemm_plan_scaled(int vi, const void *A, const void *B, void *D, const void *bias, const float *scale_a,
                       const float *scale_b, int M, int N, int K) {
  return plan_any(vi, A, B, D, bias, scale_a, scale_b, M, N, K, true, 0);
}

void *gemm_plan_ex(int vi, const void *A, const void *B, void *D, const void *bias, const float *scale_a,
                   const float *scale_b, int M, int N, int K, int splits) {
  const bool scaled = vi >= 0 && vi < kNumVariants && kVariants[vi].c.scaled();
  return plan_any(vi, A, B, D, bias, scale_a, scale_b, M, N, K, scaled, splits);
}

int gemm_plan_grid(void *pv) { return pv ? static_cast<plan *>(pv)->grid : 0; }

int gemm_plan_splits(void *pv) { return pv ? int(static_cast<plan *>(pv)->splits) : 0; }

int gemm_plan_whole(void *pv) { return pv ? int(static_cast<plan *>(pv)->whole) : 0; }

int gemm_run(void *pv, void *stream) {
  plan *p = static_cast<plan *>(pv);
  const variant &v = kVariants[p->v];
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[1];
  cfg.gridDim = dim3(unsigned(p->grid));
  cfg.blockDim = dim3(gemm::kThreads);
  cfg.dynamicSmemBytes = v.c.smem_bytes();
  cfg.stream = static_cast<cudaStream_t>(stream);
  if (v.c.cluster > 1) {
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = v.c.cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
  void *args[] = {&p->a, &p->b, &p->d, &p->bias, &p->m, &p->n, &p->k};
  void *sargs[] = {&p->a, &p->b, &p->d, &p->bias, &p->scale_a, &p->scale_b, &p->m, &p->n, &p->k};
  void *kargs[] = {&p->a, &p->b, &p->d, &p->bias, &p->workspace, &p->splits, &p->whole, &p->m, &p->n, &p->k};
  void *skargs[] = {&p->a,         &p->b,      &p->d,     &p->bias, &p->scale_a, &p->scale_b,
                    &p->workspace, &p->splits, &p->whole, &p->m,    &p->n,       &p->k};
  void *wargs[] = {&p->a, &p->b, &p->d_out, &p->workspace, &p->splits, &p->whole, &p->m, &p->n, &p->k};
  void **which = v.c.swap    ? wargs
                 : v.c.split ? (v.c.scaled() ? skargs : kargs)
                             : (v.c.scaled() ? sargs : args);
  cudaError_t e = cudaLaunchKernelExC(&cfg, v.kernel, which);
  if (e != cudaSuccess) g_error = std::string("launch: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  return int(e);
}

void gemm_plan_free(void *pv) { delete static_cast<plan *>(pv); }

// The shape heuristic (gemm_pick; layout.h's pick_shape, checked by
// layout_check): among the persistent variants of one dtype with a
// 128 x 256 tile (4 stages) and a 128 x 128 tile (6 stages), each with or
// without split-K, the one with the smaller estimated time, in the manner of
// cuBLAS's wave-quantization heuristics: waves x work per unit, where
// waves = ceil(units / SMs), a unit is a tile or (split-K) one of its S
// slices of K, and a 128 x 128 k-block is taken as 0.575 of a 128 x 256 one
// (half the MMA work, but its loads feed half as many MMAs per byte).
// Split-K is considered only for a tile with fewer tiles than SMs and S
// slices of at least 8 k-blocks each (S <= 16); it adds the cost of writing
// each slice's f32 partial and of the last slice reading all S back, and is
// taken only where that estimate is at least 10% below the unsplit pick's. Without a
// split, the choice is the one before split-K: a shape with fewer 128 x 256
// tiles than SMs (skinny M, small N) picks 128 x 128, twice the CTAs at work.
// On 132 SMs: M <= 128 with N = 4096 (32 tiles) picks ta_128x128_s6_splitk
// with S = 4, N = K = 8192 (64 tiles) S = 2, M = 256, N = 4096 S = 2 (K 4096)
// or ta_128x256_s4_splitk S = 4 (K 16384); N = 16384 (128 tiles of 128 x 128)
// and every square or K-heavy shape with M, N >= 2048 (128 or more tiles,
// waves already 97% full) keep S = 1. Ahead of all that, bf16 with M <= 64
// takes a skinny variant (layout.h's skinny_bn: the swapped kernel with 16,
// 32 or 64 rows of A a tile), whose plan splits N x M by pick_splits
// (0.96x to 2.43x cuBLAS at the skinny class's M <= 64 shapes on the H200,
// against 0.55x to 1.70x for the 128 x 128 split-K pick: bench/results/gemm-skinny.md). fp8: only the promoted 128 x 128 variants (the
// 128 x 256 ones accumulate in the tensor core over all of K, see
// config::promote), split the same way; unsplit, those promoted every 8
// k-blocks (*_g8, config::promote_every; e4m3 at 4096^3 1.22x the ping-pong
// kernel that promotes every k-block, 8192^3 1.36x, on the H200,
// bench/results/gemm-fp8.md). The split-K ones promote every k-block: the
// g8 loop nest with split-K's fix-up spills 8 bytes under ptxas 13.0. Last,
// an unsplit pick whose operand rows are not 128-byte aligned takes the
// tile's cluster-of-two variant (layout.h's pick_cluster2; bf16 128 x 128
// has none). Returns a variant index, or -1
// (unknown dtype; gemm_error() says why); a *_splitk variant's plan with
// splits 0 takes the same plan (layout.h's plan_splits for its tile). With
// at least as many tiles as SMs (bf16), the split can be the tail split: the
// full waves' tiles whole, the last, at most half-full wave's tiles in S
// slices; on 132 SMs only 3072^3 of the shape classes takes it (128 x 256,
// 264 tiles whole, 24 in 5 slices; estimated 13% below 128 x 128 unsplit,
// measured 1% faster on the H200, and 5% to 16% at five ragged shapes).
static int pick(const char *dtype, int M, int N, int K, bool allow_split) {
  g_error.clear();
  const std::string dt = dtype ? dtype : "bf16";
  // *_c2: the same tile on clusters of two CTAs along M (null: none).
  const char *wide = nullptr, *narrow = nullptr, *wide_sk = nullptr, *narrow_sk = nullptr;
  const char *wide_c2 = nullptr, *narrow_c2 = nullptr;
  bool narrow_only = false;
  uint32_t bk = 64, elem_bytes = 2;
  if (dt == "bf16") {
    wide = "ta_128x256_s4", narrow = "ta_128x128_s6";
    wide_sk = "ta_128x256_s4_splitk", narrow_sk = "ta_128x128_s6_splitk";
    wide_c2 = "ta_128x256_s4_c2";
  } else if (dt == "e4m3" || dt == "e5m2") {
    const bool e4 = dt == "e4m3";
    wide = narrow = e4 ? "ta_fp8_128x128_s6_g8" : "ta_e5m2_128x128_s6_g8";
    wide_sk = narrow_sk = e4 ? "ta_fp8_128x128_s6_splitk" : "ta_e5m2_128x128_s6_splitk";
    wide_c2 = narrow_c2 = e4 ? "ta_fp8_128x128_s6_g8_c2" : "ta_e5m2_128x128_s6_g8_c2";
    narrow_only = true;
    bk = 128, elem_bytes = 1;
  } else {
    fail("gemm_pick: no dtype " + dt + " (bf16, e4m3, e5m2)");
    return -1;
  }
  auto index = [](const char *name) {
    for (int i = 0; i < kNumVariants; ++i)
      if (std::string(kVariants[i].name) == name) return i;
    return -1;
  };
  if (M < 1 || N < 1) return index(wide);
  // Skinny bf16: the swapped kernel whose tile side is layout.h's skinny_bn.
  if (dt == "bf16" && allow_split)
    if (const uint32_t bn = gemm::skinny_bn(uint32_t(M)))
      for (int i = 0; i < kNumVariants; ++i)
        if (kVariants[i].c.swap && kVariants[i].c.bn == bn) return i;
  const uint32_t kblocks = K > 0 ? gemm::ceil_div(uint32_t(K), bk) : 1;
  const gemm::shape_pick sp =
      gemm::pick_shape(uint32_t(M), uint32_t(N), kblocks, uint32_t(sm_count()), narrow_only, allow_split);
  if (sp.splits > 1) return index(sp.narrow ? narrow_sk : wide_sk);
  const char *c2 = sp.narrow ? narrow_c2 : wide_c2;
  if (c2 && K > 0 && gemm::pick_cluster2(uint32_t(M), uint32_t(K), elem_bytes)) return index(c2);
  return index(sp.narrow ? narrow : wide);
}

int gemm_pick_dtype(const char *dtype, int M, int N, int K) { return pick(dtype, M, N, K, true); }

int gemm_pick_nosplit(const char *dtype, int M, int N, int K) { return pick(dtype, M, N, K, false); }

int gemm_pick(int M, int N, int K) { return gemm_pick_dtype("bf16", M, N, K); }

} // extern "C"
