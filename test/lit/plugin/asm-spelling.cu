// The asm checker (docs/spec.md section 7): a misspelled instruction in an asm statement
// is reported at the byte of the string literal where it is written, with the
// did-you-mean of __tile_apply. Each statement marked here is refused by
// ptxas 13.0 (docs/asm-check.md).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fplugin-arg-tileapply-no-asm-check -Xclang -verify=off %s
// off-no-diagnostics
#include <cstdint>

__device__ uint32_t typo(uint32_t a, uint32_t b) {
  uint32_t d;
  // expected-error@+1 {{ptxas would reject this: '.f16x3' is not a qualifier of 'add'; did you mean 'add.rn.f16x2'?}}
  asm("add.rn.f16x3 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  // The second instruction of a template, after a comment.
  // expected-error@+1 {{ptxas would reject this: '.u3' is not a qualifier of 'mul'; did you mean 'mul.lo.u32'?}}
  asm("add.u32 %0, %1, %2; // first\n\tmul.lo.u3 %0, %0, %2;" : "+r"(d) : "r"(a), "r"(b));
  // Qualifiers in an order ptxas does not read (it says "Unexpected
  // instruction types specified for 'mul'").
  // expected-error@+1 {{ptxas would reject this: the qualifiers of 'mul.u32.lo' are those of 'mul.lo.u32' in an order ptxas does not read as that instruction}}
  asm("mul.u32.lo %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

// A real qualifier of another instruction that no form of this family (or
// of this multi-token instruction name) uses: ptxas says "Unknown modifier".
__device__ bool foreign(uint32_t a, uint32_t t) {
  bool p;
  // expected-error@+1 {{ptxas would reject this: '.rn' is not a qualifier of 'setp'; did you mean 'setp.ne.b32'?}}
  asm("{.reg .pred q; setp.ne.b32.rn q, %1, 0; selp.u32 %0, 1, 0, q;}" : "=r"(a) : "r"(a));
  // expected-error@+1 {{ptxas would reject this: '.shared::cta' is not a qualifier of 'tcgen05.ld'}}
  asm volatile("tcgen05.ld.sync.aligned.16x64b.x1.b32.shared::cta {%0}, [%1];" : "=r"(a) : "r"(t));
  // The name run into its first register (ptxas: "Unknown symbol").
  // expected-error@+1 {{ptxas would reject this: 'tcgen05.st.sync.aligned.16x64b.x1.b32' runs into its first operand}}
  asm volatile("tcgen05.st.sync.aligned.16x64b.x1.b32%0, {%1};" :: "r"(t), "r"(a));
  p = a;
  return p;
}

// Qualifiers of the family that no form writes together, or one written
// twice: ptxas says "Unexpected instruction types" or "Illegal modifier".
// The table's forms are every combination PTX defines, less the prefixes it
// leaves out on purpose (below), so such a pair is a sure verdict.
__device__ unsigned clash(unsigned a, unsigned long long p) {
  unsigned d;
  // expected-error@+1 {{ptxas would reject this: no form of 'setp' writes '.b32' together with '.ftz'; did you mean 'setp.ne.b32'?}}
  asm("{.reg .pred q; setp.ne.b32.ftz q, %1, 0; selp.u32 %0, 1, 0, q;}" : "=r"(d) : "r"(a));
  // expected-error@+1 {{ptxas would reject this: no form of 'ld' writes '.b32' together with '.b128'}}
  asm volatile("ld.global.b32.b128 %0, [%1];" : "=r"(d) : "l"(p) : "memory");
  // expected-error@+1 {{ptxas would reject this: '.global' is written twice, and no form of 'ld' writes it twice}}
  asm volatile("ld.global.global.b32 %0, [%1];" : "=r"(d) : "l"(p) : "memory");
  // A type written twice where forms do write it twice is a form.
  float f;
  asm("cvt.rni.f32.f32 %0, %1;" : "=f"(f) : "f"(__int_as_float(a)));
  return d + __float_as_uint(f);
}

// A real PTX instruction the table does not have, or a prefix the table
// leaves out on purpose (a TA_UNSUPPORTED row: bf16 with 8-bit integers, which
// ptxas takes with .b8 registers only), is left alone: the table is not all
// of PTX.
__device__ void outside(unsigned a, unsigned long long b) {
  asm volatile("bra.uni done%=;\ndone%=:" ::);
  asm volatile("nanosleep.u32 %0;" :: "r"(a));
  asm volatile("{.reg .b8 q; cvt.rzi.s8.bf16 q, %0; cvt.rn.bf16.s8 %0, q;}" : "+h"(*(unsigned short *)&a));
  asm volatile("st.bulk.weak.shared::cta [%0], %1, 0;" :: "r"(a), "l"(b) : "memory");
}

// Only what the device compilation emits: not an inline function nothing
// calls, not a template nobody instantiates, not the discarded branch of an
// `if constexpr` (each would be an error if emitted).
static __device__ inline void never_called(uint32_t a) {
  asm volatile("add.rn.f16x3 %0, %0, %0;" :: "r"(a));
}
template <typename T> __device__ void never_instantiated(T a) {
  asm volatile("add.rn.f16x3 %0, %0, %0;" :: "r"(a));
}
template <bool B> __device__ void branch(uint32_t a) {
  if constexpr (B)
    asm volatile("add.rn.f16x3 %0, %0, %0;" :: "r"(a));
  else
    asm volatile("add.u32 %0, %0, %0;" :: "r"(a));
}
template __device__ void branch<false>(uint32_t);
// And the host side of a __host__ __device__ function is the host's business.
__host__ void host_only() { asm volatile("nop"); }
