# shellcheck shell=bash
# Shared settings and helpers for the scripts in this directory. Sourced, not run.
# Every path is absolute, so the scripts work from any directory.
#
# Environment overrides:
#   TILEAPPLY_BUILD_DIR  build tree               (default: <repo>/build)
#   TILEAPPLY_ARCH       GPU architecture          (default: sm_90a)
#   CUDA_PATH            CUDA toolkit              (default: /usr/local/cuda)
#   LLVM_BIN             LLVM 22 tools directory   (default: /usr/lib/llvm-22/bin)

TILEAPPLY_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TILEAPPLY_BUILD_DIR="${TILEAPPLY_BUILD_DIR:-$TILEAPPLY_ROOT/build}"
TILEAPPLY_ARCH="${TILEAPPLY_ARCH:-sm_90a}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
LLVM_BIN="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
TILEAPPLY_PLUGIN="$TILEAPPLY_BUILD_DIR/lib/TileApply.so"
# The runtime library (TileApply::runtime): the tensor-map encoders.
TILEAPPLY_RUNTIME_LIB="$TILEAPPLY_BUILD_DIR/lib/libtileapply_runtime.a"

# Seconds since the epoch, with milliseconds.
ta_now() { date +%s.%N; }
# Seconds elapsed since a ta_now value, e.g. "12.3".
ta_since() { awk -v a="$1" -v b="$(ta_now)" 'BEGIN { printf "%.1f", b - a }'; }

ta_die() { echo "error: $*" >&2; exit 1; }

ta_need_plugin() {
  [ -f "$TILEAPPLY_PLUGIN" ] ||
    ta_die "$TILEAPPLY_PLUGIN is missing: the build did not produce the plugin (run scripts/setup.sh)"
}

# The flags every CUDA compile with the plugin uses (the documented command line).
ta_cuda_flags() {
  printf '%s\n' -std=c++20 -x cuda "--cuda-gpu-arch=$TILEAPPLY_ARCH" \
    -Wno-unknown-cuda-version "--cuda-path=$CUDA_PATH" -O2 \
    "-fplugin=$TILEAPPLY_PLUGIN" \
    -I "$TILEAPPLY_ROOT/include" -I "$TILEAPPLY_ROOT/runtime/include"
}

# ta_compile SRC.cu OUT: a host executable with the kernels embedded, linked
# with the runtime library (after -x none: the flags compile inputs as CUDA).
ta_compile() {
  local flags
  mapfile -t flags < <(ta_cuda_flags)
  "$LLVM_BIN/clang++" "${flags[@]}" "$1" -x none "$TILEAPPLY_RUNTIME_LIB" -L"$CUDA_PATH/lib64" -lcudart_static \
    -ldl -lrt -pthread -o "$2"
}

# ta_compile_ptx SRC.cu OUT.ptx: the device side only, as PTX text.
ta_compile_ptx() {
  local flags
  mapfile -t flags < <(ta_cuda_flags)
  "$LLVM_BIN/clang++" "${flags[@]}" --cuda-device-only -S "$1" -o "$2"
}

# Succeeds when a GPU is visible.
ta_have_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }

# The distinct opcodes of the __tile_apply calls in a source file, in order.
ta_opcodes_of() {
  grep -o '__tile_apply("[^"]*"' "$1" | sed 's/^__tile_apply("//; s/"$//' | awk '!seen[$0]++'
}

# ta_ptx_lines PTX OPCODE: the inline-asm instructions (what __tile_apply
# expands to) spelled exactly OPCODE, with an optional @p guard in front.
ta_ptx_lines() {
  local re
  re="$(printf '%s' "$2" | sed 's/[.[\*^$]/\\&/g')"
  awk '/\/\/ begin inline asm/ { a = 1; next } /\/\/ end inline asm/ { a = 0; next } a' "$1" |
    grep -E "^[[:space:]]*(@!?%?[[:alnum:]_]+[[:space:]]+)?${re}([[:space:]]|;)" || true
}
