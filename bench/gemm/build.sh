#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Builds the GEMM benchmark on the build machine (no GPU needed) into
# bench/.bin/ (BENCH_BIN), and checks it:
#   libgemm.so        the kernels of bench/gemm/gemm.cuh and their launchers
#                     (gemm.cu), clang 22 + the TileApply plugin, -fPIC -shared,
#                     CUDA's static runtime linked in: bench/gemm/run.py loads
#                     it with ctypes on the GPU machine, next to PyTorch
#   gemm.ptx          its device code, assembled with ptxas -v: no stack frame,
#                     no spills, no serialized wgmma (bench/common/ptxas_check.sh)
#   layout-check      the kernel's index arithmetic (descriptors, swizzle,
#                     epilogue, tile order, mbarrier protocol) checked on the
#                     host against tileapply/descriptor.h and fragment.h
#   run.py --self-test, run.py --list   the runner's checks and the library's
#                     variants, without a GPU
#   build-info.txt    commit, date, compilers (run.sh records it)
# Then carry bench/.bin to the GPU machine and run bench/gemm/run.sh there.
# Needs the plugin built (scripts/setup.sh, or TILEAPPLY_BUILD_DIR=<build>).
# Exit status: 0 all built and checked; 1 otherwise.
set -euo pipefail
# shellcheck source=../common/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/lib.sh"

here="$BENCH_ROOT/gemm"
src="$here/gemm.cu"
bench_require_toolchain
t0=$(ta_now)
status=0
mapfile -t flags < <(ta_cuda_flags)

echo "== gemm.ptx (clang 22 + $TILEAPPLY_PLUGIN)"
bench_clang_ptx "$src" "$BENCH_BIN/gemm.ptx"
bench_ptxas_check "$BENCH_BIN/gemm.ptx" || status=1

echo "== libgemm.so"
"$LLVM_BIN/clang++" "${flags[@]}" -fPIC -c "$src" -o "$BENCH_BIN/gemm.o"
"$LLVM_BIN/clang++" -shared "$BENCH_BIN/gemm.o" "$TILEAPPLY_RUNTIME_LIB" -L"$CUDA_PATH/lib64" -lcudart_static -ldl -lrt -pthread \
  -o "$BENCH_BIN/libgemm.so"
rm -f "$BENCH_BIN/gemm.o"

echo "== layout-check (the kernel's index arithmetic, on the host)"
"$LLVM_BIN/clang++" -std=c++20 -O2 -I "$TILEAPPLY_ROOT/include" -I "$TILEAPPLY_ROOT/runtime/include" "$here/layout_check.cpp" \
  -o "$BENCH_BIN/layout-check"
"$BENCH_BIN/layout-check" | tail -n 3 || status=1

echo "== run.py --self-test and --list (no GPU)"
python3 "$here/run.py" --self-test | tail -n 1 || status=1
python3 "$here/run_fp8.py" --self-test | tail -n 1 || status=1
python3 "$here/run.py" --lib "$BENCH_BIN/libgemm.so" --list || status=1
bench_build_info "$BENCH_BIN/gemm-build-info.txt"

echo "== built in $(ta_since "$t0") s:"
find "$BENCH_BIN" -maxdepth 1 -type f -name '*gemm*' -printf '   %f (%s bytes)\n' | sort
if [ "$status" -ne 0 ]; then
  echo "== gemm build checks FAILED (see above)"
  exit 1
fi
echo "== carry bench/.bin to the GPU machine and run there: bash bench/gemm/run.sh"
