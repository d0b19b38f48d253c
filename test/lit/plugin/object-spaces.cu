// Issue 17 (3, 4): where the source names the variable behind an operand, its
// state space is known at compile time and must fit the operand. A register
// tensor is thread-owned (never __shared__, __device__ or __constant__); a
// memory view names its variable's space (tile::generic takes any).
// The plugin alone, and a full compile (the pass must not report a call the
// plugin refused a second time):
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -o /dev/null -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__device__ float gdev[4];
__constant__ float gconst[4][1];     // expected-note {{'gconst' declared here}}
__device__ float gdev2[4][1];        // expected-note 2 {{'gdev2' declared here}}

__global__ void views(tile::global<float, 4, 1> Out) {
  __shared__ float s[4];
  float loc[4];
  float r[4][1];
  __tile_apply("ld.global.f32", r, tile::global<const float, 4, 1>(s)); // expected-error {{operand 2 of 'ld.global.f32' is a tile::global view of 's', which is a __shared__ variable; use tile::shared<...>(s) with an opcode for shared memory (such as ld.shared), or tile::generic<...>(s) with one that names no state space}}
  __tile_apply("ld.shared.f32", r, tile::shared<const float, 4, 1>(gdev)); // expected-error {{operand 2 of 'ld.shared.f32' is a tile::shared view of 'gdev', which is a __device__ variable; use tile::global<...>(gdev) with an opcode for global memory (such as ld.global)}}
  __tile_apply("ld.shared.f32", r, tile::shared<const float, 4, 1>(loc)); // expected-error {{operand 2 of 'ld.shared.f32' is a tile::shared view of 'loc', which is a local variable of the calling thread; use tile::local<...>(loc) with an opcode for local memory (such as ld.local)}}
  __tile_apply("ld.global.f32", r, tile::global<const float, 4, 1>(gconst[0])); // expected-error {{operand 2 of 'ld.global.f32' is a tile::global view of 'gconst', which is a __constant__ variable; use tile::constant<...>(gconst) with an opcode for const memory (such as ld.const)}}
  // A destination view, through &, a cast and an element.
  __tile_apply("st.global.f32", tile::global<float, 4, 1>((float *)&s[0]), r); // expected-error {{operand 1 of 'st.global.f32' is a tile::global view of 's', which is a __shared__ variable}}
  // Through tile::view, a pointer that cannot change, a reference, a const view.
  __tile_apply("ld.global.f32", r, tile::view<tile::shape<4, 1>, tile::stride<1, 1>>(tile::global<const float, 4, 1>(s))); // expected-error {{operand 2 of 'ld.global.f32' is a tile::global view of 's'}}
  const float *const cp = s + 0;
  __tile_apply("ld.global.f32", r, tile::global<const float, 4, 1>(cp)); // expected-error {{operand 2 of 'ld.global.f32' is a tile::global view of 's'}}
  float (&ref)[4] = s;
  __tile_apply("ld.global.f32", r, tile::global<const float, 4, 1>(ref)); // expected-error {{operand 2 of 'ld.global.f32' is a tile::global view of 's'}}
  const tile::global<const float, 4, 1> G(s);
  __tile_apply("ld.global.f32", r, G); // expected-error {{operand 2 of 'ld.global.f32' is a tile::global view of 's'}}
  __tile_apply("st.global.f32", Out, r);
}

__global__ void registers() {
  __shared__ float s[4][1];                  // expected-note 2 {{'s' declared here}}
  __shared__ tile::reg<float, 4, 1> sr;      // expected-note {{'sr' declared here}}
  __shared__ bool sp[4][1];                  // expected-note {{'sp' declared here}}
  float r[4][1];
  __tile_apply("add.f32", s, s, 1.0f); // expected-error {{operand 1 of 'add.f32' is a register tensor, but 's' is a __shared__ variable; a register tensor is the calling thread's own storage (a local C array or tile::reg), and tileapply inserts no loads, stores or barriers for it}}
                                       // expected-note@-1 {{declare a local register tensor, load it from 's' with ld.shared through tile::shared<...>(s), and store results back with st.shared}}
                                       // expected-error@-2 {{operand 2 of 'add.f32' is a register tensor, but 's' is a __shared__ variable}}
                                       // expected-note@-3 {{declare a local register tensor}}
  __tile_apply("add.f32", r, gdev2, 1.0f); // expected-error {{operand 2 of 'add.f32' is a register tensor, but 'gdev2' is a __device__ variable}}
                                           // expected-note@-1 {{load it from 'gdev2' with ld.global through tile::global<...>(gdev2), and store results back with st.global}}
  __tile_apply("mov.f32", gdev2, r); // expected-error {{operand 1 of 'mov.f32' is a register tensor, but 'gdev2' is a __device__ variable}}
                                     // expected-note@-1 {{ld.global}}
  __tile_apply("add.f32", r, gconst, 1.0f); // expected-error {{operand 2 of 'add.f32' is a register tensor, but 'gconst' is a __constant__ variable}}
                                            // expected-note@-1 {{declare a local register tensor and load it from 'gconst' with ld.const through tile::constant<...>(gconst)}}
  __tile_apply("add.f32", sr, r, 1.0f); // expected-error {{operand 1 of 'add.f32' is a register tensor, but 'sr' is a __shared__ variable}}
                                        // expected-note@-1 {{ld.shared}}
  __tile_apply("add.f32", r, r, 1.0f, tile::pred(sp)); // expected-error {{operand 4 of 'add.f32' is a register tensor, but 'sp' is a __shared__ variable}}
                                                       // expected-note@-1 {{ld.shared}}
}

// The .shared::cluster window: this CTA's shared memory, converted.
__device__ uint64_t gbar[1];
__global__ void cluster() {
  __shared__ uint64_t bar[1];
  __tile_apply("mbarrier.arrive.shared::cluster.b64", tile::to_cluster(tile::shared<uint64_t, 1>(gbar))); // expected-error {{operand 1 of 'mbarrier.arrive.shared::cluster.b64' is a tile::cluster view of 'gbar', which is a __device__ variable; use tile::global<...>(gbar) with an opcode for global memory (such as ld.global)}}
  __tile_apply("mbarrier.arrive.shared::cluster.b64", tile::to_cluster(tile::shared<uint64_t, 1>(bar)));
}

// What is not known, or fits, is accepted: a pointer parameter, tile::generic
// over any variable, a view of the variable's own space, a constexpr input.
constexpr float table[4][1] = {{1}, {2}, {3}, {4}};
__global__ void accepted(float *p, tile::global<float, 4, 1> Out) {
  __shared__ float s[4];
  float loc[4];
  float r[4][1];
  __tile_apply("ld.global.f32", r, tile::global<const float, 4, 1>(p));
  __tile_apply("ld.f32", r, tile::generic<const float, 4, 1>(s));
  __tile_apply("ld.f32", r, tile::generic<const float, 4, 1>(gdev));
  __tile_apply("ld.f32", r, tile::generic<const float, 4, 1>(loc));
  __tile_apply("ld.shared.f32", r, tile::shared<const float, 4, 1>(s));
  __tile_apply("ld.global.f32", r, tile::global<const float, 4, 1>(gdev));
  __tile_apply("ld.local.f32", r, tile::local<const float, 4, 1>(loc));
  __tile_apply("ld.const.f32", r, tile::constant<const float, 4, 1>(gconst[0]));
  __tile_apply("add.f32", r, table, 1.0f);
  float *q = s; // may be assigned again: not known to the plugin (the pass,
                // which proves the one store, refuses it in a full compile)
  __tile_apply("ld.global.f32", r, tile::global<const float, 4, 1>(q));
  __tile_apply("st.global.f32", Out, r);
}
