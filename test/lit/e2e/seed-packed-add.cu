// The first seed kernel: eight add.rn.f16x2 over (8, 1) register tensors, with
// explicit loads and stores. At -O1 and above the registers never touch local
// memory, and each opcode appears exactly once per repeat.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O2 -S -fplugin=%plugin %s -o %t.O2.ptx
// RUN: FileCheck %s --input-file=%t.O2.ptx
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O1 -S -fplugin=%plugin %s -o %t.O1.ptx
// RUN: FileCheck %s --input-file=%t.O1.ptx
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O3 -S -fplugin=%plugin %s -o %t.O3.ptx
// RUN: FileCheck %s --input-file=%t.O3.ptx
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -O0 -S -fplugin=%plugin %s -o %t.O0.ptx
// RUN: FileCheck %s --check-prefix=O0 --input-file=%t.O0.ptx
// RUN: %ptxas -arch=sm_90a %t.O2.ptx -o %t.O2.cubin
// RUN: %ptxas -arch=sm_90a %t.O0.ptx -o %t.O0.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

__global__ void packed_add(tile::global<const uint32_t, 8, 1> A,
                           tile::global<const uint32_t, 8, 1> B,
                           tile::global<uint32_t, 8, 1> Out) {
  uint32_t a[8][1], b[8][1];
  __tile_apply("ld.global.b32", a, A);
  __tile_apply("ld.global.b32", b, B);
  __tile_apply("add.rn.f16x2", a, a, b);
  __tile_apply("st.global.b32", Out, a);
}

// One base register per tensor; each repeat's offset is in the address, so
// there is no per-repeat address arithmetic.
// CHECK-LABEL: .entry _Z10packed_add
// CHECK-NOT: add.s64
// CHECK-NOT: ld.local
// CHECK-NOT: st.local
// CHECK-COUNT-16: ld.global.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}{{(\+[0-9]+)?}}];
// CHECK-NOT: ld.global
// CHECK-COUNT-8: add.rn.f16x2 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-NOT: add.rn.f16x2
// CHECK-COUNT-8: st.global.b32 [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], %r{{[0-9]+}};
// CHECK-NOT: {{ld|st}}.local
// CHECK-NOT: cvt.{{.*}}f16
// CHECK: ret;

// O0-LABEL: .entry _Z10packed_add
// O0-COUNT-8: add.rn.f16x2
// O0-NOT: add.rn.f16x2
// O0: ret;
