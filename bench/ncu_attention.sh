#!/usr/bin/env bash
# ncu on flash attention, tilec's kernel (tile_bench's attention_d128 case,
# build/dsl_examples/attention_d128.ptx) beside Triton's in the same
# configuration (bench/ncu_attention.py): throughput, tensor-pipe use, warp
# stalls and issue slots of one launch each, into $OUT/ncu_<name>.txt; the
# console gets the lines that compare them.
# Usage (on the device): OUT=... bash bench/ncu_attention.sh [HEAD_DIM CAUSAL BLOCK_M BLOCK_N WARPS STAGES]
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
config=("${@:-128 False 128 64 8 2}")
read -r dim causal bm bn warps stages <<<"${config[*]}"
case_name=attention_d$dim
[ "$causal" = True ] && case_name=${case_name}_causal
[ "$case_name" = attention_d64_causal ] && case_name=attention_causal
sections=(--section SpeedOfLight --section WarpStateStats --section SchedulerStats
  --section Occupancy --section LaunchStats
  --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__cycles_elapsed.max,regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio)
TILE_BENCH_ONLY=$case_name timeout 200 ncu -k regex:attention_fwd -c 1 "${sections[@]}" \
  build/bin/tile_bench >"$OUT/ncu_tilec.txt" 2>&1
timeout 200 ncu -k regex:attention_fwd -c 1 "${sections[@]}" \
  python3 bench/ncu_attention.py "$dim" "$causal" "$bm" "$bn" "$warps" "$stages" \
  >"$OUT/ncu_triton.txt" 2>&1
for who in tilec triton; do
  echo "== $who"
  grep -E "issue_stalled_.* [0-9.]+$" "$OUT/ncu_$who.txt" | awk '$NF > 0.05' | sort -k3 -rn | head -12
  grep -E "Duration|Registers Per|Achieved Occupancy|Block Limit Reg|gmma_cycles|inst_executed|Issued Warp|No Eligible|Stall|Warp Cycles Per Issued|Compute \(SM\) Throughput|Memory Throughput|Dynamic Shared|Shared Memory Configuration Size" "$OUT/ncu_$who.txt" | head -40
done
