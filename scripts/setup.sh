#!/usr/bin/env bash
# Installs what tilec needs from Debian 12's packages (only what is missing),
# then configures and builds into build/. Sourced by run-example.sh and
# test.sh; safe to run again (incremental).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(cmake ninja-build g++ python3 ccache pkg-config libdlpack-dev
          llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          libgtest-dev googletest zlib1g-dev libzstd-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi

cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
