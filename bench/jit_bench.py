#!/usr/bin/env python3
"""Issue 10's measurements on the GPU machine, tilec beside Triton and PyTorch.

Runs build/bin/jit_bench (the C++ half: launch cost of raw cuLaunchKernel, the
launcher header, the checked runtime launch and the JIT's cached launch; the
JIT's cold and warm compile times per example; Triton's tutorial matmul
autotuned by the JIT at 4096 and 8192), then measures in this process:
  - Triton's and PyTorch's launch cost from Python, the same way (host time
    per launch, median over batches of back-to-back launches of an empty
    kernel with two pointers and an integer; PyTorch: torch.add on 1024
    floats);
  - Triton's cold compile (fresh TRITON_CACHE_DIR, first call to a loaded
    kernel) of the same example kernels;
  - Triton's tutorial matmul autotuned over the same eight configs at 4096
    and 8192 fp16 (triton.testing.do_bench, which flushes L2 too).
Writes jit_bench.json and jit_bench.md under --out and prints the table.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import triton
import triton.language as tl

MATMUL_CONFIGS = [  # Tutorial 03's CUDA configs (dsl_examples/matmul_autotune.tile).
    (128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
    (64, 128, 32, 4, 4), (128, 32, 32, 4, 4), (64, 32, 32, 5, 2), (32, 64, 32, 5, 2),
]


@triton.jit
def empty_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pass


@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k,
                            "GROUP_SIZE_M": 8}, num_stages=s, num_warps=w)
             for m, n, k, s, w in MATMUL_CONFIGS],
    key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BLOCK_SIZE_M: tl.constexpr,
                  BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def launch_us(launch, batches=60, per_batch=200):
    """Host microseconds per launch: median over batches, GPU drained between."""
    for _ in range(1000):
        launch()
    torch.cuda.synchronize()
    times = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(per_batch):
            launch()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        times.append((t1 - t0) / per_batch * 1e6)
    return statistics.median(times)


def python_launches():
    x = torch.zeros(1024, device="cuda")
    y = torch.zeros(1024, device="cuda")
    out = torch.empty(1024, device="cuda")
    grid = (1,)
    return {
        "triton": launch_us(lambda: empty_kernel[grid](x, y, 1024, BLOCK=128)),
        "pytorch_add": launch_us(lambda: torch.add(x, y, out=out)),
    }


COMPILE_SCRIPT = r'''
import sys, time, torch, triton, triton.language as tl
sys.path.insert(0, "bench")
import bench
case = sys.argv[1]
f32 = lambda *s: torch.randn(*s, device="cuda")
f16 = lambda *s: torch.randn(*s, device="cuda", dtype=torch.float16)
torch.cuda.synchronize()
t0 = time.perf_counter()
if case == "vector_add.tile":
    x = f32(4096); bench.add_kernel[(4,)](x, x, x, 4096, BLOCK_SIZE=1024)
elif case == "softmax.tile":
    x = f32(4, 1024); bench.softmax_kernel[(4,)](x, x, 1024, 1024, 4, 1024, BLOCK_SIZE=1024, num_warps=4)
elif case == "matmul.tile":
    a = f16(256, 256)
    bench.matmul_kernel[(2, 2)](a, a, a, 256, 256, 256, 256, 1, 256, 1, 256, 1, BLOCK_M=128,
                                BLOCK_N=128, BLOCK_K=32, GROUP_M=8, num_warps=8, num_stages=3)
torch.cuda.synchronize()
print((time.perf_counter() - t0) * 1000)
'''


def triton_compile_ms(case):
    """Triton's cold compile and load of one example kernel, in a fresh process
    and cache (the process's own start-up not counted)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, TRITON_CACHE_DIR=cache)
        cold = subprocess.run([sys.executable, "-c", COMPILE_SCRIPT, case], env=env,
                              capture_output=True, text=True)
        warm = subprocess.run([sys.executable, "-c", COMPILE_SCRIPT, case], env=env,
                              capture_output=True, text=True)
    if cold.returncode or warm.returncode:
        return {"error": (cold.stderr or warm.stderr)[-400:]}
    return {"cold": float(cold.stdout.split()[-1]), "warm": float(warm.stdout.split()[-1])}


def triton_matmul():
    rows = []
    for size in (4096, 8192):
        torch.manual_seed(size)
        a = torch.randn(size, size, device="cuda", dtype=torch.float16)
        b = torch.randn(size, size, device="cuda", dtype=torch.float16)
        c = torch.empty(size, size, device="cuda", dtype=torch.float16)
        grid = lambda META: (triton.cdiv(size, META["BLOCK_SIZE_M"]) *
                             triton.cdiv(size, META["BLOCK_SIZE_N"]),)
        run = lambda: matmul_kernel[grid](a, b, c, size, size, size, a.stride(0), a.stride(1),
                                          b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        t0 = time.perf_counter()
        run()
        torch.cuda.synchronize()
        tune_s = time.perf_counter() - t0
        ok = torch.allclose(c.float(), (a.float() @ b.float()), atol=0.5, rtol=1e-2)
        ms = triton.testing.do_bench(run)
        best = matmul_kernel.best_config
        cublas_ms = triton.testing.do_bench(lambda: torch.matmul(a, b, out=c))
        rows.append({"size": size, "ms": ms, "tflops": 2 * size ** 3 / ms / 1e9,
                     "config": str(best), "tune_s": tune_s, "checked": bool(ok),
                     "cublas_tflops": 2 * size ** 3 / cublas_ms / 1e9})
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--jit-bench", default="build/bin/jit_bench")
    args = parser.parse_args()
    ours_run = subprocess.run([args.jit_bench], capture_output=True, text=True)
    sys.stderr.write(ours_run.stderr)
    if ours_run.returncode:
        sys.exit(f"jit_bench failed ({ours_run.returncode}):\n{ours_run.stdout}")
    ours = json.loads(ours_run.stdout)
    theirs = {"launch_us": python_launches(),
              "compile_ms": {c: triton_compile_ms(c)
                             for c in ("vector_add.tile", "softmax.tile", "matmul.tile")},
              "matmul": triton_matmul()}
    result = {"device": ours["device"], "date": time.strftime("%Y-%m-%d"),
              "tilec": ours, "triton_pytorch": theirs}
    with open(os.path.join(args.out, "jit_bench.json"), "w") as f:
        json.dump(result, f, indent=2)

    lines = [f"# JIT, launch and compile measurements on {ours['device']}", "",
             "## Launch cost (host us per launch, empty kernel, 2 pointers + 1 int)", "",
             "| path | us |", "| --- | ---: |"]
    for name, us in list(ours["launch_us"].items()) + [
            (f"{k} (Python)", v) for k, v in theirs["launch_us"].items()]:
        lines.append(f"| {name} | {us:.2f} |")
    raw = ours["launch_us"]["raw_cuLaunchKernel"]
    jit = ours["launch_us"]["jit_cached"]
    lines += ["", f"JIT cached - raw: {jit - raw:.2f} us (bar: <= 1); JIT / Triton: "
              f"{jit / theirs['launch_us']['triton']:.3f} (bar: <= 0.25)", "",
              "## Compile time to a loaded module (ms)", "",
              "| kernel | tilec cold | tilec warm | Triton cold | Triton warm | tilec/Triton cold |",
              "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for case, t in ours["compile_ms"].items():
        tr = theirs["compile_ms"].get(case, {})
        ratio = f"{t['cold'] / tr['cold']:.3f}" if "cold" in tr else "-"
        lines.append(f"| {case} | {t['cold']:.0f} | {t['warm']:.1f} | "
                     f"{tr.get('cold', float('nan')):.0f} | {tr.get('warm', float('nan')):.0f} "
                     f"| {ratio} |")
    lines += ["", "## Tutorial matmul autotuned over the same 8 configs (fp16)", "",
              "| size | tilec TFLOP/s | config | Triton TFLOP/s | config | tilec/Triton | "
              "cuBLAS TFLOP/s | checked |", "| --- | ---: | --- | ---: | --- | ---: | ---: | --- |"]
    for o, t in zip(ours["matmul"], theirs["matmul"]):
        lines.append(f"| {o['size']} | {o['tflops']:.0f} | {o['config']} | {t['tflops']:.0f} | "
                     f"{t['config']} | {o['tflops'] / t['tflops']:.3f} | "
                     f"{t['cublas_tflops']:.0f} | {o['checked']} / {t['checked']} |")
    report = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "jit_bench.md"), "w") as f:
        f.write(report)
    print(report)


if __name__ == "__main__":
    main()
