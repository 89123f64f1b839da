#!/usr/bin/env bash
# Robustness runs of the whole compiler (docs/testing.md):
#  1. the libFuzzer target tests/fuzz (ASan+UBSan, build-sanitize/) for
#     --seconds (default 300), seeded with every .tile file of the repository
#     and every python block of docs/, with the language's dictionary;
#  2. --kernels (default 300) kernels from tests/fuzz/kernelgen.py, each
#     compiled by build/bin/tilec for sm_80 and sm_90 and assembled by ptxas.
# Either step stops the script at its first finding. The corpus the fuzzer
# grows stays in build-sanitize/fuzz/ (out of git). Options:
#   --seconds N   fuzzing time (0: skip)       --kernels N   kernels (0: skip)
#   --seed N      first kernel seed (default: the time; printed)
#   --fork N      N fuzzing processes that go on after findings (campaigns)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=300 kernels=300 seed=$(date +%s) fork=0
while (($#)); do
  case "$1" in
    --seconds) seconds=$2 ;;
    --kernels) kernels=$2 ;;
    --seed) seed=$2 ;;
    --fork) fork=$2 ;;
    *) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done

if ((seconds > 0)); then
  scripts/sanitize.sh --build-only
  work=build-sanitize/fuzz
  rm -rf "$work/seeds"
  mkdir -p "$work/seeds" "$work/corpus" "$work/findings"
  git ls-files '*.tile' | while read -r file; do
    cp "$file" "$work/seeds/${file//\//_}"
  done
  awk -v dir="$work/seeds" '/^```python$/ { n++; inside = 1; next }
      /^```$/ { inside = 0 } inside { print > (dir "/docs_" n ".tile") }' docs/*.md
  options=(-dict=tests/fuzz/tile.dict -max_total_time="$seconds" -timeout=10
           -rss_limit_mb=4096 -max_len=8192 -print_final_stats=1
           -artifact_prefix="$work/findings/")
  if ((fork > 0)); then
    options+=(-fork="$fork" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  echo "== tilec-fuzz for $seconds s (findings go to $work/findings/)"
  status=0
  build-sanitize/bin/tilec-fuzz "${options[@]}" "$work/corpus" "$work/seeds" \
    >"$work/fuzz.log" 2>&1 || status=$?
  if ((status != 0)); then
    tail -n 60 "$work/fuzz.log"
  fi
  grep -E "^stat::|INFO: exiting" "$work/fuzz.log" || true
  # libFuzzer's count: its final stats, or in fork mode its last progress line.
  runs=$(grep -oE "stat::number_of_executed_units: [0-9]+|^#[0-9]+:" "$work/fuzz.log" |
         tail -1 | grep -oE "[0-9]+" | tail -1)
  echo "fuzz: ${runs:-0} executions in $seconds s"
  if ((status != 0)); then
    echo "fuzz: FAILED (status $status); the input is in $work/findings/" >&2
    exit "$status"
  fi
fi

if ((kernels > 0)); then
  scripts/setup.sh
  echo "== $kernels generated kernels (seed $seed) through tilec and ptxas"
  python3 tests/fuzz/check_kernels.py --tilec build/bin/tilec --count "$kernels" \
    --seed "$seed" --jobs "$(nproc)" --work build/kernelgen
fi
