// bfe's position and length, and bfi's, take an immediate only in 0..255
// (ptxas: "value '300' out of range"); a constant outside that range is
// passed in a register, so every call the checker accepts also assembles.
// Found by the differential fuzzer (test/fuzz/differential).
// REQUIRES: ptxas
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin --cuda-device-only -S %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK: bfi.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, 8;
// CHECK: bfe.u32 %r{{[0-9]+}}, %r{{[0-9]+}}, 4, %r{{[0-9]+}};
// CHECK: bfe.u32 %r{{[0-9]+}}, %r{{[0-9]+}}, 4, 255;
// CHECK: bfe.u64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 0;
#include <tileapply/tile.h>

__global__ void k(const uint32_t *in, uint32_t *out, uint64_t *wide) {
  uint32_t a[1][1] = {{in[0]}}, b[1][1] = {{in[1]}}, d[1][1];
  __tile_apply("bfi.b32", d, a, b, 300u, 8u);
  out[0] = d[0][0];
  __tile_apply("bfe.u32", d, a, 4u, 256u);
  out[1] = d[0][0];
  __tile_apply("bfe.u32", d, a, 4u, 255u);
  out[2] = d[0][0];
  uint64_t w[1][1] = {{wide[0]}}, e[1][1];
  __tile_apply("bfe.u64", e, w, 1000u, 0u);
  wide[1] = e[0][0];
}
