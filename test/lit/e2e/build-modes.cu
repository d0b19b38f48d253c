// The build modes users and build tools run, each with -fplugin alone: every
// device job that writes code expands every call (no marker reaches ptxas).
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t/st %t/rdc %t/arch %t/cc
//
// -save-temps: the AST job writes bitcode with -disable-llvm-passes and a
// second job, with no AST, optimizes it. The PTX is the PTX of one job.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin --cuda-device-only -S %s -o %t/one-job.ptx
// RUN: cd %t/st && %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin -save-temps -c %s -o %t/st/modes.o
// RUN: FileCheck %s --check-prefix=PTX < %t/st/build-modes-cuda-nvptx64-nvidia-cuda-sm_90a.s
// RUN: grep -v '^//' %t/one-job.ptx > %t/one-job.body
// RUN: grep -v '^//' %t/st/build-modes-cuda-nvptx64-nvidia-cuda-sm_90a.s > %t/st.body
// RUN: diff %t/one-job.body %t/st.body
//
// The new offload driver with relocatable device code and device LTO, linked
// (the device code is optimized and assembled by the linker wrapper), and the
// same with -save-temps (the LTO job's PTX is kept).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin --offload-new-driver -fgpu-rdc -foffload-lto %s -L%{cuda_lib} -lcudart_static -ldl -lrt -pthread -o %t/rdc/lto.exe
// RUN: test -x %t/rdc/lto.exe
// RUN: cd %t/rdc && %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin --offload-new-driver -fgpu-rdc -foffload-lto -save-temps %s -L%{cuda_lib} -lcudart_static -ldl -lrt -pthread -o %t/rdc/lto-st.exe
// RUN: FileCheck %s --check-prefix=PTX < %t/rdc/lto-st.exe.nvptx64.sm_90a.s
//
// Several --cuda-gpu-arch at once, split: each device job expands its own copy
// and checks its own floor (add.rn.f32x2 is sm_100 only, so it sits behind
// __CUDA_ARCH__).
// RUN: cd %t/arch && %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a -O2 -fplugin=%plugin -save-temps -c %s -o %t/arch/modes.o
// RUN: FileCheck %s --check-prefix=PTX < %t/arch/build-modes-cuda-nvptx64-nvidia-cuda-sm_90a.s
// RUN: FileCheck %s --check-prefixes=PTX,SM100 < %t/arch/build-modes-cuda-nvptx64-nvidia-cuda-sm_100a.s
//
// -O0 -g.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O0 -g -fplugin=%plugin --cuda-device-only -S %s -o %t/o0g.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/o0g.ptx
//
// -fsyntax-only checks (a bad call is reported) and writes nothing.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -fplugin=%plugin -fsyntax-only %s
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -fplugin=%plugin -fsyntax-only -DBAD_CALL %s 2>&1 | FileCheck %s --check-prefix=BAD
//
// ccache in front of the compiler: a miss, then a hit, both with the plugin.
// RUN: env CCACHE_DIR=%t/cc ccache -z > /dev/null
// RUN: env CCACHE_DIR=%t/cc ccache %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin --cuda-device-only -S %s -o %t/cc/miss.ptx
// RUN: env CCACHE_DIR=%t/cc ccache %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin --cuda-device-only -S %s -o %t/cc/hit.ptx
// RUN: env CCACHE_DIR=%t/cc ccache --print-stats | FileCheck %s --check-prefix=CCACHE
// RUN: FileCheck %s --check-prefix=PTX < %t/cc/hit.ptx
//
// A distcc-style split: preprocess the device side here, compile the
// preprocessed file as a device job elsewhere (the driver takes a .cui as host
// code, so the device job is named by its target and -fcuda-is-device).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 --cuda-device-only -E %s -o %t/dev.cui
// RUN: %clangxx -std=c++20 --target=nvptx64-nvidia-cuda -march=sm_90a -Xclang -fcuda-is-device -Xclang -aux-triple -Xclang x86_64-pc-linux-gnu -O2 -fplugin=%plugin -x cuda-cpp-output -S %t/dev.cui -o %t/distcc.ptx
// RUN: grep -v '^//' %t/distcc.ptx > %t/distcc.body
// RUN: diff %t/one-job.body %t/distcc.body
// And the host side of the same split compiles too.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 --cuda-host-only -E %s -o %t/host.cui
// RUN: %clangxx -std=c++20 -O2 -fplugin=%plugin -x cuda-cpp-output -c %t/host.cui -o %t/host.o
//
// A device job that runs no pass and writes PTX cannot expand: an error, not
// an unresolved marker for ptxas. Writing IR with no pass expands.
// RUN: not %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin --cuda-device-only -S -Xclang -disable-llvm-passes %s -o %t/none.ptx 2>&1 | FileCheck %s --check-prefix=NOPASS
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin --cuda-device-only -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t/none.ll
// RUN: FileCheck %s --check-prefix=IR < %t/none.ll

// PTX-NOT: __tileapply_apply
// PTX-COUNT-4: add.rn.f16x2
// PTX: mul.rn.f32
// SM100: add.rn.f32x2
// PTX-NOT: __tileapply_apply

// CCACHE: direct_cache_hit{{[[:space:]]+}}1

// NOPASS: error: tileapply cannot expand __tile_apply calls when the device job runs no LLVM passes

// IR-NOT: __tileapply_apply
// IR: add.rn.f16x2
// IR-NOT: __tileapply_apply

#include <tileapply/tile.h>

__global__ void modes(tile::global<const uint32_t, 4, 1> A, tile::global<uint32_t, 4, 1> D,
                      tile::global<float, 2, 1> F, tile::global<uint64_t, 1, 1> G) {
  uint32_t a[4][1];
  __tile_apply("ld.global.b32", a, A);
#ifdef BAD_CALL
  // BAD: build-modes.cu:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}.f16x3{{.*}} did you mean
  __tile_apply("add.rn.f16x3", a, a, a);
#endif
  __tile_apply("add.rn.f16x2", a, a, a);
  __tile_apply("st.global.b32", D, a);
  float f[2][1];
  __tile_apply("ld.global.f32", f, F);
  __tile_apply("mul.rn.f32", f, f, f);
  __tile_apply("st.global.f32", F, f);
#if __CUDA_ARCH__ >= 1000
  uint64_t g[1][1];
  __tile_apply("ld.global.b64", g, G);
  __tile_apply("add.rn.f32x2", g, g, g);
  __tile_apply("st.global.b64", G, g);
#endif
}

int main() { return 0; }
