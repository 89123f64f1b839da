"""Matrix-vector product for the decode phase of LLM inference: y = W @ x with W (N, K)
row-major fp16, x (K,), y (N,). Each program owns BLOCK_N rows and walks K with block
pointers; boundary_check keeps the edges in bounds without hand-written masks.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def gemv_kernel(w_ptr, x_ptr, y_ptr, N, K, stride_wn, stride_wk,
                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    w_block = tl.make_block_ptr(base=w_ptr, shape=(N, K), strides=(stride_wn, stride_wk),
                                offsets=(pid * BLOCK_N, 0), block_shape=(BLOCK_N, BLOCK_K), order=(1, 0))
    x_block = tl.make_block_ptr(base=x_ptr, shape=(K,), strides=(1,), offsets=(0,),
                                block_shape=(BLOCK_K,), order=(0,))
    acc = tl.zeros((BLOCK_N, BLOCK_K), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):
        w = tl.load(w_block, boundary_check=(0, 1), padding_option="zero")
        x = tl.load(x_block, boundary_check=(0,), padding_option="zero", cache_modifier=".cg")
        acc += w.to(tl.float32) * x.to(tl.float32)[None, :]
        w_block = tl.advance(w_block, (0, BLOCK_K))
        x_block = tl.advance(x_block, (BLOCK_K,))
    y = tl.sum(acc, axis=1)
    y_block = tl.make_block_ptr(base=y_ptr, shape=(N,), strides=(1,), offsets=(pid * BLOCK_N,),
                                block_shape=(BLOCK_N,), order=(0,))
    tl.store(y_block, y.to(y_ptr.type.element_ty), boundary_check=(0,))


def gemv(weight: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    N, K = weight.shape
    y = torch.empty(N, dtype=x.dtype, device=x.device)
    BLOCK_N, BLOCK_K = 16, 256
    gemv_kernel[(triton.cdiv(N, BLOCK_N),)](weight, x, y, N, K, weight.stride(0), weight.stride(1),
                                            BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4)
    return y
