// Carry chains (add.cc/addc, sub.cc/subc, mad.lo.cc/madc) of 2 to 4 words,
// u32 and u64, under tile::pred with and without tile::preserve_dst, over
// many random inputs, against multi-word arithmetic on the host. One thread a
// case; each thread's predicate is a random bit.
//
// The shapes include the one that once miscompiled (issue 17): a destination
// starting at zero and an addend whose upper words are zero, so the kept old
// value of a word and a later word's input are the same value and a register
// allocator free to share registers between them would do so.
#include <tileapply/tile.h>
#include "gpu_test.h"
#include <random>

using namespace gpu_test;
constexpr int Cases = 1 << 14;

// How the operands of a case are built from its random words.
enum Shape : int {
  RandomOld = 0,   // acc = old words, a and b random
  ZeroAccHighZero, // acc = 0, b = {b0, 0, ...}: the miscompiled shape
  InPlaceInc,      // c = c + {1, 0, ...}: destination is the first source
};

template <class T, int W> struct Case {
  T old[W], a[W], b[W], c[W];
  uint32_t p;
};

// Builds acc, a, b, c of one case in registers per the shape.
#define LOAD_OPERANDS                                                                             \
  const Case<T, W> &k = cases[blockIdx.x * blockDim.x + threadIdx.x];                             \
  T acc[W][1], a[W][1], b[W][1], c[W][1];                                                         \
  for (int i = 0; i < W; ++i) {                                                                   \
    acc[i][0] = shape == RandomOld ? k.old[i] : T(0);                                             \
    a[i][0] = k.a[i];                                                                             \
    b[i][0] = shape == ZeroAccHighZero && i ? T(0) : k.b[i];                                      \
    c[i][0] = k.c[i];                                                                             \
  }                                                                                               \
  bool p = k.p & 1;
#define STORE_RESULT                                                                              \
  for (int i = 0; i < W; ++i)                                                                     \
    out[(blockIdx.x * blockDim.x + threadIdx.x) * W + i] = acc[i][0];

// kind: 0 predicated + preserve_dst, 1 predicated, 2 unpredicated. Shape and
// kind are template arguments, so zeros are constants the optimizer may give
// one register (what exposed the missing early clobber).
#define CHAIN_KERNEL(NAME, OP)                                                                    \
  template <class T, int W, int shape, int kind>                                                  \
  __global__ void NAME(const Case<T, W> *cases, T *out) {                                         \
    LOAD_OPERANDS                                                                                 \
    if constexpr (shape == InPlaceInc) {                                                          \
      T one[W][1];                                                                                \
      for (int i = 0; i < W; ++i) {                                                               \
        acc[i][0] = k.old[i];                                                                     \
        one[i][0] = i ? T(0) : T(1);                                                              \
      }                                                                                           \
      if constexpr (kind == 0)                                                                    \
        __tile_apply(OP, acc, acc, one, tile::pred(p), tile::preserve_dst);                       \
      else if constexpr (kind == 1)                                                               \
        __tile_apply(OP, acc, acc, one, tile::pred(p));                                           \
      else                                                                                        \
        __tile_apply(OP, acc, acc, one);                                                          \
    } else if constexpr (kind == 0) {                                                             \
      __tile_apply(OP, acc, a, b, tile::pred(p), tile::preserve_dst);                             \
    } else if constexpr (kind == 1) {                                                             \
      __tile_apply(OP, acc, a, b, tile::pred(p));                                                 \
    } else {                                                                                      \
      __tile_apply(OP, acc, a, b);                                                                \
    }                                                                                             \
    (void)c;                                                                                      \
    STORE_RESULT                                                                                  \
  }

CHAIN_KERNEL(add_u32, "add.cc.u32")
CHAIN_KERNEL(sub_u32, "sub.cc.u32")
CHAIN_KERNEL(add_u64, "add.cc.u64")
CHAIN_KERNEL(sub_u64, "sub.cc.u64")

// mad.lo.cc: d_i = lo(a_i * b_i) + c_i + carry; the shapes apply to c.
template <class T, int W, int shape, int kind>
__global__ void mad_u32(const Case<T, W> *cases, T *out) {
  LOAD_OPERANDS
  if constexpr (shape == ZeroAccHighZero)
    for (int i = 1; i < W; ++i)
      c[i][0] = 0;
  if constexpr (kind == 0)
    __tile_apply("mad.lo.cc.u32", acc, a, b, c, tile::pred(p), tile::preserve_dst);
  else if constexpr (kind == 1)
    __tile_apply("mad.lo.cc.u32", acc, a, b, c, tile::pred(p));
  else
    __tile_apply("mad.lo.cc.u32", acc, a, b, c);
  STORE_RESULT
}

enum Op { Add, Sub, Mad };

// The host's multi-word arithmetic, word 0 least significant.
template <class T, int W> void reference(Op op, const Case<T, W> &k, int shape, T *d) {
  T acc[W], a[W], b[W], c[W];
  for (int i = 0; i < W; ++i) {
    acc[i] = shape == RandomOld || shape == InPlaceInc ? k.old[i] : T(0);
    a[i] = shape == InPlaceInc ? k.old[i] : k.a[i];
    b[i] = shape == InPlaceInc ? T(i ? 0 : 1) : shape == ZeroAccHighZero && i ? T(0) : k.b[i];
    c[i] = shape == ZeroAccHighZero && i ? T(0) : k.c[i];
  }
  T carry = 0; // the carry, or for sub the borrow
  for (int i = 0; i < W; ++i) {
    if (op == Add) {
      T s = a[i] + b[i];
      T c1 = s < a[i];
      d[i] = s + carry;
      carry = c1 | (d[i] < s);
    } else if (op == Sub) {
      T s = a[i] - b[i];
      T b1 = a[i] < b[i];
      d[i] = s - carry;
      carry = b1 | (s < carry);
    } else {
      T lo = a[i] * b[i];
      T s = lo + c[i];
      T c1 = s < lo;
      d[i] = s + carry;
      carry = c1 | (d[i] < s);
    }
  }
  (void)acc;
}

// Every (shape, kind) instance of one chain kernel, chosen at run time.
using Launch = void (*)(int, int, const void *, void *);
#define INSTANCES(KERNEL, T, W)                                                                   \
  [](int shape, int kind, const void *c, void *o) {                                               \
    auto *cs = static_cast<const Case<T, W> *>(c);                                                \
    auto *os = static_cast<T *>(o);                                                               \
    dim3 g(Cases / 128), b(128);                                                                  \
    switch (shape * 3 + kind) {                                                                   \
    case 0: KERNEL<T, W, 0, 0><<<g, b>>>(cs, os); break;                                          \
    case 1: KERNEL<T, W, 0, 1><<<g, b>>>(cs, os); break;                                          \
    case 2: KERNEL<T, W, 0, 2><<<g, b>>>(cs, os); break;                                          \
    case 3: KERNEL<T, W, 1, 0><<<g, b>>>(cs, os); break;                                          \
    case 4: KERNEL<T, W, 1, 1><<<g, b>>>(cs, os); break;                                          \
    case 5: KERNEL<T, W, 1, 2><<<g, b>>>(cs, os); break;                                          \
    case 6: KERNEL<T, W, 2, 0><<<g, b>>>(cs, os); break;                                          \
    case 7: KERNEL<T, W, 2, 1><<<g, b>>>(cs, os); break;                                          \
    default: KERNEL<T, W, 2, 2><<<g, b>>>(cs, os); break;                                         \
    }                                                                                             \
  }

template <class T, int W>
void run(const char *name, Op op, Launch launch, std::mt19937_64 &rng) {
  std::vector<Case<T, W>> cases(Cases);
  for (auto &k : cases) {
    for (int i = 0; i < W; ++i) {
      k.old[i] = T(rng());
      k.a[i] = T(rng());
      k.b[i] = T(rng());
      k.c[i] = T(rng());
      // Carries and borrows that ripple: some words all ones or zero.
      if (rng() % 4 == 0)
        k.a[i] = T(~T(0));
      if (rng() % 8 == 0)
        k.old[i] = T(~T(0));
    }
    k.p = uint32_t(rng());
  }
  Case<T, W> *dc = upload(cases);
  T *dout = nullptr;
  TILEAPPLY_CUDA_CHECK(cudaMalloc(&dout, sizeof(T) * W * Cases));
  const char *kinds[] = {"pred+preserve_dst", "pred", "unpredicated"};
  const char *shapes[] = {"random old", "zero acc, high words zero", "in-place increment"};
  for (int shape = 0; shape < 3; ++shape) {
    if (shape == InPlaceInc && op == Mad)
      continue;
    for (int kind = 0; kind < 3; ++kind) {
      TILEAPPLY_CUDA_CHECK(cudaMemset(dout, 0xA5, sizeof(T) * W * Cases)); // poison
      launch(shape, kind, dc, dout);
      TILEAPPLY_CUDA_CHECK(cudaGetLastError());
      std::vector<T> got = download(dout, size_t(W) * Cases), want(got.size());
      for (int n = 0; n < Cases; ++n) {
        bool on = kind == 2 || (cases[n].p & 1);
        if (on) {
          reference<T, W>(op, cases[n], shape, &want[size_t(n) * W]);
        } else if (kind == 0) { // kept: the destination's old value
          for (int i = 0; i < W; ++i)
            want[size_t(n) * W + i] =
                shape == RandomOld || shape == InPlaceInc ? cases[n].old[i] : T(0);
        } else { // guarded off without preserve_dst: unspecified, not compared
          for (int i = 0; i < W; ++i)
            want[size_t(n) * W + i] = got[size_t(n) * W + i];
        }
      }
      std::string what = std::string(name) + " x" + std::to_string(W) + ", " + shapes[shape] +
                         ", " + kinds[kind];
      expect_bits(what.c_str(), got, want);
    }
  }
  TILEAPPLY_CUDA_CHECK(cudaFree(dc));
  TILEAPPLY_CUDA_CHECK(cudaFree(dout));
}

int main() {
  if (!have_gpu("carry-chain"))
    return 0;
  std::mt19937_64 rng(17);
  run<uint32_t, 2>("add.cc.u32", Add, INSTANCES(add_u32, uint32_t, 2), rng);
  run<uint32_t, 4>("add.cc.u32", Add, INSTANCES(add_u32, uint32_t, 4), rng);
  run<uint32_t, 3>("sub.cc.u32", Sub, INSTANCES(sub_u32, uint32_t, 3), rng);
  run<uint32_t, 4>("sub.cc.u32", Sub, INSTANCES(sub_u32, uint32_t, 4), rng);
  run<uint64_t, 2>("add.cc.u64", Add, INSTANCES(add_u64, uint64_t, 2), rng);
  run<uint64_t, 4>("add.cc.u64", Add, INSTANCES(add_u64, uint64_t, 4), rng);
  run<uint64_t, 2>("sub.cc.u64", Sub, INSTANCES(sub_u64, uint64_t, 2), rng);
  run<uint32_t, 2>("mad.lo.cc.u32", Mad, INSTANCES(mad_u32, uint32_t, 2), rng);
  run<uint32_t, 4>("mad.lo.cc.u32", Mad, INSTANCES(mad_u32, uint32_t, 4), rng);
  return finish("carry-chain");
}
