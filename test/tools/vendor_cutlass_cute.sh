#!/usr/bin/env bash
# Copies CUTLASS's include/cute/arch headers, and the CUTLASS headers they
# include, into test/corpus/cutlass/include (the CUTLASS corpus of the asm
# checker, see test/corpus/cutlass/README.md). The two *_ext.hpp files of
# wgmma shapes (5.7 MB of the same instructions at more N sizes) are replaced
# by empty stand-ins to keep the copy small.
#
# usage: vendor_cutlass_cute.sh CUTLASS_CHECKOUT [CUDA_PATH]
set -euo pipefail
SRC=$(cd "$1" && pwd)
CUDA=${2:-/usr/local/cuda}
HERE=$(cd "$(dirname "$0")/../corpus/cutlass" && pwd)
CLANG=${CLANG:-/usr/lib/llvm-22/bin/clang++}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for f in "$SRC"/include/cute/arch/*.hpp; do echo "#include <cute/arch/$(basename "$f")>"; done > "$TMP/all.cu"
# The closure, as clang sees it for the device side of sm_90a and sm_100a.
# (Under Clang, CUTLASS's config leaves its SM100 wrappers off; the corpus test
# turns them on with these two macros.)
for arch in sm_90a "sm_100a -DCUTLASS_ARCH_MMA_SM100A_ENABLED=1 -DCUTLASS_ARCH_MMA_SM100_ENABLED=1"; do
  "$CLANG" -x cuda -Wno-unknown-cuda-version --cuda-path="$CUDA" -std=c++20 \
    -I"$CUDA/include/cccl" -I"$SRC/include" --cuda-gpu-arch=$arch --cuda-device-only \
    -fsyntax-only -H "$TMP/all.cu" 2>&1 | awk '/^\.+ /{print $2}' || true
done | grep "^$SRC/include/" | sed "s|^$SRC/include/||" | sort -u > "$TMP/closure"
rm -rf "$HERE/include"
while read -r rel; do
  mkdir -p "$HERE/include/$(dirname "$rel")"
  case "$rel" in
    cute/arch/mma_sm90_gmma_ext.hpp|cute/arch/mma_sm90_gmma_sparse_ext.hpp)
      printf '#pragma once\n// Left out of the tileapply test corpus (more N sizes of the same wgmma forms).\n' \
        > "$HERE/include/$rel" ;;
    *) cp "$SRC/include/$rel" "$HERE/include/$rel" ;;
  esac
done < "$TMP/closure"
# copy_sm100.hpp writes 12 input lists as `"r"(dst_addr)  "l"(src_addr)`,
# without the comma, which Clang refuses to parse once the tcgen05 wrappers
# are enabled: the copy gets the comma.
sed -i 's/"r"(dst_addr)  "l"(src_addr)/"r"(dst_addr), "l"(src_addr)/' "$HERE/include/cute/arch/copy_sm100.hpp"
cp "$SRC/LICENSE.txt" "$HERE/LICENSE.txt"
wc -l < "$TMP/closure" | xargs echo "headers:"
du -sh "$HERE/include"
