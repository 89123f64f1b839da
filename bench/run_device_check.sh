#!/usr/bin/env bash
# On the GPU machine, from the repository root, with devpack/ carried: the one
# call that checks and times a session's work. devpack/ holds gpu_tests and
# jit_gpu_tests (bench/pack_jit_device.sh gpu_tests jit_gpu_tests), the
# porting corpus (tests/porting/compile_all.py --out devpack/porting --arch
# sm_90a,sm_90) and, optionally, some cases compiled with other tilec options
# (--out devpack/porting_variant). Everything goes to $OUT as one results.tar.gz
# plus summary.txt (the device tool brings back few files). Arguments pick the
# parts, `tests` and/or `porting` (default both), for calls that must stay
# under the device's per-call limit.
set -uo pipefail
out=${OUT:-out}
work=$(mktemp -d)
parts=" ${*:-tests porting} "
: >"$work/gpu_tests.summary"
if [[ $parts == *" tests "* ]]; then
  STEP=gpu_tests OUT=$work bash bench/run_porting_device.sh >"$work/gpu_tests.summary" 2>&1
  build/bin/jit_gpu_tests --gtest_brief=1 >"$work/jit_gpu_tests.log" 2>&1
  echo "jit_gpu_tests rc=$?" >>"$work/gpu_tests.summary"
fi
[[ $parts == *" porting "* ]] && STEP=porting OUT=$work bash bench/run_porting_device.sh >/dev/null 2>&1
if [[ $parts == *" porting "* && -d devpack/porting_variant ]]; then
  cases=$(ls devpack/porting_variant/sm_90a/*.ptx | xargs -n1 basename | sed 's/\.ptx$//')
  # shellcheck disable=SC2086
  python3 tests/porting/run_device.py --ptx-dir devpack/porting_variant --arch sm_90a \
    --out "$work/porting_variant" $cases >"$work/porting_variant.log" 2>&1
fi
{
  cat "$work/device.txt" 2>/dev/null || nvidia-smi --query-gpu=name --format=csv,noheader
  cat "$work/gpu_tests.summary"
  grep -E "FAILED|tests ran|PASSED" "$work/jit_gpu_tests.log" 2>/dev/null | tail -20
  echo "== porting"
  grep -E "^Status" "$work/porting/results.md" 2>/dev/null
  grep -E "^\| " "$work/porting/results.md" 2>/dev/null | grep -v "| PASS |" | cut -c1-400
  echo "== porting, ratios"
  grep -E "^\| " "$work/porting/results.md" 2>/dev/null | awk -F'|' '{print $2, $3, $6}'
  echo "== porting variant (devpack/porting_variant, other tilec options)"
  grep -E "^Status|^\| " "$work/porting_variant/results.md" 2>/dev/null | cut -c1-300
} >"$out/summary.txt" 2>&1
tar -C "$work" -czf "$out/results.tar.gz" .
cat "$out/summary.txt"
