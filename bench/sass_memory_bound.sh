#!/usr/bin/env bash
# SASS of a memory-bound kernel of the sweep from tilec (its PTX through
# ptxas) and from Triton (bench/ncu_memory_bound.py's kernel, from Triton's
# cache, with its TTGIR and PTX), disassembled with the nvdisasm that Triton
# ships, into $OUT/<kernel>_<size>_{tilec,triton}.sass (and .ttgir, .ptx
# for Triton); instruction counts on the console.
# Usage (on the device): OUT=... bash bench/sass_memory_bound.sh KERNEL SIZE TILEC_PTX
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
kernel=$1 size=$2 ptx=$3
name=${kernel}_$size
bin=$(python3 -c "import os, triton; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin'))")
work=$(mktemp -d)
"$bin/ptxas" -arch=sm_90 "$ptx" -o "$work/tilec.cubin"
"$bin/nvdisasm" -c "$work/tilec.cubin" >"$OUT/${name}_tilec.sass"
export TRITON_CACHE_DIR=$work/cache
python3 bench/ncu_memory_bound.py "$kernel" "$size"
for ext in ttgir ptx; do
  cp "$(find "$work/cache" -name "*.$ext" | head -1)" "$OUT/${name}_triton.$ext"
done
"$bin/nvdisasm" -c "$(find "$work/cache" -name "*.cubin" | head -1)" >"$OUT/${name}_triton.sass"
for who in tilec triton; do
  echo "== $name $who: $(grep -cE '^\s+/\*[0-9a-f]+\*/' "$OUT/${name}_$who.sass") instructions"
done
rm -rf "$work"
