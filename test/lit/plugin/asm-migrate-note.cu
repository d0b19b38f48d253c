// The plugin's migration note (docs/diagnostics.md#asmmigration): only under
// -fplugin-arg-tileapply-asm-migrate, at the asm keyword, with the call as a
// fix-it that replaces the statement and one that adds tile.h. Whether the
// call is right is proven by asm-migrate-example.test (same PTX).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin %s 2>&1 | count 0
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fplugin-arg-tileapply-asm-migrate -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
#include <cstdint>

__device__ uint32_t add(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  // CHECK: asm-migrate-note.cu:[[@LINE-1]]:3: note: this asm statement is one __tile_apply call: __tile_apply("add.u32", tile::reg_at(d), a, b)
  // CHECK: fix-it:"{{.*}}asm-migrate-note.cu":{7:1-7:1}:"#include <{{tileapply.tile}}.h>\n"
  // CHECK: fix-it:"{{.*}}asm-migrate-note.cu":{[[@LINE-3]]:3-[[@LINE-3]]:56}:"__tile_apply(\"add.u32\", tile::reg_at(d), a, b)"
  return d;
}

__device__ uint32_t lane() {
  uint32_t d;
  asm("mov.u32 %0, %%laneid;" : "=r"(d)); // a special register: no note
  return d;
}
// CHECK-NOT: note:
