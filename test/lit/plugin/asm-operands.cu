// The asm checker: each operand against the form the table has for the
// instruction. Every statement with an error here is refused by ptxas 13.0
// (docs/asm-check.md lists the experiments).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <cstdint>

__device__ void operands(uint32_t a, uint32_t b, unsigned long long l, float x, float *p) {
  uint32_t d;
  float f;
  // A 64-bit register for a .u32 operand.
  // expected-error@+2 {{ptxas would reject this: %1 is operand 'a' of 'add.u32', a 32-bit register (.u32), but constraint "l" gives it a 64-bit register}}
  // expected-note@+1 {{write "r"}}
  asm("add.u32 %0, %1, %2;" : "=r"(d) : "l"(l), "r"(b));
  // A 16-bit register for an .f32 destination.
  // expected-error@+2 {{ptxas would reject this: %0 is operand 'd' of 'add.f32', a 32-bit register (.f32), but constraint "=h" gives it a 16-bit register}}
  // expected-note@+1 {{write "=f"}}
  asm("add.f32 %0, %1, %2;" : "=h"(d) : "f"(x), "f"(x));
  // An operand missing.
  // expected-error@+1 {{ptxas would reject this: 'add.u32' takes 3 operands (d, a, b), found 2}}
  asm("add.u32 %0, %1;" : "=r"(d) : "r"(a));
  // An address where the instruction reads a register, and the reverse.
  // expected-error@+1 {{ptxas would reject this: [%1] is operand 'a' of 'add.u32', a register, but it is written as an address in brackets}}
  asm("add.u32 %0, [%1], %2;" : "=r"(d) : "l"(p), "r"(b));
  // expected-error@+1 {{ptxas would reject this: %1 is operand 'a' of 'ld.global.u32', an address in global memory: write it in brackets, [%1]}}
  asm volatile("ld.global.u32 %0, %1;" : "=r"(d) : "l"(p) : "memory");
  // A 32-bit register for a global address.
  // expected-error@+2 {{ptxas would reject this: %1 is the address of operand 'a' of 'ld.global.u32', a 64-bit global address, but constraint "r" gives it a 32-bit register}}
  // expected-note@+1 {{write "l"}}
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(d) : "r"(a) : "memory");
  // A register where PTX requires an immediate.
  // expected-error@+2 {{ptxas would reject this: %4 is operand 'immLut' of 'lop3.b32', which PTX requires as an immediate in [0..255], but constraint "r" gives it a 32-bit register}}
  // expected-note@+1 {{pass a constant with "n"}}
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(a), "r"(a), "r"(b));
  // An integer literal for an .f32 source.
  // expected-error@+1 {{ptxas would reject this: 1 is operand 'b' of 'add.f32', a .f32 value, but 1 is an integer; PTX reads a .f32 immediate only as a floating-point literal (1.0, 0f3F800000)}}
  asm("add.f32 %0, %1, 1;" : "=f"(f) : "f"(x));
  // expected-error@+1 {{ptxas would reject this: %2 is operand 'b' of 'add.f32', a .f32 value, but %2 ("n") is an integer}}
  asm("add.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "n"(2));
  // An immediate destination.
  // expected-error@+1 {{ptxas would reject this: 5 is operand 'd' of 'add.u32', which takes a register (.u32), not an immediate}}
  asm volatile("add.u32 5, %0, %0;" :: "r"(a));
  // Braces that do not match the register group.
  // expected-error@+1 {{ptxas would reject this: {%0, %1, %2} is operand 'd' of 'ld.shared.v2.u32', a group of 2 registers, but the braces hold 3}}
  asm volatile("ld.shared.v2.u32 {%0, %1, %2}, [%3];" : "=r"(d), "=r"(d), "=r"(d) : "r"(a) : "memory");
  // expected-error@+1 {{ptxas would reject this: %0 is operand 'd' of 'ld.shared.v2.u32', a group of 2 registers: write them in braces, {%0, %1}}}
  asm volatile("ld.shared.v2.u32 %0, [%1];" : "=l"(l) : "r"(a) : "memory");
  // A 32-bit register where setp writes a predicate, and as a guard.
  // expected-error@+2 {{ptxas would reject this: %0 is operand 'p' of 'setp.eq.u32', a predicate (.pred), but constraint "=r" gives it a 32-bit register}}
  // expected-note@+1 {{declare a predicate in the template}}
  asm("setp.eq.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  // expected-error@+2 {{ptxas would reject this: the guard %1 of 'add.u32' must be a predicate (.pred), but constraint "r" gives it a 32-bit register}}
  // expected-note@+1 {{declare a predicate in the template}}
  asm("@%1 add.u32 %0, %0, 1;" : "+r"(d) : "r"(a));
  // A scratch register of the template, declared too narrow.
  // expected-error@+1 {{ptxas would reject this: t is operand 'a' of 'add.u32', a 32-bit register (.u32), but the template declares it .b16}}
  asm("{ .reg .b16 t; mov.b16 t, 1; add.u32 %0, t, %1; }" : "=r"(d) : "r"(a));
  // A special register of the wrong width.
  // expected-error@+1 {{ptxas would reject this: %%clock64 is operand 'a' of 'mov.u32', a 32-bit register (.u32), but it is a 64-bit special register}}
  asm volatile("mov.u32 %0, %%clock64;" : "=r"(d));
  // ld, st and cvt take data registers wider than their type, not narrower.
  // expected-error@+2 {{ptxas would reject this: %0 is operand 'd' of 'ld.global.u32', a register of at least 32 bits (.u32), but constraint "=h" gives it a 16-bit register}}
  // expected-note@+1 {{write "=r"}}
  asm volatile("ld.global.u32 %0, [%1];" : "=h"(d) : "l"(p) : "memory");
  // st.async, an instruction of its own in the st family, takes exactly its
  // type's width (ptxas: "Arguments mismatch").
  unsigned long long w = d;
  // expected-error@+2 {{ptxas would reject this: %1 is operand 'b' of 'st.async.shared::cluster.mbarrier::complete_tx::bytes.b32', a 32-bit register (.b32), but constraint "l" gives it a 64-bit register}}
  // expected-note@+1 {{write "r"}}
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];" :: "r"(a), "l"(w), "r"(b) : "memory");
}
