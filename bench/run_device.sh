#!/usr/bin/env bash
# The one script run on the GPU machine (through the device tool), over a
# carried build/: the runtime unit tests, every GPU test, every example
# program, then the benchmark beside Triton and PyTorch. Full logs land in
# $OUT (device.txt, runtime_unit_tests.log, gpu_tests.log, examples.log,
# bench.log, bench.md, bench.json, sweep.log and sweep/ with sweep.md,
# sweep.json and the plots); the console gets summaries.
# About 6 minutes on an H200, 2 to 3 of them the benchmark (bench.md gives
# its time).
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
echo "== runtime_unit_tests"
timeout 120 build/bin/runtime_unit_tests >"$OUT/runtime_unit_tests.log" 2>&1 || status=1
tail -n 15 "$OUT/runtime_unit_tests.log"
# The GPU tests in two runs, so that a kernel that hangs (spin loops in the
# atomics and control-flow tests) cannot take the other results with it.
: >"$OUT/gpu_tests.log"
for filter in '-AtomicTest.*:ControlFlowTest.*' 'AtomicTest.*:ControlFlowTest.*'; do
  echo "== gpu_tests --gtest_filter=$filter"
  timeout 180 build/bin/gpu_tests --gtest_filter="$filter" >"$OUT/gpu_part.log" 2>&1 || status=1
  cat "$OUT/gpu_part.log" >>"$OUT/gpu_tests.log"
  # The summary and every failure (gtest lists them at the end).
  sed -n '/^\[==========\].* ran\./,$p' "$OUT/gpu_part.log" | head -n 60
done
rm -f "$OUT/gpu_part.log"
# check_d16 EXAMPLE REFUSED SHAPE...: runs EXAMPLE on its _d16 PTX at each
# SHAPE, then checks that the runtime refuses REFUSED (not a multiple of 16).
check_d16() {
  local example=$1 refused=$2 shapes=()
  shift 2
  for shape in "$@"; do shapes+=(--shape "$shape"); done
  local ptx=build/dsl_examples/${example}_d16.ptx
  echo "== $example --ptx ${example}_d16.ptx"
  timeout 120 build/bin/$example --ptx "$ptx" "${shapes[@]}" 2>&1 || status=1
  echo "== $example --ptx ${example}_d16.ptx --shape $refused (must be refused)"
  build/bin/$example --ptx "$ptx" --shape "$refused" >"$OUT/last_example.txt" 2>&1
  grep "is not a multiple of 16" "$OUT/last_example.txt" || status=1
}
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
  for e in softmax matmul weighted_sum layernorm attention; do
    echo "== $e"
    timeout 120 build/bin/$e 2>&1 || status=1
  done
  # The benchmark's matmul (pipelined) and weighted sum (the block pointers'
  # 16-byte loads), specialized for multiples of 16, and the runtime's
  # refusal of a size that breaks the specialization.
  check_d16 matmul 100x96x96 1024x512x2048 272x400x528 16x16x16
  check_d16 weighted_sum 100x1000 64x4096 100x1024 3x272
  # The benchmark's softmax variant on rows longer than 1024 columns.
  echo "== softmax --ptx softmax_16384.ptx"
  timeout 120 build/bin/softmax --ptx build/dsl_examples/softmax_16384.ptx \
    --shape 5x16384 --shape 300x9999 --shape 7x1025 2>&1 || status=1
  # Flash-attention's other specializations (causal, head dim 128).
  for variant in attention_d64 attention_causal attention_d128 attention_d128_causal; do
    echo "== attention --ptx $variant.ptx"
    timeout 120 build/bin/attention --ptx build/dsl_examples/$variant.ptx 2>&1 || status=1
  done
} > >(tee "$OUT/examples.log") 2>&1
rm -f "$OUT/last_example.txt"
sleep 1 # Let tee flush examples.log.
echo "== benchmark"
PYTHONUNBUFFERED=1 timeout 420 python3 bench/bench.py --out "$OUT" 2>&1 | tee "$OUT/bench.log" || status=1
# The sweeps (sweep.md, sweep.json, a PNG per kernel), unless SWEEP=0.
if [ "${SWEEP:-1}" != 0 ]; then
  echo "== benchmark sweep"
  PYTHONUNBUFFERED=1 timeout 420 python3 bench/bench.py --sweep --out "$OUT/sweep" \
    >"$OUT/sweep.log" 2>&1 || status=1
  grep -E "^\| (add_kernel|softmax|weighted_sum|layer_norm|row_cumsum|row_sum|transpose)|^plots|^no plots" \
    "$OUT/sweep.log"
fi
echo "== run_device.sh exit status $status"
exit $status
