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
//
// A: M x K bf16 row-major; B: K x N bf16 column-major (N rows of K, K
// contiguous); D: M x N bf16 row-major; bias: N bf16 (fused variants only).
// All device pointers; N and K multiples of 8, pointers 16-byte aligned.
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime.h>

#include <stdio.h>
#include <string>

#include <tileapply/tensor_map.h>

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
constexpr config kF8E5{256, 4, 2, 1, false, true, gemm::kE5m2};

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
    {"ta_e5m2_128x256_s4_fastacc", kF8E5, true, (const void *)gemm::gemm_scaled_kernel<kF8E5>,
     "e5m2 (A) x e4m3 (B), otherwise as ta_fp8_128x256_s4_fastacc"},
    {"ta_e5m2_128x128_s6", kF8E5N128, true, (const void *)gemm::gemm_scaled_kernel<kF8E5N128>,
     "e5m2 (A) x e4m3 (B), otherwise as ta_fp8_128x128_s6"},
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
           "%u threads",
           x.about, gemm::kBM, x.c.bn, x.c.bk(), x.c.stages, x.c.epi_bufs, x.c.cluster,
           x.persistent ? "persistent" : "one unit per CTA", x.c.smem_bytes(), gemm::kThreads);
  return buf;
}

const char *gemm_error(void) { return g_error.c_str(); }

static void *plan_any(int vi, const void *A, const void *B, void *D, const void *bias, const float *scale_a,
                      const float *scale_b, int M, int N, int K, bool scaled_call) {
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
  const bool fp8 = v.c.scaled();
  if (!encode(&p->a, A, uint64_t(K), uint64_t(M), v.c.bk(), gemm::kBM, true, "A", fp8) ||
      !encode(&p->b, B, uint64_t(K), uint64_t(N), v.c.bk(), v.c.b_box_rows(), true, "B", fp8) ||
      !encode(&p->d, D, uint64_t(N), uint64_t(M), gemm::kEpiCols, gemm::kWgM, false, "D")) {
    delete p;
    return nullptr;
  }
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const gemm::schedule s{gemm::ceil_div(p->m, gemm::kBM), gemm::ceil_div(p->n, v.c.bn), v.c.cluster};
  const int units = int(s.units());
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
  return plan_any(vi, A, B, D, bias, nullptr, nullptr, M, N, K, false);
}

void *gemm_plan_scaled(int vi, const void *A, const void *B, void *D, const void *bias, const float *scale_a,
                       const float *scale_b, int M, int N, int K) {
  return plan_any(vi, A, B, D, bias, scale_a, scale_b, M, N, K, true);
}

int gemm_plan_grid(void *pv) { return pv ? static_cast<plan *>(pv)->grid : 0; }

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
  cudaError_t e = cudaLaunchKernelExC(&cfg, v.kernel, v.c.scaled() ? sargs : args);
  if (e != cudaSuccess) g_error = std::string("launch: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  return int(e);
}

void gemm_plan_free(void *pv) { delete static_cast<plan *>(pv); }

// The shape heuristic (gemm_pick): among the persistent variants of one
// dtype with a 128 x 256 tile (4 stages) and a 128 x 128 tile (6 stages),
// the one with the smaller estimated time, in the manner of cuBLAS's
// wave-quantization heuristics: waves x work per tile, where
// waves = ceil(tiles / SMs) and a 128 x 128 tile is taken as 0.575 of a
// 128 x 256 one (half the MMA work, but its loads feed half as many MMAs per
// byte). A shape with fewer 128 x 256 tiles than SMs (skinny M, small N)
// picks 128 x 128: twice the CTAs at work. Returns a variant index, or -1
// (unknown dtype; gemm_error() says why).
int gemm_pick_dtype(const char *dtype, int M, int N, int K) {
  (void)K; // K does not change the tile choice (no split-K yet)
  g_error.clear();
  const std::string dt = dtype ? dtype : "bf16";
  const char *wide = nullptr, *narrow = nullptr;
  if (dt == "bf16") wide = "ta_128x256_s4", narrow = "ta_128x128_s6";
  // fp8: only the promoted 128x128 variants (the 128x256 ones accumulate in
  // the tensor core over all of K, see config::promote).
  else if (dt == "e4m3") wide = "ta_fp8_128x128_s6", narrow = "ta_fp8_128x128_s6";
  else if (dt == "e5m2") wide = "ta_e5m2_128x128_s6", narrow = "ta_e5m2_128x128_s6";
  else {
    fail("gemm_pick: no dtype " + dt + " (bf16, e4m3, e5m2)");
    return -1;
  }
  auto index = [](const char *name) {
    for (int i = 0; i < kNumVariants; ++i)
      if (std::string(kVariants[i].name) == name) return i;
    return -1;
  };
  if (!narrow || M < 1 || N < 1) return index(wide);
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      sms < 1)
    sms = 132; // an H100 SXM / H200
  (void)cudaGetLastError();
  return gemm::pick_narrow(uint32_t(M), uint32_t(N), uint32_t(sms)) ? index(narrow) : index(wide);
}

int gemm_pick(int M, int N, int K) { return gemm_pick_dtype("bf16", M, N, K); }

} // extern "C"
