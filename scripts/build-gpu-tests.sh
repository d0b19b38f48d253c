#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Builds every GPU program with the plugin into gpu-bin/: the examples and each
# self-checking test/gpu/*.cu (prints PASS/FAIL, exits nonzero on failure),
# and examples/cmake-consumer built with CMake 4 against a temporary install
# (when a CMake 4 is at hand: TILEAPPLY_CMAKE4 or build/cmake4/, which
# scripts/test-install.sh provides).
# Also writes gpu-bin/run-all.sh, which runs them all on a machine with a GPU,
# prints the results, writes them to $OUT/gpu-results.txt when $OUT is set,
# and exits nonzero when any program failed or did not build.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bash "$TILEAPPLY_ROOT/scripts/setup.sh"
ta_need_plugin

bin="$TILEAPPLY_ROOT/gpu-bin"
rm -rf "$bin"
mkdir -p "$bin"

shopt -s nullglob
sources=("$TILEAPPLY_ROOT"/examples/*.cu "$TILEAPPLY_ROOT"/test/gpu/*.cu)
shopt -u nullglob

built=0 broken=0
: >"$bin/manifest.txt"
for src in "${sources[@]}"; do
  rel="${src#"$TILEAPPLY_ROOT"/}"
  name="$(basename "$(dirname "$rel")")-$(basename "$src" .cu)" # examples-x, gpu-y
  if ta_compile "$src" "$bin/$name" 2>"$bin/$name.build.log"; then
    echo "built   $rel -> gpu-bin/$name"
    [ -s "$bin/$name.build.log" ] || rm -f "$bin/$name.build.log"
    printf '%s %s\n' "$name" "$rel" >>"$bin/manifest.txt"
    built=$((built + 1))
  else
    echo "BROKEN  $rel (see gpu-bin/$name.build.log)"
    sed 's/^/    /' "$bin/$name.build.log" | head -n 20
    printf '%s %s BROKEN\n' "$name" "$rel" >>"$bin/manifest.txt"
    broken=$((broken + 1))
  fi
done

# The CMake consumer: the installed tileapply, as a CMake project uses it.
cmake4="${TILEAPPLY_CMAKE4:-$TILEAPPLY_BUILD_DIR/cmake4/bin/cmake}"
if [ -x "$cmake4" ]; then
  name=examples-cmake-consumer rel=examples/cmake-consumer
  prefix="$bin/$name.prefix"
  if cmake --install "$TILEAPPLY_BUILD_DIR" --prefix "$prefix" >"$bin/$name.build.log" 2>&1 &&
     "$cmake4" -S "$TILEAPPLY_ROOT/$rel" -B "$bin/$name.build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
       -DCMAKE_CUDA_COMPILER="$LLVM_BIN/clang++" \
       -DCMAKE_CUDA_FLAGS="--cuda-path=$CUDA_PATH -Wno-unknown-cuda-version" >>"$bin/$name.build.log" 2>&1 &&
     "$cmake4" --build "$bin/$name.build" >>"$bin/$name.build.log" 2>&1 &&
     cp "$bin/$name.build/app" "$bin/$name"; then
    echo "built   $rel -> gpu-bin/$name"
    rm -rf "$bin/$name.build.log" "$bin/$name.build" "$prefix"
    printf '%s %s\n' "$name" "$rel" >>"$bin/manifest.txt"
    built=$((built + 1))
  else
    echo "BROKEN  $rel (see gpu-bin/$name.build.log)"
    tail -n 20 "$bin/$name.build.log" | sed 's/^/    /'
    printf '%s %s BROKEN\n' "$name" "$rel" >>"$bin/manifest.txt"
    broken=$((broken + 1))
  fi
else
  echo "skipped examples/cmake-consumer: no CMake 4 ($cmake4; scripts/test-install.sh installs one)"
fi

cat >"$bin/run-all.sh" <<'RUNALL'
#!/usr/bin/env bash
# Runs every program listed in manifest.txt (written by
# scripts/build-gpu-tests.sh) and reports PASS/FAIL for each. Results also go
# to $OUT/gpu-results.txt when $OUT is set. Exit status: 0 only if all passed.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
results="$(mktemp)"
trap 'rm -f "$results"' EXIT
pass=0 fail=0
{
  echo "# tileapply GPU programs, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# $(nvidia-smi -L 2>/dev/null | head -n 1 || echo 'nvidia-smi: no GPU listed')"
} >>"$results"
while read -r name rel state; do
  if [ "${state:-}" = BROKEN ]; then
    echo "FAIL $name ($rel did not build)" | tee -a "$results"
    fail=$((fail + 1))
    continue
  fi
  log="$(timeout 120 "$here/$name" 2>&1)"
  rc=$?
  printf '%s\n' "$log" | sed "s/^/  [$name] /"
  # Passed: exit status 0, a PASS line, and no FAIL line.
  if [ "$rc" -eq 0 ] && printf '%s\n' "$log" | grep -q '^PASS' &&
     ! printf '%s\n' "$log" | grep -q '^FAIL'; then
    echo "PASS $name ($rel)" | tee -a "$results"
    pass=$((pass + 1))
  else
    echo "FAIL $name ($rel, exit status $rc)" | tee -a "$results"
    fail=$((fail + 1))
  fi
done <"$here/manifest.txt"
echo "# $pass passed, $fail failed" | tee -a "$results"
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT"
  cp "$results" "$OUT/gpu-results.txt"
fi
[ "$fail" -eq 0 ]
RUNALL
chmod +x "$bin/run-all.sh"

echo "gpu-bin/: $built program(s) built, $broken broken; run them with: bash gpu-bin/run-all.sh"
[ "$broken" -eq 0 ]
