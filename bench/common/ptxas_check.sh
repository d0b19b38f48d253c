#!/usr/bin/env bash
# Assembles PTX with `ptxas -v` and fails if any function has a stack frame or
# spills registers, or if ptxas had to serialize wgmma instructions or inject
# warpgroup waits around them ("Potential Performance Loss", "... is injected
# ... by compiler"): the check the test command runs on every benchmark's
# kernels (no GPU needed).
#
#   bench/common/ptxas_check.sh FILE.ptx [ARCH]      (ARCH default sm_90a)
#
# Prints one line per function (registers, stack frame, spills) and a verdict;
# exits 1 on a stack frame, a spill or a wgmma warning, 2 when ptxas fails or reports no
# function. Environment: PTXAS (default $CUDA_PATH/bin/ptxas, CUDA_PATH
# default /usr/local/cuda).
set -euo pipefail
ptx="${1:?usage: ptxas_check.sh FILE.ptx [ARCH]}"
arch="${2:-sm_90a}"
ptxas="${PTXAS:-${CUDA_PATH:-/usr/local/cuda}/bin/ptxas}"
[ -x "$ptxas" ] || { echo "error: no ptxas at $ptxas (set PTXAS or CUDA_PATH)" >&2; exit 2; }
[ -f "$ptx" ] || { echo "error: no PTX file $ptx" >&2; exit 2; }
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! "$ptxas" -v -arch="$arch" "$ptx" -o /dev/null >"$log" 2>&1; then
  cat "$log" >&2
  echo "error: ptxas -arch=$arch failed on $ptx" >&2
  exit 2
fi
# ptxas -v: "Function properties for NAME" then "N bytes stack frame, N bytes
# spill stores, N bytes spill loads"; "Compiling entry function 'NAME'" and
# "Used N registers" for entries. awk runs without the sanitized test run's
# LD_PRELOAD of the ASan runtime (Debian's mawk trips it: a heap overflow in
# mawk itself, not in tileapply).
env -u LD_PRELOAD awk -v file="$ptx" -v arch="$arch" '
  /Compiling entry function/ { match($0, /\x27[^\x27]+\x27/); entry = substr($0, RSTART + 1, RLENGTH - 2) }
  /Function properties for/ { fn = $NF; next }
  /bytes stack frame/ {
    stack = $1; spill_st = $5; spill_ld = $9
    props[fn] = sprintf("stack frame %d B, spill stores %d B, spill loads %d B", stack, spill_st, spill_ld)
    order[++n] = fn
    if (stack + spill_st + spill_ld > 0) bad[fn] = 1
  }
  /Used [0-9]+ registers/ { match($0, /Used [0-9]+ registers/); regs[entry] = substr($0, RSTART + 5, RLENGTH - 15) }
  /Potential Performance Loss|is injected in around line/ { warn[++nwarn] = $0 }
  END {
    if (n == 0) { print "error: ptxas reported no function for " file > "/dev/stderr"; exit 2 }
    nbad = 0
    for (i = 1; i <= n; ++i) {
      f = order[i]
      printf "%s %s: %s%s%s\n", (f in bad ? "BAD" : "ok "), f, props[f],
             (f in regs ? ", " regs[f] " registers" : ""), (f in bad ? "  <-- stack frame or spills" : "")
      nbad += (f in bad)
    }
    for (i = 1; i <= nwarn; ++i) print "BAD " warn[i]
    if (nwarn) printf "ptxas-check FAILED: %d wgmma warning(s) in %s (%s): ptxas serialized wgmma or moved its registers\n", nwarn, file, arch
    if (nbad) printf "ptxas-check FAILED: %d of %d function(s) in %s (%s) have a stack frame or spill\n", nbad, n, file, arch
    if (nbad || nwarn) exit 1
    printf "ptxas-check OK: %d function(s) in %s (%s), no stack frame, no spills\n", n, file, arch
  }' "$log"
