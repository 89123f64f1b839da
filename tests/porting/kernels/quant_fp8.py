"""FP8 (e4m3) activation quantization for Hopper GEMMs.

static: one scale for the whole tensor, given by the caller.
dynamic per token: each row's scale is max|x| / FP8_MAX, stored for the GEMM epilogue.
Values are clamped to the finite e4m3 range before the cast.
"""
import torch
import triton
import triton.language as tl

FP8_DTYPE = torch.float8_e4m3fn
FP8_MAX = tl.constexpr(448.0)


@triton.jit
def static_fp8_quant_kernel(x_ptr, out_ptr, scale_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    inv_scale = 1.0 / tl.load(scale_ptr)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.clamp(x * inv_scale, -FP8_MAX, FP8_MAX)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def dynamic_per_token_fp8_quant_kernel(x_ptr, out_ptr, scale_ptr, stride_x, stride_out, hidden,
                                       BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < hidden
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    scale = tl.maximum(tl.max(tl.abs(x), axis=0), 1e-12) / FP8_MAX
    tl.store(scale_ptr + row, scale)
    y = tl.clamp(x / scale, -FP8_MAX, FP8_MAX).to(tl.float8e4nv)
    tl.store(out_ptr + row * stride_out + cols, y, mask=mask)


def static_scaled_fp8_quant(x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x, dtype=FP8_DTYPE)
    n = x.numel()
    static_fp8_quant_kernel[(triton.cdiv(n, 2048),)](x, out, scale, n, BLOCK_SIZE=2048)
    return out


def dynamic_per_token_scaled_fp8_quant(x: torch.Tensor):
    n_rows, hidden = x.shape
    out = torch.empty_like(x, dtype=FP8_DTYPE)
    scales = torch.empty((n_rows, 1), dtype=torch.float32, device=x.device)
    block = triton.next_power_of_2(hidden)
    dynamic_per_token_fp8_quant_kernel[(n_rows,)](x, out, scales, x.stride(0), out.stride(0), hidden,
                                                  BLOCK=block, num_warps=min(max(block // 256, 1), 16))
    return out, scales
