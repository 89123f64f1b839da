"""Prefix scans along the last dimension of a 2-D tensor, one row per program.

row_cumsum_kernel is torch.cumsum for rows that fit a block. linear_recurrence_kernel
evaluates h[t] = a[t] * h[t-1] + x[t] (h[-1] = 0), the first-order recurrence behind
gated linear RNNs and state-space layers, as an associative scan over (a, x) pairs.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def row_cumsum_kernel(x_ptr, y_ptr, stride_row, n_cols, REVERSE: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0)
    y = tl.cumsum(x.to(tl.float32), axis=0, reverse=REVERSE)
    tl.store(y_ptr + row * stride_row + cols, y, mask=mask)


@triton.jit
def _first_order_combine(a_left, x_left, a_right, x_right):
    # composing h -> a_l*h + x_l, then h -> a_r*h + x_r
    return a_right * a_left, a_right * x_left + x_right


@triton.jit
def linear_recurrence_kernel(a_ptr, x_ptr, h_ptr, stride_row, seq_len, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < seq_len
    base = row.to(tl.int64) * stride_row
    a = tl.load(a_ptr + base + offs, mask=mask, other=1.0).to(tl.float32)
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    _, h = tl.associative_scan((a, x), axis=0, combine_fn=_first_order_combine)
    tl.store(h_ptr + base + offs, h.to(h_ptr.dtype.element_ty), mask=mask)


def row_cumsum(x: torch.Tensor, reverse: bool = False) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x, dtype=torch.float32)
    row_cumsum_kernel[(n_rows,)](x, y, x.stride(0), n_cols, REVERSE=reverse, BLOCK=triton.next_power_of_2(n_cols))
    return y


def linear_recurrence(a: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    n_rows, seq_len = x.shape
    h = torch.empty_like(x)
    block = triton.next_power_of_2(seq_len)
    linear_recurrence_kernel[(n_rows,)](a, x, h, x.stride(0), seq_len, BLOCK=block, num_warps=4 if block <= 2048 else 8)
    return h
