#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Builds tileapply with AddressSanitizer and UndefinedBehaviorSanitizer
# (TILEAPPLY_SANITIZE=ON, compiled by clang 22) into build-asan/ and runs the
# whole lit suite against that build: its TileApply.so and TileApplyPass.so are
# loaded into the ordinary, uninstrumented clang++ and opt, with the ASan
# runtime preloaded (lit.cfg.py does that for a sanitized build). Any ASan or
# UBSan report aborts the compiler it happens in, so the test fails.
#
#   scripts/sanitize.sh            build, then run every lit test
#   scripts/sanitize.sh ARGS...    with extra lit arguments, e.g.
#                                  --filter 'lit/pass/' to run only those tests
# Environment: TILEAPPLY_ASAN_DIR (default <repo>/build-asan), and lib.sh's.
# Not part of scripts/test.sh (see docs/sanitizers.md for the time it takes).
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ASAN_DIR="${TILEAPPLY_ASAN_DIR:-$TILEAPPLY_ROOT/build-asan}"
t0=$(ta_now)
if [ ! -f "$ASAN_DIR/CMakeCache.txt" ]; then
  cmake -S "$TILEAPPLY_ROOT" -B "$ASAN_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$LLVM_BIN/clang" -DCMAKE_CXX_COMPILER="$LLVM_BIN/clang++" \
    -DTILEAPPLY_SANITIZE=ON -DTILEAPPLY_FUZZ=OFF
fi
cmake --build "$ASAN_DIR"
echo "== sanitized build finished in $(ta_since "$t0") s"

# lit.cfg.py preloads this runtime into every test command of a sanitized build.
TILEAPPLY_ASAN_RUNTIME="$("$LLVM_BIN/clang++" -print-file-name=libclang_rt.asan-x86_64.so)"
[ -f "$TILEAPPLY_ASAN_RUNTIME" ] || ta_die "no ASan runtime at $TILEAPPLY_ASAN_RUNTIME (install libclang-rt-22-dev)"
export TILEAPPLY_ASAN_RUNTIME

t1=$(ta_now)
status=0
"$LLVM_BIN/lit" -sv --time-tests "$@" "$ASAN_DIR/test" || status=$?
echo "== sanitized lit run: status $status, $(ta_since "$t1") s (total $(ta_since "$t0") s)"
exit "$status"
