#!/usr/bin/env bash
# Issue 11 on the GPU machine, over the programs packed by
#   bash bench/pack_jit_device.sh gpu_tests kernel_diff vector_add gelu softmax \
#     layernorm weighted_sum attention matmul
# ($KERNELS kernels of seed $SEED from tests/fuzz/kernelgen.py are written
# there first, see docs/interpreter.md):
#  1. every GPU test and example with TILE_DIFFERENTIAL=1: each launch also
#     runs on the interpreter and every buffer is compared;
#  2. kernel_diff over generated kernels (kernelgen.py --deterministic: no
#     races, atomics or prints, and no integer question asked of a value
#     the two may round differently, so any difference is a bug), compiled
#     with --no-fp-fusion (the interpreter never contracts a * b + c), 8
#     processes;
#  3. the GPU tests and examples on the interpreter alone (as CI runs them).
# Logs land in $OUT; the console gets summaries.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
summarize() { # log file: launches compared, ok, different, skipped
  local log=$1
  echo "  launches: $(grep -c '^differential: ' "$log")," \
       "ok: $(grep -c '^differential: .*: ok$' "$log")," \
       "DIFFERENT: $(grep -c '^differential: .*: DIFFERENT' "$log")," \
       "skipped: $(grep -c '^differential: .*: skipped' "$log")," \
       "GPU launch failed: $(grep -c '^differential: .*: the GPU launch failed' "$log")"
}

echo "== gpu_tests, differential"
TILE_DIFFERENTIAL=1 TILE_DIFFERENTIAL_LOG="$OUT/diff_gpu_tests.log" \
  timeout 900 build/bin/gpu_tests >"$OUT/gpu_tests_diff.log" 2>&1 || status=1
grep -E "^\[  FAILED  \]|^\[  PASSED  \]|tests ran" "$OUT/gpu_tests_diff.log" | head -n 20
summarize "$OUT/diff_gpu_tests.log"

echo "== examples, differential"
for e in vector_add gelu softmax layernorm weighted_sum attention matmul; do
  TILE_DIFFERENTIAL=1 TILE_DIFFERENTIAL_LOG="$OUT/diff_examples.log" \
    timeout 300 build/bin/$e >"$OUT/example_$e.log" 2>&1 || status=1
  echo "  $e: $(tail -n 1 "$OUT/example_$e.log")"
done
summarize "$OUT/diff_examples.log"

echo "== generated kernels, differential"
KERNELS=${KERNELS:-2400}
SEED=${SEED:-2026}
python3 tests/fuzz/kernelgen.py --count "$KERNELS" --seed "$SEED" --deterministic --out /tmp/kernels
ls /tmp/kernels/*.tile >"$OUT/kernel_list.txt"
split -n l/8 -d "$OUT/kernel_list.txt" "$OUT/kernel_part."
for part in "$OUT"/kernel_part.*; do
  i=${part##*.}
  TILE_DIFFERENTIAL_LOG="$OUT/diff_kernels_$i.log" \
    timeout 1200 xargs -a "$part" build/bin/kernel_diff --grid 2 --seed "1$i" --no-fp-fusion \
    >"$OUT/kernel_diff_$i.log" 2>&1 &
done
wait
cat "$OUT"/diff_kernels_*.log >"$OUT/diff_kernels.log"
cat "$OUT"/kernel_diff_[0-9]*.log >"$OUT/kernel_diff.log"
echo "  kernels: $(wc -l <"$OUT/kernel_list.txt"), launched: $(grep -c ': launched$' "$OUT/kernel_diff.log")," \
     "compile errors: $(grep -c ': compile error' "$OUT/kernel_diff.log")," \
     "launch errors: $(grep -c ': launch error' "$OUT/kernel_diff.log")"
summarize "$OUT/diff_kernels.log"
grep -A3 'DIFFERENT' "$OUT/diff_kernels.log" | head -n 40

echo "== gpu_tests on the interpreter"
TILE_BACKEND=interpreter timeout 600 build/bin/gpu_tests >"$OUT/gpu_tests_interp.log" 2>&1 || status=1
grep -E "^\[  FAILED  \]|^\[  PASSED  \]|tests ran" "$OUT/gpu_tests_interp.log" | head -n 10
# Few files come back from the device: the logs travel as one archive.
rm -f "$OUT"/kernel_part.* "$OUT"/diff_kernels_*.log "$OUT"/kernel_diff_[0-9]*.log
tar -C "$OUT" -czf /tmp/logs.tgz . && rm -rf "${OUT:?}"/* && mv /tmp/logs.tgz "$OUT/logs.tgz"
exit $status
