#!/usr/bin/env bash
# Builds the tensor-core configurations that bench/variants.py times, under
# build/variants/<variant>/ (carry build/variants to the device with
# build/bin and build/dsl_examples). Each line of the list below is
#   <variant> <benchmark file name> <example> <tilec flags>
# where the benchmark file name is one tile_bench loads (matmul_d16,
# attention_d64, attention_causal, attention_d128, attention_d128_causal).
# Usage: bench/build_variants.sh [list file] (default: the list below; lines
# starting with # are comments).
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=build/bin/tilec
OUT=build/variants
D16="--arch sm_90a --specialize M=16,N=16,K=16,stride_am=16,stride_bk=16,stride_cm=16"
default_list() {
  cat <<EOF
mm_256x128x64_w8_s3 matmul_d16 matmul --kernel matmul_kernel $D16 -D BLOCK_M=256 -D BLOCK_N=128 -D BLOCK_K=64 --num-warps 8 --num-stages 3 -D GROUP_M=8
EOF
  # Flash attention on wgmma (sm_90a), in the configurations worth trying.
  for dim in 64 128; do
    for causal in False True; do
      name=attention_d$dim
      if [ $causal = True ]; then name=attention_d${dim}_causal; fi
      if [ $name = attention_d64_causal ]; then name=attention_causal; fi
      common="--arch sm_90a -D HEAD_DIM=$dim -D CAUSAL=$causal"
      echo "at_128x64_w8_s3 $name attention $common -D BLOCK_M=128 -D BLOCK_N=64 --num-warps 8 --num-stages 3"
      echo "at_128x64_w8_s2 $name attention $common -D BLOCK_M=128 -D BLOCK_N=64 --num-warps 8 --num-stages 2"
      echo "at_64x64_w4_s3 $name attention $common -D BLOCK_M=64 -D BLOCK_N=64 --num-warps 4 --num-stages 3"
      echo "at_128x32_w8_s3 $name attention $common -D BLOCK_M=128 -D BLOCK_N=32 --num-warps 8 --num-stages 3"
      if [ $dim = 64 ]; then echo "at_128x128_w8_s3 $name attention $common -D BLOCK_M=128 -D BLOCK_N=128 --num-warps 8 --num-stages 3"; fi
    done
  done
}
if [ $# -gt 0 ]; then list=$(cat "$1"); else list=$(default_list); fi
rm -rf "$OUT"
while read -r variant file example flags; do
  [ -z "$variant" ] || [ "${variant:0:1}" = "#" ] && continue
  mkdir -p "$OUT/$variant"
  # shellcheck disable=SC2086  # flags are words
  $TILEC dsl_examples/$example.tile $flags -o "$OUT/$variant/$file.ptx"
done <<<"$list"
ls "$OUT"
