#!/usr/bin/env bash
# Issue 12's builtins on the GPU machine, over the programs
# bench/pack_jit_device.sh packed: every GPU test (libdevice functions, random
# numbers, reductions with combine functions among them), the JIT's tests
# (heuristics included), then Triton's own random numbers against the same
# Philox reference (bench/triton_random_check.py). Logs land in $OUT; the
# console gets summaries.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)" | tee -a "$OUT/device.txt"
echo "== gpu_tests"
timeout 420 build/bin/gpu_tests >"$OUT/gpu_tests.log" 2>&1 || status=1
grep -E "^\[  FAILED  \]|^\[  PASSED  \]|tests ran|SKIPPED" "$OUT/gpu_tests.log" | head -n 30
grep -E "^\[       OK \] .*(Random|Combine|log1p|expm1|powi|isnan|rint|half_tanh|atan2|pow|div_rn|hypot)" "$OUT/gpu_tests.log" | head -n 20
for t in jit_gpu_tests jit_tests; do
  echo "== $t"
  timeout 300 build/bin/$t >"$OUT/$t.log" 2>&1 || status=1
  grep -E "^\[  FAILED  \]|^\[  PASSED  \]|tests ran" "$OUT/$t.log" | head -n 10
done
echo "== triton_random_check.py"
timeout 300 python3 bench/triton_random_check.py 2>&1 | tee "$OUT/triton_random_check.log" || status=1
exit $status
