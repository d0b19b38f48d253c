// A CUDA file written with inline asm, for test/lit/plugin/asm-migrate-example.test:
// tileapply-migrate rewrites what one __tile_apply call expresses and leaves
// the rest. Kept free of tileapply headers on purpose (the tool adds tile.h).
#include <cstdint>

__device__ uint32_t add3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t t, d;
  asm("add.u32 %0, %1, %2;" : "=r"(t) : "r"(a), "r"(b));
  asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(t), "r"(c));
  return d;
}

__device__ uint32_t xor3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(0x96));
  return d;
}

__device__ float fma_one(float x, float y) {
  float d;
  asm("fma.rn.f32 %0, %1, %2, 1.0;" : "=f"(d) : "f"(x), "f"(y));
  return d;
}

// A template: one edit serves both instances.
template <class T> __device__ T add_one(T a) {
  T d;
  asm("and.b32 %0, %1, 1;" : "=r"(d) : "r"(a));
  return d;
}

__global__ void copy4(const float *in, float *out) {
  float v[4];
  asm volatile("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3])
               : "l"(__cvta_generic_to_global(in)) : "memory");
  asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};"
               :: "l"(__cvta_generic_to_global(out)), "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3])
               : "memory");
}

__global__ void arrive(uint64_t *bar, uint64_t *state) {
  uint64_t s;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];"
               : "=l"(s) : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar))) : "memory");
  *state = s;
}

__global__ void kernel(uint32_t *p, float *f) {
  p[0] = add3(p[1], p[2], p[3]) + xor3(p[4], p[5], p[6]);
  p[7] = add_one<uint32_t>(p[8]) + static_cast<uint32_t>(add_one<int>(static_cast<int>(p[9])));
  f[0] = fma_one(f[1], f[2]);
  // Not one call: a special register, and two instructions.
  uint32_t lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  uint32_t e;
  asm("add.u32 %0, %1, %2; add.u32 %0, %0, %2;" : "=&r"(e) : "r"(p[10]), "r"(p[11]));
  p[12] = lane + e;
}
