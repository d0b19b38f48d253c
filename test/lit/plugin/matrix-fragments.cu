// docs/spec.md section 6: a fragment's register count and carrier are computed from the
// shape and types and checked at the call. A wrong count is GroupMismatch, a
// wrong carrier CarrierMismatch; immediates (wgmma's scale and transpose,
// wait_group's N) are range-checked (ImmediateRequired); a descriptor is one
// 64-bit scalar; ldmatrix's .x8 / .x16 (accepted by ptxas, not in the ISA) are
// no qualifiers of ldmatrix.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void mma_fragments() {
  uint32_t a[4], b[2];
  float c[4], d[4]; // #d
  uint32_t b3[3];   // #b3
  float fa[4];      // #fa
  int32_t ic[4];    // #ic
  float d8[8];      // #d8
  // m16n8k16 .f16: a 4 x .f16x2, b 2 x .f16x2, c and d 4 x .f32.
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d, a, b, c);
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d, a, b3, c); // expected-error {{operand 'b' of 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' needs a group axis of 2 (a group of 2 registers), found shape [3] whose last axis is 3}}
                                                                                 // expected-note@#b3 {{'b3' declared here}}
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d8, a, b, c); // expected-error {{destination 'd' of 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' needs a group axis of 4 (a group of 4 registers), found shape [8] whose last axis is 8}}
                                                                                 // expected-note@#d8 {{'d8' declared here}}
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d, fa, b, c); // expected-error {{operand 'a' of 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' must be uint32_t or __half2 (PTX .f16x2), found float}}
                                                                                 // expected-note@#fa {{'fa' declared here}}
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d, a, b, ic); // expected-error {{operand 'c' of 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' must be float (PTX .f32), found int32_t}}
                                                                                 // expected-note@#ic {{'ic' declared here}}
  // The integer shapes accumulate in .s32: int32_t, not float.
  __tile_apply("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", d, a, b, d); // expected-error {{destination 'd' of 'mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32' must be int32_t (PTX .s32), found float}}
                                                                              // expected-error@-1 {{operand 'c' of 'mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32' must be int32_t (PTX .s32), found float}}
                                                                              // expected-note@#d 2 {{'d' declared here}}
  // .bf16 A and B are .b32: any 32-bit carrier.
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", d, fa, b, c);
}

__global__ void wgmma_operands(uint64_t adesc, uint64_t bdesc, bool scale) {
  float acc[64];
  float w32[32]; // #w32
  uint32_t a[4]; // #a
  // n128 .f32: 64 accumulators.
  __tile_apply("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", w32, adesc, bdesc, scale, 1, 1, 0, 0); // expected-error {{destination 'd' of 'wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16' needs a group axis of 64 (a group of 64 registers), found shape [32] whose last axis is 32}}
                                                                                                          // expected-note@-1 {{also takes these operands: d:f32x64, a:f16x2x4, b-desc:b64, scale-d:pred, imm-scale-a:s32 {-1, 1}, imm-scale-b:s32 {-1, 1}, imm-trans-b:u32 [0..1]}}
                                                                                                          // expected-note@#w32 {{'w32' declared here}}
  // imm-scale-a is -1 or 1; imm-trans-b 0 or 1.
  __tile_apply("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", acc, a, bdesc, scale, 0, 1, 0); // expected-error {{operand 'imm-scale-a' of 'wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16' is an immediate: PTX requires a compile-time constant integer in {-1, 1}, found the constant 0}}
                                                                                                    // expected-note@-1 {{also takes these operands}}
  __tile_apply("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", acc, adesc, bdesc, scale, 1, 1, 0, 2); // expected-error {{operand 'imm-trans-b' of 'wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16' is an immediate: PTX requires a compile-time constant integer in [0..1], found the constant 2}}
                                                                                                          // expected-note@-1 {{also takes these operands}}
  // scale-d is a bool.
  __tile_apply("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", acc, adesc, bdesc, 1, 1, 1, 0, 0); // expected-error {{operand 'scale-d' of 'wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16' must be bool (PTX .pred), found int32_t}}
                                                                                                      // expected-note@-1 {{a constant is accepted only when it converts to .pred without changing its value}}
                                                                                                      // expected-note@-2 {{also takes these operands}}
  // With A from registers there is no imm-trans-a: eight operands, not nine.
  __tile_apply("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", acc, a, bdesc, scale, 1, 1, 0, 0); // expected-error {{operand 'a-desc' of 'wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16' must be any 64-bit type}}
                                                                                                       // expected-error@-1 {{operand 'a-desc' of 'wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16' needs a group axis of 1 (one register), found shape [4] whose last axis is 4}}
                                                                                                       // expected-note@-2 {{also takes these operands}}
                                                                                                       // expected-note@#a 2 {{'a' declared here}}
  int n = threadIdx.x;
  __tile_apply("wgmma.wait_group.sync.aligned", n); // expected-error {{operand 'N' of 'wgmma.wait_group.sync.aligned' is an immediate: PTX requires a compile-time constant integer in [0..2147483647], found a value known only at run time}}
  __tile_apply("wgmma.wait_group.sync.aligned", 1);
  // n is a multiple of 8 up to 256.
  __tile_apply("wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16", acc, adesc, bdesc, scale, 1, 1, 0, 0); // expected-error {{'.m64n12k16' is not a qualifier of 'wgmma'; did you mean 'wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16'?}}
}

__global__ void ldmatrix_operands() {
  __shared__ uint16_t s[32 * 8];
  uint32_t r[4];
  // ptxas takes .x8 and .x16; the ISA has .x1, .x2 and .x4.
  __tile_apply("ldmatrix.sync.aligned.m8n8.x8.shared.b16", r, tile::shared<uint16_t, 1>(s)); // expected-error {{'.x8' is not a qualifier of 'ldmatrix'}}
  // .shared takes a tile::shared row; the form without a state space a tile::generic one.
  __tile_apply("ldmatrix.sync.aligned.m8n8.x4.shared.b16", r, tile::generic<uint16_t, 1>(&s[threadIdx.x * 8])); // expected-error {{'ldmatrix.sync.aligned.m8n8.x4.shared.b16' accesses shared memory, but operand 'p' is a tile::generic tensor}}
  __tile_apply("ldmatrix.sync.aligned.m8n8.x4.b16", r, tile::generic<uint16_t, 1>(&s[threadIdx.x * 8]));
}
