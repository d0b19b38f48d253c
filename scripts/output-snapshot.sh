#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# output-snapshot.sh DIR: what the compiler produces, written under DIR so that
# two builds (before and after a change that must not change behaviour) can be
# compared with `diff -r`:
#   opcodes.json         every form of the table (tileapply-opcodes --json)
#   gemm.ptx, attn.ptx   the device code of the two benchmark kernels
#   examples/*.ptx       the device code of every example kernel
# PTX is compared without the header comment (it names the compiler build).
# Needs the plugin built (scripts/setup.sh, or TILEAPPLY_BUILD_DIR=<build>).
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -eq 1 ] || ta_die "usage: $0 DIR"
out="$1"
ta_need_plugin
mkdir -p "$out/examples"
"$TILEAPPLY_BUILD_DIR/bin/tileapply-opcodes" --json > "$out/opcodes.json"
strip_header() { grep -v '^//' "$1" > "$1.tmp" && mv "$1.tmp" "$1"; }
ta_compile_ptx "$TILEAPPLY_ROOT/bench/gemm/gemm.cu" "$out/gemm.ptx"
ta_compile_ptx "$TILEAPPLY_ROOT/bench/attention/attn.cu" "$out/attn.ptx"
strip_header "$out/gemm.ptx"
strip_header "$out/attn.ptx"
for src in "$TILEAPPLY_ROOT"/examples/*.cu; do
  ptx="$out/examples/$(basename "${src%.cu}").ptx"
  ta_compile_ptx "$src" "$ptx"
  strip_header "$ptx"
done
echo "snapshot in $out: $(wc -c < "$out/opcodes.json") bytes of json, $(find "$out" -name '*.ptx' | wc -l) PTX files"
