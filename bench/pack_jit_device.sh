#!/usr/bin/env bash
# Packs what bench/run_jit_device.sh needs into devpack/ (stripped programs,
# statically linked against LLVM and MLIR: configure the build with
# -DTILEC_STATIC_LLVM=ON; one .xz per program, recompressed only when the
# program changed; the example PTX, sources and headers in data.tar.xz),
# small enough to carry to the GPU machine. Run from the repository root;
# bench/unpack_jit_device.sh undoes it there. Arguments name the programs
# (default: the JIT's run); devpack/ keeps only those, so it fits what one
# device call carries.
set -euo pipefail
mkdir -p devpack
programs=("$@")
[ ${#programs[@]} -gt 0 ] || programs=(jit_gpu_tests jit_tests jit_bench matmul gpu_tests)
for f in devpack/*.xz; do
  p=$(basename "$f" .xz)
  [ "$p" = data.tar ] || [[ " ${programs[*]} " == *" $p "* ]] || rm -f "$f"
done
for p in "${programs[@]}"; do
  if [ ! -e devpack/$p.xz ] || [ build/bin/$p -nt devpack/$p.xz ]; then
    strip -o devpack/$p build/bin/$p
    xz -T2 -6 -f devpack/$p
  fi
done
tar -C . -cf - --exclude=CMakeFiles build/dsl_examples build/tests/gpu/kernels |
  xz -T2 -6 >devpack/data.tar.xz
# The commit the programs were built from (the device copy has no history).
git rev-parse --short HEAD >devpack/commit.txt
ls -la devpack
