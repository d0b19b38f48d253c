#!/usr/bin/env bash
# The GPU machine's half of a test run: runs what scripts/build-gpu-tests.sh
# built into gpu-bin/ (which must be carried there), then each test program
# under compute-sanitizer's memcheck, racecheck and synccheck. Writes
# everything under $OUT (default gpu-out/): gpu-results.txt, the sanitizer
# logs of each tool (sanitizer-<tool>.txt) and sanitizer-summary.txt.
#
#   bash scripts/gpu-run.sh                 on the GPU machine
#   TILEAPPLY_SANITIZE_JOBS=4 ...           programs under a sanitizer at once
#
# Exit status: 0 only when every program passed and every sanitizer run
# reported 0 errors. A sanitizer run that times out counts as a failure.
# run_one runs through xargs (SC2317), its arguments expand in the child (SC2016).
# shellcheck disable=SC2317,SC2016
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/gpu-bin"
out="${OUT:-$root/gpu-out}"
mkdir -p "$out"
jobs="${TILEAPPLY_SANITIZE_JOBS:-4}"
sanitizer="${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}"

if [ ! -x "$bin/run-all.sh" ]; then
  echo "gpu-run: no $bin/run-all.sh (build with scripts/build-gpu-tests.sh and carry gpu-bin)" >&2
  exit 2
fi

status=0
OUT="$out" bash "$bin/run-all.sh" >"$out/run-all.log" 2>&1 || status=1
tail -n 3 "$out/run-all.log"

# The test programs (examples are demonstrations, they run above).
mapfile -t tests < <(awk '$3 != "BROKEN" && $1 ~ /^gpu-/ {print $1}' "$bin/manifest.txt")

# One program under one tool; prints "<tool> <program> <errors|TIMEOUT|...>".
run_one() {
  local tool="$1" name="$2" log
  log="$out/sanitizer/$tool-$name.txt"
  timeout 300 "$sanitizer" --tool "$tool" --error-exitcode 99 "$bin/$name" >"$log" 2>&1
  local rc=$?
  local summary
  # memcheck and synccheck: "ERROR SUMMARY: N errors"; racecheck:
  # "RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)".
  summary="$(grep -oE 'ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: .*\([0-9]+ error' "$log" | tail -n 1 |
             sed -E 's/.*[:(] ?([0-9]+ error)$/\1/')"
  if [ "$rc" -eq 124 ]; then
    echo "$tool $name TIMEOUT"
  elif [ -z "$summary" ]; then
    echo "$tool $name NO-SUMMARY (exit status $rc)"
  else
    echo "$tool $name $summary (exit status $rc)"
  fi
}
export -f run_one
export sanitizer bin out
mkdir -p "$out/sanitizer"

{
  for t in "${tests[@]}"; do echo "memcheck $t"; echo "racecheck $t"; echo "synccheck $t"; done
} | xargs -P "$jobs" -L 1 bash -c 'run_one "$0" "$1"' | sort >"$out/sanitizer-summary.txt"

cat "$out/sanitizer-summary.txt"
# A clean run: "0 error" and exit status 0 on every line.
if grep -v ' 0 error (exit status 0)$' "$out/sanitizer-summary.txt" | grep -q .; then
  status=1
fi
# One file per tool (the per-run logs go: fewer files to bring back).
for tool in memcheck racecheck synccheck; do
  for f in "$out"/sanitizer/"$tool"-*.txt; do
    echo "== $(basename "$f" .txt)"
    cat "$f"
  done >"$out/sanitizer-$tool.txt"
done
rm -rf "$out/sanitizer"
echo "gpu-run: $(grep -c . "$out/sanitizer-summary.txt") sanitizer runs; status $status"
exit "$status"
