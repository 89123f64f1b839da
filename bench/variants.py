"""Times configurations (variants) of tilec's tensor-core kernels beside
Triton running the same configuration, in one run (tensor-core work: build
every variant here, compare them all in one device call).

Each directory under --variants holds benchmark kernels built with one
configuration: matmul_d16.ptx (a matmul_kernel, fp16 A [M, K] @ B [K, N])
and/or attention*.ptx (attention_fwd, named as tile_bench's attention cases:
attention_d64, attention_causal, attention_d128, attention_d128_causal), each
with its .json. tile_bench times them (copied over the benchmark's files,
TILE_BENCH_ONLY restricted to those cases, its own checks), then Triton's
kernels from bench.py run with the variant's block sizes, num_warps and
num_stages on the same shapes; matmul also beside cuBLAS. Prints one line per
case; writes variants.md to --out.
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

MATMUL_SIZES = (4096, 8192)
ATTENTION_SHAPE = (4, 32, 4096)  # batch, heads, sequence


def tilec_rates(tile_bench, variant, examples, kernels):
    """{(kernel, shape): (TFLOP/s, status)} of tile_bench for one variant's
    files, and tile_bench's output."""
    backup = {}
    for path in variant.iterdir():
        target = examples / path.name
        backup[target] = target.read_bytes() if target.exists() else None
        shutil.copy(path, target)
    try:
        out = subprocess.run([tile_bench], capture_output=True, text=True,
                             env=dict(os.environ, TILE_BENCH_ONLY=",".join(kernels)))
    finally:
        for target, data in backup.items():
            if data is None:
                target.unlink()
            else:
                target.write_bytes(data)
    rates = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["case"]:
            if parts[3] == "error":
                rates[(parts[1], parts[2])] = (None, " ".join(parts[4:]))
            else:
                rates[(parts[1], parts[2])] = (float(parts[4]), parts[6])
    return rates, out.stdout + out.stderr


def kernel_config(meta_path, name):
    """The constexprs, num_warps and num_stages of kernel `name`."""
    meta = json.loads(meta_path.read_text())
    kernel = next(k for k in meta["kernels"] if k["name"] == name)
    cfg = dict(kernel["constexprs"])
    cfg["num_warps"] = kernel["num_warps"]
    cfg["num_stages"] = kernel.get("num_stages", 3)
    return cfg


def timed_tflops(flops, run, label):
    """TFLOP/s of run (median), or None when Triton cannot run it."""
    try:
        run()
        return flops / bench.median_ms(run) / 1e9
    except Exception as e:  # out of resources: reported, not timed
        print(f"triton {label}: {str(e).splitlines()[0]}")
        return None


def matmul_cases(variant):
    """(kernel, shape, description, Triton TFLOP/s, cuBLAS TFLOP/s) of the
    variant's matmul_d16.ptx."""
    cfg = kernel_config(variant / "matmul_d16.json", "matmul_kernel")
    desc = (f"{cfg['BLOCK_M']}x{cfg['BLOCK_N']}x{cfg['BLOCK_K']} "
            f"w{cfg['num_warps']} s{cfg['num_stages']} g{cfg.get('GROUP_M', 1)}")
    for size in MATMUL_SIZES:
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
        flops = 2 * size ** 3
        tri = timed_tflops(flops, run, f"{variant.name} matmul {size}")
        cublas = flops / bench.median_ms(lambda: torch.matmul(a, b)) / 1e9
        yield "matmul", f"{size}x{size}x{size}", desc, tri, cublas


def attention_cases(variant):
    """(kernel, shape, description, Triton TFLOP/s, None) of the variant's
    attention*.ptx."""
    batch, heads, seq = ATTENTION_SHAPE
    for meta in sorted(variant.glob("attention*.json")):
        cfg = kernel_config(meta, "attention_fwd")
        head_dim, causal = cfg["HEAD_DIM"], bool(cfg["CAUSAL"])
        desc = (f"{cfg['BLOCK_M']}x{cfg['BLOCK_N']} w{cfg['num_warps']} "
                f"s{cfg['num_stages']}")
        shape = (batch, heads, seq, head_dim)
        q, k, v = ((torch.rand(shape, device="cuda") * 2 - 1).half() for _ in range(3))
        out = torch.empty_like(q)

        def run(q=q, k=k, v=v, out=out, cfg=cfg, head_dim=head_dim, causal=causal):
            bench.attention_fwd_kernel[(seq // cfg["BLOCK_M"], batch * heads)](
                q, k, v, out, seq, head_dim ** -0.5 * bench.LOG2E, HEAD_DIM=head_dim,
                BLOCK_M=cfg["BLOCK_M"], BLOCK_N=cfg["BLOCK_N"], CAUSAL=causal,
                num_warps=cfg["num_warps"], num_stages=cfg["num_stages"])
        flops = 4 * batch * heads * seq * seq * head_dim // (2 if causal else 1)
        tri = timed_tflops(flops, run, f"{variant.name} {meta.stem}")
        yield meta.stem, "x".join(map(str, shape)), desc, tri, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--variants", default="build/variants")
    parser.add_argument("--tile-bench", default="build/bin/tile_bench")
    parser.add_argument("--examples", default="build/dsl_examples")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    device = torch.cuda.get_device_name()
    lines = [f"# tensor-core variants, {device}", "",
             "TFLOP/s; Triton runs each variant's configuration on the same shapes.", "",
             "| variant | kernel | config | shape | tilec | Triton same config | "
             "cuBLAS | tilec/Triton | tilec/cuBLAS | check |",
             "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for variant in sorted(pathlib.Path(args.variants).iterdir()):
        kernels = ["attention_d64", "attention_causal", "attention_d128",
                   "attention_d128_causal"]
        kernels = [k for k in kernels if (variant / f"{k}.ptx").exists()]
        if (variant / "matmul_d16.ptx").exists():
            kernels.append("matmul")
        rates, log = tilec_rates(args.tile_bench, variant,
                                 pathlib.Path(args.examples), kernels)
        if not rates:
            print(log)
        cases = []
        if (variant / "matmul_d16.ptx").exists():
            cases += matmul_cases(variant)
        cases += attention_cases(variant)
        for kernel, shape, desc, tri, cublas in cases:
            mine, status = rates.get((kernel, shape), (None, "not run"))
            ratio = f"{mine / tri:.3f}" if mine and tri else "-"
            ratio_cublas = f"{mine / cublas:.3f}" if mine and cublas else "-"
            line = (f"| {variant.name} | {kernel} | {desc} | {shape} | "
                    f"{bench.fmt(mine, 1)} | {bench.fmt(tri, 1)} | "
                    f"{bench.fmt(cublas, 1)} | {ratio} | {ratio_cublas} | {status} |")
            print(line, flush=True)
            lines.append(line)
    pathlib.Path(args.out, "variants.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
