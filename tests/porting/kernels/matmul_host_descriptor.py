"""fp16 GEMM over tensor descriptors made on the host (triton.tools.tensor_descriptor's
TensorDescriptor), the form Triton 3.x's Hopper matmuls take: the kernel only names
block offsets; the descriptors carry the base, shape, strides and block shape, and
their block shapes must match the constexprs the kernel is launched with.

a: (M, K), b: (K, N), c: (M, N), all row-major with K and N multiples of 8.
"""
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def matmul_host_descriptor_kernel(a_desc, b_desc, c_desc, M, N, K,
                                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                  BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    offs_am = pid_m * BLOCK_M
    offs_bn = pid_n * BLOCK_N
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        offs_k = k * BLOCK_K
        a = a_desc.load([offs_am, offs_k])
        b = b_desc.load([offs_k, offs_bn])
        accumulator = tl.dot(a, b, accumulator)
    c_desc.store([offs_am, offs_bn], accumulator.to(tl.float16))


def matmul_host_descriptor(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 64
    a_desc = TensorDescriptor(a, a.shape, a.stride(), [BLOCK_M, BLOCK_K])
    b_desc = TensorDescriptor(b, b.shape, b.stride(), [BLOCK_K, BLOCK_N])
    c_desc = TensorDescriptor(c, c.shape, c.stride(), [BLOCK_M, BLOCK_N])
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    matmul_host_descriptor_kernel[grid](a_desc, b_desc, c_desc, M, N, K, BLOCK_M=BLOCK_M,
                                        BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=8,
                                        num_stages=3)
    return c
