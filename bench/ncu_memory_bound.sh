#!/usr/bin/env bash
# ncu on a memory-bound kernel of the sweep, tilec's (one tile_bench --sweep
# case) beside Triton's (bench/ncu_memory_bound.py) at the same size:
# throughput, occupancy, registers and warp stalls of one launch each, into
# $OUT/ncu_<kernel>_<size>_<who>.txt; the console gets the lines that
# compare them.
# Usage (on the device): OUT=... bash bench/ncu_memory_bound.sh KERNEL SIZE
#   KERNEL: layer_norm_fp16 (SIZE = N of 4096 rows) or weighted_sum (SIZE =
#   D of 65536 rows)
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
kernel=$1 size=$2
rows=4096
[ "$kernel" = weighted_sum ] && rows=65536
sections=(--section SpeedOfLight --section WarpStateStats --section Occupancy
  --section LaunchStats --section MemoryWorkloadAnalysis
  --metrics smsp__inst_executed.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio)
name=ncu_${kernel}_${size}
TILE_BENCH_ONLY=$kernel:${rows}x$size timeout 200 ncu -k "regex:$kernel" -c 1 \
  "${sections[@]}" build/bin/tile_bench --sweep >"$OUT/${name}_tilec.txt" 2>&1
timeout 200 ncu -k "regex:$kernel" -c 1 "${sections[@]}" \
  python3 bench/ncu_memory_bound.py "$kernel" "$size" >"$OUT/${name}_triton.txt" 2>&1
for who in tilec triton; do
  echo "== $kernel $size $who"
  grep -E "issue_stalled_.* [0-9.]+$" "$OUT/${name}_$who.txt" | awk '$NF > 0.1' | sort -k3 -rn | head -8
  grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit Reg|inst_executed|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Warp Cycles Per Issued|Mem Busy" "$OUT/${name}_$who.txt" | head -24
done
