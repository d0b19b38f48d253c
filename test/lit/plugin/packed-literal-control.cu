// The switches for the PackedIntegerLiteral warning, as docs/diagnostics-control.md
// lists them. The warning is in Clang's -Wliteral-conversion group.
//
// Default: a warning.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=warn %s
// Into an error: -Werror, -Werror=literal-conversion, -Werror=conversion.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Werror -Xclang -verify=err %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Werror=literal-conversion -Xclang -verify=err %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Werror=conversion -Xclang -verify=err %s
// Back to a warning under -Werror.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Werror -Wno-error=literal-conversion -Xclang -verify=warn %s
// Off by name: -Wno-literal-conversion (with its parent -Wno-conversion), or
// only tileapply's warning with the plugin argument.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Wno-literal-conversion -Xclang -verify=off %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Wno-conversion -Xclang -verify=off %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fplugin-arg-tileapply-no-packed-literal -Xclang -verify=off %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fplugin-arg-tileapply-no-packed-literal -Werror -Xclang -verify=off %s
// Silenced with every other warning: -w (even with -Werror=literal-conversion).
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -w -Xclang -verify=off %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Werror=literal-conversion -w -Xclang -verify=off %s
// The plugin argument leaves Clang's own -Wliteral-conversion alone.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -fplugin-arg-tileapply-no-packed-literal -DCLANG_OWN -Xclang -verify=own %s
// off-no-diagnostics
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, 2); // warn-warning {{integer literal 2 passed to operand 'b'}} warn-note {{two halves of 2.0}}
                                         // err-error@-1 {{integer literal 2 passed to operand 'b'}} err-note@-1 {{two halves of 2.0}}
#ifdef CLANG_OWN
  int truncated = 2.5; // own-warning {{implicit conversion from 'double' to 'int' changes value from 2.5 to 2}}
#endif
}
