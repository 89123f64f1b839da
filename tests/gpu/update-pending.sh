#!/usr/bin/env bash
# Rewrites kernels/PENDING: the modules of kernels/KERNELS that tilec cannot
# compile yet, each with tilec's first error. CMake builds every other one.
# Usage: tests/gpu/update-pending.sh [path/to/tilec]   (default build/bin/tilec)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tilec=${1:-$here/../../build/bin/tilec}
if ! "$tilec" --version >/dev/null 2>&1; then
  echo "$tilec does not run (being rebuilt?); PENDING left as it is" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$here/kernels/PENDING
{
  echo "# GPU test modules that tilec cannot compile yet (not built; their tests"
  echo "# fail saying so). Regenerate with tests/gpu/update-pending.sh."
  while read -r ptx file kernel flags; do
    [[ -z "$ptx" || "$ptx" == \#* ]] && continue
    # The flags are split as a shell (and CMake's UNIX_COMMAND) would.
    eval "args=($flags)"
    if ! "$tilec" "$here/kernels/$file.tile" --kernel "$kernel" "${args[@]}" \
        -o "$tmp/$ptx.ptx" >"$tmp/log" 2>&1; then
      reason=$(grep -m1 'error:' "$tmp/log" | sed 's/.*error: //')
      echo "$ptx  # ${reason:-$(head -c 200 "$tmp/log")}"
    fi
  done <"$here/kernels/KERNELS"
} >"$out.new"
mv "$out.new" "$out"
echo "$(grep -vc '^#' "$out" || true) of $(grep -vc '^#' "$here/kernels/KERNELS") modules pending; see $out"
