"""Launches one of bench.py's memory-bound Triton kernels a few times at one
size, for ncu to profile beside tilec's (bench/ncu_memory_bound.sh), and
prints the compiled kernel's registers and spills.

Usage: python3 bench/ncu_memory_bound.py layer_norm_fp16 N | weighted_sum D
"""
import sys

import torch

import bench


def main():
    kernel, size = sys.argv[1], int(sys.argv[2])
    if kernel == "layer_norm_fp16":
        rows, block = 4096, bench.row_block(size, 1024)
        x = (-2.3 + 0.5 * torch.randn(rows, size, device="cuda")).half()
        w = torch.rand(size, device="cuda").half()
        b = torch.rand(size, device="cuda").half()
        y = torch.empty_like(x)
        mean = torch.empty(rows, device="cuda")
        rstd = torch.empty(rows, device="cuda")

        def launch():
            return bench.layer_norm_fp16_kernel[(rows,)](
                x, y, w, b, mean, rstd, x.stride(0), size, 1e-5, BLOCK_SIZE=block,
                num_warps=min(max(block // 256, 1), 8))
    else:
        rows = 65536
        x = torch.rand(rows, size, device="cuda") * 2 - 1
        w = torch.rand(size, device="cuda") * 2 - 1
        out = torch.empty(rows, device="cuda")

        def launch():
            return bench.weighted_sum_fwd[(rows // 16,)](
                x, w, out, x.stride(0), x.stride(1), w.stride(0), out.stride(0), rows,
                size, ROWS_TILE_SIZE=16, D_TILE_SIZE=256, num_warps=4)
    for _ in range(3):
        compiled = launch()
    torch.cuda.synchronize()
    print(f"triton {kernel} {size}: {compiled.n_regs} registers, "
          f"{compiled.n_spills} spills")


if __name__ == "__main__":
    main()
