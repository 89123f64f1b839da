#!/usr/bin/env bash
# Shared-memory bank conflicts (ncu's l1tex counters: wavefronts beyond one
# per request, for stores and loads) of tilec's transposes (tile_bench's
# transpose cases) beside Triton's twins (bench/ncu_transpose.py), one launch
# each; the console gets one line per kernel.
# Usage (on the device): bash bench/ncu_bank_conflicts.sh
set -uo pipefail
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
report() {
  # ncu's CSV: one row per metric; print kernel, metric, value.
  python3 -c '
import csv, sys
for row in csv.DictReader(sys.stdin):
    print(sys.argv[1], row["Kernel Name"][:40], row["Metric Name"], row["Metric Value"])
' "$1"
}
for k in transpose_fp32 transpose_fp16; do
  TILE_BENCH_ONLY=$k timeout 120 ncu --csv -k regex:"^$k" -c 1 --metrics "$metrics" \
    build/bin/tile_bench --sweep 2>/dev/null | sed -n '/"ID"/,$p' | report tilec
done
timeout 120 ncu --csv -k regex:transpose_kernel -c 2 --metrics "$metrics" \
  python3 bench/ncu_transpose.py 2>/dev/null | sed -n '/"ID"/,$p' | report triton
