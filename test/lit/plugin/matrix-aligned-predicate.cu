// docs/spec.md section 6: a per-repeat predicate tensor on an .aligned form is refused
// (AlignedPredicateTensor): every thread of the warp (mma.sync, ldmatrix) or
// warpgroup (wgmma) executes it together, and a tensor could switch it off in
// some threads only. One bool, tile::pred(p), is accepted (it must be
// uniform; the compiler cannot check that).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(uint64_t adesc, uint64_t bdesc, bool on) {
  uint32_t a[4], b[2];
  float acc[4];
  bool p[1] = {on};
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", acc, a, b, acc, tile::pred(p)); // expected-error {{'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' is .aligned: every thread of the warp or warpgroup must execute it together, so a predicate tensor, which may switch a repeat off in some threads only, cannot guard it}}
                                                                                                   // expected-note@-1 {{guard it with one bool, tile::pred(p), that has the same value in every participating thread}}
  float wacc[64];
  __tile_apply("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", wacc, adesc, bdesc, true, 1, 1, 0, 0, tile::pred(p)); // expected-error {{'wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16' is .aligned: every thread of the warp or warpgroup must execute it together}}
                                                                                                                           // expected-note@-1 {{guard it with one bool}}
                                                                                                                           // expected-note@-2 {{'wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16' also takes these operands: d:f32x64, a:f16x2x4, b-desc:b64, scale-d:pred, imm-scale-a:s32 {-1, 1}, imm-scale-b:s32 {-1, 1}, imm-trans-b:u32 [0..1]}}
  __tile_apply("wgmma.commit_group.sync.aligned", tile::pred(p)); // expected-error {{'wgmma.commit_group.sync.aligned' is .aligned}}
                                                                  // expected-note@-1 {{guard it with one bool}}
  __shared__ uint16_t s[32 * 8];
  __tile_apply("ldmatrix.sync.aligned.m8n8.x4.shared.b16", a, tile::shared<uint16_t, 1>(&s[threadIdx.x * 8]), tile::pred(p)); // expected-error {{'ldmatrix.sync.aligned.m8n8.x4.shared.b16' is .aligned}}
                                                                                                                               // expected-note@-1 {{guard it with one bool}}
  // One uniform bool: accepted.
  __tile_apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", acc, a, b, acc, tile::pred(on));
  __tile_apply("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", wacc, adesc, bdesc, true, 1, 1, 0, 0, tile::pred(on));
}
