"""GELU forward in both of PyTorch's flavours (approximate="none" and "tanh").

Half-precision tensors are upcast to fp32 for the math and rounded back on the store,
which is how most projects handle libdevice functions that only take fp32/fp64.
"""
import torch
import triton
import triton.language as tl

try:
    from triton.language.extra import libdevice
except ImportError:  # Triton < 3.0 kept it under the CUDA namespace only
    from triton.language.extra.cuda import libdevice

_SQRT_2_OVER_PI = tl.constexpr(0.7978845608028654)
_RSQRT_2 = tl.constexpr(0.7071067811865476)
_CUBIC = tl.constexpr(0.044715)


@triton.jit
def gelu_tanh(x):
    u = _SQRT_2_OVER_PI * (x + _CUBIC * x * x * x)
    return 0.5 * x * (1.0 + libdevice.tanh(u))


@triton.jit
def gelu_exact(x):
    return 0.5 * x * (1.0 + libdevice.erf(x * _RSQRT_2))


@triton.jit
def gelu_fwd_kernel(x_ptr, y_ptr, n_elements, APPROXIMATE: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    if APPROXIMATE == "tanh":
        y = gelu_tanh(x)
    else:
        y = gelu_exact(x)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _tanh_approx(x):
    # one MUFU instruction instead of libdevice's accurate tanh
    return tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1)


@triton.jit
def gelu_fast_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = 0.5 * x * (1.0 + _tanh_approx(_SQRT_2_OVER_PI * (x + _CUBIC * x * x * x)))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def gelu(x: torch.Tensor, approximate: str = "none") -> torch.Tensor:
    """approximate: "none" (erf), "tanh", or "fast" (tanh form on the hardware tanh)."""
    assert approximate in ("none", "tanh", "fast")
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    BLOCK_SIZE = 1024
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    if approximate == "fast":
        gelu_fast_kernel[grid](x, y, n, BLOCK_SIZE=BLOCK_SIZE)
    else:
        gelu_fwd_kernel[grid](x, y, n, APPROXIMATE=approximate, BLOCK_SIZE=BLOCK_SIZE)
    return y
