#!/usr/bin/env bash
# The main job: compile dsl_examples/vector_add.tile to PTX, saving the IR of
# every stage, then launch it through the runtime when a GPU is present.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh

out=build/example
echo "== tilec dsl_examples/vector_add.tile -o $out/vector_add.ptx --dump-stages $out/stages"
build/bin/tilec dsl_examples/vector_add.tile -o "$out/vector_add.ptx" --dump-stages "$out/stages"
echo "PTX: $out/vector_add.ptx; metadata: $out/vector_add.json"

echo "== vector_add --ptx $out/vector_add.ptx --n 98432"
status=0
build/bin/vector_add --ptx "$out/vector_add.ptx" --n 98432 || status=$?
if [ "$status" -eq 77 ]; then
  echo "(no GPU here: the PTX above was emitted but not launched)"
  exit 0
fi
exit "$status"
