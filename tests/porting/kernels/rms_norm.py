"""RMSNorm (LLaMA flavour: the normalized row is cast back to the input dtype before the
weight multiplies it), forward and backward.

The backward gives each program a contiguous range of rows; it writes dX row by row and
accumulates its share of dW in registers, leaving one partial dW row per program for a
final torch sum (no atomics, deterministic).
"""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_fwd_kernel(
    Y_ptr, Y_row_stride,
    X_ptr, X_row_stride,
    W_ptr,
    RSTD_ptr,
    n_cols, eps,
    offset: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols

    Y_ptr += row_idx * Y_row_stride
    X_ptr += row_idx * X_row_stride

    X_row = tl.load(X_ptr + col_offsets, mask=mask, other=0)
    X_dtype = X_row.dtype
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0)

    X_f32 = X_row.to(tl.float32)
    mean_square = tl.sum(X_f32 * X_f32, axis=0) / n_cols
    rstd = tl.math.rsqrt(mean_square + eps)
    tl.store(RSTD_ptr + row_idx, rstd)

    normed = (X_f32 * rstd).to(X_dtype)
    Y_row = normed * (offset + W_row)
    tl.store(Y_ptr + col_offsets, Y_row, mask=mask)


@triton.jit
def rms_norm_bwd_kernel(
    dY_ptr, dY_row_stride,
    dX_ptr, dX_row_stride,
    X_ptr, X_row_stride,
    W_ptr,
    RSTD_ptr,
    dW_ptr, dW_row_stride,
    n_rows, n_cols,
    offset: tl.constexpr,
    rows_per_program: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(0)
    row_start = pid * rows_per_program
    row_end = min((pid + 1) * rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols

    dW_acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    W_row = tl.load(W_ptr + cols, mask=mask, other=0.0).to(tl.float32) + offset

    for row in range(row_start, row_end):
        dY_row = tl.load(dY_ptr + row * dY_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
        X_row = tl.load(X_ptr + row * X_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(RSTD_ptr + row)

        normed = X_row * rstd
        m = dY_row * W_row
        dX_row = rstd * m - rstd * (rstd * rstd / n_cols) * tl.sum(m * X_row, axis=0) * X_row
        dW_acc += dY_row * normed
        tl.store(dX_ptr + row * dX_row_stride + cols, dX_row.to(dX_ptr.dtype.element_ty), mask=mask)

    tl.store(dW_ptr + pid * dW_row_stride + cols, dW_acc, mask=mask)


def _block_and_warps(n_cols):
    block = triton.next_power_of_2(n_cols)
    return block, (4 if block <= 1024 else 8 if block <= 4096 else 16)


def rms_norm_forward(X, W, eps=1e-6, offset=0.0):
    shape = X.shape
    X = X.view(-1, shape[-1])
    n_rows, n_cols = X.shape
    BLOCK_SIZE, num_warps = _block_and_warps(n_cols)
    Y = torch.empty_like(X)
    RSTD = torch.empty(n_rows, dtype=torch.float32, device=X.device)
    rms_norm_fwd_kernel[(n_rows,)](Y, Y.stride(0), X, X.stride(0), W, RSTD, n_cols, eps,
                                   offset=offset, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return Y.view(*shape), X, RSTD


def rms_norm_backward(dY, X, W, RSTD, offset=0.0):
    shape = dY.shape
    dY = dY.view(-1, shape[-1])
    n_rows, n_cols = dY.shape
    sm_count = torch.cuda.get_device_properties(X.device).multi_processor_count
    rows_per_program = math.ceil(n_rows / sm_count)
    n_programs = math.ceil(n_rows / rows_per_program)
    BLOCK_SIZE, num_warps = _block_and_warps(n_cols)
    dX = torch.empty_like(dY)
    _dW = torch.empty((n_programs, n_cols), dtype=torch.float32, device=W.device)
    rms_norm_bwd_kernel[(n_programs,)](dY, dY.stride(0), dX, dX.stride(0), X, X.stride(0), W, RSTD,
                                       _dW, _dW.stride(0), n_rows, n_cols, offset=offset,
                                       rows_per_program=rows_per_program, BLOCK_SIZE=BLOCK_SIZE,
                                       num_warps=num_warps)
    return dX.view(*shape), _dW.sum(dim=0).to(W.dtype)
