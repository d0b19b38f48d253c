# shellcheck shell=bash
# Shared settings and helpers of the benchmark scripts (bench/*/build.sh and
# run.sh). Sourced, not run. Builds happen on the build machine (clang 22, the
# plugin, CUDA's nvcc and ptxas); runs happen on a machine with a GPU, from
# the binaries in bench/.bin/ (ignored by git; carried to the GPU machine).
#
# Environment overrides (besides scripts/lib.sh's TILEAPPLY_BUILD_DIR,
# TILEAPPLY_ARCH, CUDA_PATH, LLVM_BIN):
#   BENCH_BIN   where binaries and PTX go   (default: <repo>/bench/.bin)
#   NVCC        nvcc                        (default: $CUDA_PATH/bin/nvcc)
#   PYTHON      python with torch, at run time (default: python3)

# shellcheck source-path=SCRIPTDIR/../../scripts source=lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../../scripts" && pwd)/lib.sh"

BENCH_ROOT="$TILEAPPLY_ROOT/bench"
BENCH_BIN="${BENCH_BIN:-$BENCH_ROOT/.bin}"
NVCC="${NVCC:-$CUDA_PATH/bin/nvcc}"
PYTHON="${PYTHON:-python3}"

bench_have_nvcc() { [ -x "$NVCC" ]; }

# What every build script needs before it starts: the plugin, clang 22 and the
# CUDA toolkit (each with the variable that points elsewhere), and BENCH_BIN.
bench_require_toolchain() {
  [ -f "$TILEAPPLY_PLUGIN" ] ||
    ta_die "$TILEAPPLY_PLUGIN is missing: build the plugin first (bash scripts/setup.sh), or point TILEAPPLY_BUILD_DIR at a build that has lib/TileApply.so"
  [ -x "$LLVM_BIN/clang++" ] || ta_die "no clang++ at $LLVM_BIN (set LLVM_BIN)"
  [ -x "$CUDA_PATH/bin/ptxas" ] || ta_die "no CUDA toolkit at $CUDA_PATH (set CUDA_PATH)"
  mkdir -p "$BENCH_BIN"
}

# bench_clang_exe SRC OUT [FLAGS...]: a host executable, clang 22 + the plugin.
bench_clang_exe() {
  local src="$1" out="$2" flags
  shift 2
  mapfile -t flags < <(ta_cuda_flags)
  "$LLVM_BIN/clang++" "${flags[@]}" "$@" "$src" -L"$CUDA_PATH/lib64" -lcudart_static \
    -ldl -lrt -pthread -o "$out"
}

# bench_clang_ptx SRC OUT.ptx [FLAGS...]: the device side, as PTX.
bench_clang_ptx() {
  local src="$1" out="$2" flags
  shift 2
  mapfile -t flags < <(ta_cuda_flags)
  "$LLVM_BIN/clang++" "${flags[@]}" "$@" --cuda-device-only -S "$src" -o "$out"
}

# The nvcc flags: the architecture as clang's, sm_90a -> -arch=sm_90a.
bench_nvcc_flags() {
  printf '%s\n' "-arch=$TILEAPPLY_ARCH" -O3 -std=c++17 -I "$TILEAPPLY_ROOT/include" -I "$TILEAPPLY_ROOT/runtime/include"
}

# bench_nvcc_exe SRC OUT [FLAGS...] / bench_nvcc_ptx SRC OUT.ptx [FLAGS...]
bench_nvcc_exe() {
  local src="$1" out="$2" flags
  shift 2
  mapfile -t flags < <(bench_nvcc_flags)
  "$NVCC" "${flags[@]}" "$@" "$src" -o "$out"
}
bench_nvcc_ptx() {
  local src="$1" out="$2" flags
  shift 2
  mapfile -t flags < <(bench_nvcc_flags)
  "$NVCC" "${flags[@]}" "$@" -ptx "$src" -o "$out"
}

# bench_ptxas_check FILE.ptx: no stack frame, no spills (bench/common/ptxas_check.sh).
bench_ptxas_check() {
  PTXAS="$CUDA_PATH/bin/ptxas" bash "$BENCH_ROOT/common/ptxas_check.sh" "$1" "$TILEAPPLY_ARCH"
}

# bench_build_info FILE: what was built, from which commit, by which compilers.
bench_build_info() {
  local commit dirty=""
  commit="$(git -C "$TILEAPPLY_ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  if [ "$commit" != unknown ] && [ -n "$(git -C "$TILEAPPLY_ROOT" status --porcelain 2>/dev/null)" ]; then
    dirty=" (with uncommitted changes)"
  fi
  {
    echo "# build commit: $commit$dirty"
    echo "# build date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# build clang: $("$LLVM_BIN/clang++" --version | head -n 1)"
    if bench_have_nvcc; then
      echo "# build nvcc: $("$NVCC" --version | grep -i release | head -n 1 | sed 's/^ *//')"
    fi
    echo "# build arch: $TILEAPPLY_ARCH"
  } >"$1"
}

# bench_fake_exe SRC EMULATION.cpp OUT [FLAGS...]: SRC built by clang 22 with
# the plugin, linked against bench/common/fake_cudart.cpp and the benchmark's
# host emulation of its kernels instead of CUDA's runtime: runs here, without
# a GPU, to test the program's plumbing.
bench_fake_exe() {
  local src="$1" emu="$2" out="$3" flags
  shift 3
  mapfile -t flags < <(ta_cuda_flags)
  "$LLVM_BIN/clang++" "${flags[@]}" "$@" -c "$src" -o "$out.o" &&
    "$LLVM_BIN/clang++" -std=c++17 -O2 -I "$CUDA_PATH/include" -I "$TILEAPPLY_ROOT/include" -I "$TILEAPPLY_ROOT/runtime/include" \
      "$BENCH_ROOT/common/fake_cudart.cpp" "$emu" "$out.o" -pthread -o "$out" &&
    rm -f "$out.o"
}
