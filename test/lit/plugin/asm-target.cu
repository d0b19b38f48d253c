// The form's floor against the target being compiled, as for __tile_apply.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=sm90 %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=sm100 %s
// sm100-no-diagnostics

__device__ unsigned long long pair(unsigned long long a, unsigned long long b) {
  unsigned long long d;
  // sm90-error@+2 {{ptxas would reject this: 'add.rn.f32x2' needs sm_100 or newer, but this compilation targets sm_90a}}
  // sm90-note@+1 {{compile for a newer GPU (--cuda-gpu-arch=sm_100) or choose a form that sm_90a has}}
  asm("add.rn.f32x2 %0, %1, %2;" : "=l"(d) : "l"(a), "l"(b));
  return d;
}

__device__ void alloc(unsigned dst) {
  // sm90-error@+2 {{ptxas would reject this: 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' exists only on sm_100f or sm_110f, but this compilation targets sm_90a}}
  // sm90-note@+1 {{an arch-specific target}}
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;" :: "r"(dst) : "memory");
}
