#!/usr/bin/env bash
# The ASan+UBSan build: clang-22 from Debian (installed when missing) builds
# everything into build-sanitize/ instrumented (TILEC_SANITIZE), with the
# libFuzzer target tests/fuzz (TILEC_FUZZ), then runs every ctest test there:
# unit, lit, examples and GPU tests (skipped without a GPU). Any sanitizer
# report fails its test. `scripts/sanitize.sh --build-only` stops after the
# build (scripts/fuzz.sh uses it). See docs/testing.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh

# clang-22 and its sanitizer and libFuzzer runtimes, when missing.
packages=(clang-22 libclang-rt-22-dev)
installed=$(dpkg-query -W -f='${Status}\n' "${packages[@]}" 2>/dev/null |
            grep -c "install ok installed" || true)
if ((installed < ${#packages[@]})); then
  echo "sanitize: installing ${packages[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${packages[@]}"
fi

cmake -G Ninja -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DTILEC_SANITIZE=ON -DTILEC_FUZZ=ON >/dev/null
cmake --build build-sanitize -j "$(nproc)"
if [ "${1:-}" = --build-only ]; then
  exit 0
fi
ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)"
