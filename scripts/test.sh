#!/usr/bin/env bash
# Every test: GoogleTest unit tests, lit/FileCheck tests (ptxas ones when the
# CUDA toolkit is at /usr/local/cuda), the examples and the GPU tests (which
# report themselves skipped without a GPU); then the robustness runs
# (docs/testing.md): the same tests built with ASan+UBSan, 5 minutes of
# fuzzing and 300 generated kernels through tilec and ptxas.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
scripts/sanitize.sh
scripts/fuzz.sh
