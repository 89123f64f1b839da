"""Seeded dropout: the keep mask is regenerated from (seed, element offset) instead of being
stored, so the backward pass can recompute it. A companion kernel adds Gaussian noise
with the same counter-based generator, and one writes the mask out as bytes.
"""
import torch
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["seed"])
def seeded_dropout_kernel(x_ptr, out_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    r = tl.rand(seed, offsets)
    keep = r > p
    scale = 1.0 / (1.0 - p)
    out = tl.where(keep, x * scale, 0.0)
    tl.store(out_ptr + offsets, out, mask=mask)


@triton.jit
def dropout_mask_kernel(mask_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    keep = tl.rand(seed, offsets) > p
    tl.store(mask_ptr + offsets, keep.to(tl.int8), mask=offsets < n_elements)


@triton.jit
def gaussian_noise_kernel(x_ptr, out_ptr, n_elements, sigma, seed, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    noise = tl.randn(seed, offsets)
    tl.store(out_ptr + offsets, (x + sigma * noise).to(out_ptr.dtype.element_ty), mask=mask)


def seeded_dropout(x: torch.Tensor, p: float, seed: int) -> torch.Tensor:
    out = torch.empty_like(x)
    assert x.is_contiguous()
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    seeded_dropout_kernel[grid](x, out, n, p, seed, BLOCK_SIZE=1024)
    return out


def dropout_keep_mask(shape, p: float, seed: int, device="cuda") -> torch.Tensor:
    mask = torch.empty(shape, dtype=torch.int8, device=device)
    n = mask.numel()
    dropout_mask_kernel[(triton.cdiv(n, 1024),)](mask, n, p, seed, BLOCK_SIZE=1024)
    return mask.bool()


def add_gaussian_noise(x: torch.Tensor, sigma: float, seed: int) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    gaussian_noise_kernel[(triton.cdiv(n, 2048),)](x, out, n, sigma, seed, BLOCK_SIZE=2048, num_warps=8)
    return out
