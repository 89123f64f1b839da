"""Out-of-place 2-D transpose, out[j, i] = x[i, j], tiled so both the read and the write are
coalesced; strides come in as arguments so views work. The block-pointer variant lets
boundary_check do the edge masking.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, out_ptr, M, N, stride_xm, stride_xn, stride_om, stride_on,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tile = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :] * stride_xn, mask=mask)
    # out has shape (N, M): element (n, m) of out is element (m, n) of x
    out_ptrs = out_ptr + rn[:, None] * stride_om + rm[None, :] * stride_on
    tl.store(out_ptrs, tl.trans(tile), mask=tl.trans(mask))


@triton.jit
def transpose_block_ptr_kernel(x_ptr, out_ptr, M, N, stride_xm, stride_xn, stride_om, stride_on,
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(stride_xm, stride_xn),
                            offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N),
                            order=(1, 0))
    dst = tl.make_block_ptr(out_ptr, shape=(N, M), strides=(stride_om, stride_on),
                            offsets=(pid_n * BLOCK_N, pid_m * BLOCK_M), block_shape=(BLOCK_N, BLOCK_M),
                            order=(1, 0))
    tile = tl.load(src, boundary_check=(0, 1), padding_option="zero")
    tl.store(dst, tile.T, boundary_check=(0, 1))


def transpose(x: torch.Tensor, use_block_ptr: bool = False) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty((N, M), dtype=x.dtype, device=x.device)
    BLOCK_M, BLOCK_N = 64, 64
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    kernel = transpose_block_ptr_kernel if use_block_ptr else transpose_kernel
    kernel[grid](x, out, M, N, x.stride(0), x.stride(1), out.stride(0), out.stride(1),
                 BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    return out
