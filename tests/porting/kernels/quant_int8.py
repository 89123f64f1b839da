"""Dynamic per-token int8 quantization and the matching dequantization.

quantize: scale = max|x| / 127 per row (stored in fp32), q = round-half-even(x / scale)
clamped to [-128, 127]. dequantize: y = q * scale[row], in the output's dtype. Rows wider
than a block are walked in chunks; the chunk loop of the absmax pass is unrolled when the
row width is a compile-time multiple of the block.
"""
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def quantize_int8_rowwise_kernel(x_ptr, q_ptr, scale_ptr, stride_x, stride_q, hidden,
                                 HIDDEN_BLOCKS: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_x
    q_row = q_ptr + row * stride_q

    absmax = tl.zeros([BLOCK], dtype=tl.float32)
    for b in tl.static_range(HIDDEN_BLOCKS):
        cols = b * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < hidden, other=0.0).to(tl.float32)
        absmax = tl.maximum(absmax, tl.abs(x))
    row_max = tl.max(absmax, axis=0)
    scale = tl.maximum(row_max, 1e-10) / 127.0
    inv_scale = 1.0 / scale
    tl.store(scale_ptr + row, scale)

    for b in tl.static_range(HIDDEN_BLOCKS):
        cols = b * BLOCK + tl.arange(0, BLOCK)
        mask = cols < hidden
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        q = libdevice.rint(x * inv_scale)
        q = tl.clamp(q, -128.0, 127.0)
        tl.store(q_row + cols, q.to(tl.int8), mask=mask)


@triton.jit
def dequantize_int8_rowwise_kernel(q_ptr, scale_ptr, y_ptr, n_rows, hidden, stride_q, stride_y,
                                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    scale = tl.load(scale_ptr + rows, mask=rows < n_rows, other=0.0)[:, None]
    cols = (tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N))[None, :]
    inside = (rows[:, None] < n_rows) & (cols < hidden)
    q = tl.load(q_ptr + rows[:, None] * stride_q + cols, mask=inside, other=0)
    y = (q.to(tl.float32) * scale).to(y_ptr.dtype.element_ty)
    tl.store(y_ptr + rows[:, None] * stride_y + cols, y, mask=inside)


def quantize_int8(x: torch.Tensor):
    x2 = x.reshape(-1, x.shape[-1])
    n_rows, hidden = x2.shape
    q = torch.empty_like(x2, dtype=torch.int8)
    scales = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    BLOCK = min(triton.next_power_of_2(hidden), 2048)
    quantize_int8_rowwise_kernel[(n_rows,)](x2, q, scales, x2.stride(0), q.stride(0), hidden,
                                            HIDDEN_BLOCKS=triton.cdiv(hidden, BLOCK), BLOCK=BLOCK)
    return q.view_as(x), scales


def dequantize_int8(q: torch.Tensor, scales: torch.Tensor, dtype=torch.float16):
    n_rows, hidden = q.shape
    y = torch.empty((n_rows, hidden), dtype=dtype, device=q.device)
    grid = (triton.cdiv(n_rows, 16), triton.cdiv(hidden, 256))
    dequantize_int8_rowwise_kernel[grid](q, scales, y, n_rows, hidden, q.stride(0), y.stride(0),
                                         BLOCK_M=16, BLOCK_N=256)
    return y
