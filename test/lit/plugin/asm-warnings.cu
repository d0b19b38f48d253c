// What ptxas accepts but is suspect: a memory instruction in a statement with
// no "memory" clobber, and a side-effecting statement with outputs that is
// neither volatile nor clobbers memory. Both are warnings in Clang's
// -Winline-asm group (docs/asm-check.md).
// Default: warnings.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=warn %s
// Errors with -Werror=inline-asm or -Werror.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Werror=inline-asm -Xclang -verify=err %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Werror -Xclang -verify=err %s
// Off: -Wno-inline-asm, -w, or the plugin argument that turns the checker off.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Wno-inline-asm -Xclang -verify=off %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -w -Xclang -verify=off %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fplugin-arg-tileapply-no-asm-check -Werror -Xclang -verify=off %s
// tileapply's warnings alone, leaving Clang's own -Winline-asm on:
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fplugin-arg-tileapply-no-asm-warnings -Werror -Xclang -verify=off %s
// off-no-diagnostics
#include <cstdint>

__device__ void store(float *p, float x) {
  // warn-warning@+3 {{'st.global.f32' accesses memory, but the asm statement has no "memory" clobber: the compiler may move other loads and stores across it}}
  // err-error@+2 {{'st.global.f32' accesses memory, but the asm statement has no "memory" clobber}}
  // warn-note@+1 {{add "memory" to the clobbers}} err-note@+1 {{add "memory" to the clobbers}}
  asm volatile("st.global.f32 [%0], %1;" :: "l"(p), "f"(x));
  // With the clobber: nothing.
  asm volatile("st.global.f32 [%0], %1;" :: "l"(p), "f"(x) : "memory");
}

__device__ uint32_t atomic(uint32_t *p, uint32_t v) {
  uint32_t old;
  // Not volatile, outputs, no clobber: the compiler may delete or merge it.
  // warn-warning@+6 {{'atom.global.add.u32' accesses memory, but the asm statement has no "memory" clobber}}
  // warn-warning@+5 {{'atom.global.add.u32' has side effects, but the asm statement is not volatile and does not clobber memory: the compiler may delete it when its outputs are unused, or merge two identical ones}}
  // warn-note@+4 {{add "memory" to the clobbers}} warn-note@+4 {{write asm volatile(...)}}
  // err-error@+3 {{'atom.global.add.u32' accesses memory}}
  // err-error@+2 {{'atom.global.add.u32' has side effects}}
  // err-note@+1 {{add "memory" to the clobbers}} err-note@+1 {{write asm volatile(...)}}
  asm("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v));
  // A "memory" clobber keeps it (the compiler then assumes it writes memory).
  asm("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  // A load is not a side effect.
  asm("ld.global.u32 %0, [%1];" : "=r"(old) : "l"(p) : "memory");
  return old;
}
