// Forms that exist only on arch-specific (sm_XXa) or family-specific (sm_XXf)
// targets: a plain sm_XX, however new, does not have them, and an 'a' target
// has only its own GPU's. Stochastic rounding (cvt.rs) is sm_100a/sm_103a
// only; the FP6 pairs are in the sm_100f, sm_110f and sm_120f families.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100 --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=plain %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_120a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=sm120a %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=sm100a %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_103a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=sm100a %s
// sm100a-no-diagnostics
#include <tileapply/tile.h>

__global__ void kernel(float x, float y, unsigned bits) {
  unsigned h2[1];
  unsigned short fp6[1];
  __tile_apply("cvt.rs.satfinite.f16x2.f32", h2, x, y, bits);
  // plain-error@-1 {{'cvt.rs.satfinite.f16x2.f32' exists only on sm_100a or sm_103a, but this compilation targets sm_100}}
  // plain-note@-2 {{an arch-specific target (sm_XXa) has its own GPU's features only; a family-specific one (sm_XXf) those of its family; a plain sm_XX has neither}}
  // sm120a-error@-3 {{'cvt.rs.satfinite.f16x2.f32' exists only on sm_100a or sm_103a, but this compilation targets sm_120a}}
  // sm120a-note@-4 {{an arch-specific target}}
  __tile_apply("cvt.rn.satfinite.e3m2x2.f32", fp6, x, y);
  // plain-error@-1 {{'cvt.rn.satfinite.e3m2x2.f32' exists only on sm_100f, sm_110f or sm_120f, but this compilation targets sm_100}}
  // plain-note@-2 {{an arch-specific target}}
}
