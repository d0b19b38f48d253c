// PTX 8.8 gave min/max.f32 a third source on sm_100. The two-source call has
// the form's own floor; passing the third source needs sm_100 and PTX 8.8.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=sm90 %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=sm100 %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_100a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -target-feature -Xclang -ptx88 -Xclang -target-feature -Xclang +ptx86 -Xclang -verify=ptx86 %s
// sm100-no-diagnostics
#include <tileapply/tile.h>

__global__ void kernel(float a, float b, float c) {
  float d[1];
  __tile_apply("min.f32", d, a, b);
  __tile_apply("max.NaN.f32", d, a, b);
  __tile_apply("min.f32", d, a, b, c);
  // sm90-error@-1 {{'min.f32' with its optional operand needs sm_100 or newer, but this compilation targets sm_90a}}
  // sm90-note@-2 {{--cuda-gpu-arch=sm_100}}
  // ptx86-error@-3 {{'min.f32' with its optional operand needs PTX ISA 8.8, but this compilation emits PTX ISA 8.6}}
  __tile_apply("max.NaN.f32", d, a, b, c);
  // sm90-error@-1 {{'max.NaN.f32' with its optional operand needs sm_100 or newer}}
  // sm90-note@-2 {{--cuda-gpu-arch=sm_100}}
  // ptx86-error@-3 {{'max.NaN.f32' with its optional operand needs PTX ISA 8.8}}
}
