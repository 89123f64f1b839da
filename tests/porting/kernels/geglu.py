"""GEGLU over flattened (gate, up) pairs: h = gelu(gate) * up, exact or tanh-approximated.

Written the way fine-tuning libraries do it: one flat index space over the whole
activation tensor, a module-level alias for the libdevice tanh, math in fp32 and the
product taken back in the input precision.
"""
import torch
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice

triton_tanh = libdevice.tanh

MAX_FUSED_SIZE = 65536


@triton.jit
def geglu_fwd_kernel(gate_ptr, up_ptr, h_ptr, n_elements, APPROXIMATE: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    block_idx = tl.program_id(0)
    offsets = block_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements

    e = tl.load(gate_ptr + offsets, mask=mask, other=0).to(tl.float32)
    g = tl.load(up_ptr + offsets, mask=mask, other=0)
    if APPROXIMATE:
        s = 0.7978845608028654  # sqrt(2 / pi)
        f = 0.5 * e * (triton_tanh(s * e * (1.0 + 0.044715 * e * e)) + 1.0)
    else:
        f = 0.5 * e * (tl.math.erf(tl.math.rsqrt(2.0) * e) + 1.0)
    f = f.to(g.dtype)
    tl.store(h_ptr + offsets, f * g, mask=mask)


def geglu_forward(gate: torch.Tensor, up: torch.Tensor, approximate: bool = False) -> torch.Tensor:
    batch, seq_len, hd = gate.shape
    n_elements = gate.numel()
    h = torch.empty((batch, seq_len, hd), dtype=gate.dtype, device=gate.device)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    geglu_fwd_kernel[grid](gate, up, h, n_elements, APPROXIMATE=approximate, BLOCK_SIZE=1024)
    return h
