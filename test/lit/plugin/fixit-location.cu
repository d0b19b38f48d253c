// Diagnostics point into the user's file, at the argument they are about,
// with its source range; never into tileapply/tile.h. An opcode typo carries
// a fix-it that replaces the whole literal.
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fno-color-diagnostics -fdiagnostics-parseable-fixits -fdiagnostics-print-source-range-info %s 2>&1 | FileCheck %s --implicit-check-not=tile.h
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];
  float f[8][1];
  __tile_apply("add.rn.f16x", a, a, a);
// CHECK: fixit-location.cu:[[@LINE-1]]:16:{[[@LINE-1]]:16-[[@LINE-1]]:29}: error: '.f16x' is not a qualifier of 'add'; did you mean 'add.rn.f16x2'?
// CHECK: fix-it:"{{.*}}fixit-location.cu":{[[@LINE-2]]:16-[[@LINE-2]]:29}:"\"add.rn.f16x2\""

  __tile_apply("add.rn.f16x2",
               a,
               tile::view<tile::shape<8, 1>, tile::stride<1, 1>>(f),
               a);
// CHECK: fixit-location.cu:[[@LINE-2]]:16:{[[@LINE-2]]:16-[[@LINE-2]]:68}: error: operand 'a' of 'add.rn.f16x2' must be uint32_t or __half2 (PTX .f16x2), found float
// CHECK: fixit-location.cu:9:9: note: 'f' declared here
}
