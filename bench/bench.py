#!/usr/bin/env python3
"""tilec vs Triton vs PyTorch on the same GPU, in the same run.

Runs build/bin/tile_bench (tilec's kernels through the C++ runtime), then the
same kernels written in Triton and the PyTorch equivalents, on the same
sizes, and prints GB/s and the ratios to Triton. Usage:
    python3 bench/bench.py [--out DIR] [sizes...]
"""
import argparse
import datetime
import json
import os
import subprocess
import sys

import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0
    tl.store(out_ptr + offsets, 0.5 * x * (1.0 + t), mask=mask)


def gbps(nbytes, ms):
    return nbytes / ms / 1e6


def bench_triton_torch(n):
    """GB/s of Triton's and PyTorch's add and GELU at size n."""
    x = torch.rand(n, device="cuda") * 8 - 4
    y = torch.rand(n, device="cuda") * 8 - 4
    out = torch.empty_like(x)
    grid = (triton.cdiv(n, 1024),)
    results = {}

    def run_add():
        add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)

    def run_gelu():
        gelu_kernel[grid](x, out, n, BLOCK_SIZE=1024)

    run_add()
    torch.testing.assert_close(out, x + y)
    run_gelu()
    torch.testing.assert_close(
        out, torch.nn.functional.gelu(x, approximate="tanh"), rtol=1e-5, atol=1e-5)
    results["add_kernel"] = {
        "triton": gbps(12 * n, do_bench(run_add, warmup=25, rep=200, return_mode="median")),
        "torch": gbps(12 * n, do_bench(lambda: torch.add(x, y, out=out), warmup=25, rep=200,
                                        return_mode="median")),
    }
    results["gelu_kernel"] = {
        "triton": gbps(8 * n, do_bench(run_gelu, warmup=25, rep=200, return_mode="median")),
        "torch": gbps(8 * n, do_bench(
            lambda: torch.nn.functional.gelu(x, approximate="tanh"), warmup=25, rep=200,
            return_mode="median")),
    }
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--tile-bench", default="build/bin/tile_bench")
    parser.add_argument("sizes", nargs="*", type=int,
                        default=[1 << 20, 1 << 24, 1 << 28])
    args = parser.parse_args()

    tile = subprocess.run([args.tile_bench] + [str(s) for s in args.sizes],
                          capture_output=True, text=True)
    sys.stdout.write(tile.stdout)
    sys.stderr.write(tile.stderr)
    if tile.returncode != 0:
        sys.exit(f"tile_bench failed with exit code {tile.returncode}")
    ours, launch_us = {}, {}
    for line in tile.stdout.splitlines():
        parts = line.split()
        if parts[0] == "launch_us":
            launch_us[parts[1]] = float(parts[2])
        elif parts[0] in ("add_kernel", "gelu_kernel"):
            ours[(parts[0], int(parts[1]))] = float(parts[3])

    device = torch.cuda.get_device_name()
    rows = []
    for n in args.sizes:
        theirs = bench_triton_torch(n)
        for kernel, results in theirs.items():
            rows.append({
                "kernel": kernel, "n": n, "tilec_gbps": ours[(kernel, n)],
                "triton_gbps": results["triton"], "torch_gbps": results["torch"],
                "tilec_over_triton": ours[(kernel, n)] / results["triton"],
                "tilec_over_torch": ours[(kernel, n)] / results["torch"],
            })

    lines = [
        f"# tilec vs Triton {triton.__version__} vs PyTorch {torch.__version__}",
        f"device: {device}; date: {datetime.date.today().isoformat()}",
        "",
        "| kernel | n | tilec GB/s | Triton GB/s | PyTorch GB/s | tilec/Triton | tilec/PyTorch |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['kernel']} | {r['n']} | {r['tilec_gbps']:.0f} | {r['triton_gbps']:.0f} | "
            f"{r['torch_gbps']:.0f} | {r['tilec_over_triton']:.3f} | {r['tilec_over_torch']:.3f} |")
    lines.append("")
    lines.append("tilec host cost of one launch call (us): " +
                 ", ".join(f"{k} {v:.2f}" for k, v in launch_us.items()))
    report = "\n".join(lines)
    print(report)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "bench.md"), "w") as f:
        f.write(report + "\n")
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump({"device": device, "date": datetime.date.today().isoformat(),
                   "triton": triton.__version__, "torch": torch.__version__,
                   "rows": rows, "launch_us": launch_us}, f, indent=2)


if __name__ == "__main__":
    main()
