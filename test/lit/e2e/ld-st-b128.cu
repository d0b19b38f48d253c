// 128-bit loads and stores: one .b128 register per repeat, no vector group
// (PTX ISA 8.3, sm_70). The .sys scope with .b128 needs PTX 8.4 (ptxas);
// the target here emits newer PTX, so both are accepted. Between two asm
// statements LLVM's NVPTX backend keeps an i128 as two 64-bit registers and
// moves it with its own mov.b128 pack/unpack; those are the backend's, not
// instructions of a call.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

// CHECK-LABEL: .entry _Z4copy
// CHECK-COUNT-2: ld.global.nc.b128 %rq{{[0-9]+}}, [%rd{{[0-9]+}}{{(\+16)?}}];
// CHECK-COUNT-2: st.shared.b128 [%rd{{[0-9]+}}{{(\+16)?}}], %rq{{[0-9]+}};
// CHECK: ld.acquire.sys.global.b128 %rq{{[0-9]+}}, [%rd{{[0-9]+}}];
// CHECK: st.global.cs.b128 [%rd{{[0-9]+}}], %rq{{[0-9]+}};
// CHECK: ret;
__global__ void copy(tile::global<const unsigned __int128, 2, 1> In,
                     tile::global<unsigned __int128, 2, 1> Out) {
  __shared__ unsigned __int128 stage[2][1];
  unsigned __int128 q[2][1];
  __tile_apply("ld.global.nc.b128", q, In);
  __tile_apply("st.shared.b128", tile::shared<unsigned __int128, 2, 1>(&stage[0][0]), q);
  unsigned __int128 one[1][1];
  __tile_apply("ld.acquire.sys.global.b128", one, tile::global<unsigned __int128, 1, 1>(Out.ptr));
  __tile_apply("st.global.cs.b128",
               tile::global<unsigned __int128, 1, 1>(Out.ptr + 1), one);
}
