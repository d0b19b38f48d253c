// A mistake is reported at the byte of the string literal where the
// instruction or operand is written: in a concatenated literal, in a macro
// argument and in a macro body, and in each template instance (with a note
// naming the instance).
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin %s 2>&1 | FileCheck %s
#include <cstdint>

#define ADD_U32 "add.u32 %0, %1, %2;"
#define ASM_OF(S) asm(S : "=r"(d) : "l"(l), "r"(a))

__device__ void where(uint32_t a, unsigned long long l) {
  uint32_t d;
  // Each literal of a concatenation: the %1 of each line (column 20).
  asm("mov.u32 %0, %1;\n\t"
      "add.u32 %0, %1, %0;" : "=r"(d) : "l"(l), "r"(a));
  // CHECK: asm-location.cu:[[@LINE-2]]:20: error: ptxas would reject this: %1 is operand 'a' of 'mov.u32'
  // CHECK: asm-location.cu:[[@LINE-2]]:20: error: ptxas would reject this: %1 is operand 'a' of 'add.u32'
  ASM_OF("add.u32 %0, %1, %2;");
  // CHECK: asm-location.cu:[[@LINE-1]]:23: error: ptxas would reject this: %1 is operand 'a' of 'add.u32'
  // In a macro body, Clang's usual presentation: the use, then the byte.
  ASM_OF(ADD_U32);
  // CHECK: asm-location.cu:[[@LINE-1]]:10: error: ptxas would reject this: %1 is operand 'a' of 'add.u32'
  // CHECK: asm-location.cu:8:30: note: expanded from macro 'ADD_U32'
}

template <int N> __device__ uint32_t shifted(uint32_t a) {
  uint32_t d;
  asm("shl.b32 %0, %1, %2;" : "=r"(d) : "r"(a), "h"(static_cast<unsigned short>(N)));
  // CHECK: asm-location.cu:[[@LINE-1]]:24: error: ptxas would reject this: %2 is operand 'b' of 'shl.b32', a 32-bit register (.u32), but constraint "h" gives it a 16-bit register
  // CHECK: note: in instantiation of 'shifted<3>' requested here
  return d;
}
__device__ uint32_t use(uint32_t a) { return shifted<3>(a); }
