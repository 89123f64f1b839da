"""Unpack GPTQ-style 4-bit weights to fp16.

qweight is int32 (K // 8, N): eight 4-bit values of consecutive k packed per word, lowest
nibble first. Quantization groups of GROUP_SIZE rows of k share a scale and a zero
point per column; zeros are packed along N the same way (G, N // 8).
w[k, n] = (q[k, n] - z[g, n]) * scale[g, n], g = k // GROUP_SIZE.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def dequant_int4_kernel(qweight_ptr, scales_ptr, qzeros_ptr, out_ptr,
                        K, N,
                        stride_qk, stride_sg, stride_zg, stride_ok,
                        GROUP_SIZE: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_k = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_k[:, None] < K) & (offs_n[None, :] < N)

    packed = tl.load(qweight_ptr + (offs_k[:, None] // 8) * stride_qk + offs_n[None, :], mask=mask, other=0)
    shift = (offs_k[:, None] % 8) * 4
    q = (packed >> shift) & 0xF

    g = offs_k // GROUP_SIZE
    scale = tl.load(scales_ptr + g[:, None] * stride_sg + offs_n[None, :], mask=mask, other=0.0)
    zpacked = tl.load(qzeros_ptr + g[:, None] * stride_zg + (offs_n[None, :] // 8), mask=mask, other=0)
    z = (zpacked >> ((offs_n[None, :] % 8) * 4)) & 0xF

    w = (q - z).to(tl.float32) * scale.to(tl.float32)
    tl.store(out_ptr + offs_k[:, None] * stride_ok + offs_n[None, :], w.to(tl.float16), mask=mask)


def dequant_int4(qweight, scales, qzeros, group_size=128):
    K = qweight.shape[0] * 8
    N = qweight.shape[1]
    out = torch.empty((K, N), dtype=torch.float16, device=qweight.device)
    BLOCK_K, BLOCK_N = 64, 128
    grid = (triton.cdiv(K, BLOCK_K), triton.cdiv(N, BLOCK_N))
    dequant_int4_kernel[grid](qweight, scales, qzeros, out, K, N,
                              qweight.stride(0), scales.stride(0), qzeros.stride(0), out.stride(0),
                              GROUP_SIZE=group_size, BLOCK_K=BLOCK_K, BLOCK_N=BLOCK_N)
    return out
