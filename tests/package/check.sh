#!/usr/bin/env bash
# The package test (docs/package.md): installs a tilec build tree into a temporary
# prefix, then builds tests/package/project against it as another project would
# (find_package(tilec), tilec_add_kernels, tilec::runtime), runs it (it launches on a
# GPU and prints SKIPPED without one), checks that editing a kernel rebuilds it through
# tilec's depfile, and compiles a program against the pkg-config file.
# Usage: check.sh <tilec build dir>
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log" ||
  { cat "$work/install.log"; fail "cmake --install"; }
for f in bin/tilec bin/tile-opt bin/tile-lsp-server lib/libtile_runtime.a include/tile/Runtime.h \
         lib/cmake/tilec/tilecConfig.cmake lib/cmake/tilec/tilecConfigVersion.cmake \
         lib/cmake/tilec/tilecTargets.cmake lib/cmake/tilec/tilecKernels.cmake \
         lib/pkgconfig/tilec-runtime.pc share/doc/tilec/README.md; do
  [ -e "$work/prefix/$f" ] || fail "the install has no $f"
done
echo "ok: installed into a temporary prefix"

cp -r "$here/project" "$work/project"
# Ninja where it is installed (setup.sh installs it; make may be missing).
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
cmake "${generator[@]}" -S "$work/project" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configuring the project"; }
cmake --build "$work/build" > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "building the project"; }
echo "ok: the external project builds with find_package(tilec) and tilec_add_kernels"
out="$work/build/tilec_kernels/scale_add"
for f in scale.h scale.ptx scale.json add.h add.ptx add.json scale.ptx.d; do
  [ -s "$out/$f" ] || fail "tilec_add_kernels did not write $f"
done
grep -q "kernels/scale.tile" "$out/scale.ptx.d" || fail "the depfile does not name the source"

set +e
"$work/build/scale_add"
status=$?
set -e
case $status in
  0) echo "ok: the kernels ran and were checked" ;;
  77) echo "ok: no GPU here, the program ran up to the launch" ;;
  *) fail "scale_add exited with $status" ;;
esac

# An edit to one kernel recompiles that kernel (make reads tilec's depfile) and not the other.
before_add=$(stat -c %Y "$out/add.h")
sleep 1
sed -i 's/y = alpha \* x/y = alpha * x (edited)/' "$work/project/kernels/scale.tile"
touch "$work/project/kernels/scale.tile"
cmake --build "$work/build" > "$work/rebuild.log" 2>&1 || { cat "$work/rebuild.log"; fail "rebuilding"; }
grep -q "scale.tile -> scale.h" "$work/rebuild.log" || { cat "$work/rebuild.log"; fail "editing scale.tile did not recompile it"; }
[ "$(stat -c %Y "$out/add.h")" = "$before_add" ] || fail "editing scale.tile recompiled add.tile"
echo "ok: editing a kernel recompiles it alone"

# pkg-config: the runtime's flags build a program.
cat > "$work/pc.cpp" <<'CPP'
#include "tile/Runtime.h"
#include <cstdio>
int main() { std::printf("gpu: %d\n", tile::gpuAvailable() ? 1 : 0); }
CPP
flags=$(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs tilec-runtime) ||
  fail "pkg-config does not find tilec-runtime"
c++ -std=c++17 "$work/pc.cpp" -o "$work/pc" $flags || fail "compiling with pkg-config's flags"
"$work/pc" > /dev/null || fail "the pkg-config program failed"
echo "ok: pkg-config --cflags --libs tilec-runtime builds a program"
echo "PASSED"
