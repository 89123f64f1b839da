#!/usr/bin/env bash
# Runs the GPU tests and the examples (small sizes) under compute-sanitizer's
# memcheck, racecheck and synccheck on the GPU machine, over a carried build/.
# Shared-memory races between the allocator's barriers show up in racecheck.
# Logs land in $OUT/sanitize-<tool>.log; the console gets each tool's error
# summaries and a final table of error counts. Exit status 1 if any tool
# reported an error or a run failed.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ ! -x "$sanitizer" ]; then
  echo "compute-sanitizer not found"
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/sanitize-device.txt"
"$sanitizer" --version | tail -n 1
status=0
declare -A errors
for tool in memcheck racecheck synccheck; do
  log="$OUT/sanitize-$tool.log"
  : >"$log"
  echo "== $tool"
  # GPU tests in the same two parts as run_device.sh (spin-loop kernels
  # apart), then each example on shapes that are not multiples of the blocks.
  runs=("build/bin/gpu_tests --gtest_filter=-AtomicTest.*:ControlFlowTest.*"
        "build/bin/gpu_tests --gtest_filter=AtomicTest.*:ControlFlowTest.*"
        "build/bin/vector_add --n 98432"
        "build/bin/gelu --n 98432"
        "build/bin/softmax --shape 37x1000"
        "build/bin/matmul --shape 100x72x40"
        "build/bin/weighted_sum --shape 300x130"
        "build/bin/layernorm --shape 33x3000")
  for run in "${runs[@]}"; do
    echo "-- $run" >>"$log"
    # shellcheck disable=SC2086 # $run is a command line.
    timeout 300 "$sanitizer" --tool "$tool" --print-limit 20 $run >>"$log" 2>&1
    rc=$?
    summary=$(grep "ERROR SUMMARY" "$log" | tail -n 1)
    echo "$run: exit $rc, ${summary:-no summary}"
    [ "$rc" -eq 0 ] || status=1
  done
  count=$(grep -o "ERROR SUMMARY: [0-9]* error" "$log" | awk '{s += $3} END {print s + 0}')
  errors[$tool]=$count
  [ "$count" -eq 0 ] || status=1
done
echo "== errors: memcheck ${errors[memcheck]}, racecheck ${errors[racecheck]}, synccheck ${errors[synccheck]}"
echo "== sanitize_device.sh exit status $status"
exit $status
