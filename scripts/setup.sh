#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Installs what tileapply needs (Debian 12, as root; CUDA 13 must already be at
# /usr/local/cuda) and builds the project into build/ (Release, Ninja).
# Idempotent: installs nothing when every package is present, and rebuilds only
# what changed.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# libclang-rt-22-dev: the libFuzzer and ASan/UBSan runtimes (test/fuzz, scripts/sanitize.sh).
# ccache and python3-venv: scripts/test-install.sh (ccache in front of clang;
# a venv for CMake 4 from PyPI). clang-format-22: the format check
# (scripts/check-format.sh, a ctest test).
PACKAGES=(clang-22 llvm-22-dev libclang-22-dev llvm-22-tools libclang-rt-22-dev libgtest-dev cmake ninja-build g++
          ccache python3-venv clang-format-22)

missing=()
for p in "${PACKAGES[@]}"; do
  if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" != installed ]; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || ta_die "not root and no sudo: install ${missing[*]} first"
    sudo=(sudo)
  fi
  t0=$(ta_now)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${PACKAGES[@]}"
  echo "== packages installed in $(ta_since "$t0") s"
else
  echo "== packages: all present (${PACKAGES[*]})"
fi

[ -x "$CUDA_PATH/bin/ptxas" ] ||
  echo "warning: no CUDA toolkit at $CUDA_PATH (set CUDA_PATH): examples and end-to-end tests need it" >&2

echo "== configuring and building $TILEAPPLY_BUILD_DIR"
t0=$(ta_now)
if [ -f "$TILEAPPLY_BUILD_DIR/CMakeCache.txt" ]; then
  # Already configured: keep its generator and settings; cmake re-runs only if needed.
  cmake -S "$TILEAPPLY_ROOT" -B "$TILEAPPLY_BUILD_DIR" >/dev/null
else
  # Compiled by clang 22, which also builds the libFuzzer targets (test/fuzz);
  # a build tree configured earlier with g++ keeps g++ and skips the fuzzers.
  cmake -S "$TILEAPPLY_ROOT" -B "$TILEAPPLY_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$LLVM_BIN/clang" -DCMAKE_CXX_COMPILER="$LLVM_BIN/clang++"
fi
# The plugin first, timed on its own when the build knows it by that path.
if [ -f "$TILEAPPLY_BUILD_DIR/build.ninja" ] &&
   ninja -C "$TILEAPPLY_BUILD_DIR" -t query lib/TileApply.so >/dev/null 2>&1; then
  t1=$(ta_now)
  cmake --build "$TILEAPPLY_BUILD_DIR" --target lib/TileApply.so
  echo "== lib/TileApply.so built in $(ta_since "$t1") s"
fi
cmake --build "$TILEAPPLY_BUILD_DIR"
echo "== build finished in $(ta_since "$t0") s (configure + build)"
