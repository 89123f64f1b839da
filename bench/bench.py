#!/usr/bin/env python3
"""tilec vs Triton vs PyTorch on the same GPU, in the same run.

Runs build/bin/tile_bench (tilec's kernels through the C++ runtime), then the
same algorithms written in Triton (with the block sizes, warps and stages
tilec's kernels were compiled with, read from tile_bench's `config` lines) and
the PyTorch equivalents, on the same shapes. Every output is checked against a
reference. Timing: triton.testing.do_bench's median (it flushes the L2 cache
before each run; tile_bench does the same). Writes bench.md and bench.json.

Memory-bound cases (GB/s): vector add and GELU at each size, softmax, the
weighted sum. Compute-bound cases (TFLOP/s), each also against Triton's
autotuned best where that applies:
  - matmul in fp16 and bf16 (fp32 accumulation, output in the input type) at
    2048, 4096 and 8192 square: tilec (matmul_d16.ptx: specialized, like
    Triton's launches, for sizes and row strides divisible by 16); Triton's
    tutorial algorithm with
    tilec's configuration; Triton autotuned over MATMUL_TUNING_CONFIGS (with
    grouped program order); torch.matmul (cuBLAS, fp32 reductions only).
  - flash-attention forward, batch 4, 32 heads, sequence 4096, head dim 64
    and 128, causal and not: tilec's dsl_examples/attention kernels; Triton
    (tutorial 06's forward algorithm, with tilec's block sizes);
    torch.nn.functional.scaled_dot_product_attention. 4*B*H*S*S*D FLOPs,
    half of them when causal.
About 2 to 3 minutes on an H200, estimated (bench.md records the time).
Usage:
    python3 bench/bench.py [--out DIR] [sizes of the elementwise cases...]
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import time

import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0
    tl.store(out_ptr + offsets, 0.5 * x * (1.0 + t), mask=mask)


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                   n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)


@triton.jit
def softmax_fp16_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                        n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    # bench/kernels/memory_bound.tile's softmax_fp16: fp16 rows, fp32 math.
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row = tl.load(input_ptr + row_idx * input_row_stride + col_offsets, mask=mask,
                  other=-float("inf")).to(tl.float32)
    numerator = tl.exp(row - tl.max(row, axis=0))
    out = numerator / tl.sum(numerator, axis=0)
    tl.store(output_ptr + row_idx * output_row_stride + col_offsets,
             out.to(tl.float16), mask=mask)


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, row_stride, BLOCK: tl.constexpr):
    # memory_bound.tile's row_sum_kernel: one program per row.
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * row_stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def transpose_kernel(x_ptr, y_ptr, n_rows, n_cols, x_stride, y_stride,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # memory_bound.tile's transpose_tile: y[j, i] = x[i, j].
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    tile = tl.load(x_ptr + rows[:, None] * x_stride + cols[None, :],
                   mask=(rows[:, None] < n_rows) & (cols[None, :] < n_cols))
    tl.store(y_ptr + cols[:, None] * y_stride + rows[None, :], tl.trans(tile),
             mask=(cols[:, None] < n_cols) & (rows[None, :] < n_rows))


@triton.jit
def layer_norm_fp16_kernel(X, Y, W, B, Mean, Rstd, stride, N, eps,
                           BLOCK_SIZE: tl.constexpr):
    # memory_bound.tile's layer_norm_fp16 (Triton's tutorial 05 forward).
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        _mean += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        tl.store(Y + cols, (x - mean) * rstd * w + b, mask=mask)


@triton.jit
def row_cumsum_kernel(x_ptr, y_ptr, n_cols, row_stride, BLOCK_SIZE: tl.constexpr):
    # memory_bound.tile's row_cumsum: one program per row.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * row_stride + cols, mask=mask, other=0.)
    tl.store(y_ptr + row * row_stride + cols, tl.cumsum(x, axis=0), mask=mask)


@triton.jit
def weighted_sum_fwd(x_ptr, weight_ptr, output_ptr, x_stride_row, x_stride_dim,
                     weight_stride_dim, output_stride_row, ROWS, D,
                     ROWS_TILE_SIZE: tl.constexpr, D_TILE_SIZE: tl.constexpr):
    row_tile_idx = tl.program_id(0)
    x_block_ptr = tl.make_block_ptr(
        x_ptr, shape=(ROWS, D), strides=(x_stride_row, x_stride_dim),
        offsets=(row_tile_idx * ROWS_TILE_SIZE, 0),
        block_shape=(ROWS_TILE_SIZE, D_TILE_SIZE), order=(1, 0))
    weight_block_ptr = tl.make_block_ptr(
        weight_ptr, shape=(D,), strides=(weight_stride_dim,), offsets=(0,),
        block_shape=(D_TILE_SIZE,), order=(0,))
    output_block_ptr = tl.make_block_ptr(
        output_ptr, shape=(ROWS,), strides=(output_stride_row,),
        offsets=(row_tile_idx * ROWS_TILE_SIZE,), block_shape=(ROWS_TILE_SIZE,),
        order=(0,))
    output = tl.zeros((ROWS_TILE_SIZE,), dtype=tl.float32)
    for i in range(tl.cdiv(D, D_TILE_SIZE)):
        row = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero")
        weight = tl.load(weight_block_ptr, boundary_check=(0,), padding_option="zero")
        output += tl.sum(row * weight[None, :], axis=1)
        x_block_ptr = x_block_ptr.advance((0, D_TILE_SIZE))
        weight_block_ptr = weight_block_ptr.advance((D_TILE_SIZE,))
    tl.store(output_block_ptr, output, boundary_check=(0,))


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                  stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr):
    # The 2-D grid regrouped as dsl_examples/matmul.tile does.
    num_pid_m = tl.num_programs(axis=0)
    num_pid_n = tl.num_programs(axis=1)
    pid = tl.program_id(axis=1) * num_pid_m + tl.program_id(axis=0)
    num_pid_in_group = GROUP_M * num_pid_n
    first_pid_m = (pid // num_pid_in_group) * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_remaining = K - k * BLOCK_K
        a_mask = (offs_m[:, None] < M) & (offs_k[None, :] < k_remaining)
        b_mask = (offs_k[:, None] < k_remaining) & (offs_n[None, :] < N)
        a = tl.load(a_ptrs, mask=a_mask, other=0.0)
        b = tl.load(b_ptrs, mask=b_mask, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = accumulator.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + stride_cm * offs_m[:, None] + stride_cn * offs_n[None, :]
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def matmul_grouped_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak,
                          stride_bk, stride_bn, stride_cm, stride_cn,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                          BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    # The same product on a 1-D grid whose programs sweep C in bands of
    # GROUP_M tile rows, column by column inside a band, so that programs
    # running together reuse the same rows of A and columns of B from L2.
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    band_size = GROUP_M * tiles_n
    first_m = (pid // band_size) * GROUP_M
    band_rows = tl.minimum(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (pid % band_size) % band_rows
    tile_n = (pid % band_size) // band_rows
    rows = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    # Rows and columns past the edge are wrapped (their results are not
    # stored), which keeps the loads in the loop unmasked along M and N.
    a_ptrs = a_ptr + (rows % M)[:, None] * stride_am + ks[None, :] * stride_ak
    b_ptrs = b_ptr + ks[:, None] * stride_bk + (cols % N)[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for step in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - step * BLOCK_K
        a = tl.load(a_ptrs, mask=ks[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=ks[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty),
             mask=(rows[:, None] < M) & (cols[None, :] < N))


# The configurations Triton's autotuner picks from for the grouped kernel:
# the usual Hopper-sized tiles, 3 or 4 stages. Each one is compiled once per
# dtype and timed once per size (about 0.2 s each), so the list stays short.
MATMUL_TUNING_CONFIGS = [
    triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8},
                  num_warps=warps, num_stages=stages)
    for bm, bn, bk, warps, stages in (
        (128, 256, 64, 8, 3),
        (256, 128, 64, 8, 3),
        (128, 256, 32, 8, 4),
        (128, 128, 64, 8, 4),
        (128, 128, 64, 4, 4),
        (64, 256, 64, 4, 4),
    )
]
matmul_tuned = triton.autotune(configs=MATMUL_TUNING_CONFIGS,
                               key=["M", "N", "K"])(matmul_grouped_kernel)


@triton.jit
def attention_blocks(acc, l_i, m_i, q, k_ptrs, v_ptrs, offs_m, offs_n, lo, hi,
                     qk_scale, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,
                     ON_DIAGONAL: tl.constexpr):
    # Keys lo..hi in BLOCK_N steps, folded into the running maximum m_i (in
    # log2 units), row sum l_i and unnormalized output acc. Only blocks that
    # cross the diagonal (ON_DIAGONAL) need the causal mask.
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k_t = tl.load(k_ptrs + start_n * HEAD_DIM)
        s = tl.dot(q, k_t)
        if ON_DIAGONAL:
            keys = start_n + offs_n
            s = tl.where(offs_m[:, None] >= keys[None, :], s * qk_scale,
                         float("-inf"))
            m_new = tl.maximum(m_i, tl.max(s, 1))
            s = s - m_new[:, None]
        else:
            # As the tutorial: scale and shift in one fma.
            m_new = tl.maximum(m_i, tl.max(s, 1) * qk_scale)
            s = s * qk_scale - m_new[:, None]
        p = tl.math.exp2(s)
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptrs + start_n * HEAD_DIM)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def attention_fwd_kernel(q_ptr, k_ptr, v_ptr, out_ptr, n_ctx, qk_scale,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                         BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    # Flash-attention forward (Triton tutorial 06's algorithm): program
    # (start_m, head) owns BLOCK_M query rows of one head of contiguous
    # [heads, n_ctx, HEAD_DIM] tensors; n_ctx is a multiple of both blocks.
    # Causal: the blocks left of the diagonal band run unmasked, then the
    # band up to the last row of the query block runs masked.
    start_m = tl.program_id(0)
    head = tl.program_id(1).to(tl.int64) * n_ctx * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + head + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    k_ptrs = k_ptr + head + offs_n[None, :] * HEAD_DIM + offs_d[:, None]
    v_ptrs = v_ptr + head + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    if CAUSAL:
        band = (start_m * BLOCK_M) // BLOCK_N * BLOCK_N
        acc, l_i, m_i = attention_blocks(acc, l_i, m_i, q, k_ptrs, v_ptrs, offs_m,
                                         offs_n, 0, band, qk_scale, HEAD_DIM,
                                         BLOCK_N, False)
        acc, l_i, m_i = attention_blocks(acc, l_i, m_i, q, k_ptrs, v_ptrs, offs_m,
                                         offs_n, band, (start_m + 1) * BLOCK_M,
                                         qk_scale, HEAD_DIM, BLOCK_N, True)
    else:
        acc, l_i, m_i = attention_blocks(acc, l_i, m_i, q, k_ptrs, v_ptrs, offs_m,
                                         offs_n, 0, n_ctx, qk_scale, HEAD_DIM,
                                         BLOCK_N, False)
    acc = acc / l_i[:, None]
    tl.store(out_ptr + head + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             acc.to(out_ptr.dtype.element_ty))


def median_ms(fn):
    return do_bench(fn, warmup=25, rep=200, return_mode="median")


def case(kernel, shape, unit, work, impls, **extra):
    """One benchmark case: work is bytes (GB/s) or FLOPs (TFLOP/s); impls maps
    an implementation's name to (run, check); extra: dtype, and describe (an
    implementation's name to a function naming the configuration it ran)."""
    return dict(kernel=kernel, shape=shape, unit=unit, work=work, impls=impls,
                **extra)


def elementwise_cases(n, kernels=("add_kernel", "gelu_kernel")):
    """The vector add and GELU cases (those of `kernels`) at n elements."""
    x = torch.rand(n, device="cuda") * 8 - 4
    y = torch.rand(n, device="cuda") * 8 - 4
    out = torch.empty_like(x)
    grid = (triton.cdiv(n, 1024),)

    def check_add(result):
        torch.testing.assert_close(result, x + y)

    def check_gelu(result):
        torch.testing.assert_close(
            result, torch.nn.functional.gelu(x.double(), approximate="tanh").float(),
            rtol=1e-5, atol=1e-5)

    def add_triton():
        add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
        return out

    def gelu_triton():
        gelu_kernel[grid](x, out, n, BLOCK_SIZE=1024)
        return out

    if "add_kernel" in kernels:
        yield case("add_kernel", str(n), "GB/s", 12 * n, {
            "triton": (add_triton, check_add),
            "torch": (lambda: torch.add(x, y, out=out), check_add)})
    if "gelu_kernel" not in kernels:
        return
    yield case("gelu_kernel", str(n), "GB/s", 8 * n, {
        "triton": (gelu_triton, check_gelu),
        "torch": (lambda: torch.nn.functional.gelu(x, approximate="tanh"), check_gelu)})


def row_block(cols, lo):
    """The power of two from lo up to 16384 whose block holds a row of cols
    (tile_bench's rowBlock)."""
    block = lo
    while block < cols and block < 16384:
        block *= 2
    return block


def softmax_ptx(cols):
    """The softmax PTX whose block holds a row of cols (tile_bench's rule)."""
    block = row_block(cols, 256)
    return "softmax.ptx" if block == 1024 else f"softmax_{block}.ptx"


def softmax_cases(configs, shapes=((8192, 1024), (4096, 16384)), fp16=False):
    """Row softmax of fp32 rows (softmax_kernel; softmax*.ptx), or with fp16
    of fp16 rows computed in fp32 (softmax_fp16_kernel; softmax_fp16_*.ptx)."""
    name = "softmax_fp16" if fp16 else "softmax"
    kernel = softmax_fp16_kernel if fp16 else softmax_kernel
    rtol, atol = (2e-3, 1e-7) if fp16 else (1e-5, 1e-9)
    for rows, cols in shapes:
        ptx = softmax_ptx(cols)
        if fp16:
            ptx = "softmax_fp16_" + (ptx[len("softmax_"):] if ptx != "softmax.ptx"
                                     else "1024.ptx")
        cfg = configs[ptx]
        x = torch.rand(rows, cols, device="cuda") * 16 - 8
        x = x.half() if fp16 else x
        out = torch.empty_like(x)
        ref = torch.softmax(x.double(), dim=1)

        def check(result, ref=ref):
            torch.testing.assert_close(result.double(), ref, rtol=rtol, atol=atol)

        def run(x=x, out=out, rows=rows, cols=cols, cfg=cfg):
            kernel[(rows,)](out, x, x.stride(0), out.stride(0), rows, cols,
                            BLOCK_SIZE=cfg["BLOCK_SIZE"], num_warps=cfg["num_warps"])
            return out

        yield case(name, f"{rows}x{cols}", "GB/s", 2 * rows * cols * x.element_size(), {
            "triton": (run, check),
            "torch": (lambda x=x: torch.softmax(x, dim=1), check)})


def row_sum_cases(configs, rows=8192, cols=8192):
    cfg = configs["row_sum.ptx"]
    x = torch.rand(rows, cols, device="cuda") * 2 - 1
    out = torch.empty(rows, device="cuda")
    ref = x.double().sum(dim=1)
    scale = x.double().abs().sum(dim=1)

    def check(result):
        bad = int((~((result.double() - ref).abs() <= 1e-6 * scale)).sum())
        assert bad == 0, f"{bad} of {rows} rows out of tolerance"

    def run():
        row_sum_kernel[(rows,)](x, out, cols, x.stride(0), BLOCK=cfg["BLOCK"],
                                num_warps=cfg["num_warps"])
        return out

    yield case("row_sum", f"{rows}x{cols}", "GB/s", 4 * (rows * cols + rows), {
        "triton": (run, check), "torch": (lambda: x.sum(dim=1), check)})


def layer_norm_cases(configs, shapes):
    """Tutorial 05's fp16 layer norm forward (layer_norm_fp16_*.ptx) against
    torch.nn.functional.layer_norm; 2 * M * N * 2 bytes as the tutorial
    counts them."""
    eps = 1e-5
    for rows, n in shapes:
        cfg = configs[f"layer_norm_fp16_{row_block(n, 1024)}.ptx"]
        x = (-2.3 + 0.5 * torch.randn(rows, n, device="cuda")).half()
        w = torch.rand(n, device="cuda").half()
        b = torch.rand(n, device="cuda").half()
        y = torch.empty_like(x)
        mean = torch.empty(rows, device="cuda")
        rstd = torch.empty(rows, device="cuda")
        ref = torch.nn.functional.layer_norm(x.double(), (n,), w.double(), b.double(),
                                             eps)

        def check(result, ref=ref):
            torch.testing.assert_close(result.double(), ref, rtol=2e-3, atol=2e-3)

        def run(x=x, y=y, w=w, b=b, mean=mean, rstd=rstd, rows=rows, n=n, cfg=cfg):
            layer_norm_fp16_kernel[(rows,)](x, y, w, b, mean, rstd, x.stride(0), n, eps,
                                            BLOCK_SIZE=cfg["BLOCK_SIZE"],
                                            num_warps=cfg["num_warps"])
            return y

        def run_torch(x=x, w=w, b=b, n=n):
            return torch.nn.functional.layer_norm(x, (n,), w, b, eps)

        yield case("layer_norm_fp16", f"{rows}x{n}", "GB/s", 2 * rows * n * 2, {
            "triton": (run, check), "torch": (run_torch, check)})


def row_cumsum_cases(configs, shapes):
    """Inclusive prefix sums of fp32 rows (row_cumsum_*.ptx) against
    torch.cumsum."""
    for rows, cols in shapes:
        cfg = configs[f"row_cumsum_{row_block(cols, 256)}.ptx"]
        x = torch.rand(rows, cols, device="cuda") * 2 - 1
        y = torch.empty_like(x)
        ref = x.double().cumsum(dim=1)
        scale = x.double().abs().cumsum(dim=1)

        def check(result, ref=ref, scale=scale):
            bad = int((~((result.double() - ref).abs() <= 1e-6 * scale)).sum())
            assert bad == 0, f"{bad} elements out of tolerance"

        def run(x=x, y=y, rows=rows, cols=cols, cfg=cfg):
            row_cumsum_kernel[(rows,)](x, y, cols, x.stride(0),
                                       BLOCK_SIZE=cfg["BLOCK_SIZE"],
                                       num_warps=cfg["num_warps"])
            return y

        yield case("row_cumsum", f"{rows}x{cols}", "GB/s", 2 * rows * cols * 4, {
            "triton": (run, check), "torch": (lambda x=x: torch.cumsum(x, dim=1), check)})


def transpose_cases(configs, n=4096):
    for dtype, name in ((torch.float32, "transpose_fp32"), (torch.float16, "transpose_fp16")):
        cfg = configs[name + ".ptx"]
        x = (torch.rand(n, n, device="cuda") * 2 - 1).to(dtype)
        y = torch.empty_like(x)
        ref = x.t().contiguous()

        def check(result, ref=ref):
            assert torch.equal(result, ref), "not the transpose"

        def run(x=x, y=y, cfg=cfg):
            grid = (triton.cdiv(n, cfg["BLOCK_M"]), triton.cdiv(n, cfg["BLOCK_N"]))
            transpose_kernel[grid](x, y, n, n, x.stride(0), y.stride(0),
                                   BLOCK_M=cfg["BLOCK_M"], BLOCK_N=cfg["BLOCK_N"],
                                   num_warps=cfg["num_warps"])
            return y

        yield case(name, f"{n}x{n}", "GB/s", 2 * n * n * x.element_size(), {
            "triton": (run, check),
            "torch": (lambda x=x: x.t().contiguous(), check)})


def weighted_sum_cases(configs, shapes=((65536, 4096),)):
    for rows, d in shapes:
        yield from weighted_sum_case(configs["weighted_sum_d16.ptx"], rows, d)


def weighted_sum_case(cfg, rows, d):
    x = torch.rand(rows, d, device="cuda") * 2 - 1
    w = torch.rand(d, device="cuda") * 2 - 1
    out = torch.empty(rows, device="cuda")
    ref = (x.double() @ w.double()).float()
    scale = (x.double().abs() @ w.double().abs()).float()

    def check(result):
        err = (result - ref).abs()
        bad = int((~(err <= 1e-5 * scale)).sum())
        assert bad == 0, f"{bad} of {rows} rows out of tolerance"

    def run():
        tile_rows = cfg["ROWS_TILE_SIZE"]
        weighted_sum_fwd[(triton.cdiv(rows, tile_rows),)](
            x, w, out, x.stride(0), x.stride(1), w.stride(0), out.stride(0), rows, d,
            ROWS_TILE_SIZE=tile_rows, D_TILE_SIZE=cfg["D_TILE_SIZE"],
            num_warps=cfg["num_warps"])
        return out

    yield case("weighted_sum", f"{rows}x{d}", "GB/s", 4 * (rows * d + d + rows), {
        "triton": (run, check), "torch": (lambda: torch.mv(x, w), check)})


MATMUL_SIZES = (2048, 4096, 8192)


def describe_config(config):
    """'BLOCK_M=128 ... num_warps=8 num_stages=3' of a triton.Config."""
    return " ".join([f"{k}={v}" for k, v in config.kwargs.items()] +
                    [f"num_warps={config.num_warps}", f"num_stages={config.num_stages}"])


def matmul_cases(configs):
    """C = A @ B in fp16 ("matmul") and bf16 ("matmul_bf16"), square sizes."""
    for kernel, dtype in (("matmul", torch.float16), ("matmul_bf16", torch.bfloat16)):
        cfg = configs[kernel + "_d16.ptx"]
        for size in MATMUL_SIZES:
            a = (torch.rand(size, size, device="cuda") * 2 - 1).to(dtype)
            b = (torch.rand(size, size, device="cuda") * 2 - 1).to(dtype)
            c = torch.empty(size, size, device="cuda", dtype=dtype)
            ref = (a.float() @ b.float())

            def check(result, ref=ref, size=size):
                atol = 1e-2 * (size ** 0.5) / 3
                torch.testing.assert_close(result.float(), ref, rtol=1e-2, atol=atol)

            def run_same(a=a, b=b, c=c, size=size, cfg=cfg):
                grid = (triton.cdiv(size, cfg["BLOCK_M"]), triton.cdiv(size, cfg["BLOCK_N"]))
                matmul_kernel[grid](a, b, c, size, size, size, a.stride(0), a.stride(1),
                                    b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                    BLOCK_M=cfg["BLOCK_M"], BLOCK_N=cfg["BLOCK_N"],
                                    BLOCK_K=cfg["BLOCK_K"], GROUP_M=cfg.get("GROUP_M", 1),
                                    num_warps=cfg["num_warps"],
                                    num_stages=cfg.get("num_stages", 3))
                return c

            def run_tuned(a=a, b=b, c=c, size=size):
                # The first call autotunes (once per size and dtype).
                def grid(meta):
                    return (triton.cdiv(size, meta["BLOCK_M"]) *
                            triton.cdiv(size, meta["BLOCK_N"]),)
                matmul_tuned[grid](a, b, c, size, size, size, a.stride(0), a.stride(1),
                                   b.stride(0), b.stride(1), c.stride(0), c.stride(1))
                return c

            yield case(kernel, f"{size}x{size}x{size}", "TFLOP/s", 2 * size ** 3, {
                "triton": (run_same, check), "triton_best": (run_tuned, check),
                "torch": (lambda a=a, b=b: torch.matmul(a, b), check)},
                dtype=str(dtype).replace("torch.", ""),
                describe={"triton_best": lambda: describe_config(matmul_tuned.best_config)})


# tilec's attention specializations: (PTX name, head dim, causal).
ATTENTION_VARIANTS = (("attention_d64", 64, False), ("attention_causal", 64, True),
                      ("attention_d128", 128, False), ("attention_d128_causal", 128, True))
LOG2E = 1.4426950408889634


def attention_reference(q, k, v, heads, causal, sm_scale):
    """softmax(Q K^T * sm_scale) V in float64 for the listed (flattened) heads."""
    seq, head_dim = q.shape[-2:]
    q, k, v = (x.reshape(-1, seq, head_dim)[heads].double() for x in (q, k, v))
    scores = (q @ k.transpose(1, 2)) * sm_scale
    if causal:
        hidden = torch.ones(seq, seq, dtype=torch.bool, device=q.device).triu(1)
        scores.masked_fill_(hidden, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def attention_cases(configs, batch=4, heads=32, seq=4096):
    """Flash-attention forward on fp16 [batch, heads, seq, head dim] Q, K, V.
    Triton is checked against PyTorch's SDPA everywhere, SDPA against a float64
    reference on two heads (tile_bench checks tilec against its own)."""
    for kernel, head_dim, causal in ATTENTION_VARIANTS:
        cfg = configs[kernel + ".ptx"]
        shape = (batch, heads, seq, head_dim)
        q, k, v = ((torch.rand(shape, device="cuda") * 2 - 1).half() for _ in range(3))
        out = torch.empty_like(q)
        sm_scale = head_dim ** -0.5

        def run_torch(q=q, k=k, v=v, causal=causal, sm_scale=sm_scale):
            return torch.nn.functional.scaled_dot_product_attention(
                q, k, v, is_causal=causal, scale=sm_scale)

        expected = run_torch()
        picked = [0, batch * heads - 1]
        ref = attention_reference(q, k, v, picked, causal, sm_scale)

        def check_torch(result, ref=ref, picked=picked):
            got = result.reshape(-1, seq, head_dim)[picked].double()
            torch.testing.assert_close(got, ref, atol=4e-3, rtol=1e-2)

        def check_triton(result, expected=expected):
            torch.testing.assert_close(result, expected, atol=4e-3, rtol=1e-2)

        def run_triton(q=q, k=k, v=v, out=out, cfg=cfg, head_dim=head_dim,
                       causal=causal, sm_scale=sm_scale):
            block_m, block_n = cfg["BLOCK_M"], cfg["BLOCK_N"]
            if seq % block_m or seq % block_n:
                raise ValueError(f"BLOCK_M={block_m}, BLOCK_N={block_n} do not tile {seq}")
            attention_fwd_kernel[(seq // block_m, batch * heads)](
                q, k, v, out, seq, sm_scale * LOG2E, HEAD_DIM=head_dim,
                BLOCK_M=block_m, BLOCK_N=block_n, CAUSAL=causal,
                num_warps=cfg["num_warps"], num_stages=cfg.get("num_stages", 3))
            return out

        flops = 4 * batch * heads * seq * seq * head_dim // (2 if causal else 1)
        yield case(kernel, "x".join(map(str, shape)), "TFLOP/s", flops, {
            "triton": (run_triton, check_triton), "torch": (run_torch, check_torch)},
            dtype="float16")


def parse_tile_bench(stdout):
    """tilec's results {(kernel, shape): line fields}, configs and launch costs."""
    ours, configs, launch_us = {}, {}, {}
    for line in stdout.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "case":
            kernel, shape = parts[1], parts[2]
            if parts[3] == "error":
                ours[(kernel, shape)] = {"error": " ".join(parts[4:])}
            else:
                ours[(kernel, shape)] = {
                    "ms": float(parts[3]), "rate": float(parts[4]), "unit": parts[5],
                    "check": parts[6], "max_rel_err": float(parts[7])}
        elif parts[0] == "config":
            cfg = {"num_stages": 3}
            for item in parts[2:]:
                key, value = item.split("=")
                cfg[key] = int(value)
            configs[parts[1]] = cfg
        elif parts[0] == "launch_us":
            launch_us[parts[1]] = float(parts[2])
    return ours, configs, launch_us


# Used for Triton when tile_bench could not load a kernel (its PTX missing).
DEFAULT_CONFIGS = {
    "softmax.ptx": {"num_warps": 4, "BLOCK_SIZE": 1024},
    "softmax_256.ptx": {"num_warps": 4, "BLOCK_SIZE": 256},
    "softmax_512.ptx": {"num_warps": 4, "BLOCK_SIZE": 512},
    "softmax_2048.ptx": {"num_warps": 8, "BLOCK_SIZE": 2048},
    "softmax_4096.ptx": {"num_warps": 8, "BLOCK_SIZE": 4096},
    "softmax_8192.ptx": {"num_warps": 16, "BLOCK_SIZE": 8192},
    "softmax_16384.ptx": {"num_warps": 16, "BLOCK_SIZE": 16384},
    **{f"softmax_fp16_{b}.ptx": {"num_warps": 4 if b < 2048 else 8 if b < 8192 else 16,
                                 "BLOCK_SIZE": b} for b in (256 << i for i in range(7))},
    **{f"row_cumsum_{b}.ptx": {"num_warps": 4 if b < 2048 else 8 if b < 8192 else 16,
                               "BLOCK_SIZE": b} for b in (256 << i for i in range(7))},
    **{f"layer_norm_fp16_{b}.ptx": {"num_warps": min(max(b // 256, 1), 8),
                                    "BLOCK_SIZE": b} for b in (1024 << i for i in range(5))},
    "row_sum.ptx": {"num_warps": 4, "BLOCK": 1024},
    "transpose_fp32.ptx": {"num_warps": 4, "BLOCK_M": 64, "BLOCK_N": 64},
    "transpose_fp16.ptx": {"num_warps": 4, "BLOCK_M": 64, "BLOCK_N": 64},
    "weighted_sum_d16.ptx": {"num_warps": 4, "ROWS_TILE_SIZE": 16, "D_TILE_SIZE": 256},
    "matmul_d16.ptx": {"num_warps": 8, "num_stages": 3, "BLOCK_M": 256,
                       "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8},
    "matmul_bf16_d16.ptx": {"num_warps": 8, "num_stages": 3, "BLOCK_M": 256,
                            "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8},
    "attention_d64.ptx": {"num_warps": 8, "num_stages": 3, "BLOCK_M": 128, "BLOCK_N": 64},
    "attention_causal.ptx": {"num_warps": 8, "num_stages": 2, "BLOCK_M": 128,
                             "BLOCK_N": 64},
    "attention_d128.ptx": {"num_warps": 8, "num_stages": 3, "BLOCK_M": 128,
                           "BLOCK_N": 64},
    "attention_d128_causal.ptx": {"num_warps": 8, "num_stages": 3, "BLOCK_M": 128,
                                  "BLOCK_N": 64},
}


# bench.py --sweep (tile_bench --sweep runs the same sizes).
SWEEP_ADD = tuple(1 << log for log in range(12, 29, 2))
SWEEP_SOFTMAX = tuple((4096, 256 << i) for i in range(7))
SWEEP_WEIGHTED_SUM = tuple((65536, d) for d in (256, 1024, 4096, 8192))
SWEEP_LAYER_NORM = tuple((4096, 512 * i) for i in range(2, 32))


def measure(run, check, work, unit):
    """(rate, status) of one implementation: checked once, then timed."""
    try:
        check(run())
        torch.cuda.synchronize()
    except Exception as e:  # A wrong result is reported, not timed.
        return None, f"FAILED: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
    ms = median_ms(run)
    return (work / ms / 1e9 if unit == "TFLOP/s" else work / ms / 1e6), "ok"


def fmt(value, digits=0):
    return "-" if value is None else f"{value:.{digits}f}"


def report_lines(rows, device, launch_us, configs, elapsed_s):
    """bench.md: the memory-bound table, then the compute-bound one."""
    lines = [
        f"# tilec vs Triton {triton.__version__} vs PyTorch {torch.__version__}",
        f"device: {device}; date: {datetime.date.today().isoformat()}; "
        f"bench.py ran {elapsed_s:.0f} s",
        "",
        "Medians of event-timed runs, each after an L2 flush (do_bench's method for "
        "Triton and PyTorch, the same in tile_bench). Every output checked first.",
        "",
        "| kernel | shape | unit | tilec | Triton | PyTorch | tilec/Triton | "
        "tilec/PyTorch | checks (tilec, Triton, PyTorch) |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        if r["unit"] != "GB/s":
            continue
        lines.append(
            f"| {r['kernel']} | {r['shape']} | {r['unit']} | {fmt(r['tilec'])} | "
            f"{fmt(r['triton'])} | {fmt(r['torch'])} | "
            f"{fmt(r['tilec_over_triton'], 3)} | {fmt(r['tilec_over_torch'], 3)} | "
            f"{r['tilec_status']}, {r['triton_status']}, {r['torch_status']} |")
    if any(r["unit"] == "TFLOP/s" for r in rows):  # none in the sweep
        lines += [
            "",
            "TFLOP/s. Triton: the same algorithm with tilec's block sizes, num_warps and "
            "num_stages; Triton best: the grouped-order matmul autotuned over "
            f"{len(MATMUL_TUNING_CONFIGS)} configurations (the one picked in the last "
            "column). PyTorch: torch.matmul (cuBLAS, reduced-precision reductions off) and "
            "scaled_dot_product_attention. Matmul shapes are MxNxK; attention shapes "
            "BxHxSxD (4*B*H*S*S*D FLOPs, half when causal).",
            "",
            "| kernel | shape | dtype | tilec | Triton | Triton best | PyTorch | "
            "tilec/Triton | tilec/Triton best | tilec/PyTorch | "
            "checks (tilec, Triton, Triton best, PyTorch) | Triton best config |",
            "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
        ]
        for r in rows:
            if r["unit"] != "TFLOP/s":
                continue
            lines.append(
                f"| {r['kernel']} | {r['shape']} | {r.get('dtype', '-')} | "
                f"{fmt(r['tilec'], 1)} | {fmt(r['triton'], 1)} | "
                f"{fmt(r.get('triton_best'), 1)} | {fmt(r['torch'], 1)} | "
                f"{fmt(r['tilec_over_triton'], 3)} | "
                f"{fmt(r.get('tilec_over_triton_best'), 3)} | "
                f"{fmt(r['tilec_over_torch'], 3)} | {r['tilec_status']}, "
                f"{r['triton_status']}, {r.get('triton_best_status', '-')}, "
                f"{r['torch_status']} | {r.get('triton_best_config') or '-'} |")
    lines.append("")
    lines.append("tilec host cost of one launch call (us): " +
                 ", ".join(f"{k} {v:.2f}" for k, v in launch_us.items()))
    lines.append("")
    lines.append("tilec kernel configurations (the Triton column ran with the same, "
                 "Triton best with its own): " +
                 "; ".join(f"{k} " + " ".join(f"{a}={b}" for a, b in v.items())
                           for k, v in sorted(configs.items())))
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--tile-bench", default="build/bin/tile_bench")
    parser.add_argument("--sweep", action="store_true",
                        help="the memory-bound kernels over many sizes (sweep.md, "
                             "sweep.json and one PNG per kernel)")
    parser.add_argument("--only", default="",
                        help="comma-separated kernels: only their cases run (also "
                             "tile_bench's, through TILE_BENCH_ONLY)")
    parser.add_argument("sizes", nargs="*", type=int,
                        default=[1 << 20, 1 << 24, 1 << 28])
    args = parser.parse_args()
    start = time.monotonic()

    tile_args = ["--sweep"] if args.sweep else [str(s) for s in args.sizes]
    only = set(filter(None, args.only.split(",")))
    env = dict(os.environ, TILE_BENCH_ONLY=args.only) if only else None
    tile = subprocess.run([args.tile_bench] + tile_args, capture_output=True, text=True,
                          env=env)
    sys.stdout.write(tile.stdout)
    sys.stderr.write(tile.stderr)
    print(f"tile_bench ran {time.monotonic() - start:.0f} s", flush=True)
    ours, configs, launch_us = parse_tile_bench(tile.stdout)
    if not ours:
        sys.exit(f"tile_bench failed with exit code {tile.returncode}")
    for name, cfg in DEFAULT_CONFIGS.items():
        configs.setdefault(name, dict(cfg, num_stages=cfg.get("num_stages", 3)))
    # cuBLAS accumulates fp16 and bf16 products in fp32 either way; this also
    # keeps its split-K reductions in fp32, as tilec's and Triton's kernels.
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False

    device = torch.cuda.get_device_name()
    if args.sweep:
        generators = [elementwise_cases(n, ("add_kernel",)) for n in SWEEP_ADD] + [
            softmax_cases(configs, SWEEP_SOFTMAX),
            softmax_cases(configs, SWEEP_SOFTMAX, fp16=True),
            weighted_sum_cases(configs, SWEEP_WEIGHTED_SUM),
            layer_norm_cases(configs, SWEEP_LAYER_NORM),
            row_cumsum_cases(configs, SWEEP_SOFTMAX),
            row_sum_cases(configs), transpose_cases(configs)]
    else:
        generators = [elementwise_cases(n) for n in args.sizes] + [
            softmax_cases(configs), weighted_sum_cases(configs), matmul_cases(configs),
            attention_cases(configs)]
    rows, failed = [], tile.returncode != 0
    for generator in generators:
        for c in generator:
            if only and c["kernel"] not in only:
                continue
            mine = ours.get((c["kernel"], c["shape"]), {"error": "not run by tile_bench"})
            row = {"kernel": c["kernel"], "shape": c["shape"], "unit": c["unit"]}
            if "dtype" in c:
                row["dtype"] = c["dtype"]
            row["tilec"] = mine.get("rate")
            row["tilec_status"] = mine.get("check", mine.get("error"))
            failed |= row["tilec_status"] != "ok"
            for impl, (run, check) in c["impls"].items():
                impl_start = time.monotonic()
                row[impl], row[impl + "_status"] = measure(run, check, c["work"], c["unit"])
                row[impl + "_s"] = round(time.monotonic() - impl_start, 1)
                failed |= row[impl + "_status"] != "ok"
                describe = c.get("describe", {}).get(impl)
                if describe and row[impl + "_status"] == "ok":
                    row[impl + "_config"] = describe()
            for impl in c["impls"]:
                row[f"tilec_over_{impl}"] = (
                    row["tilec"] / row[impl]
                    if row["tilec"] and row[impl] and row["tilec_status"] == "ok" else None)
            rows.append(row)
            print(json.dumps(row), flush=True)
            torch.cuda.empty_cache()

    elapsed_s = time.monotonic() - start
    report = "\n".join(report_lines(rows, device, launch_us, configs, elapsed_s))
    print(report)
    os.makedirs(args.out, exist_ok=True)
    name = "sweep" if args.sweep else "bench"
    with open(os.path.join(args.out, name + ".md"), "w") as f:
        f.write(report + "\n")
    with open(os.path.join(args.out, name + ".json"), "w") as f:
        json.dump({"device": device, "date": datetime.date.today().isoformat(),
                   "triton": triton.__version__, "torch": torch.__version__,
                   "elapsed_s": round(elapsed_s, 1),
                   "rows": rows, "launch_us": launch_us, "configs": configs},
                  f, indent=2)
    if args.sweep:
        try:
            import plot_sweep
            plot_sweep.plot(os.path.join(args.out, "sweep.json"), args.out)
        except ImportError as e:  # matplotlib missing: plot_sweep.py later.
            print(f"no plots here ({e}): run bench/plot_sweep.py on sweep.json")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
