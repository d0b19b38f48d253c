#!/usr/bin/env bash
# Runs the GEMM benchmark on a machine with a GPU, from the repository root,
# with the library bench/gemm/build.sh made (bench/.bin, carried here):
#
#   bash bench/gemm/run.sh [--out DIR] [--quick] [--sizes LIST] [--variants LIST]
#                          [--reps N] [--warmup N] [--timeout S]
#
#   --out DIR       where results go (default: $OUT if set, else bench/.out)
#   --quick         correctness only: every variant on the small ragged shapes
#                   of run.py's step 1 (about a minute), nothing timed
#   --sizes LIST    M x N x K shapes and/or the classes skinny, square, kheavy,
#                   ragged (default 4096,8192,8000x8192x7936)
#   --variants LIST kernel variants (default: all bf16 ones; run.py --list
#                   names them), NAME@S (a *_splitk variant with S slices of
#                   K), ta_pick / ta_pick_nosplit (gemm_pick's choice per
#                   shape, with / without split-K)
#   --reps N, --warmup N   timed and warm-up launches per implementation (45, 10)
#   --timeout S     seconds per worker process of run.py (240)
#   --fp8-sizes LIST  sizes or shape classes (skinny, square, kheavy, ragged)
#                   for bench/gemm/run_fp8.py (default: its own list)
#   --fp8-variants LIST  fp8 variants and/or ta_pick (default: all)
#   --fp8-timeout S seconds for the whole fp8 step (600)
#   --no-fp8, --fp8-only   leave out the fp8 step / run only it
#
# In one run: the SASS of the kernels (cuobjdump -sass, where it exists) and
# what it issues (bench/gemm/sass_check.py: HGMMA, TMA, no local memory), then
# bench/gemm/run.py (PyTorch; $PYTHON, default python3): every variant checked
# on small shapes, then checked against an f32 reference and cuBLAS and timed
# at each size next to torch.matmul, then the table. Writes into the output
# folder:
#   gemm.csv              every measurement and the run's notes (bench/plot.py
#                         turns it into bench/results/gemm.md, .png, .csv)
#   gemm.md               the table as Markdown (not with --quick)
#   gemm-log.txt          everything printed
#   gemm.sass, gemm-sass-check.txt   the kernels' SASS and its summary
# Exit status: 0 when every variant verified (and was timed); 1 when one
# failed, hung or the SASS check failed (the rest still runs); 2 on bad
# usage, no library, or no torch / GPU.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="${BENCH_BIN:-$root/bench/.bin}"
python="${PYTHON:-python3}"
out="${OUT:-$root/bench/.out}"
args=()
quick=0
fp8_args=()
fp8_timeout=600
do_bf16=1
do_fp8=1

usage() { sed -n '2,38p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --quick) quick=1; args+=(--quick); fp8_args+=(--quick); shift ;;
    --fp8-sizes) fp8_args+=(--sizes "${2:?$1 needs a value}"); shift 2 ;;
    --fp8-variants) fp8_args+=(--variants "${2:?$1 needs a value}"); shift 2 ;;
    --fp8-timeout) fp8_timeout="${2:?$1 needs a value}"; shift 2 ;;
    --no-fp8) do_fp8=0; shift ;;
    --fp8-only) do_bf16=0; shift ;;
    --sizes|--variants|--reps|--warmup|--timeout) args+=("$1" "${2:?$1 needs a value}"); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "error: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

lib="$bin/libgemm.so"
if [ ! -f "$lib" ]; then
  echo "error: no $lib: build it with 'bash bench/gemm/build.sh' on the build machine and carry bench/.bin here" >&2
  exit 2
fi
mkdir -p "$out" || { echo "error: cannot create $out" >&2; exit 2; }
csv="$out/gemm.csv"
rm -f "$csv" "$out/gemm.md" "$out/gemm.sass" "$out/gemm-sass-check.txt" "$out/gemm-fp8.csv"

main() {
  local failed=() rc
  echo "# gemm benchmark run, $(date -u +%Y-%m-%dT%H:%M:%SZ), on $(uname -n)"
  if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit \
      --format=csv,noheader 2>&1 | sed 's/^/# GPU: /'
  else
    echo "# warning: no nvidia-smi on PATH"
  fi
  {
    echo "# run date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    [ -f "$bin/gemm-build-info.txt" ] && cat "$bin/gemm-build-info.txt"
    if command -v nvidia-smi >/dev/null 2>&1; then
      nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>/dev/null |
        head -n 1 | sed 's/^/# run GPU (nvidia-smi): /'
    fi
  } >>"$csv"
  [ -f "$bin/gemm-build-info.txt" ] && sed 's/^/  /' "$bin/gemm-build-info.txt"

  echo
  if command -v cuobjdump >/dev/null 2>&1; then
    echo "== SASS (cuobjdump -sass $lib)"
    if cuobjdump -sass "$lib" >"$out/gemm.sass" 2>&1; then
      python3 "$root/bench/gemm/sass_check.py" "$out/gemm.sass" >"$out/gemm-sass-check.txt" 2>&1
      rc=$?
      cat "$out/gemm-sass-check.txt"
      sed 's/^/# gemm sass: /' "$out/gemm-sass-check.txt" >>"$csv"
      [ "$rc" -eq 0 ] || failed+=("sass-check")
    else
      echo "cuobjdump failed:"; tail -n 5 "$out/gemm.sass"
      failed+=("cuobjdump")
    fi
  else
    echo "== SKIP SASS check: no cuobjdump on PATH"
    echo "# gemm sass: not checked (no cuobjdump)" >>"$csv"
  fi

  rc=0
  if [ "$do_fp8" -eq 1 ]; then
    echo
    echo "== run_fp8.py ${fp8_args[*]} (at most $fp8_timeout s)"
    timeout -k 10 "$fp8_timeout" "$python" "$root/bench/gemm/run_fp8.py" --lib "$lib" --csv "$out/gemm-fp8.csv" \
      "${fp8_args[@]}"
    rc=$?
    case "$rc" in
      0) ;;
      2) failed+=("run_fp8.py (exit 2: no torch, no GPU or bad usage)") ;;
      124|137) failed+=("run_fp8.py (timed out after $fp8_timeout s)") ;;
      *) failed+=("run_fp8.py (exit $rc: a variant failed)") ;;
    esac
  fi
  [ "$do_bf16" -eq 1 ] || { echo; echo "== fp8 only: ${failed[*]:-all verified}"; [ "${#failed[@]}" -eq 0 ]; return $?; }

  echo
  echo "== run.py ${args[*]}"
  "$python" "$root/bench/gemm/run.py" --lib "$lib" --csv "$csv" "${args[@]}"
  rc=$?
  case "$rc" in
    0) ;;
    2) failed+=("run.py (exit 2: no torch, no GPU or bad usage)") ;;
    *) failed+=("run.py (exit $rc: a variant failed or hung)") ;;
  esac

  if [ "$quick" -eq 0 ]; then
    echo
    echo "== results"
    python3 "$root/bench/common/results.py" table gemm "$csv" --markdown "$out/gemm.md" || failed+=("table")
  fi
  echo
  if [ "${#failed[@]}" -eq 0 ]; then
    echo "== gemm benchmark: every variant verified$([ "$quick" -eq 0 ] && echo " and timed"); results in $out"
    return 0
  fi
  echo "== gemm benchmark: FAILED: ${failed[*]}; results so far in $out"
  [ "$rc" -eq 2 ] && return 2
  return 1
}

main 2>&1 | tee "$out/gemm-log.txt"
exit "${PIPESTATUS[0]}"
