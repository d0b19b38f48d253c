//===- bench/attention/attn.cu - The attention kernels as a shared library -*- CUDA -*-===//
//
// Built by bench/attention/build.sh (clang 22 + the TileApply plugin, -fPIC
// -shared, CUDA's static runtime linked in) into bench/.bin/libattn.so, which
// bench/attention/run.py loads with ctypes. The C interface:
//
//   int attn_fwd(const void *q, const void *k, const void *v, void *o, float *lse,
//                int batch, int heads, int heads_kv, int seqlen_q, int seqlen_k,
//                int head_dim, int causal, float softmax_scale, void *stream)
//       q, o: [batch, seqlen_q, heads, head_dim] bf16; k, v: [batch, seqlen_k,
//       heads_kv, head_dim] bf16; all contiguous, 16-byte aligned device
//       pointers; lse: [batch, heads, seqlen_q] f32 (natural log), or null.
//       Returns 0 when launched, nonzero when refused or the launch failed
//       (attn_error() says why). A fully masked row (causal, seqlen_q >
//       seqlen_k) gives O = 0 and LSE = +inf, as FlashAttention.
//   const char *attn_error(void)       the last error, "" if none
//   const char *attn_config(int d)     the kernel configuration for head dim d
//   int         attn_set_mode(int m)   0: the fastest kernel per head dim (default),
//                                      1 to 7: the others (README.md); returns the old mode
//   int         attn_set_persistent(int on)  1 (default): at most one CTA per SM, each
//                                      taking tiles in turn; 0: one CTA per tile;
//                                      returns the old setting
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <string>

#include <tileapply/tensor_map.h>

#include "../common/bench.h"
#include "attn.cuh"
#include "configs.h"

namespace {

using attn::config;

using namespace attn::configs;

struct variant {
  config c;
  const void *kernel;
  int mode;
};
// Mode 0: the default, the fastest per head dim (see above); mode 1: the
// plain loop (each wgmma group waited for), kept as the reference the pipelined ones must match; mode 2: pipelined with
// ping-pong between the consumer warpgroups; modes 3 and 4: pipelined, and
// pipelined with ping-pong, with wider KV blocks (d 256: the plain loop at
// bn 80, and mode 2's kernel); modes 5 and 6: three consumer warpgroups at
// d 64, pipelined and with ping-pong (6 is mode 0's kernel); mode 7: three
// consumer warpgroups with P through shared memory at d 64. A mode with no
// kernel of its own at a head dim (5 to 7 at d 128 and 256) takes mode 0's
// (find_variant).
const variant kVariants[] = {
    {kD64, (const void *)attn::attn_kernel<kD64>, 0},     {kD128, (const void *)attn::attn_kernel<kD128>, 0},
    {kD256, (const void *)attn::attn_kernel<kD256>, 0},   {kD64s, (const void *)attn::attn_kernel<kD64s>, 1},
    {kD128s, (const void *)attn::attn_kernel<kD128s>, 1}, {kD256s, (const void *)attn::attn_kernel<kD256s>, 1},
    {kD64p, (const void *)attn::attn_kernel<kD64p>, 2},   {kD128p, (const void *)attn::attn_kernel<kD128p>, 2},
    {kD256p, (const void *)attn::attn_kernel<kD256p>, 2},
    {kD64w, (const void *)attn::attn_kernel<kD64w>, 3},   {kD128w, (const void *)attn::attn_kernel<kD128w>, 3},
    {kD256w, (const void *)attn::attn_kernel<kD256w>, 3}, {kD64wp, (const void *)attn::attn_kernel<kD64wp>, 4},
    {kD128wp, (const void *)attn::attn_kernel<kD128wp>, 4}, {kD256p, (const void *)attn::attn_kernel<kD256p>, 4},
    {kD64t, (const void *)attn::attn_kernel<kD64t>, 5},   {kD64tp, (const void *)attn::attn_kernel<kD64tp>, 6},
    {kD64sp, (const void *)attn::attn_kernel<kD64sp>, 7},
};
constexpr int kNumVariants = int(sizeof(kVariants) / sizeof(kVariants[0]));
constexpr int kNumModes = 8;

/// The kernel of `mode` for head dim d: its own, else mode 0's; null for a
/// head dim without kernels.
const variant *find_variant(int d, int mode) {
  const variant *fallback = nullptr;
  for (const variant &v : kVariants) {
    if (int(v.c.d) != d) continue;
    if (v.mode == mode) return &v;
    if (v.mode == 0) fallback = &v;
  }
  return fallback;
}
int g_mode = 0;
bool g_persistent = true;

thread_local std::string g_error;

int fail(std::string why) {
  g_error = std::move(why);
  return 1;
}

/// A 4-D map over [batch, seqlen, heads, d] (innermost first: d, seqlen, heads, batch).
bool encode(CUtensorMap *map, const void *ptr, uint64_t b, uint64_t s, uint64_t h, uint64_t d, uint32_t box_rows,
            bool load, const char *what) {
  tile::tma::tiled t;
  t.dtype = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  t.rank = 4;
  t.address = ptr;
  t.dims[0] = d;
  t.dims[1] = s;
  t.dims[2] = h;
  t.dims[3] = b;
  t.strides[0] = h * d * 2;
  t.strides[1] = d * 2;
  t.strides[2] = s * h * d * 2;
  t.box[0] = attn::kChunk;
  t.box[1] = box_rows;
  t.box[2] = 1;
  t.box[3] = 1;
  t.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  t.l2_promotion = load ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_NONE;
  t.oob_fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  tile::tma::status st = tile::tma::encode(map, t);
  if (!st) {
    g_error = std::string("tensor map of ") + what + ": " + st.message;
    return false;
  }
  return true;
}

} // namespace

extern "C" {

const char *attn_error(void) { return g_error.c_str(); }

/// Which kernels attn_fwd launches: 0 the default (the fastest per head dim),
/// 1 the plain loop, 2 pipelined with ping-pong, 3 and 4: pipelined and ping-pong with wider
/// KV blocks, 5 and 6: three consumer warpgroups at d 64, 7: those with P through
/// shared memory. Returns the previous mode, or -1 for an unknown one.
int attn_set_mode(int mode) {
  if (mode < 0 || mode >= kNumModes) return -1;
  const int old = g_mode;
  g_mode = mode;
  return old;
}

/// 1 (the default): persistent CTAs, at most one per SM; 0: one CTA per
/// tile (the same kernel; kept to measure what persistence gains). Returns
/// the previous setting, or -1 for a value other than 0 and 1.
int attn_set_persistent(int on) {
  if (on != 0 && on != 1) return -1;
  const int old = g_persistent ? 1 : 0;
  g_persistent = on != 0;
  return old;
}

const char *attn_config(int d) {
  const variant *v = find_variant(d, g_mode);
  if (!v) return nullptr;
  thread_local char buf[256];
  snprintf(buf, sizeof buf,
           "d %u: Q tile %u rows, KV block %u rows, %u stages, %s, O staged %s, %u B shared memory, "
           "%u threads, %s",
           v->c.d, v->c.bm(), v->c.bn, v->c.stages,
           v->c.pingpong ? "pipelined + ping-pong" : v->c.overlap ? "pipelined (S of j+1 over P V of j)" : "plain loop",
           v->c.separate_o() ? "apart" : "in Q's place", v->c.smem_bytes(), v->c.threads(),
           g_persistent ? "persistent" : "one CTA per tile");
  return buf;
}

int attn_fwd(const void *q, const void *k, const void *v, void *o, float *lse, int batch, int heads, int heads_kv,
             int seqlen_q, int seqlen_k, int head_dim, int causal, float softmax_scale, void *stream) {
  g_error.clear();
  const variant *var = find_variant(head_dim, g_mode);
  if (!var) return fail("head_dim " + std::to_string(head_dim) + " is not supported (64, 128 or 256)");
  if (batch < 1 || heads < 1 || heads_kv < 1 || seqlen_q < 1 || seqlen_k < 1)
    return fail("batch, heads, heads_kv, seqlen_q and seqlen_k must be positive");
  if (heads % heads_kv) return fail("heads_kv (" + std::to_string(heads_kv) + ") must divide heads (" +
                                    std::to_string(heads) + ")");
  if (causal != 0 && causal != 1) return fail("causal must be 0 or 1");
  if (!q || !k || !v || !o) return fail("q, k, v and o must be device pointers (only lse may be null)");
  for (const void *p : {q, k, v, (const void *)o})
    if (reinterpret_cast<uintptr_t>(p) % 16) return fail("q, k, v and o must be 16-byte aligned");
  if (lse && reinterpret_cast<uintptr_t>(lse) % 4) return fail("lse must be 4-byte aligned");
  if (!(softmax_scale > 0.f) || !isfinite(softmax_scale)) return fail("softmax_scale must be positive and finite");
  const uint64_t bm = var->c.bm();
  const uint64_t m_blocks = (uint64_t(seqlen_q) + bm - 1) / bm;
  const uint64_t tiles = m_blocks * uint64_t(heads) * uint64_t(batch);
  if (tiles > 0x7fffffffull)
    return fail("too many tiles: ceil(seqlen_q / " + std::to_string(bm) + ") x heads x batch must be below 2^31");
  // TMA coordinates are signed 32-bit, strides below 2^40 bytes.
  if (uint64_t(seqlen_q) * heads * head_dim * 2 >= (1ull << 40) ||
      uint64_t(seqlen_k) * heads_kv * head_dim * 2 >= (1ull << 40))
    return fail("tensor too large for TMA strides (2^40 bytes per batch)");

  static bool prepared[kNumVariants];
  const int vi = int(var - kVariants);
  if (!prepared[vi]) {
    cudaError_t e = cudaFuncSetAttribute(var->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         int(var->c.smem_bytes()));
    if (e != cudaSuccess)
      return fail(std::string("cudaFuncSetAttribute: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
    prepared[vi] = true;
  }
  CUtensorMap tq, tk, tv, to;
  const uint64_t D = uint64_t(head_dim);
  if (!encode(&tq, q, batch, seqlen_q, heads, D, uint32_t(bm), true, "Q") ||
      !encode(&tk, k, batch, seqlen_k, heads_kv, D, var->c.bn, true, "K") ||
      !encode(&tv, v, batch, seqlen_k, heads_kv, D, var->c.bn, true, "V") ||
      !encode(&to, o, batch, seqlen_q, heads, D, attn::kWgM, false, "O"))
    return 1;
  attn::params p;
  p.lse = lse;
  p.sq = uint32_t(seqlen_q);
  p.sk = uint32_t(seqlen_k);
  p.heads = uint32_t(heads);
  p.batch = uint32_t(batch);
  p.m_blocks = uint32_t(m_blocks);
  p.tiles = uint32_t(tiles);
  p.group = uint32_t(heads / heads_kv);
  p.causal = uint32_t(causal);
  p.scale_log2 = softmax_scale * 1.4426950408889634f;

  cudaLaunchConfig_t cfg = {};
  unsigned ctas = unsigned(tiles);
  if (g_persistent) {
    const int sms = bench::sm_count();
    if (!sms) return fail("the device's multiprocessor count is unknown (cudaDeviceGetAttribute failed)");
    if (ctas > unsigned(sms)) ctas = unsigned(sms);
  }
  cfg.gridDim = dim3(ctas);
  cfg.blockDim = dim3(var->c.threads());
  cfg.dynamicSmemBytes = var->c.smem_bytes();
  cfg.stream = static_cast<cudaStream_t>(stream);
  void *args[] = {&tq, &tk, &tv, &to, &p};
  cudaError_t e = cudaLaunchKernelExC(&cfg, var->kernel, args);
  if (e != cudaSuccess)
    return fail(std::string("launch: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
  return 0;
}

} // extern "C"
