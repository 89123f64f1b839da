"""Softmax of rows too long for one block (vocabulary-sized), in two sweeps: the first keeps
a per-lane running maximum and rescaled sum (online softmax), the second normalizes.

Inputs are fp16, statistics are fp32 and exponentials go through exp2 with the log2(e)
factor folded in, as fast attention-style code does.
"""
import torch
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)


@triton.jit
def online_softmax_kernel(x_ptr, y_ptr, stride_x, stride_y, n_cols, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row.to(tl.int64) * stride_x
    y_row = y_ptr + row.to(tl.int64) * stride_y
    offs = tl.arange(0, BLOCK_N)

    m_i = tl.full([BLOCK_N], value=float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + offs
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m_i, x)
        # lanes that have only seen -inf keep a zero sum instead of producing NaN
        alpha = tl.where(m_new == float("-inf"), 0.0, tl.math.exp2((m_i - m_new) * LOG2E))
        p = tl.where(m_new == float("-inf"), 0.0, tl.math.exp2((x - m_new) * LOG2E))
        l_i = l_i * alpha + p
        m_i = m_new

    m = tl.max(m_i, axis=0)
    l = tl.sum(l_i * tl.math.exp2((m_i - m) * LOG2E), axis=0)
    inv_l = 1.0 / l
    for start in range(0, n_cols, BLOCK_N):
        cols = start + offs
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        y = tl.math.exp2((x - m) * LOG2E) * inv_l
        tl.store(y_row + cols, y.to(y_ptr.dtype.element_ty), mask=cols < n_cols)


def softmax_long_rows(x: torch.Tensor, block_n: int = 2048) -> torch.Tensor:
    assert x.ndim == 2 and x.stride(1) == 1
    y = torch.empty_like(x)
    online_softmax_kernel[(x.shape[0],)](x, y, x.stride(0), y.stride(0), x.shape[1], BLOCK_N=block_n, num_warps=8)
    return y
