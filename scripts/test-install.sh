#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Tests tileapply as a CMake user gets it (docs/install.md), from a built tree
# (scripts/setup.sh), in a scratch directory that never sees the build tree:
#
#  1. install: `cmake --install` into a temporary prefix; the layout and
#     `tileapply-opcodes --version`; examples/cmake-consumer configured, built
#     and run against that prefix with CMake 4 (it prints SKIP without a GPU),
#     its compile commands checked (the plugin and headers come from the prefix,
#     and the plugin reaches the CUDA source only; the C++ source that uses
#     the runtime library gets the include directory and app links
#     libtileapply_runtime.a); find_package(TileApply) refuses nvcc, a
#     Clang of another major version, a project without CUDA and versions other
#     than 0.2.x, each with its message.
#  2. deb: `cpack -G DEB`; Depends names the packages that own libLLVM,
#     libclang-cpp and clang++; the package holds exactly the files of the
#     install; `dpkg -x` into a scratch root and the consumer built against it.
#  3. ccache in front of clang: an unchanged rebuild is a hit, a rebuild after
#     the plugin file changed is a miss (ccache's default, then compiler_check=
#     none with CCACHE_EXTRAFILES).
#
# CMake 4 is needed because Debian 12's CMake 3.25 cannot identify clang 22 as
# the CUDA compiler against CUDA 13. Taken from TILEAPPLY_CMAKE4 if set, else a
# `cmake` 4.x on PATH, else installed once from PyPI into <build>/cmake4/.
# The scratch directory is removed when everything passed and kept otherwise.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

t_all=$(ta_now)
BUILD="$TILEAPPLY_BUILD_DIR"
[ -f "$BUILD/CMakeCache.txt" ] || ta_die "$BUILD is not configured (run scripts/setup.sh)"
ta_need_plugin
VERSION="$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")"
[ -n "$VERSION" ] || ta_die "no CMAKE_PROJECT_VERSION in $BUILD/CMakeCache.txt"
CONSUMER_SRC="$TILEAPPLY_ROOT/examples/cmake-consumer"

W="$(mktemp -d "${TMPDIR:-/tmp}/tileapply-install.XXXXXX")"
ok=0
cleanup() {
  if [ "$ok" = 1 ]; then rm -rf "$W"; else echo "install tests: scratch directory kept: $W" >&2; fi
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# step NAME: prints the previous step's time and starts timing NAME (none
# when NAME is empty).
step_name="" step_t0=""
step() {
  [ -z "$step_name" ] || echo "== $step_name: passed in $(ta_since "$step_t0") s"
  step_name="$1" step_t0=$(ta_now)
  [ -z "$step_name" ] || echo "== $step_name"
}

# ---- CMake 4 --------------------------------------------------------------------------
step "CMake 4 for the consumer"
is_cmake4() { "$1" --version 2>/dev/null | head -n 1 | grep -Eq '^cmake version 4\.'; }
VENV="$BUILD/cmake4"
if [ -n "${TILEAPPLY_CMAKE4:-}" ]; then
  is_cmake4 "$TILEAPPLY_CMAKE4" || ta_die "TILEAPPLY_CMAKE4=$TILEAPPLY_CMAKE4 is not a CMake 4.x"
  CMAKE4="$TILEAPPLY_CMAKE4"
elif is_cmake4 "$VENV/bin/cmake"; then
  CMAKE4="$VENV/bin/cmake"
elif command -v cmake >/dev/null 2>&1 && is_cmake4 "$(command -v cmake)"; then
  CMAKE4="$(command -v cmake)"
else
  echo "installing CMake 4 from PyPI into $VENV"
  rm -rf "$VENV"
  if python3 -m venv "$VENV" >"$W/pip.log" 2>&1 &&
     "$VENV/bin/python" -m pip install --disable-pip-version-check -q 'cmake>=4,<5' >>"$W/pip.log" 2>&1 &&
     is_cmake4 "$VENV/bin/cmake"; then
    CMAKE4="$VENV/bin/cmake"
  else
    sed 's/^/    /' "$W/pip.log" | tail -n 15 >&2
    rm -rf "$VENV"
    ta_die "could not install CMake 4 from PyPI (offline? no python3-venv?). These tests need
  CMake 4: Debian 12's CMake 3.25 cannot identify clang 22 as the CUDA compiler
  with CUDA 13. Either run this once with network access (it keeps the copy in
  $VENV), or point TILEAPPLY_CMAKE4 at a CMake 4.x binary."
  fi
fi
echo "using $CMAKE4 ($("$CMAKE4" --version | head -n 1))"

# consumer DIR PREFIX [cmake args...]: configures examples/cmake-consumer
# against the tileapply installed in PREFIX.
consumer() {
  local dir="$1" prefix="$2"
  shift 2
  "$CMAKE4" -S "$CONSUMER_SRC" -B "$dir" -G Ninja \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@"
}
CLANG_ARGS=(-DCMAKE_CUDA_COMPILER="$LLVM_BIN/clang++"
            -DCMAKE_CUDA_FLAGS="--cuda-path=$CUDA_PATH -Wno-unknown-cuda-version")

# check_consumer DIR PREFIX: the consumer in DIR was built from PREFIX alone,
# with the plugin and the headers on its CUDA source only; then runs it.
check_consumer() {
  local dir="$1" prefix="$2" cmds
  grep -qxF "TileApply_DIR:PATH=$prefix/lib/cmake/TileApply" "$dir/CMakeCache.txt" ||
    fail "the consumer found $(grep '^TileApply_DIR' "$dir/CMakeCache.txt"), not $prefix/lib/cmake/TileApply"
  cmds="$(python3 -c '
import json, sys
for e in json.load(open(sys.argv[1])):
    print(e["file"].rsplit("/", 1)[-1], e["command"])' "$dir/compile_commands.json")"
  local cu cpp rt
  cu="$(printf '%s\n' "$cmds" | grep '^kernel\.cu ')" || fail "no compile command for kernel.cu"
  cpp="$(printf '%s\n' "$cmds" | grep '^main\.cpp ')" || fail "no compile command for main.cpp"
  rt="$(printf '%s\n' "$cmds" | grep '^tensor_map_check\.cpp ')" || fail "no compile command for tensor_map_check.cpp"
  case "$cu" in *"-fplugin=$prefix/lib/TileApply.so"*) ;; *) fail "kernel.cu is not compiled with -fplugin=$prefix/lib/TileApply.so: $cu" ;; esac
  case "$cu" in *"$prefix/include"*) ;; *) fail "kernel.cu does not get $prefix/include: $cu" ;; esac
  case "$cu" in *"-std=gnu++20"* | *"-std=c++20"*) ;; *) fail "kernel.cu is not compiled as C++20: $cu" ;; esac
  # The C++ sources get no plugin; TileApply::runtime gives them the include
  # directory (and the consumer's app must link the installed library).
  case "$cpp" in *fplugin*) fail "main.cpp (C++) gets the plugin: $cpp" ;; esac
  case "$rt" in *fplugin*) fail "tensor_map_check.cpp (C++) gets the plugin: $rt" ;; esac
  case "$rt" in *"$prefix/include"*) ;; *) fail "tensor_map_check.cpp does not get $prefix/include from TileApply::runtime: $rt" ;; esac
  ninja -C "$dir" -t commands app | tail -n 1 | grep -qF "$prefix/lib/libtileapply_runtime.a" ||
    fail "app is not linked with $prefix/lib/libtileapply_runtime.a (TileApply::runtime)"
  # Nothing of the source tree's include/ or of the build tree, in the
  # commands or in the headers the compiler read (ninja's record of them).
  ninja -C "$dir" -t deps CMakeFiles/app.dir/kernel.cu.o >"$dir/kernel.deps"
  if grep -lF -e "$TILEAPPLY_ROOT/include" -e "$BUILD/" "$dir/compile_commands.json" \
       "$dir/kernel.deps" >/dev/null; then
    fail "the consumer in $dir used the source or build tree"
  fi
  grep -qF "$prefix/include/tileapply/tile.h" "$dir/kernel.deps" ||
    fail "kernel.cu did not read $prefix/include/tileapply/tile.h"
  local out
  out="$("$dir/app")" || fail "the consumer program failed: $out"
  printf '%s\n' "$out" | sed 's/^/    app: /'
  printf '%s\n' "$out" | grep -Eq '^(PASS|SKIP)' || fail "the consumer printed neither PASS nor SKIP"
  printf '%s\n' "$out" | grep -qF 'runtime library: tile::tma::encode refused a null map' ||
    fail "the consumer did not run the runtime library's encoder"
}

# ---- 1. install into a temporary prefix --------------------------------------------------
step "install into a temporary prefix, build the consumer against it"
PREFIX="$W/prefix"
cmake --install "$BUILD" --prefix "$PREFIX" >"$W/install.log"
for f in lib/TileApply.so lib/TileApplyPass.so lib/libtileapply_runtime.a bin/tileapply-opcodes bin/tileapply-migrate \
         lib/cmake/TileApply/TileApplyConfig.cmake lib/cmake/TileApply/TileApplyConfigVersion.cmake \
         share/doc/tileapply/README.md share/doc/tileapply/docs/install.md \
         share/doc/tileapply/examples/cmake-consumer/CMakeLists.txt; do
  [ -f "$PREFIX/$f" ] || fail "the install has no $f"
done
# Every header, those in subdirectories (detail/) too, at the same relative path.
for inc in "$TILEAPPLY_ROOT"/include "$TILEAPPLY_ROOT"/runtime/include; do
  while IFS= read -r h; do
    cmp -s "$inc/$h" "$PREFIX/include/$h" || fail "${inc#"$TILEAPPLY_ROOT"/}/$h is not installed"
  done < <(cd "$inc" && find tileapply -type f | sort)
done
got="$("$PREFIX/bin/tileapply-opcodes" --version)"
[ "$got" = "tileapply-opcodes (tileapply) $VERSION" ] || fail "tileapply-opcodes --version printed '$got', want version $VERSION"
echo "installed $(find "$PREFIX" -type f | wc -l) files; $got"
consumer "$W/consumer" "$PREFIX" "${CLANG_ARGS[@]}" >"$W/consumer.log" 2>&1 ||
  { cat "$W/consumer.log"; fail "configuring the consumer against $PREFIX failed"; }
"$CMAKE4" --build "$W/consumer" >>"$W/consumer.log" 2>&1 ||
  { cat "$W/consumer.log"; fail "building the consumer against $PREFIX failed"; }
check_consumer "$W/consumer" "$PREFIX"

step "find_package(TileApply) refuses what cannot work"
# expect_refusal DIR TEXT [cmake args...]: configuring fails, saying TEXT.
expect_refusal() {
  local dir="$1" text="$2"
  shift 2
  if consumer "$dir" "$PREFIX" "$@" >"$dir.log" 2>&1; then
    fail "configuring the consumer with $* succeeded"
  fi
  # CMake wraps the message; compare with the line breaks taken out.
  tr -s ' \n' ' ' <"$dir.log" | grep -qF "$text" ||
    { cat "$dir.log"; fail "configuring with $* did not say: $text"; }
  echo "refused ($*): $text"
}
expect_refusal "$W/nvcc" "The CUDA compiler is nvcc" \
  -DCMAKE_CUDA_COMPILER="$CUDA_PATH/bin/nvcc" -DCMAKE_CUDA_FLAGS=
# A clang 22 that identifies itself as clang 21 stands in for another major version.
printf '#!/bin/sh\nexec "%s" -Wno-builtin-macro-redefined -U__clang_major__ -D__clang_major__=21 "$@"\n' \
  "$LLVM_BIN/clang++" >"$W/clang21"
chmod +x "$W/clang21"
expect_refusal "$W/clang21-build" "The CUDA compiler is Clang 21." \
  -DCMAKE_CUDA_COMPILER="$W/clang21" -DCMAKE_CUDA_FLAGS="--cuda-path=$CUDA_PATH -Wno-unknown-cuda-version"
grep -qF -- "-DCMAKE_CUDA_COMPILER=$LLVM_BIN/clang++" <(tr -s ' \n' ' ' <"$W/clang21-build.log") ||
  fail "the refusal does not name -DCMAKE_CUDA_COMPILER=$LLVM_BIN/clang++"
# A project without CUDA, and the versions the package accepts (SameMinorVersion).
mkdir -p "$W/probe"
cat >"$W/probe/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(probe LANGUAGES NONE)
find_package(TileApply ${WANT} REQUIRED)
EOF
probe() { "$CMAKE4" -S "$W/probe" -B "$W/probe/b-$1" -DCMAKE_PREFIX_PATH="$PREFIX" -DWANT="$1" >"$W/probe/$1.log" 2>&1; }
major_minor="${VERSION%.*}"
probe "$major_minor" && fail "find_package(TileApply) succeeded in a project without CUDA"
tr -s ' \n' ' ' <"$W/probe/$major_minor.log" | grep -qF "this project has not enabled CUDA" ||
  { cat "$W/probe/$major_minor.log"; fail "no message about CUDA for a project without it"; }
echo "refused (project without CUDA): this project has not enabled CUDA"
next_minor="${VERSION%%.*}.$(( $(echo "$VERSION" | cut -d. -f2) + 1 ))"
next_major="$(( ${VERSION%%.*} + 1 )).0"
for v in "$next_minor" "$next_major"; do
  probe "$v" && fail "find_package(TileApply $v) accepted $VERSION"
  grep -qF "compatible with requested version \"$v\"" "$W/probe/$v.log" ||
    { cat "$W/probe/$v.log"; fail "find_package(TileApply $v) failed for another reason"; }
  echo "refused: find_package(TileApply $v) with $VERSION installed"
done

# ---- 2. the Debian package ------------------------------------------------------------------
step "cpack DEB, dpkg -x, build the consumer against it"
CPACK="$(sed -n 's/^CMAKE_CPACK_COMMAND:INTERNAL=//p' "$BUILD/CMakeCache.txt")"
(cd "$W" && "${CPACK:-cpack}" -G DEB --config "$BUILD/CPackConfig.cmake" -B "$W/deb" >"$W/cpack.log" 2>&1) ||
  { cat "$W/cpack.log"; fail "cpack -G DEB failed"; }
shopt -s nullglob
debs=("$W"/deb/*.deb)
shopt -u nullglob
[ "${#debs[@]}" -eq 1 ] || fail "cpack made ${#debs[@]} .deb files"
DEB="${debs[0]}"
depends="$(dpkg-deb -f "$DEB" Depends)"
echo "$(basename "$DEB"): Depends: $depends"
for f in "$LLVM_BIN/../lib/libLLVM.so.22.1" "$LLVM_BIN/../lib/libclang-cpp.so.22.1" "$LLVM_BIN/clang++"; do
  pkg="$(dpkg -S "$(readlink -f "$f")" | head -n 1 | cut -d: -f1)"
  case ", $depends" in *", $pkg ("* | *", $pkg,"*) ;; *) fail "Depends does not name $pkg (owner of $(readlink -f "$f"))" ;; esac
done
# The same files as the install into $PREFIX (the package installs under /usr).
dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./usr/||' | sort >"$W/deb.files"
(cd "$PREFIX" && find . ! -type d | sed 's|^\./||' | sort) >"$W/install.files"
diff "$W/install.files" "$W/deb.files" >"$W/files.diff" ||
  { cat "$W/files.diff"; fail "the .deb and the install hold different files"; }
dpkg -x "$DEB" "$W/root"
consumer "$W/consumer-deb" "$W/root/usr" "${CLANG_ARGS[@]}" >"$W/consumer-deb.log" 2>&1 ||
  { cat "$W/consumer-deb.log"; fail "configuring the consumer against the unpacked .deb failed"; }
"$CMAKE4" --build "$W/consumer-deb" >>"$W/consumer-deb.log" 2>&1 ||
  { cat "$W/consumer-deb.log"; fail "building the consumer against the unpacked .deb failed"; }
check_consumer "$W/consumer-deb" "$W/root/usr"

# ---- 3. ccache --------------------------------------------------------------------------------
step "ccache: the plugin is part of the cache key"
command -v ccache >/dev/null 2>&1 || ta_die "no ccache (scripts/setup.sh installs it)"
# A copy of the install whose plugin the test may change; a cache and a
# configuration of its own (no user setting leaks in).
cp -a "$PREFIX" "$W/prefix-cc"
PLUGIN_CC="$W/prefix-cc/lib/TileApply.so"
export CCACHE_DIR="$W/ccache" CCACHE_CONFIGPATH="$W/ccache.conf"
: >"$CCACHE_CONFIGPATH"
consumer "$W/consumer-cc" "$W/prefix-cc" "${CLANG_ARGS[@]}" -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache \
  >"$W/consumer-cc.log" 2>&1 || { cat "$W/consumer-cc.log"; fail "configuring the ccache consumer failed"; }
# rebuild WANT WHAT: compiling kernel.cu again (through ccache) must be a
# cache "hit" or "miss".
rebuild() {
  local obj=CMakeFiles/app.dir/kernel.cu.o
  ccache -z >/dev/null
  rm -f "$W/consumer-cc/$obj"
  "$CMAKE4" --build "$W/consumer-cc" --target "$obj" >>"$W/consumer-cc.log" 2>&1 ||
    { cat "$W/consumer-cc.log"; fail "building the ccache consumer failed"; }
  local stats hits misses got
  stats="$(ccache --print-stats)"
  hits=$(printf '%s\n' "$stats" | awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { n += $2 } END { print n + 0 }')
  misses=$(printf '%s\n' "$stats" | awk '$1 == "cache_miss" { print $2 }')
  got="?"
  [ "$hits:$misses" != "1:0" ] || got=hit
  [ "$hits:$misses" != "0:1" ] || got=miss
  echo "    $2: $got"
  [ "$got" = "$1" ] || fail "$2: expected a cache $1, ccache counted $hits hit(s) and $misses miss(es)"
}
echo "ccache $(ccache --version | head -n 1 | awk '{ print $3 }'), default settings (the -fplugin= file is hashed like the compiler):"
rebuild miss "first build"
rebuild hit "unchanged rebuild"
printf '\0' >>"$PLUGIN_CC" # a different plugin file (still a loadable module)
rebuild miss "rebuild after the plugin changed"
# compiler_check = none hashes neither the compiler nor the plugin; the
# launcher of docs/install.md adds the plugin's content with CCACHE_EXTRAFILES.
echo "compiler_check = none, launcher 'cmake -E env CCACHE_EXTRAFILES=<plugin> ccache':"
ccache -C >/dev/null
echo "compiler_check = none" >"$CCACHE_CONFIGPATH"
"$CMAKE4" "$W/consumer-cc" \
  -DCMAKE_CUDA_COMPILER_LAUNCHER="$CMAKE4;-E;env;CCACHE_EXTRAFILES=$PLUGIN_CC;ccache" \
  >>"$W/consumer-cc.log" 2>&1 || { cat "$W/consumer-cc.log"; fail "reconfiguring the ccache consumer failed"; }
rebuild miss "first build"
rebuild hit "unchanged rebuild"
printf '\0' >>"$PLUGIN_CC"
rebuild miss "rebuild after the plugin changed"
unset CCACHE_DIR CCACHE_CONFIGPATH

step ""
ok=1
echo "== install tests passed in $(ta_since "$t_all") s"
