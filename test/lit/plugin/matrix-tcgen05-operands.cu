// tcgen05 operands at the call: a Tensor Memory address is a 32-bit value
// (uint32_t), not a memory tensor; scale-input-d is an immediate 0 - 15;
// the .sync.aligned forms (ld, st, alloc, wait) refuse a predicate tensor,
// the single-thread ones (mma, cp, commit) take one.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(uint32_t tmem, uint64_t adesc, uint64_t bdesc, uint32_t idesc, bool on) {
  __shared__ uint32_t s[32];
  float d[32];
  auto smem = tile::shared<uint32_t, 1>(s); // #smem
  __tile_apply("tcgen05.ld.sync.aligned.32x32b.x32.b32", d, smem); // expected-error {{operand 'taddr' of 'tcgen05.ld.sync.aligned.32x32b.x32.b32' is a shared memory tensor, but the instruction reads a register}}
                                                                   // expected-note@-1 {{load it into a register tensor first with an explicit ld.shared}}
  uint64_t wide = tmem; // #wide
  __tile_apply("tcgen05.ld.sync.aligned.32x32b.x32.b32", d, wide); // expected-error {{operand 'taddr' of 'tcgen05.ld.sync.aligned.32x32b.x32.b32' must be any 32-bit type}}
  __tile_apply("tcgen05.mma.cta_group::1.kind::f16", tmem, adesc, bdesc, idesc, true, 16); // expected-error {{operand 'scale-input-d' of 'tcgen05.mma.cta_group::1.kind::f16' is an immediate: PTX requires a compile-time constant integer in [0..15], found the constant 16}}
                                                                                          // expected-note@-1 {{also takes these operands}}
  bool p[1] = {on};
  __tile_apply("tcgen05.ld.sync.aligned.32x32b.x32.b32", d, tmem, tile::pred(p)); // expected-error {{'tcgen05.ld.sync.aligned.32x32b.x32.b32' is .aligned}}
                                                                                  // expected-note@-1 {{guard it with one bool}}
  // Issued by one thread: a per-thread predicate is fine.
  __tile_apply("tcgen05.mma.cta_group::1.kind::f16", tmem, adesc, bdesc, idesc, true, tile::pred(p));
  __tile_apply("tcgen05.ld.sync.aligned.32x32b.x32.b32", d, tmem, tile::pred(on));
}
