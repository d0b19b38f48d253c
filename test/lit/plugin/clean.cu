// Correct calls produce no diagnostic at all, in either compilation of a
// normal two-job CUDA build and in a device-only one.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Werror -Xclang -verify %s
// expected-no-diagnostics
#include <cuda_fp16.h>
#include <tileapply/tile.h>

// The contract's own example.
__global__ void packed_add(tile::global<const uint32_t, 8, 1> A,
                           tile::global<const uint32_t, 8, 1> B,
                           tile::global<uint32_t, 8, 1> Out) {
  uint32_t a[8][1], b[8][1];
  __tile_apply("ld.global.b32", a, A);
  __tile_apply("ld.global.b32", b, B);
  __tile_apply("add.rn.f16x2", a, a, b);
  __tile_apply("st.global.b32", Out, a);
}

__device__ void carriers(float scale, int bias, __half2 h) {
  float f[4][2][1];
  int32_t i[4][2][1];
  int64_t wide[4][2][1];
  __half2 h2[4][2][1];
  tile::reg<uint32_t, 4, 2, 1> r;
  __tile_apply("mul.rn.f32", f, f, scale);
  __tile_apply("add.rn.f32", f, 1.0, f);   // a constant that converts exactly
  __tile_apply("sub.s32", i, 5, i);         // scalar on the left
  __tile_apply("add.s32", i, i, bias);
  __tile_apply("mul.wide.s32", wide, i, i);
  __tile_apply("add.rn.f16x2", h2, h2, h);  // CUDA's own packed type
  __tile_apply("add.rn.f16x2", r, h2, r);   // bit pun with uint32_t
  __tile_apply("mov.b32", r, f);            // .b32 takes any 32-bit carrier
  unsigned __int128 q[4][1];
  int64_t halves[4][2];
  __tile_apply("mov.b128", q, halves);      // .b128 packed from two 64-bit halves
}

__device__ void views_and_options(bool on) {
  uint32_t a[8][1], b[8][1], row[1][1];
  bool mask[8][1];
  // A reshape of the same storage, and an explicit broadcast of one value.
  __tile_apply("add.rn.f16x2", tile::view<tile::shape<2, 4, 1>, tile::stride<4, 1, 1>>(a),
               tile::view<tile::shape<2, 4, 1>, tile::stride<4, 1, 1>>(b),
               tile::view<tile::shape<2, 4, 1>, tile::stride<0, 0, 1>>(row));
  __tile_apply("add.rn.f16x2", a, a, b, tile::pred(on));
  __tile_apply("add.rn.f16x2", a, a, b, tile::pred(mask), tile::preserve_dst);
  __tile_apply("add.rn.f16x2", a, a, 0x40004000u);
}

template <int N> __device__ void generic(uint32_t (&x)[N][1]) {
  __tile_apply("add.rn.f16x2", x, x, x);
}
template <class... T> __device__ void forward(T &&...t) {
  __tile_apply("add.rn.f16x2", static_cast<T &&>(t)...);
}
// Never instantiated: nothing to check until it is.
template <class T> __device__ void unused(T &t) { __tile_apply("not.an.opcode", t); }

__global__ void instantiate() {
  uint32_t a[8][1], b[4][1];
  generic(a);
  generic(b);
  forward(a, a, a);
  auto lambda = [&](auto &x) { __tile_apply("add.rn.f16x2", x, x, x); };
  lambda(a);
  lambda(b);
}

// Host code that mentions no __tile_apply is none of the plugin's business.
int host_main() { return 0; }
