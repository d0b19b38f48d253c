// docs/spec.md section 6: an immediate of the asynchronous families is an integer
// constant expression in its range, checked at the call (ImmediateRequired):
// wait_group's N in [0..63], setmaxnreg's count in [24..256] in steps of 8,
// the 128-byte size of a tensor-map acquire fence, cp.async's cp-size (4, 8 or
// 16 bytes with .ca, 16 with .cg).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <cuda.h>
#include <tileapply/tile.h>

__global__ void kernel(const __grid_constant__ CUtensorMap m, uint32_t n, const float *g) {
  __shared__ alignas(16) float s[4];
  auto dst = tile::shared<float, 1>(s);
  auto src = tile::global<const float, 1>(g);
  __tile_apply("cp.async.ca.shared.global", dst, src, 12); // expected-error {{operand 'cp-size' of 'cp.async.ca.shared.global' is an immediate: PTX requires a compile-time constant integer in {4, 8, 16}, found the constant 12}}
                                                          // expected-note@-1 {{'cp.async.ca.shared.global' also takes these operands: dst:any, src:any, cp-size:u32 {4, 8, 16}, ignore-src:pred}}
  __tile_apply("cp.async.cg.shared.global", dst, src, 8); // expected-error {{operand 'cp-size' of 'cp.async.cg.shared.global' is an immediate: PTX requires a compile-time constant integer in [16..16], found the constant 8}}
                                                         // expected-note@-1 {{also takes these operands}}
  __tile_apply("cp.async.wait_group", 100); // expected-error {{in [0..63], found the constant 100}}
  __tile_apply("cp.async.ca.shared.global", dst, src, 8);
  __tile_apply("cp.async.cg.shared.global", dst, src, 16);
  __tile_apply("cp.async.bulk.wait_group", 64); // expected-error {{operand 'N' of 'cp.async.bulk.wait_group' is an immediate: PTX requires a compile-time constant integer in [0..63], found the constant 64}}
  __tile_apply("cp.async.bulk.wait_group", -1); // expected-error {{operand 'N' of 'cp.async.bulk.wait_group' is an immediate: PTX requires a compile-time constant integer in [0..63], found the constant -1}}
  __tile_apply("cp.async.bulk.wait_group.read", n); // expected-error {{operand 'N' of 'cp.async.bulk.wait_group.read' is an immediate: PTX requires a compile-time constant integer in [0..63], found a value known only at run time}}
  __tile_apply("setmaxnreg.inc.sync.aligned.u32", 100); // expected-error {{in [24..256], in steps of 8 from 24, found the constant 100}}
  __tile_apply("setmaxnreg.dec.sync.aligned.u32", 16); // expected-error {{in [24..256], in steps of 8 from 24, found the constant 16}}
  __tile_apply("fence.proxy.tensormap::generic.acquire.gpu", tile::tensor_map(m), 64); // expected-error {{operand 'size' of 'fence.proxy.tensormap::generic.acquire.gpu' is an immediate: PTX requires a compile-time constant integer in [128..128], found the constant 64}}
  constexpr int stages = 4;
  __tile_apply("cp.async.bulk.wait_group.read", stages - 2);
  __tile_apply("setmaxnreg.dec.sync.aligned.u32", 40);
  __tile_apply("fence.proxy.tensormap::generic.acquire.gpu", tile::tensor_map(m), 128);
}
