"""Rotary embedding in the interleaved (GPT-J / complex-number) convention: dimension pairs
(2i, 2i + 1) rotate together. The row is viewed as (heads, head_dim / 2, 2), split into
its even and odd halves, rotated, and interleaved back. Positions are looked up per
token, so packed variable-length batches work.

x: (num_tokens, num_heads, head_dim); cos, sin: (max_pos, head_dim // 2); positions: (num_tokens,).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def rope_interleaved_kernel(x_ptr, out_ptr, cos_ptr, sin_ptr, pos_ptr,
                            stride_xt, stride_xh, stride_ot, stride_oh, stride_cos, num_heads,
                            HEAD_DIM: tl.constexpr, BLOCK_H: tl.constexpr):
    t = tl.program_id(0)
    heads = tl.arange(0, BLOCK_H)
    dims = tl.arange(0, HEAD_DIM)
    pairs = tl.arange(0, HEAD_DIM // 2)
    head_mask = heads[:, None] < num_heads

    pos = tl.load(pos_ptr + t)
    cos = tl.load(cos_ptr + pos * stride_cos + pairs)[None, :]
    sin = tl.load(sin_ptr + pos * stride_cos + pairs)[None, :]

    x = tl.load(x_ptr + t * stride_xt + heads[:, None] * stride_xh + dims[None, :], mask=head_mask, other=0.0)
    x = x.to(tl.float32).reshape(BLOCK_H, HEAD_DIM // 2, 2)
    x_even, x_odd = tl.split(x)
    out_even = x_even * cos - x_odd * sin
    out_odd = x_even * sin + x_odd * cos
    out = tl.interleave(out_even, out_odd)
    tl.store(out_ptr + t * stride_ot + heads[:, None] * stride_oh + dims[None, :], out.to(out_ptr.dtype.element_ty),
             mask=head_mask)


def rope_interleaved(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, positions: torch.Tensor):
    num_tokens, num_heads, head_dim = x.shape
    out = torch.empty_like(x)
    rope_interleaved_kernel[(num_tokens,)](x, out, cos, sin, positions, x.stride(0), x.stride(1),
                                           out.stride(0), out.stride(1), cos.stride(0), num_heads,
                                           HEAD_DIM=head_dim, BLOCK_H=triton.next_power_of_2(num_heads))
    return out
