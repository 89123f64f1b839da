"""Embedding lookup and its backward.

The forward gathers rows of the table by token id (int64 ids, 64-bit row offsets) with
a 2-D grid over (token blocks, embedding-dim blocks). The backward scatters the output
gradient back into an fp32 weight gradient with atomics, since several tokens may share
an id.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def embedding_fwd_kernel(
    ids_ptr, weight_ptr, out_ptr,
    n_tokens, vocab_size, embedding_dim,
    stride_w, stride_out,
    BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr,
):
    pid_t = tl.program_id(0)
    pid_d = tl.program_id(1)
    offs_t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    t_mask = offs_t < n_tokens
    d_mask = offs_d < embedding_dim

    ids = tl.load(ids_ptr + offs_t, mask=t_mask, other=0)
    tl.device_assert((ids >= 0) & (ids < vocab_size), "token id out of range")
    rows = tl.load(weight_ptr + ids[:, None] * stride_w + offs_d[None, :],
                   mask=t_mask[:, None] & d_mask[None, :], other=0.0)
    tl.store(out_ptr + offs_t[:, None].to(tl.int64) * stride_out + offs_d[None, :], rows,
             mask=t_mask[:, None] & d_mask[None, :])


@triton.jit
def embedding_bwd_kernel(ids_ptr, grad_out_ptr, grad_weight_ptr, n_tokens, embedding_dim, stride_gout, stride_gw,
                         BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)[:, None]
    dim = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)[None, :]
    mask = (tok < n_tokens) & (dim < embedding_dim)
    ids = tl.load(ids_ptr + tok, mask=tok < n_tokens, other=0)
    g = tl.load(grad_out_ptr + tok * stride_gout + dim, mask=mask, other=0.0)
    tl.atomic_add(grad_weight_ptr + ids * stride_gw + dim, g.to(tl.float32), mask=mask)


def embedding(ids: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    flat = ids.reshape(-1)
    n_tokens = flat.numel()
    vocab, dim = weight.shape
    out = torch.empty((n_tokens, dim), dtype=weight.dtype, device=weight.device)
    BLOCK_T, BLOCK_D = 32, 128
    grid = (triton.cdiv(n_tokens, BLOCK_T), triton.cdiv(dim, BLOCK_D))
    embedding_fwd_kernel[grid](flat, weight, out, n_tokens, vocab, dim, weight.stride(0), out.stride(0),
                               BLOCK_T=BLOCK_T, BLOCK_D=BLOCK_D)
    return out.view(*ids.shape, dim)


def embedding_backward(ids: torch.Tensor, grad_out: torch.Tensor, vocab: int) -> torch.Tensor:
    flat = ids.reshape(-1)
    n_tokens = flat.numel()
    dim = grad_out.shape[-1]
    grad_out = grad_out.reshape(n_tokens, dim)
    grad_weight = torch.zeros((vocab, dim), dtype=torch.float32, device=grad_out.device)
    BLOCK_T, BLOCK_D = 16, 256
    grid = (triton.cdiv(n_tokens, BLOCK_T), triton.cdiv(dim, BLOCK_D))
    embedding_bwd_kernel[grid](flat, grad_out, grad_weight, n_tokens, dim, grad_out.stride(0),
                               grad_weight.stride(0), BLOCK_T=BLOCK_T, BLOCK_D=BLOCK_D)
    return grad_weight
