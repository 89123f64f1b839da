"""Histograms of float data into equal-width bins over [lo, hi) (torch.histc semantics:
values outside the range are dropped, hi itself lands in the last bin).

histc_atomic_kernel adds one per element straight into global memory.
histc_local_kernel first bins its block with tl.histogram and then merges the whole
per-program histogram with one vector of atomics, far fewer global atomics.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _bin_index(x, lo, hi, NUM_BINS: tl.constexpr):
    idx = ((x - lo) * (NUM_BINS / (hi - lo))).to(tl.int32)
    idx = tl.where(x == hi, NUM_BINS - 1, idx)
    return tl.minimum(idx, NUM_BINS - 1)


@triton.jit
def histc_atomic_kernel(x_ptr, hist_ptr, n_elements, lo, hi, NUM_BINS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0)
    valid = (offs < n_elements) & (x >= lo) & (x <= hi)
    idx = _bin_index(x, lo, hi, NUM_BINS)
    tl.atomic_add(hist_ptr + idx, 1, mask=valid)


@triton.jit
def histc_local_kernel(x_ptr, hist_ptr, n_elements, lo, hi, NUM_BINS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0)
    valid = (offs < n_elements) & (x >= lo) & (x <= hi)
    # invalid elements go to an extra bin NUM_BINS that is never merged
    idx = tl.where(valid, _bin_index(x, lo, hi, NUM_BINS), NUM_BINS)
    local = tl.histogram(idx, 2 * NUM_BINS)
    bins = tl.arange(0, 2 * NUM_BINS)
    tl.atomic_add(hist_ptr + bins, local, mask=bins < NUM_BINS)


def histc(x: torch.Tensor, bins: int = 256, lo: float = -4.0, hi: float = 4.0, local: bool = False) -> torch.Tensor:
    assert bins & (bins - 1) == 0, "power-of-two bin counts only"
    hist = torch.zeros(bins, dtype=torch.int32, device=x.device)
    n = x.numel()
    BLOCK_SIZE = 4096
    kernel = histc_local_kernel if local else histc_atomic_kernel
    kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, hist, n, lo, hi, NUM_BINS=bins, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return hist
