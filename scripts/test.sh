#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Builds tileapply (scripts/setup.sh) and runs every test: the GoogleTest unit
# tests and the lit suite, through ctest. Exits with the tests' status.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

t0=$(ta_now)
bash "$TILEAPPLY_ROOT/scripts/setup.sh"
echo "== running tests"
status=0
ctest --test-dir "$TILEAPPLY_BUILD_DIR" --output-on-failure -j2 || status=$?
if [ "$status" -eq 0 ]; then
  echo "== tests passed; elapsed $(ta_since "$t0") s (setup + build + tests)"
else
  echo "== tests FAILED (ctest status $status); elapsed $(ta_since "$t0") s"
fi
exit "$status"
