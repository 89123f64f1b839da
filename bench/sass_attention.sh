#!/usr/bin/env bash
# SASS of flash attention from tilec (build/dsl_examples/<case>.ptx through
# ptxas) and from Triton (bench/ncu_attention.py's kernel, from Triton's
# cache), disassembled with the nvdisasm that Triton ships, into
# $OUT/sass_tilec.txt and $OUT/sass_triton.txt, with instruction counts per
# opcode of each on the console.
# Usage (on the device): OUT=... bash bench/sass_attention.sh CASE HEAD_DIM CAUSAL BLOCK_M BLOCK_N WARPS STAGES
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
case_name=$1
shift
bin=$(python3 -c "import os, triton; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin'))")
work=$(mktemp -d)
"$bin/ptxas" -arch=sm_90a "build/dsl_examples/$case_name.ptx" -o "$work/tilec.cubin"
"$bin/nvdisasm" -c "$work/tilec.cubin" >"$OUT/sass_tilec.txt"
export TRITON_CACHE_DIR=$work/cache
python3 bench/ncu_attention.py "$@"
cubin=$(find "$work/cache" -name "attention_fwd_kernel.cubin" | head -1)
"$bin/nvdisasm" -c "$cubin" >"$OUT/sass_triton.txt"
for who in tilec triton; do
  echo "== $who: $(grep -cE '^\s+/\*[0-9a-f]+\*/' "$OUT/sass_$who.txt") instructions"
done
rm -rf "$work"
