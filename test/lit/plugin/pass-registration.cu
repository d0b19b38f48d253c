// `-fplugin=TileApply.so` alone also expands: the plugin adds the expansion
// pass to the NVPTX device job's pipeline (at -O0 too) and leaves the host
// job's pipeline alone.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O0 -fplugin=%plugin -Xclang -fdebug-pass-manager %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-host-only -S -O2 -fplugin=%plugin -Xclang -fdebug-pass-manager %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o - | FileCheck %s --check-prefix=PTX --implicit-check-not=__tileapply_apply
// DEVICE: Running pass: tileapply::TileApplyExpandPass
// HOST-NOT: tileapply
// PTX-COUNT-8: add.rn.f16x2
#include <tileapply/tile.h>

__global__ void kernel(tile::global<uint32_t, 8, 1> Out) {
  uint32_t a[8][1];
  __tile_apply("ld.global.b32", a, Out);
  __tile_apply("add.rn.f16x2", a, a, a);
  __tile_apply("st.global.b32", Out, a);
}
