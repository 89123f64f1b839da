#!/usr/bin/env bash
# On the GPU machine, from the repository root, with devpack/ carried
# (bench/pack_jit_device.sh gpu_tests, and tests/porting/compile_all.py --out
# devpack/porting --arch sm_90a,sm_90 run beside it): the porting corpus
# against Triton (STEP=porting, the default) or the GPU test suite
# (STEP=gpu_tests), or the outside project of tests/package built against an
# installed tilec and carried as devpack/package/scale_add (STEP=package).
# Results go to $OUT.
set -uo pipefail
out=${OUT:-out}
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
  echo "commit $(cat devpack/commit.txt 2>/dev/null || echo unknown) (built here: devpack/commit.txt)"
  date -u
} >"$out/device.txt" 2>&1
cat "$out/device.txt"
case ${STEP:-porting} in
porting)
  python3 tests/porting/run_device.py --ptx-dir devpack/porting --arch "${ARCH:-sm_90a}" \
    --out "$out/porting" "$@" >"$out/porting.log" 2>&1
  echo "run_device rc=$?"
  cat "$out/porting/results.md" 2>/dev/null || tail -40 "$out/porting.log"
  ;;
gpu_tests)
  bash bench/unpack_jit_device.sh
  build/bin/gpu_tests --gtest_brief=1 "$@" >"$out/gpu_tests.log" 2>&1
  echo "gpu_tests rc=$?"
  grep -E "FAILED|PASSED|tests ran" "$out/gpu_tests.log" | tail -30
  ;;
package)
  devpack/package/scale_add >"$out/package.log" 2>&1
  echo "scale_add rc=$?"
  cat "$out/package.log"
  ;;
esac
