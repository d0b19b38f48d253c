// tcgen05's optional scale-input-d exists on the sm_100f family only, not on
// sm_110f (ptxas 13.0): the form without it compiles for sm_110a, the form
// with it is refused there (TargetTooOld, naming the optional operand).
// Immediates and the Tensor Memory address are checked too.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_110a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(uint32_t tmem, uint64_t adesc, uint64_t bdesc, uint32_t idesc) {
  __tile_apply("tcgen05.mma.cta_group::1.kind::tf32", tmem, adesc, bdesc, idesc, true);
  __tile_apply("tcgen05.mma.cta_group::1.kind::tf32", tmem, adesc, bdesc, idesc, true, 3); // expected-error {{'tcgen05.mma.cta_group::1.kind::tf32' with its optional operand exists only on sm_100f, but this compilation targets sm_110a}}
                                                                                         // expected-note@-1 {{an arch-specific target (sm_XXa) has its own GPU's features only}}
                                                                                         // expected-note@-2 {{'tcgen05.mma.cta_group::1.kind::tf32' also takes these operands}}
}
