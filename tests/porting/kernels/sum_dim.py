"""torch.sum(x, dim=1) for a contiguous (M, N, K) tensor viewed as M independent (N, K)
slices: each program owns BLOCK_K output columns of one slice and walks N in chunks,
accumulating a 2-D tile in fp32 and reducing it once at the end.

Written in the style of operator libraries: a launch-caching decorator of the project
sits above the autotuner, and the accumulation type is a constexpr dtype.
"""
import functools

import torch
import triton
import triton.language as tl


def libentry():
    """Stand-in for an operator library's launch cache decorator (no-op here)."""
    def decorator(fn):
        return fn
    return decorator


def cfggen():
    block_n = [16, 32, 64]
    block_k = [64, 128, 256]
    warps = [4, 8]
    return [triton.Config({"BLOCK_N": n, "BLOCK_K": k}, num_warps=w)
            for n in block_n for k in block_k for w in warps if n * k <= 8192]


@libentry()
@triton.autotune(configs=cfggen(), key=["M", "N", "K"])
@triton.jit
def sum_dim1_kernel(x_ptr, out_ptr, M, N, K, ACC_DTYPE: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_k = tl.program_id(0)
    pid_m = tl.program_id(1)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    x_slice = x_ptr + pid_m.to(tl.int64) * N * K
    acc = tl.zeros([BLOCK_N, BLOCK_K], dtype=ACC_DTYPE)
    for start in range(0, N, BLOCK_N):
        offs_n = start + tl.arange(0, BLOCK_N)
        mask = (offs_n[:, None] < N) & (offs_k[None, :] < K)
        x = tl.load(x_slice + offs_n[:, None] * K + offs_k[None, :], mask=mask, other=0.0)
        acc += x.to(ACC_DTYPE)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr + pid_m * K + offs_k, total.to(out_ptr.dtype.element_ty), mask=offs_k < K)


@functools.lru_cache
def _acc_dtype(torch_dtype):
    return tl.float64 if torch_dtype == torch.float64 else tl.float32


def sum_dim1(x: torch.Tensor) -> torch.Tensor:
    M, N, K = x.shape
    x = x.contiguous()
    out = torch.empty((M, K), dtype=x.dtype, device=x.device)
    grid = lambda meta: (triton.cdiv(K, meta["BLOCK_K"]), M)
    sum_dim1_kernel[grid](x, out, M, N, K, ACC_DTYPE=_acc_dtype(x.dtype))
    return out
