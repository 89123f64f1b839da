#!/usr/bin/env bash
# On the GPU machine: unpacks devpack/ (bench/pack_jit_device.sh) into build/.
set -euo pipefail
mkdir -p build/bin
tar -xJf devpack/data.tar.xz
for f in devpack/*.xz; do
  [ "$f" = devpack/data.tar.xz ] && continue
  p=$(basename "$f" .xz)
  xz -dc "$f" >build/bin/$p && chmod +x build/bin/$p
done
