#!/usr/bin/env bash
# Times variants of the benchmark's PTX in one device run: for each VARIANT
# folder, its .ptx files and their metadata (.json, with the variant's
# ptx_hash) replace build/dsl_examples' files of the same names
# for one `bench.py --sweep --only KERNELS` (Triton and PyTorch timed again in
# the same run, so every ratio compares one run), then the originals come
# back. "base" (the carried PTX unchanged) runs first. Results in
# $OUT/<variant>/sweep.md and sweep.json; the console gets each variant's
# rows and geometric mean.
# Usage (on the device): OUT=... bash bench/compare_ptx_variants.sh KERNELS VARIANT_DIR...
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
kernels=$1
shift
ptx_dir=build/dsl_examples
saved=$(mktemp -d)
cp "$ptx_dir"/*.ptx "$ptx_dir"/*.json "$saved"/
status=0
for variant in base "$@"; do
  name=$(basename "$variant")
  if [ "$variant" != base ]; then
    cp "$variant"/*.ptx "$variant"/*.json "$ptx_dir"/
  fi
  echo "== $name: $(cd "$variant" 2>/dev/null && ls ./*.ptx 2>/dev/null | tr '\n' ' ')"
  PYTHONUNBUFFERED=1 timeout 300 python3 bench/bench.py --sweep --only "$kernels" \
    --out "$OUT/$name" >"$OUT/$name.log" 2>&1 || status=1
  grep -E "^\| ($(echo "$kernels" | tr , '|')) " "$OUT/$name.log" |
    awk -F'|' '{print $3, $4, $5, $7}'
  python3 - "$OUT/$name/sweep.json" <<'EOF'
import json, math, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r.get("tilec_over_triton")]
logs = [math.log(r["tilec_over_triton"]) for r in rows]
worst = min(rows, key=lambda r: r["tilec_over_triton"])
print(f"geomean over Triton {math.exp(sum(logs) / len(logs)):.3f} in {len(rows)} cases;"
      f" worst {worst['shape']} {worst['tilec_over_triton']:.3f}")
EOF
  cp "$saved"/* "$ptx_dir"/
done
rm -rf "$saved"
exit $status
