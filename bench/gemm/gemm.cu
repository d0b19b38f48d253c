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
};
constexpr int kNumVariants = int(sizeof(kVariants) / sizeof(kVariants[0]));

thread_local std::string g_error;

struct plan {
  CUtensorMap a, b, d; // 128-byte aligned (the type says so; new honours it)
  const void *bias;
  uint32_t m, n, k;
  int v;
  int grid;
};

bool fail(std::string why) {
  g_error = std::move(why);
  return false;
}

bool encode(CUtensorMap *map, const void *ptr, uint64_t inner, uint64_t outer, uint32_t box_inner,
            uint32_t box_outer, bool load, const char *what) {
  tile::tma::tiled t = tile::tma::matrix(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, ptr, outer, inner, box_outer, box_inner);
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

const char *gemm_variant_info(int v) {
  if (v < 0 || v >= kNumVariants) return nullptr;
  thread_local char buf[512];
  const variant &x = kVariants[v];
  snprintf(buf, sizeof buf,
           "%s; tile %ux%ux%u, %u stages, %u epilogue boxes/warpgroup, cluster %u, %s, %u B shared memory, "
           "%u threads",
           x.about, gemm::kBM, x.c.bn, gemm::kBK, x.c.stages, x.c.epi_bufs, x.c.cluster,
           x.persistent ? "persistent" : "one unit per CTA", x.c.smem_bytes(), gemm::kThreads);
  return buf;
}

const char *gemm_error(void) { return g_error.c_str(); }

void *gemm_plan(int vi, const void *A, const void *B, void *D, const void *bias, int M, int N, int K) {
  g_error.clear();
  if (vi < 0 || vi >= kNumVariants) {
    fail("no variant " + std::to_string(vi));
    return nullptr;
  }
  const variant &v = kVariants[vi];
  if (M < 1 || N < 8 || K < 8 || N % 8 || K % 8) {
    fail("shape " + std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K) +
         ": need M >= 1, and N, K positive multiples of 8 (16-byte rows for TMA)");
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
  p->m = uint32_t(M);
  p->n = uint32_t(N);
  p->k = uint32_t(K);
  p->v = vi;
  if (!encode(&p->a, A, uint64_t(K), uint64_t(M), gemm::kBK, gemm::kBM, true, "A") ||
      !encode(&p->b, B, uint64_t(K), uint64_t(N), gemm::kBK, v.c.b_box_rows(), true, "B") ||
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
  cudaError_t e = cudaLaunchKernelExC(&cfg, v.kernel, args);
  if (e != cudaSuccess) g_error = std::string("launch: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  return int(e);
}

void gemm_plan_free(void *pv) { delete static_cast<plan *>(pv); }

} // extern "C"
