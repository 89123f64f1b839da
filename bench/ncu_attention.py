"""Launches bench.py's Triton flash-attention kernel (the tutorial's
algorithm) a few times on one configuration, for ncu to profile beside
tilec's kernel (bench/ncu_attention.sh).

Usage: python3 bench/ncu_attention.py HEAD_DIM CAUSAL BLOCK_M BLOCK_N WARPS STAGES
"""
import sys

import torch

import bench


def main():
    head_dim, causal, block_m, block_n, warps, stages = sys.argv[1:7]
    head_dim, block_m, block_n = int(head_dim), int(block_m), int(block_n)
    batch, heads, seq = 4, 32, 4096
    shape = (batch, heads, seq, head_dim)
    q, k, v = ((torch.rand(shape, device="cuda") * 2 - 1).half() for _ in range(3))
    out = torch.empty_like(q)
    for _ in range(3):
        bench.attention_fwd_kernel[(seq // block_m, batch * heads)](
            q, k, v, out, seq, head_dim ** -0.5 * bench.LOG2E, HEAD_DIM=head_dim,
            BLOCK_M=block_m, BLOCK_N=block_n, CAUSAL=causal == "True",
            num_warps=int(warps), num_stages=int(stages))
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
