// The asm checker says nothing about statements ptxas accepts, and reads
// every piece of these templates: .reg scratch registers and predicates,
// guards, { } scopes, labels with %=, special registers, comments, %[name],
// tied operands, immediates, register groups and split registers.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fplugin-arg-tileapply-asm-stats %s 2>&1 | FileCheck %s
// And ptxas assembles every one of them:
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O0 %s -o %t.ptx
// RUN: %ptxas -arch=sm_90a -c %t.ptx -o %t.o
// expected-no-diagnostics
#include <cstdint>

// CHECK-NOT: asm-accepted.cu:{{.*}}not understood
// CHECK: asm-accepted.cu:[[@LINE+4]]:{{.*}}: understood
__device__ uint32_t guarded(uint32_t a) {
  uint32_t d = a;
  // A predicate of the template, set and used as a guard (also negated).
  asm("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %1, 0;\n\t@p add.u32 %0, %0, 1;\n\t@!p sub.u32 %0, %0, 1;\n\t}"
      : "+r"(d) : "r"(a));
  return d;
}

// CHECK: asm-accepted.cu:[[@LINE+3]]:{{.*}}: understood
// CHECK: asm-accepted.cu:[[@LINE+3]]:{{.*}}: understood
__device__ uint32_t lane() {
  uint32_t l; asm volatile("mov.u32 %0, %%laneid; // the lane\n /* and a block comment */" : "=r"(l));
  unsigned long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
  return l + static_cast<uint32_t>(c);
}

__device__ float named(float x, uint32_t a, const float *p) {
  float y;
  uint32_t d, e;
  // CHECK: asm-accepted.cu:[[@LINE+1]]:{{.*}}: understood
  asm("add.rn.f32 %[out], %[in], 0f3F800000;" : [out] "=f"(y) : [in] "f"(x));
  // Clang 22 declares every asm register .b32 (never .f32), so "r" for an
  // .f32 operand assembles.
  // CHECK: asm-accepted.cu:[[@LINE+1]]:{{.*}}: understood
  asm("add.f32 %0, %1, 1.0;" : "=r"(d) : "f"(x));
  // A tied input, an immediate and "n".
  // CHECK: asm-accepted.cu:[[@LINE+1]]:{{.*}}: understood
  asm("lop3.b32 %0, %1, %2, %0, %3;" : "=r"(e) : "r"(a), "r"(a), "n"(0x96), "0"(d));
  // Wider data registers for ld and cvt; a vector load; a split register.
  // CHECK: asm-accepted.cu:[[@LINE+1]]:{{.*}}: understood
  asm volatile("ld.global.u16 %0, [%1];" : "=r"(d) : "l"(p) : "memory");
  // CHECK: asm-accepted.cu:[[@LINE+1]]:{{.*}}: understood
  asm volatile("ld.global.v2.f32 {%0, %1}, [%2+8];" : "=f"(y), "=f"(x) : "l"(p) : "memory");
  unsigned long long w;
  // CHECK: asm-accepted.cu:[[@LINE+1]]:{{.*}}: understood
  asm("mov.b64 %0, {%1, %2};" : "=l"(w) : "r"(d), "r"(e));
  // A constant predicate.
  // CHECK: asm-accepted.cu:[[@LINE+1]]:{{.*}}: understood
  asm("selp.b32 %0, %1, %2, 1;" : "=r"(d) : "r"(e), "r"(d));
  // A scratch register group.
  // CHECK: asm-accepted.cu:[[@LINE+1]]:{{.*}}: understood
  asm("{ .reg .b32 t<2>; mov.b64 {t0, t1}, %1; add.u32 %0, t0, t1; }" : "=r"(d) : "l"(w));
  // A label made unique with %=, and a branch to it: bra is outside the
  // table (control flow), so this one is left alone.
  // CHECK: asm-accepted.cu:[[@LINE+1]]:{{.*}}: not understood: an instruction outside the table: bra.uni
  asm volatile("{ .reg .pred q; setp.eq.u32 q, %0, 0; @q bra.uni skip%=; skip%=: }" :: "r"(d));
  return y + static_cast<float>(d + e + w);
}
