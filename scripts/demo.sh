#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# The main job, end to end: build tileapply (scripts/setup.sh), compile the two
# example kernels with the plugin into build/examples/, show the PTX
# instructions their __tile_apply calls became (with counts), assemble that PTX
# with ptxas, and run the programs when a GPU is present.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

EXAMPLES=(packed_add negative_magnitude)

bash "$TILEAPPLY_ROOT/scripts/setup.sh"
ta_need_plugin
[ -x "$CUDA_PATH/bin/ptxas" ] || ta_die "no CUDA toolkit at $CUDA_PATH (set CUDA_PATH)"

out="$TILEAPPLY_BUILD_DIR/examples"
mkdir -p "$out"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

gpu=0
if ta_have_gpu; then gpu=1; fi

for ex in "${EXAMPLES[@]}"; do
  src="$TILEAPPLY_ROOT/examples/$ex.cu"
  echo
  echo "=== $ex  (examples/$ex.cu, $TILEAPPLY_ARCH)"
  if ! ta_compile "$src" "$out/$ex"; then
    fail "$ex: compiling with the plugin failed"
    continue
  fi
  if ! ta_compile_ptx "$src" "$out/$ex.ptx"; then
    fail "$ex: emitting PTX failed"
    continue
  fi
  echo "built $out/$ex and $out/$ex.ptx"

  # The instructions each opcode became, and how many.
  while IFS= read -r op; do
    lines="$(ta_ptx_lines "$out/$ex.ptx" "$op")"
    n=0
    [ -z "$lines" ] || n=$(printf '%s\n' "$lines" | wc -l)
    want="$(sed -n "s/^\/\/ expect-ptx: $(printf '%s' "$op" | sed 's/\./\\./g') \([0-9]*\)$/\1/p" "$src")"
    echo "--- $op: $n instruction(s)${want:+ (expected $want)}"
    [ -z "$lines" ] || printf '%s\n' "$lines" | sed 's/^[[:space:]]*/    /'
    if [ -n "$want" ] && [ "$n" -ne "$want" ]; then
      fail "$ex: $n $op instructions in the PTX, expected $want"
    fi
  done < <(ta_opcodes_of "$src")

  if grep -q '__tileapply_apply' "$out/$ex.ptx"; then
    fail "$ex: the PTX still calls the __tileapply_apply marker (the pass did not expand it)"
  fi
  if grep -Eq '^[[:space:]]*(ld|st)\.local' "$out/$ex.ptx"; then
    fail "$ex: register tensors spilled to local memory (ld.local/st.local in the PTX)"
  fi

  if "$CUDA_PATH/bin/ptxas" "-arch=$TILEAPPLY_ARCH" "$out/$ex.ptx" -o "$out/$ex.cubin"; then
    echo "ptxas -arch=$TILEAPPLY_ARCH: ok ($out/$ex.cubin)"
  else
    fail "$ex: ptxas rejected the PTX"
  fi

  if [ "$gpu" -eq 1 ]; then
    echo "--- running $ex"
    if ! "$out/$ex"; then
      fail "$ex: the program reported failure"
    fi
  fi
done

echo
if [ "$gpu" -eq 0 ]; then
  echo "no GPU here: compiled, not run (nvidia-smi -L found no GPU)"
else
  echo "GPU: $(nvidia-smi -L | head -n 1)"
fi
if [ "$failures" -gt 0 ]; then
  echo "demo: $failures problem(s)"
  exit 1
fi
echo "demo: all steps passed"
