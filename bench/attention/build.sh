#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Builds the attention benchmark on the build machine (no GPU needed) into
# bench/.bin/ (BENCH_BIN), and checks it:
#   libattn.so          the kernels of bench/attention/attn.cuh and the C ABI
#                       (attn.cu), clang 22 + the TileApply plugin, -fPIC
#                       -shared, CUDA's static runtime linked in:
#                       bench/attention/run.py loads it with ctypes
#   attn.ptx            its device code, assembled with ptxas -v: no stack
#                       frame, no spills, no serialized wgmma
#                       (bench/common/ptxas_check.sh); each pipelined
#                       kernel's softmax in a basic block of its own before
#                       the P V wait (overlap_check.py); every inline-asm
#                       instruction traced to a __tile_apply call, no asm
#                       statement in the sources (bench/common/asm_audit.py)
#   attn-layout-check   the kernel's index arithmetic (descriptors, swizzle,
#                       P fragment, masks, epilogue) checked on the host
#   run.py --self-test, --abi-check   the runner's own checks and the
#                       library's C ABI (configurations, refusals), without a GPU
#   attn-build-info.txt commit, date, compilers (run.sh records it)
# Then carry bench/.bin to the GPU machine and run bench/attention/run.sh there.
# Needs the plugin built (scripts/setup.sh, or TILEAPPLY_BUILD_DIR=<build>).
# Exit status: 0 all built and checked; 1 otherwise.
set -euo pipefail
# shellcheck source=../common/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/lib.sh"

here="$BENCH_ROOT/attention"
src="$here/attn.cu"
bench_require_toolchain
t0=$(ta_now)
status=0
mapfile -t flags < <(ta_cuda_flags)

echo "== attn.ptx (clang 22 + $TILEAPPLY_PLUGIN)"
bench_clang_ptx "$src" "$BENCH_BIN/attn.ptx"
bench_ptxas_check "$BENCH_BIN/attn.ptx" || status=1
python3 "$here/overlap_check.py" "$BENCH_BIN/attn.ptx" | tail -n 1 || status=1
if [ -f "$BENCH_ROOT/common/asm_audit.py" ]; then
  python3 "$BENCH_ROOT/common/asm_audit.py" "$BENCH_BIN/attn.ptx" "$here/attn.cuh" --no-asm "$BENCH_ROOT/common/device.cuh" "$BENCH_ROOT/common/tiles.h" "$here/attn.cuh" "$here/attn.cu" "$here/layout.h" "$here/configs.h" | tail -n 3 || status=1
fi

echo "== libattn.so"
"$LLVM_BIN/clang++" "${flags[@]}" -fPIC -c "$src" -o "$BENCH_BIN/attn.o"
"$LLVM_BIN/clang++" -shared "$BENCH_BIN/attn.o" "$TILEAPPLY_RUNTIME_LIB" -L"$CUDA_PATH/lib64" -lcudart_static -ldl -lrt -pthread \
  -o "$BENCH_BIN/libattn.so"
rm -f "$BENCH_BIN/attn.o"

echo "== attn-layout-check (the kernel's index arithmetic, on the host)"
"$LLVM_BIN/clang++" -std=c++20 -O2 -I "$TILEAPPLY_ROOT/include" -I "$TILEAPPLY_ROOT/runtime/include" "$here/layout_check.cpp" \
  -o "$BENCH_BIN/attn-layout-check"
"$BENCH_BIN/attn-layout-check" | tail -n 4 || status=1

echo "== run.py --self-test and --abi-check (no GPU)"
python3 "$here/run.py" --self-test | tail -n 1 || status=1
python3 "$here/run.py" --lib "$BENCH_BIN/libattn.so" --abi-check | tail -n 1 || status=1
python3 "$here/profile_shape.py" --help >/dev/null || { echo "profile_shape.py --help failed"; status=1; }
bench_build_info "$BENCH_BIN/attn-build-info.txt"

echo "== built in $(ta_since "$t0") s:"
find "$BENCH_BIN" -maxdepth 1 -type f \( -name '*attn*' \) -printf '   %f (%s bytes)\n' | sort
if [ "$status" -ne 0 ]; then
  echo "== attention build checks FAILED (see above)"
  exit 1
fi
echo "== carry bench/.bin to the GPU machine and run there: bash bench/attention/run.sh"
