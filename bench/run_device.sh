#!/usr/bin/env bash
# The one script run on the GPU machine (through the device tool), over a
# carried build/: checks every GPU test and example, then benchmarks beside
# Triton and PyTorch. Everything it prints also lands in $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
for t in runtime_unit_tests gpu_tests; do
  echo "== $t"
  build/bin/$t 2>&1 | tail -n 25 | tee "$OUT/$t.log" || status=1
done
for e in vector_add gelu; do
  for n in 1 98432 1048579 268435456; do
    echo "== $e --n $n"
    build/bin/$e --n $n 2>&1 | tail -n 4 || status=1
  done
done 2>&1 | tee "$OUT/examples.log"
echo "== benchmark"
PYTHONUNBUFFERED=1 python3 bench/bench.py --out "$OUT" 2>&1 | tee "$OUT/bench.log" || status=1
exit $status
