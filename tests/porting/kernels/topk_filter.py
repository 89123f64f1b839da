"""Top-k logit filtering for sampling: every logit below the k-th largest of its row becomes
-inf (ties with the k-th value are kept, as in the usual masked_fill formulation).
The k-th value comes from a descending tl.sort of the row; k may differ per row.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def topk_filter_kernel(logits_ptr, out_ptr, k_ptr, stride_row, vocab, BLOCK_V: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_V)
    mask = offs < vocab
    x = tl.load(logits_ptr + row * stride_row + offs, mask=mask, other=float("-inf")).to(tl.float32)
    k = tl.load(k_ptr + row)
    ranked = tl.sort(x, descending=True)
    kth = tl.max(tl.where(offs == k - 1, ranked, float("-inf")), axis=0)
    y = tl.where(x >= kth, x, float("-inf"))
    tl.store(out_ptr + row * stride_row + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


def topk_filter(logits: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    n_rows, vocab = logits.shape
    block = triton.next_power_of_2(vocab)
    assert block <= 8192, "one row per program: small vocabularies (or a pre-filtered candidate set)"
    out = torch.empty_like(logits)
    topk_filter_kernel[(n_rows,)](logits, out, k.to(torch.int32), logits.stride(0), vocab, BLOCK_V=block,
                                  num_warps=8)
    return out
