#!/usr/bin/env bash
# Runs the attention benchmark on a machine with a GPU, from the repository
# root, with bench/.bin (built by bench/attention/build.sh) carried here:
#
#   bash bench/attention/run.sh [--out DIR] [--quick] [run.py options...]
#
#   --out DIR    where results go (default: $OUT if set, else bench/.out)
#   --quick      correctness only: the small ragged shapes (step 1 of run.py)
#   other options go to bench/attention/run.py (--reps, --warmup, --timeout,
#                --timeout-small, --only d/s/causal,..., --ref-heads N,
#                --modes tileapply,tileapply_plain,tileapply_pingpong)
#
# First the SASS of libattn.so (cuobjdump -sass, where it exists): each
# kernel must issue HGMMA and touch no local memory; then run.py. Writes
# attention.csv, attention.md, attention-log.txt, attention.sass and
# attention-sass-check.txt into the output folder. Exit status: 0 all
# correct; 1 a check failed; 2 bad usage, no library, no torch / GPU.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="${BENCH_BIN:-$root/bench/.bin}"
python="${PYTHON:-python3}"
out="${OUT:-$root/bench/.out}"
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
lib="$bin/libattn.so"
[ -f "$lib" ] || { echo "error: no $lib: run bash bench/attention/build.sh on the build machine and carry bench/.bin" >&2; exit 2; }
mkdir -p "$out" || exit 2

status=0
{
  echo "# attention benchmark run, $(date -u +%Y-%m-%dT%H:%M:%SZ), on $(uname -n)"
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | sed 's/^/# GPU: /'
  [ -f "$bin/attn-build-info.txt" ] && cat "$bin/attn-build-info.txt"
} | tee "$out/attention-sass-check.txt"
if command -v cuobjdump >/dev/null 2>&1; then
  cuobjdump -sass "$lib" >"$out/attention.sass" 2>&1
  # Per kernel: HGMMA count, local-memory accesses (LDL/STL), and in the
  # pipelined kernels (those that wait with one wgmma group left in flight,
  # DEPBAR.LE gsb0 1) the MUFU.EX2 between that wait and the next full one:
  # the softmax overlapping O += P V. None there means ptxas serialized them.
  awk '/Function : / { fn = $3; n++; order[n] = fn; w = 0 }
       fn != "" && /HGMMA/ { h[fn]++ } fn != "" && /[^A-Z](LDL|STL)[. ]/ { l[fn]++ }
       fn != "" && /DEPBAR.LE gsb0, 0x1/ { pipe[fn] = 1; w = 1; next }
       w && /MUFU.EX2/ { ov[fn]++ }
       w && /DEPBAR.LE gsb0, 0x0/ { w = 0 }
       END { bad = 0; for (i = 1; i <= n; ++i) { f = order[i]; ok = (h[f] > 0 && l[f] == 0 && (!pipe[f] || ov[f] > 0));
               printf "%s %s: %d HGMMA, %d local-memory instructions%s\n", ok ? "ok  " : "BAD ", f, h[f], l[f],
                      pipe[f] ? sprintf(", %d ex2 while O += P V is in flight", ov[f]) : ""; bad += !ok }
             if (n == 0) { print "BAD no kernels in the SASS"; bad = 1 }
             exit bad > 0 }' "$out/attention.sass" | tee -a "$out/attention-sass-check.txt" || status=1
else
  echo "# note: no cuobjdump on PATH: the SASS check is skipped" | tee -a "$out/attention-sass-check.txt"
fi
"$python" "$root/bench/attention/run.py" --lib "$lib" --out "$out" "${args[@]}"
rc=$?
[ "$rc" -ne 0 ] && status=$rc
exit "$status"
