#!/usr/bin/env bash
# Builds the differential fuzzer's GPU batch (README.md in this directory):
# FILES self-checking programs of CALLS random __tile_apply calls each, every
# call beside its inline-asm twin, into <repo>/gpu-bin/differential/, with
# run.sh, which runs them all and prints the total.
#
#   test/fuzz/differential/build-gpu.sh [FILES [CALLS [SEED]]]   (default 16 250 1000)
#
# Carry gpu-bin/differential/ to the GPU machine and run
#   bash gpu-bin/differential/run.sh
# It needs only the binaries (cudart is linked statically) and a GPU of sm_90a
# (H100/H200). The last line it prints is `differential-gpu: N passed, M failed`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../../scripts/lib.sh
source "$here/../../../scripts/lib.sh"
ta_need_plugin
files="${1:-16}" calls="${2:-250}" seed="${3:-1000}"
out="$TILEAPPLY_ROOT/gpu-bin/differential"
rm -rf "$out"
mkdir -p "$out/src"
t0=$(ta_now)
for ((i = 0; i < files; i++)); do
  s=$((seed + i))
  python3 "$here/difffuzz.py" --build "$TILEAPPLY_BUILD_DIR" --gpu "$out/src/diff-$s.cu" \
    --seed "$s" --count "$calls" >/dev/null
  ta_compile "$out/src/diff-$s.cu" "$out/diff-$s"
  echo "built diff-$s ($calls calls, seed $s)"
done
cat >"$out/run.sh" <<'EOF'
#!/usr/bin/env bash
# Runs every program of the differential batch; prints each one's mismatches
# and summary, then the total. Exit status 1 when any call mismatched.
cd "$(dirname "${BASH_SOURCE[0]}")"
passed=0 failed=0 broken=0
for p in ./diff-*; do
  [ -x "$p" ] || continue
  log="$("$p" 2>&1)"; rc=$?
  printf '%s\n' "$log" | grep -v '^differential-gpu:' || true
  line="$(printf '%s\n' "$log" | grep '^differential-gpu:' | tail -1)"
  echo "$p: ${line:-no summary (exit $rc)}"
  if [ -z "$line" ]; then broken=$((broken + 1)); continue; fi
  n=$(printf '%s' "$line" | sed -E 's/^differential-gpu: ([0-9]+) passed, ([0-9]+) failed.*/\1/')
  m=$(printf '%s' "$line" | sed -E 's/^differential-gpu: ([0-9]+) passed, ([0-9]+) failed.*/\2/')
  passed=$((passed + n)) failed=$((failed + m))
done
echo "differential-gpu: $passed passed, $failed failed ($broken programs without a summary)"
[ "$failed" -eq 0 ] && [ "$broken" -eq 0 ]
EOF
chmod +x "$out/run.sh"
echo "== $((files * calls)) calls in $files programs under $out ($(ta_since "$t0") s); run: bash $out/run.sh"
