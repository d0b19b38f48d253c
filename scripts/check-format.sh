#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# check-format.sh [--fix]: the C++ of the compiler, the runtime, the tools and
# the unit and fuzz tests follows the repository's .clang-format
# (clang-format-22, installed by scripts/setup.sh). Without --fix it changes
# nothing and fails (exit 1) naming each file that differs; with --fix it
# reformats them. The lit inputs, benchmarks, examples and GPU tests are left
# out: their line numbers are part of what their tests check.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
CLANG_FORMAT="${CLANG_FORMAT:-$(command -v clang-format-22 || echo "$LLVM_BIN/clang-format")}"
[ -x "$CLANG_FORMAT" ] || ta_die "no clang-format-22 (bash scripts/setup.sh installs it; or set CLANG_FORMAT)"
cd "$TILEAPPLY_ROOT"
mapfile -t files < <(
  { find core clang-plugin llvm-pass tools runtime include test/unit -type f \( -name '*.cpp' -o -name '*.h' \)
    find test/fuzz -maxdepth 1 -type f \( -name '*.cpp' -o -name '*.h' \); } | sort)
[ "${#files[@]}" -gt 0 ] || ta_die "no source files found under $TILEAPPLY_ROOT"
if [ "${1:-}" = --fix ]; then
  "$CLANG_FORMAT" -i "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! "$CLANG_FORMAT" --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (bash scripts/check-format.sh --fix)"
    bad=$((bad + 1))
  fi
done
if [ "$bad" -gt 0 ]; then
  echo "check-format FAILED: $bad of ${#files[@]} files differ from .clang-format"
  exit 1
fi
echo "check-format OK: ${#files[@]} files follow .clang-format"
