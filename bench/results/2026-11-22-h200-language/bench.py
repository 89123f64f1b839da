#!/usr/bin/env python3
"""tilec vs Triton vs PyTorch on the same GPU, in the same run.

Runs build/bin/tile_bench (tilec's kernels through the C++ runtime), then the
same algorithms written in Triton (with the block sizes and warps tilec's
kernels were compiled with, read from tile_bench's `config` lines) and the
PyTorch equivalents, on the same shapes. Every output is checked against a
reference. Timing: triton.testing.do_bench's median (it flushes the L2 cache
before each run; tile_bench does the same). Writes bench.md and bench.json.
Usage:
    python3 bench/bench.py [--out DIR] [sizes of the elementwise cases...]
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


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                   n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)


@triton.jit
def weighted_sum_fwd(x_ptr, weight_ptr, output_ptr, x_stride_row, x_stride_dim,
                     weight_stride_dim, output_stride_row, ROWS, D,
                     ROWS_TILE_SIZE: tl.constexpr, D_TILE_SIZE: tl.constexpr):
    row_tile_idx = tl.program_id(0)
    x_block_ptr = tl.make_block_ptr(
        x_ptr, shape=(ROWS, D), strides=(x_stride_row, x_stride_dim),
        offsets=(row_tile_idx * ROWS_TILE_SIZE, 0),
        block_shape=(ROWS_TILE_SIZE, D_TILE_SIZE), order=(1, 0))
    weight_block_ptr = tl.make_block_ptr(
        weight_ptr, shape=(D,), strides=(weight_stride_dim,), offsets=(0,),
        block_shape=(D_TILE_SIZE,), order=(0,))
    output_block_ptr = tl.make_block_ptr(
        output_ptr, shape=(ROWS,), strides=(output_stride_row,),
        offsets=(row_tile_idx * ROWS_TILE_SIZE,), block_shape=(ROWS_TILE_SIZE,),
        order=(0,))
    output = tl.zeros((ROWS_TILE_SIZE,), dtype=tl.float32)
    for i in range(tl.cdiv(D, D_TILE_SIZE)):
        row = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero")
        weight = tl.load(weight_block_ptr, boundary_check=(0,), padding_option="zero")
        output += tl.sum(row * weight[None, :], axis=1)
        x_block_ptr = x_block_ptr.advance((0, D_TILE_SIZE))
        weight_block_ptr = weight_block_ptr.advance((D_TILE_SIZE,))
    tl.store(output_block_ptr, output, boundary_check=(0,))


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                  stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_remaining = K - k * BLOCK_K
        a_mask = (offs_m[:, None] < M) & (offs_k[None, :] < k_remaining)
        b_mask = (offs_k[:, None] < k_remaining) & (offs_n[None, :] < N)
        a = tl.load(a_ptrs, mask=a_mask, other=0.0)
        b = tl.load(b_ptrs, mask=b_mask, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = accumulator.to(tl.float16)
    c_ptrs = c_ptr + stride_cm * offs_m[:, None] + stride_cn * offs_n[None, :]
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def median_ms(fn):
    return do_bench(fn, warmup=25, rep=200, return_mode="median")


def elementwise_cases(n):
    """(kernel, shape, bytes, {impl: (run, check)}) of add and GELU at n."""
    x = torch.rand(n, device="cuda") * 8 - 4
    y = torch.rand(n, device="cuda") * 8 - 4
    out = torch.empty_like(x)
    grid = (triton.cdiv(n, 1024),)

    def check_add(result):
        torch.testing.assert_close(result, x + y)

    def check_gelu(result):
        torch.testing.assert_close(
            result, torch.nn.functional.gelu(x.double(), approximate="tanh").float(),
            rtol=1e-5, atol=1e-5)

    def add_triton():
        add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
        return out

    def gelu_triton():
        gelu_kernel[grid](x, out, n, BLOCK_SIZE=1024)
        return out

    yield ("add_kernel", str(n), 12 * n, {
        "triton": (add_triton, check_add),
        "torch": (lambda: torch.add(x, y, out=out), check_add)})
    yield ("gelu_kernel", str(n), 8 * n, {
        "triton": (gelu_triton, check_gelu),
        "torch": (lambda: torch.nn.functional.gelu(x, approximate="tanh"), check_gelu)})


def softmax_cases(configs):
    for rows, cols in ((8192, 1024), (4096, 16384)):
        cfg = configs["softmax.ptx" if cols <= 1024 else "softmax_16384.ptx"]
        x = torch.rand(rows, cols, device="cuda") * 16 - 8
        out = torch.empty_like(x)
        ref = torch.softmax(x.double(), dim=1).float()

        def check(result, ref=ref):
            torch.testing.assert_close(result, ref, rtol=1e-5, atol=1e-9)

        def run(x=x, out=out, rows=rows, cols=cols, cfg=cfg):
            softmax_kernel[(rows,)](out, x, x.stride(0), out.stride(0), rows, cols,
                                    BLOCK_SIZE=cfg["BLOCK_SIZE"],
                                    num_warps=cfg["num_warps"])
            return out

        yield ("softmax", f"{rows}x{cols}", 2 * rows * cols * 4, {
            "triton": (run, check),
            "torch": (lambda x=x: torch.softmax(x, dim=1), check)})


def weighted_sum_cases(configs):
    cfg = configs["weighted_sum.ptx"]
    rows, d = 65536, 4096
    x = torch.rand(rows, d, device="cuda") * 2 - 1
    w = torch.rand(d, device="cuda") * 2 - 1
    out = torch.empty(rows, device="cuda")
    ref = (x.double() @ w.double()).float()
    scale = (x.double().abs() @ w.double().abs()).float()

    def check(result):
        err = (result - ref).abs()
        bad = int((~(err <= 1e-5 * scale)).sum())
        assert bad == 0, f"{bad} of {rows} rows out of tolerance"

    def run():
        tile_rows = cfg["ROWS_TILE_SIZE"]
        weighted_sum_fwd[(triton.cdiv(rows, tile_rows),)](
            x, w, out, x.stride(0), x.stride(1), w.stride(0), out.stride(0), rows, d,
            ROWS_TILE_SIZE=tile_rows, D_TILE_SIZE=cfg["D_TILE_SIZE"],
            num_warps=cfg["num_warps"])
        return out

    yield ("weighted_sum", f"{rows}x{d}", 4 * (rows * d + d + rows), {
        "triton": (run, check), "torch": (lambda: torch.mv(x, w), check)})


def matmul_cases(configs):
    cfg = configs["matmul.ptx"]
    for size in (2048, 4096, 8192):
        a = (torch.rand(size, size, device="cuda") * 2 - 1).half()
        b = (torch.rand(size, size, device="cuda") * 2 - 1).half()
        c = torch.empty(size, size, device="cuda", dtype=torch.float16)
        ref = (a.float() @ b.float())

        def check(result, ref=ref, size=size):
            atol = 1e-2 * (size ** 0.5) / 3
            torch.testing.assert_close(result.float(), ref, rtol=1e-2, atol=atol)

        def run(a=a, b=b, c=c, size=size):
            grid = (triton.cdiv(size, cfg["BLOCK_M"]), triton.cdiv(size, cfg["BLOCK_N"]))
            matmul_kernel[grid](a, b, c, size, size, size, a.stride(0), a.stride(1),
                                b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                BLOCK_M=cfg["BLOCK_M"], BLOCK_N=cfg["BLOCK_N"],
                                BLOCK_K=cfg["BLOCK_K"], num_warps=cfg["num_warps"],
                                num_stages=cfg.get("num_stages", 3))
            return c

        yield ("matmul", f"{size}x{size}x{size}", 2 * size ** 3, {
            "triton": (run, check), "torch": (lambda a=a, b=b: a @ b, check)})


def parse_tile_bench(stdout):
    """tilec's results {(kernel, shape): line fields}, configs and launch costs."""
    ours, configs, launch_us = {}, {}, {}
    for line in stdout.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "case":
            kernel, shape = parts[1], parts[2]
            if parts[3] == "error":
                ours[(kernel, shape)] = {"error": " ".join(parts[4:])}
            else:
                ours[(kernel, shape)] = {
                    "ms": float(parts[3]), "rate": float(parts[4]), "unit": parts[5],
                    "check": parts[6], "max_rel_err": float(parts[7])}
        elif parts[0] == "config":
            cfg = {"num_stages": 3}
            for item in parts[2:]:
                key, value = item.split("=")
                cfg[key] = int(value)
            configs[parts[1]] = cfg
        elif parts[0] == "launch_us":
            launch_us[parts[1]] = float(parts[2])
    return ours, configs, launch_us


# Used for Triton when tile_bench could not load a kernel (its PTX missing).
DEFAULT_CONFIGS = {
    "softmax.ptx": {"num_warps": 4, "BLOCK_SIZE": 1024},
    "softmax_16384.ptx": {"num_warps": 16, "BLOCK_SIZE": 16384},
    "weighted_sum.ptx": {"num_warps": 4, "ROWS_TILE_SIZE": 16, "D_TILE_SIZE": 256},
    "matmul.ptx": {"num_warps": 8, "num_stages": 3, "BLOCK_M": 128, "BLOCK_N": 128,
                   "BLOCK_K": 32},
}


def measure(run, check, nbytes_or_flops, flops):
    """(rate, status) of one implementation: checked once, then timed."""
    try:
        check(run())
        torch.cuda.synchronize()
    except Exception as e:  # A wrong result is reported, not timed.
        return None, f"FAILED: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
    ms = median_ms(run)
    return (nbytes_or_flops / ms / 1e9 if flops else nbytes_or_flops / ms / 1e6), "ok"


def fmt(value, digits=0):
    return "-" if value is None else f"{value:.{digits}f}"


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
    ours, configs, launch_us = parse_tile_bench(tile.stdout)
    if not ours:
        sys.exit(f"tile_bench failed with exit code {tile.returncode}")
    for name, cfg in DEFAULT_CONFIGS.items():
        configs.setdefault(name, cfg)

    device = torch.cuda.get_device_name()
    generators = [elementwise_cases(n) for n in args.sizes] + [
        softmax_cases(configs), weighted_sum_cases(configs), matmul_cases(configs)]
    rows, failed = [], tile.returncode != 0
    for generator in generators:
        for kernel, shape, work, impls in generator:
            flops = kernel == "matmul"
            mine = ours.get((kernel, shape), {"error": "not run by tile_bench"})
            row = {"kernel": kernel, "shape": shape,
                   "unit": "TFLOP/s" if flops else "GB/s",
                   "tilec": mine.get("rate"),
                   "tilec_status": mine.get("check", mine.get("error"))}
            for impl, (run, check) in impls.items():
                row[impl], row[impl + "_status"] = measure(run, check, work, flops)
                failed |= row[impl + "_status"] != "ok"
            failed |= row["tilec_status"] != "ok"
            for impl in ("triton", "torch"):
                row[f"tilec_over_{impl}"] = (
                    row["tilec"] / row[impl]
                    if row["tilec"] and row[impl] and row["tilec_status"] == "ok" else None)
            rows.append(row)
            print(json.dumps(row), flush=True)
            torch.cuda.empty_cache()

    lines = [
        f"# tilec vs Triton {triton.__version__} vs PyTorch {torch.__version__}",
        f"device: {device}; date: {datetime.date.today().isoformat()}",
        "",
        "Medians of event-timed runs, each after an L2 flush (do_bench's method for "
        "Triton and PyTorch, the same in tile_bench). Every output checked first.",
        "",
        "| kernel | shape | unit | tilec | Triton | PyTorch | tilec/Triton | "
        "tilec/PyTorch | checks (tilec, Triton, PyTorch) |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        digits = 1 if r["unit"] == "TFLOP/s" else 0
        lines.append(
            f"| {r['kernel']} | {r['shape']} | {r['unit']} | {fmt(r['tilec'], digits)} | "
            f"{fmt(r['triton'], digits)} | {fmt(r['torch'], digits)} | "
            f"{fmt(r['tilec_over_triton'], 3)} | {fmt(r['tilec_over_torch'], 3)} | "
            f"{r['tilec_status']}, {r['triton_status']}, {r['torch_status']} |")
    lines.append("")
    lines.append("tilec host cost of one launch call (us): " +
                 ", ".join(f"{k} {v:.2f}" for k, v in launch_us.items()))
    lines.append("")
    lines.append("tilec kernel configurations (Triton ran with the same): " +
                 "; ".join(f"{k} " + " ".join(f"{a}={b}" for a, b in v.items())
                           for k, v in sorted(configs.items())))
    report = "\n".join(lines)
    print(report)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "bench.md"), "w") as f:
        f.write(report + "\n")
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump({"device": device, "date": datetime.date.today().isoformat(),
                   "triton": triton.__version__, "torch": torch.__version__,
                   "rows": rows, "launch_us": launch_us, "configs": configs},
                  f, indent=2)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
