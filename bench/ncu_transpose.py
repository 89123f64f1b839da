"""Launches bench.py's Triton transpose (the twin of tilec's
bench/kernels/memory_bound.tile) on 4096x4096 fp32 and fp16, for
bench/ncu_bank_conflicts.sh to count shared-memory bank conflicts."""
import torch
import triton

import bench


def main():
    n = 4096
    for dtype in (torch.float32, torch.float16):
        x = (torch.rand(n, n, device="cuda") * 2 - 1).to(dtype)
        y = torch.empty_like(x)
        grid = (triton.cdiv(n, 64), triton.cdiv(n, 64))
        bench.transpose_kernel[grid](x, y, n, n, x.stride(0), y.stride(0),
                                     BLOCK_M=64, BLOCK_N=64, num_warps=4)
        torch.cuda.synchronize()
        assert torch.equal(y, x.t().contiguous())


if __name__ == "__main__":
    main()
