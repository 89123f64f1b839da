"""Elementwise clean-up ops that show up in training loops: torch.nan_to_num followed by a
clamp (gradient sanitizing), and masked_fill with a boolean mask tensor (attention masks).
"""
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def nan_to_num_clamp_kernel(x_ptr, out_ptr, n_elements, nan_value, posinf_value, neginf_value,
                            lo, hi, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    x = tl.where(libdevice.isnan(x), nan_value, x)
    x = tl.where(x == float("inf"), posinf_value, x)
    x = tl.where(x == float("-inf"), neginf_value, x)
    x = tl.clamp(x, lo, hi)
    tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def masked_fill_kernel(x_ptr, mask_ptr, out_ptr, n_rows, n_cols, stride_x, stride_mask, value,
                       BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    in_row = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=in_row)
    fill = tl.load(mask_ptr + row * stride_mask + cols, mask=in_row, other=False)
    tl.store(out_ptr + row * stride_x + cols, tl.where(fill, value, x), mask=in_row)


def nan_to_num_clamp(x, nan=0.0, posinf=65504.0, neginf=-65504.0, lo=-1.0e4, hi=1.0e4):
    out = torch.empty_like(x)
    n = x.numel()
    nan_to_num_clamp_kernel[(triton.cdiv(n, 4096),)](x, out, n, nan, posinf, neginf, lo, hi,
                                                     BLOCK_SIZE=4096, num_warps=8)
    return out


def masked_fill(x: torch.Tensor, mask: torch.Tensor, value: float) -> torch.Tensor:
    assert mask.dtype == torch.bool and mask.shape == x.shape
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    grid = (n_rows, triton.cdiv(n_cols, 1024))
    masked_fill_kernel[grid](x, mask, out, n_rows, n_cols, x.stride(0), mask.stride(0), value, BLOCK_N=1024)
    return out
