"""Residual add fused with RMSNorm, as inference engines run it between decoder layers:
residual <- residual + x (written back in place), out <- rmsnorm(residual) * weight.

Hidden sizes can exceed one block, so the row is walked in chunks twice: the first pass
updates the residual and accumulates the sum of squares, the second normalizes.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def fused_add_rms_norm_kernel(
    out_ptr,
    x_ptr,
    residual_ptr,
    weight_ptr,
    stride_row,
    hidden_size,
    eps,
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0)
    row_off = row.to(tl.int64) * stride_row
    x_row = x_ptr + row_off
    res_row = residual_ptr + row_off
    out_row = out_ptr + row_off

    sum_sq = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, hidden_size, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < hidden_size
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        r = tl.load(res_row + cols, mask=mask, other=0.0)
        r = (r.to(tl.float32) + x.to(tl.float32)).to(residual_ptr.dtype.element_ty)
        tl.store(res_row + cols, r, mask=mask)
        rf = r.to(tl.float32)
        sum_sq += rf * rf

    variance = tl.sum(sum_sq, axis=0) / hidden_size
    inv_rms = tl.rsqrt(variance + eps)

    for off in range(0, hidden_size, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < hidden_size
        r = tl.load(res_row + cols, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
        w = tl.load(weight_ptr + cols, mask=mask, other=0.0)
        y = (r * inv_rms).to(w.dtype) * w
        tl.store(out_row + cols, y, mask=mask)


def fused_add_rms_norm(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6):
    hidden = x.shape[-1]
    x2 = x.view(-1, hidden)
    r2 = residual.view(-1, hidden)
    out = torch.empty_like(x2)
    block = min(triton.next_power_of_2(hidden), 1024)
    fused_add_rms_norm_kernel[(x2.shape[0],)](out, x2, r2, weight, x2.stride(0), hidden, eps, BLOCK_SIZE=block)
    return out.view_as(x), residual
