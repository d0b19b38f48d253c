#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Builds the stream benchmark on the build machine (no GPU needed) into
# bench/.bin/ (BENCH_BIN), and checks it:
#   stream-clang      clang 22 + the TileApply plugin: the __tile_apply kernel,
#                     the inline-asm kernel, __hadd2 and the D2D copy
#   stream-nvcc       nvcc: the same inline-asm kernel and __hadd2
#   stream-*.ptx      their device code; each assembled with ptxas -v, which
#                     must report no stack frame and no spills
#   the PTX instruction mix of the __tile_apply kernel equals that of the
#   inline-asm kernel (bench/common/ptx_mix.py), and the host reference agrees
#   with an exact Python computation (check_reference.py)
#   build-info.txt    commit, date, compilers (run.sh records it with the results)
# Then carry bench/.bin to the GPU machine and run bench/stream/run.sh there.
# Needs the plugin built (scripts/setup.sh, or TILEAPPLY_BUILD_DIR=<build>).
# Exit status: 0 all built and checked; 1 otherwise. A missing nvcc is a
# visible SKIP of stream-nvcc, not a failure.
set -euo pipefail
# shellcheck source=../common/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/lib.sh"

here="$BENCH_ROOT/stream"
src="$here/stream.cu"
bench_require_toolchain
t0=$(ta_now)
status=0

echo "== stream-clang (clang 22 + $TILEAPPLY_PLUGIN)"
bench_clang_ptx "$src" "$BENCH_BIN/stream-clang.ptx" -DSTREAM_TILEAPPLY
bench_ptxas_check "$BENCH_BIN/stream-clang.ptx" || status=1
echo "-- PTX instruction mix: __tile_apply kernel vs hand-written inline asm (clang)"
python3 "$BENCH_ROOT/common/ptx_mix.py" "$BENCH_BIN/stream-clang.ptx" stream_add_tile stream_add_asm ||
  status=1
bench_clang_exe "$src" "$BENCH_BIN/stream-clang" -DSTREAM_TILEAPPLY
echo "-- host reference vs exact Python arithmetic"
"$BENCH_BIN/stream-clang" --reference-dump 100000 | python3 "$here/check_reference.py" || status=1

if bench_have_nvcc; then
  echo "== stream-nvcc ($NVCC)"
  bench_nvcc_ptx "$src" "$BENCH_BIN/stream-nvcc.ptx"
  bench_ptxas_check "$BENCH_BIN/stream-nvcc.ptx" || status=1
  bench_nvcc_exe "$src" "$BENCH_BIN/stream-nvcc"
else
  echo "SKIP stream-nvcc: no nvcc at $NVCC (set NVCC); run.sh will skip the nvcc variants"
  rm -f "$BENCH_BIN/stream-nvcc" "$BENCH_BIN/stream-nvcc.ptx"
fi
bench_build_info "$BENCH_BIN/build-info.txt"

echo "== built in $(ta_since "$t0") s:"
find "$BENCH_BIN" -maxdepth 1 -type f -printf '   %f (%s bytes)\n' | sort
if [ "$status" -ne 0 ]; then
  echo "== stream build checks FAILED (see above)"
  exit 1
fi
echo "== carry bench/.bin to the GPU machine and run there: bash bench/stream/run.sh"
