#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Builds tileapply (scripts/setup.sh) and runs every test: the GoogleTest unit
# tests, the lit suite and the fuzz targets (60 s each), through ctest; then the
# install, the CMake package, the .deb and ccache (scripts/test-install.sh);
# then the lit suite under ASan/UBSan. Exits with the tests' status.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

t0=$(ta_now)
bash "$TILEAPPLY_ROOT/scripts/setup.sh"
echo "== running tests"
status=0
ctest --test-dir "$TILEAPPLY_BUILD_DIR" --output-on-failure -j2 || status=$?
# tileapply as a CMake project gets it: install, find_package, .deb, ccache
# (docs/install.md; about 1 min, plus ~15 s once to fetch CMake 4 from PyPI).
echo "== testing the install, the CMake package and the .deb (scripts/test-install.sh)"
bash "$TILEAPPLY_ROOT/scripts/test-install.sh" || status=$?
# Then the whole lit suite again against an ASan/UBSan build of the plugins
# (build-asan/; scripts/sanitize.sh, docs/sanitizers.md; ~6 min on 2 cores).
# TILEAPPLY_TEST_SANITIZE=0 skips it for a quick local run.
if [ "${TILEAPPLY_TEST_SANITIZE:-1}" = 1 ]; then
  echo "== running the lit suite under ASan/UBSan (scripts/sanitize.sh)"
  bash "$TILEAPPLY_ROOT/scripts/sanitize.sh" || status=$?
fi
if [ "$status" -eq 0 ]; then
  echo "== tests passed; elapsed $(ta_since "$t0") s (setup + build + tests)"
else
  echo "== tests FAILED (status $status); elapsed $(ta_since "$t0") s"
fi
exit "$status"
