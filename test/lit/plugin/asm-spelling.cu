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

// A real PTX instruction the table does not have, or a qualifier some other
// instruction uses, is left alone: the table is not all of PTX.
__device__ void outside(unsigned a) {
  asm volatile("bra.uni done%=;\ndone%=:" ::);
  asm volatile("nanosleep.u32 %0;" :: "r"(a));
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
