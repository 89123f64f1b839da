#!/usr/bin/env bash
# Runs the GPU tests and the examples (small sizes) under compute-sanitizer's
# memcheck, racecheck and synccheck on the GPU machine, over a carried build/.
# Shared-memory races between the allocator's barriers show up in racecheck.
# Driver API errors are not counted: the tests provoke some on purpose
# (bad PTX) and check them themselves.
# Logs land in $OUT/sanitize-<tool>.log; the console gets each tool's error
# summaries and a final table of error counts. Exit status 1 if any tool
# reported an error or a run failed. Arguments pick the tools (default: all
# three), e.g. `bench/sanitize_device.sh racecheck synccheck`.
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
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck synccheck)
for tool in "${tools[@]}"; do
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
        "build/bin/layernorm --shape 33x3000"
        "build/bin/attention --shape 2x100"
        "build/bin/attention --ptx build/dsl_examples/attention_d128_causal.ptx --shape 2x100")
  for run in "${runs[@]}"; do
    echo "-- $run" >>"$log"
    # shellcheck disable=SC2086 # $run is a command line.
    timeout 300 "$sanitizer" --tool "$tool" --report-api-errors no --print-limit 20 $run >>"$log" 2>&1
    rc=$?
    summary=$(grep -E "(ERROR|RACECHECK) SUMMARY" "$log" | tail -n 1)
    echo "$run: exit $rc, ${summary:-no summary}"
    [ "$rc" -eq 0 ] || status=1
  done
  # memcheck/synccheck: "ERROR SUMMARY: N errors"; racecheck: "RACECHECK
  # SUMMARY: H hazards displayed (E errors, W warnings)", warnings counted.
  count=$(grep -oE "ERROR SUMMARY: [0-9]+ error|\([0-9]+ errors, [0-9]+ warnings\)" "$log" |
    tr -d '(),' | awk '/SUMMARY/ {s += $3} /warnings/ {s += $1 + $3} END {print s + 0}')
  errors[$tool]=$count
  [ "$count" -eq 0 ] || status=1
done
for tool in "${tools[@]}"; do
  echo "== $tool errors: ${errors[$tool]}"
done
echo "== sanitize_device.sh exit status $status"
exit $status
