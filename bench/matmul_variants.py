"""Times matmul variants of tilec beside Triton with the same configuration
and cuBLAS, in one run (tensor-core work: build every variant here, compare
them all in one device call).

Each directory under --variants holds a matmul_d16.ptx (+ matmul_d16.json) built from
a matmul_kernel (A [M, K] @ B [K, N], fp16, fp32 accumulation); tile_bench
times it (TILE_BENCH_ONLY=matmul, after copying it over the benchmark's
matmul_d16.ptx),
then Triton's tutorial matmul (bench.py's matmul_kernel) runs with the
variant's BLOCK_M/N/K, num_warps and num_stages, and torch.matmul.
Prints one line per variant and size; writes variants.md to --out.
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(__file__))
import bench  # noqa: E402  (Triton's kernels and the timing method)

SIZES = (4096, 8192)


def tilec_rates(tile_bench, variant, examples):
    """{size: (TFLOP/s, status)} of tile_bench's fp16 matmul for one variant."""
    backup = {}
    for name in ("matmul_d16.ptx", "matmul_d16.json"):
        backup[name] = (examples / name).read_bytes()
        shutil.copy(variant / name, examples / name)
    try:
        out = subprocess.run([tile_bench], capture_output=True, text=True,
                             env=dict(os.environ, TILE_BENCH_ONLY="matmul"))
    finally:
        for name, data in backup.items():
            (examples / name).write_bytes(data)
    rates = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if parts[:2] == ["case", "matmul"]:
            size = int(parts[2].split("x")[0])
            if parts[3] == "error":
                rates[size] = (None, " ".join(parts[4:]))
            else:
                rates[size] = (float(parts[4]), parts[6])
    return rates, out.stdout + out.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--variants", default="build/variants")
    parser.add_argument("--tile-bench", default="build/bin/tile_bench")
    parser.add_argument("--examples", default="build/dsl_examples")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    device = torch.cuda.get_device_name()
    lines = [f"# matmul variants, fp16, {device}", "",
             "| variant | config | size | tilec | Triton same config | cuBLAS | "
             "tilec/Triton | tilec/cuBLAS | check |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    cublas = {}
    for size in SIZES:
        a = torch.randn(size, size, device="cuda", dtype=torch.float16)
        b = torch.randn(size, size, device="cuda", dtype=torch.float16)
        cublas[size] = 2 * size ** 3 / bench.median_ms(lambda: torch.matmul(a, b)) / 1e9
    for variant in sorted(pathlib.Path(args.variants).iterdir()):
        meta = json.loads((variant / "matmul_d16.json").read_text())
        kernel = next(k for k in meta["kernels"] if k["name"] == "matmul_kernel")
        cfg = {k: v for k, v in kernel["constexprs"].items()}
        cfg["num_warps"] = kernel["num_warps"]
        cfg["num_stages"] = kernel.get("num_stages", 3)
        rates, log = tilec_rates(args.tile_bench, variant, pathlib.Path(args.examples))
        if not rates:
            print(log)
        for size in SIZES:
            a = (torch.rand(size, size, device="cuda") * 2 - 1).half()
            b = (torch.rand(size, size, device="cuda") * 2 - 1).half()
            c = torch.empty(size, size, device="cuda", dtype=torch.float16)

            def run(a=a, b=b, c=c, size=size):
                grid = (triton.cdiv(size, cfg["BLOCK_M"]), triton.cdiv(size, cfg["BLOCK_N"]))
                bench.matmul_kernel[grid](
                    a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0),
                    b.stride(1), c.stride(0), c.stride(1), BLOCK_M=cfg["BLOCK_M"],
                    BLOCK_N=cfg["BLOCK_N"], BLOCK_K=cfg["BLOCK_K"],
                    GROUP_M=cfg.get("GROUP_M", 1), num_warps=cfg["num_warps"],
                    num_stages=cfg["num_stages"])
            try:
                run()
                tri = 2 * size ** 3 / bench.median_ms(run) / 1e9
            except Exception as e:  # out of resources: reported, not timed
                tri = None
                print(f"triton {variant.name}: {str(e).splitlines()[0]}")
            mine, status = rates.get(size, (None, "not run"))
            desc = (f"{cfg['BLOCK_M']}x{cfg['BLOCK_N']}x{cfg['BLOCK_K']} "
                    f"w{cfg['num_warps']} s{cfg['num_stages']} g{cfg.get('GROUP_M', 1)}")
            ratio = f"{mine / tri:.3f}" if mine and tri else "-"
            ratio_cublas = f"{mine / cublas[size]:.3f}" if mine else "-"
            line = (f"| {variant.name} | {desc} | {size} | {bench.fmt(mine, 1)} | "
                    f"{bench.fmt(tri, 1)} | {cublas[size]:.1f} | {ratio} | "
                    f"{ratio_cublas} | {status} |")
            print(line, flush=True)
            lines.append(line)
    pathlib.Path(args.out, "variants.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
