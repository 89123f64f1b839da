"""Row-wise max/argmax, as used for greedy decoding over a vocabulary.

argmax_long_rows_kernel walks rows longer than a block chunk by chunk and keeps the best
(value, index) seen so far, preferring the earlier index on ties like torch.argmax.
argmax_small_rows_kernel handles many short rows per program with a 2-D tile.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def argmax_long_rows_kernel(x_ptr, max_ptr, idx_ptr, stride_row, n_cols, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row.to(tl.int64) * stride_row
    best_val = float("-inf")
    best_idx = 0
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        chunk_max, chunk_arg = tl.max(x, axis=0, return_indices=True)
        better = chunk_max > best_val
        best_idx = tl.where(better, start + chunk_arg, best_idx)
        best_val = tl.where(better, chunk_max, best_val)
    tl.store(max_ptr + row, best_val)
    tl.store(idx_ptr + row, best_idx.to(tl.int64))


@triton.jit
def argmax_small_rows_kernel(x_ptr, idx_ptr, n_rows, n_cols, stride_row,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride_row + cols[None, :], mask, -float("inf"))
    idx = tl.argmax(x, axis=1)
    tl.store(idx_ptr + rows, idx, mask=rows < n_rows)


def max_argmax(logits: torch.Tensor):
    n_rows, n_cols = logits.shape
    values = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    indices = torch.empty(n_rows, dtype=torch.int64, device=logits.device)
    argmax_long_rows_kernel[(n_rows,)](logits, values, indices, logits.stride(0), n_cols, BLOCK_N=4096, num_warps=8)
    return values, indices


def argmax_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty(n_rows, dtype=torch.int32, device=x.device)
    BLOCK_N = triton.next_power_of_2(n_cols)
    BLOCK_M = max(1, 4096 // BLOCK_N)
    argmax_small_rows_kernel[(triton.cdiv(n_rows, BLOCK_M),)](x, out, n_rows, n_cols, x.stride(0),
                                                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    return out
