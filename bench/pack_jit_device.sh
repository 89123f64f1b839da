#!/usr/bin/env bash
# Packs what bench/run_jit_device.sh needs into devpack/jit.tar.xz (stripped
# programs, statically linked against LLVM and MLIR: configure the build with
# -DTILEC_STATIC_LLVM=ON; the example PTX, sources and headers), small
# enough to carry to the GPU machine. Run from the repository root.
set -euo pipefail
rm -rf devpack && mkdir -p devpack/stage/build/bin
for p in jit_gpu_tests jit_tests jit_bench matmul gpu_tests; do
  strip -o devpack/stage/build/bin/$p build/bin/$p
done
cp -r build/dsl_examples devpack/stage/build/
mkdir -p devpack/stage/build/tests/gpu
cp -r build/tests/gpu/kernels devpack/stage/build/tests/gpu/
find devpack/stage/build/dsl_examples -name CMakeFiles -prune -exec rm -rf {} +
tar -C devpack/stage -cf - build | xz -T2 -6 >devpack/jit.tar.xz
rm -rf devpack/stage
ls -la devpack/jit.tar.xz
