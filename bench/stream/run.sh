#!/usr/bin/env bash
# Runs the stream benchmark on a machine with a GPU, from the repository root,
# with the binaries bench/stream/build.sh made (bench/.bin, carried here):
#
#   bash bench/stream/run.sh [--out DIR] [--quick] [--sizes LIST] [--reps N] [--warmup N]
#
#   --out DIR     where results go (default: $OUT if set, else bench/.out)
#   --quick       a short sanity run: 64 MiB and 64 MiB + 11200 B, 5 reps
#   --sizes LIST  bytes per fp16 array (default 256M,512M,1G,2G,4G,1536M+11200)
#   --reps N, --warmup N   timed and warm-up launches per measurement (30, 5)
#
# In one run: stream-clang (__tile_apply, inline asm and __hadd2 built by
# clang, cudaMemcpy D2D), stream-nvcc (inline asm and __hadd2 built by nvcc),
# bench/stream/torch_add.py (torch.add; $PYTHON, default python3), then the
# table. Writes into the output folder:
#   stream.csv        every measurement (bench/plot.py turns it into
#                     bench/results/stream.md and stream.png)
#   stream.md         the table as Markdown
#   stream-log.txt    everything printed
#   stream-*.sass, stream-sass-mix.txt   the kernels' SASS and the SASS mix of
#                     the __tile_apply kernel vs the inline-asm one (only where
#                     cuobjdump exists)
# Exit status: 0 when every program ran and every result verified; 1 when a
# program failed, was missing or a result was wrong (the rest still run and
# the table still prints); 2 on bad usage or no binaries at all.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="${BENCH_BIN:-$root/bench/.bin}"
python="${PYTHON:-python3}"
out="${OUT:-$root/bench/.out}"
sizes="256M,512M,1G,2G,4G,1536M+11200"
reps=30
warmup=5

usage() { sed -n '2,27p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --quick) sizes="64M,64M+11200"; reps=5; warmup=2; shift ;;
    --sizes) sizes="${2:?--sizes needs a list}"; shift 2 ;;
    --reps) reps="${2:?--reps needs a number}"; shift 2 ;;
    --warmup) warmup="${2:?--warmup needs a number}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "error: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

if [ ! -x "$bin/stream-clang" ] && [ ! -x "$bin/stream-nvcc" ]; then
  echo "error: no benchmark binaries in $bin: build them with 'bash bench/stream/build.sh'" \
       "on the build machine and carry bench/.bin here" >&2
  exit 2
fi
mkdir -p "$out" || { echo "error: cannot create $out" >&2; exit 2; }
csv="$out/stream.csv"
rm -f "$csv" "$out/stream.md" "$out"/stream-*.sass "$out/stream-sass-mix.txt"

# Runs one step, reports its exit status in words, records failures.
failed=()
step() {
  local name="$1" rc
  shift
  echo
  echo "== $name: $*"
  "$@"
  rc=$?
  case "$rc" in
    0) echo "== $name: ok" ;;
    1) echo "== $name: FAILED verification (exit 1; wrong results are not timed)"; failed+=("$name") ;;
    2) echo "== $name: FAILED to start (exit 2: usage, no GPU or no torch; see above)"; failed+=("$name") ;;
    3) echo "== $name: FAILED (exit 3: a CUDA call failed; see above)"; failed+=("$name") ;;
    *) echo "== $name: FAILED (exit $rc)"; failed+=("$name") ;;
  esac
}

main() {
  echo "# stream benchmark run, $(date -u +%Y-%m-%dT%H:%M:%SZ), on $(uname -n)"
  if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
      --format=csv,noheader 2>&1 | sed 's/^/# GPU: /'
  else
    echo "# warning: no nvidia-smi on PATH"
  fi
  echo "# sizes $sizes, $warmup warm-up + $reps timed launches each; results in $out"
  {
    echo "# run date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    [ -f "$bin/build-info.txt" ] && cat "$bin/build-info.txt"
    if command -v nvidia-smi >/dev/null 2>&1; then
      nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null |
        head -n 1 | sed 's/^/# run GPU (nvidia-smi): /'
    fi
  } >>"$csv"
  [ -f "$bin/build-info.txt" ] && sed 's/^/  /' "$bin/build-info.txt"

  local args=(--sizes "$sizes" --reps "$reps" --warmup "$warmup" --csv "$csv")
  for prog in stream-clang stream-nvcc; do
    if [ -x "$bin/$prog" ]; then
      step "$prog" "$bin/$prog" "${args[@]}"
    else
      echo
      echo "== SKIP $prog: $bin/$prog was not built (see bench/stream/build.sh's output)"
      failed+=("$prog (missing)")
    fi
  done
  step torch_add.py "$python" "$root/bench/stream/torch_add.py" "${args[@]}"

  echo
  if command -v cuobjdump >/dev/null 2>&1; then
    echo "== SASS (cuobjdump -sass)"
    for prog in stream-clang stream-nvcc; do
      [ -x "$bin/$prog" ] && cuobjdump -sass "$bin/$prog" >"$out/$prog.sass" 2>&1
    done
    if [ -f "$out/stream-clang.sass" ]; then
      {
        echo "-- __tile_apply kernel vs inline asm (clang)"
        python3 "$root/bench/common/sass_mix.py" "$out/stream-clang.sass" stream_add_tile stream_add_asm
        if [ -f "$out/stream-nvcc.sass" ]; then
          echo "-- __tile_apply kernel (clang) vs inline asm (nvcc)"
          python3 "$root/bench/common/sass_mix.py" "$out/stream-clang.sass:stream_add_tile" \
            "$out/stream-nvcc.sass:stream_add_asm"
        fi
      } >"$out/stream-sass-mix.txt" 2>&1
      cat "$out/stream-sass-mix.txt"
    fi
  else
    echo "== SKIP SASS listing: no cuobjdump on PATH"
  fi

  echo
  echo "== results"
  if [ -f "$csv" ]; then
    python3 "$root/bench/common/results.py" table stream "$csv" --markdown "$out/stream.md" ||
      failed+=("table")
  else
    echo "no results were written"
    failed+=("table")
  fi
  echo
  if [ "${#failed[@]}" -eq 0 ]; then
    echo "== stream benchmark: all programs ran, every result verified; results in $out"
    return 0
  fi
  echo "== stream benchmark: FAILED or missing: ${failed[*]}; results so far in $out"
  return 1
}

main 2>&1 | tee "$out/stream-log.txt"
exit "${PIPESTATUS[0]}"
