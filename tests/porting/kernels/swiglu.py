"""SwiGLU (silu(gate) * up) for LLaMA-style MLPs, forward and backward, one row per program.

The backward writes the two gradients over the saved activations, as memory-frugal
training kernels do.
"""
import torch
import triton
import triton.language as tl


def _pick_block(n_cols):
    block = triton.next_power_of_2(n_cols)
    if block > 65536:
        raise RuntimeError(f"rows of {n_cols} elements do not fit one program")
    warps = 4 if block < 2048 else (8 if block < 8192 else 16)
    return block, warps


@triton.jit
def _silu(x):
    return x * tl.sigmoid(x)


@triton.jit
def swiglu_fwd_kernel(gate_ptr, up_ptr, out_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    gate_ptr += row * row_stride
    up_ptr += row * row_stride
    out_ptr += row * row_stride

    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    gate = tl.load(gate_ptr + cols, mask=mask, other=0).to(tl.float32)
    up = tl.load(up_ptr + cols, mask=mask, other=0)
    act = _silu(gate).to(up.dtype) * up
    tl.store(out_ptr + cols, act, mask=mask)


@triton.jit
def swiglu_bwd_kernel(grad_ptr, gate_ptr, up_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * row_stride + tl.arange(0, BLOCK_SIZE)
    mask = tl.arange(0, BLOCK_SIZE) < n_cols
    dout = tl.load(grad_ptr + offs, mask=mask, other=0)
    gate = tl.load(gate_ptr + offs, mask=mask, other=0).to(tl.float32)
    up = tl.load(up_ptr + offs, mask=mask, other=0)

    sig = tl.sigmoid(gate)
    silu = gate * sig
    d_up = dout * silu
    d_gate = dout * (silu * (1.0 - sig) + sig) * up
    tl.store(gate_ptr + offs, d_gate, mask=mask)
    tl.store(up_ptr + offs, d_up, mask=mask)


class SwiGLUFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, gate, up):
        shape = gate.shape
        gate = gate.reshape(-1, shape[-1]).contiguous()
        up = up.reshape(-1, shape[-1]).contiguous()
        out = torch.empty_like(gate)
        n_rows, n_cols = gate.shape
        block, warps = _pick_block(n_cols)
        swiglu_fwd_kernel[(n_rows,)](gate, up, out, out.stride(0), n_cols, BLOCK_SIZE=block, num_warps=warps)
        ctx.save_for_backward(gate, up)
        return out.view(*shape)

    @staticmethod
    def backward(ctx, grad_out):
        gate, up = ctx.saved_tensors
        shape = grad_out.shape
        grad_out = grad_out.reshape(-1, shape[-1]).contiguous()
        n_rows, n_cols = grad_out.shape
        block, warps = _pick_block(n_cols)
        swiglu_bwd_kernel[(n_rows,)](grad_out, gate, up, grad_out.stride(0), n_cols, BLOCK_SIZE=block, num_warps=warps)
        return gate.view(*shape), up.view(*shape)


def swiglu(gate, up):
    return SwiGLUFunction.apply(gate, up)
