"""A fused linear layer: y = act(x @ w + bias), with the bias optional (pass None) and the
activation chosen at compile time. EVEN_K lets the K loop drop its masks when the
reduction length is a multiple of the tile, as GEMM libraries specialize it.
"""
import torch
import triton
import triton.language as tl

try:
    from triton.language.extra import libdevice
except ImportError:
    from triton.language.extra.cuda import libdevice


@triton.jit
def leaky_relu(x, negative_slope):
    return tl.where(x >= 0, x, x * negative_slope)


@triton.jit
def fast_gelu(x):
    return 0.5 * x * (1.0 + libdevice.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


@triton.heuristics({
    "EVEN_K": lambda args: args["K"] % args["BLOCK_K"] == 0,
    "HAS_BIAS": lambda args: args["bias_ptr"] is not None,
})
@triton.jit
def linear_act_kernel(
    x_ptr, w_ptr, bias_ptr, y_ptr,
    M, N, K,
    stride_xm, stride_xk,
    stride_wk, stride_wn,
    stride_ym, stride_yn,
    ACTIVATION: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
    EVEN_K: tl.constexpr, HAS_BIAS: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk
    w_ptrs = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn
    m_mask = offs_m[:, None] < M
    n_mask = offs_n[None, :] < N

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        if EVEN_K:
            a = tl.load(x_ptrs, mask=m_mask, other=0.0)
            b = tl.load(w_ptrs, mask=n_mask, other=0.0)
        else:
            a = tl.load(x_ptrs, mask=m_mask & (offs_k[None, :] + k < K), other=0.0)
            b = tl.load(w_ptrs, mask=n_mask & (offs_k[:, None] + k < K), other=0.0)
        acc += tl.dot(a, b)
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk

    if HAS_BIAS:
        bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)
        acc += bias[None, :]
    if ACTIVATION == "relu":
        acc = tl.maximum(acc, 0.0)
    elif ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc, 0.01)
    elif ACTIVATION == "gelu":
        acc = fast_gelu(acc)

    y_ptrs = y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :] * stride_yn
    tl.store(y_ptrs, acc.to(y_ptr.dtype.element_ty), mask=m_mask & n_mask)


def linear_act(x: torch.Tensor, weight_t: torch.Tensor, bias=None, activation: str = ""):
    """x: (M, K), weight_t: (K, N) (the transposed nn.Linear weight)."""
    M, K = x.shape
    N = weight_t.shape[1]
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 64, 32
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    linear_act_kernel[grid](
        x, weight_t, bias, y, M, N, K,
        x.stride(0), x.stride(1), weight_t.stride(0), weight_t.stride(1), y.stride(0), y.stride(1),
        ACTIVATION=activation, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
        num_warps=4, num_stages=3,
    )
    return y
