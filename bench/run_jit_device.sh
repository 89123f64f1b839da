#!/usr/bin/env bash
# Issue 10 on the GPU machine, over the programs bench/pack_jit_device.sh
# packed (statically linked: the machine has no LLVM): the JIT's GPU tests,
# the JIT's CPU tests, every GPU test (the launcher-header test among them),
# the matmul example (launcher header, then the tutorial kernel autotuned by
# the JIT), then bench/jit_bench.py beside Triton and PyTorch. Logs land in
# $OUT; the console gets summaries.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
for t in jit_gpu_tests jit_tests; do
  echo "== $t"
  timeout 300 build/bin/$t >"$OUT/$t.log" 2>&1 || status=1
  sed -n '/^\[==========\].* ran\./,$p' "$OUT/$t.log" | head -n 30
done
echo "== gpu_tests"
timeout 300 build/bin/gpu_tests --gtest_filter='-AtomicTest.*:ControlFlowTest.*' >"$OUT/gpu_tests.log" 2>&1 || status=1
sed -n '/^\[==========\].* ran\./,$p' "$OUT/gpu_tests.log" | head -n 30
grep -E "AotHeaderTest" "$OUT/gpu_tests.log" | head -n 4
echo "== matmul (launcher header, then the JIT's autotuned tutorial kernel)"
timeout 300 build/bin/matmul 2>&1 | tee "$OUT/matmul.log" | tail -n 22 || status=1
grep -q "FAILED" "$OUT/matmul.log" && status=1
echo "== jit_bench.py"
PYTHONUNBUFFERED=1 timeout 420 python3 bench/jit_bench.py --out "$OUT" 2>&1 | tee "$OUT/jit_bench.log" | tail -n 45 || status=1
exit $status
