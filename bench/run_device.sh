#!/usr/bin/env bash
# The one script run on the GPU machine (through the device tool), over a
# carried build/: the runtime unit tests, every GPU test, every example
# program, then the benchmark beside Triton and PyTorch. Full logs land in
# $OUT (7 files: device.txt, runtime_unit_tests.log, gpu_tests.log,
# examples.log, bench.log, bench.md, bench.json); the console gets summaries.
# About 5 minutes on an H200.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
for t in runtime_unit_tests gpu_tests; do
  echo "== $t"
  timeout 240 build/bin/$t >"$OUT/$t.log" 2>&1 || status=1
  # The summary and every failure (gtest repeats them at the end).
  tail -n 40 "$OUT/$t.log"
done
# Process substitution (not a pipe) keeps status updates in this shell.
{
  for e in vector_add gelu; do
    for n in 1 98432 1048579 268435456; do
      echo "== $e --n $n"
      build/bin/$e --n $n >"$OUT/last_example.txt" 2>&1 || status=1
      tail -n 4 "$OUT/last_example.txt"
    done
  done
  # Each runs its own list of shapes, most not multiples of the blocks.
  for e in softmax matmul weighted_sum layernorm; do
    echo "== $e"
    timeout 120 build/bin/$e 2>&1 || status=1
  done
  # The benchmark's softmax variant on rows longer than 1024 columns.
  echo "== softmax --ptx softmax_16384.ptx"
  timeout 120 build/bin/softmax --ptx build/dsl_examples/softmax_16384.ptx \
    --shape 5x16384 --shape 300x9999 --shape 7x1025 2>&1 || status=1
} > >(tee "$OUT/examples.log") 2>&1
rm -f "$OUT/last_example.txt"
sleep 1 # Let tee flush examples.log.
echo "== benchmark"
PYTHONUNBUFFERED=1 timeout 360 python3 bench/bench.py --out "$OUT" 2>&1 | tee "$OUT/bench.log" || status=1
echo "== run_device.sh exit status $status"
exit $status
