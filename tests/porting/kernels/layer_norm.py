"""LayerNorm forward for hidden sizes that fit one block: the whole row is loaded once,
mean and variance come from two in-register reductions, and the per-row statistics
are saved for the backward pass.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd_kernel(
    X, Y, W, B, Mean, Rstd,
    stride_x_row, stride_y_row,
    N, eps,
    BLOCK_N: tl.constexpr,
):
    row = tl.program_id(0)
    X += row * stride_x_row
    Y += row * stride_y_row
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N

    x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xbar = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xbar * xbar, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)

    w = tl.load(W + cols, mask=mask).to(tl.float32)
    b = tl.load(B + cols, mask=mask).to(tl.float32)
    y = tl.fma(xbar * rstd, w, b)
    tl.store(Y + cols, y.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def layer_norm_bwd_dx_fused_kernel(
    DX, DY, DW_acc, DB_acc, X, W, Mean, Rstd, Locks,
    stride_row, N,
    GROUP_SIZE_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    """dX for one row, plus this row's share of dW and dB added into one of GROUP_SIZE_M
    fp32 accumulator rows (zeroed by the caller) under a per-row-group spin lock."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    X += row * stride_row
    DY += row * stride_row
    DX += row * stride_row

    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)

    xhat = tl.where(mask, (x - mean) * rstd, 0.0)
    wdy = tl.where(mask, w * dy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx.to(DX.dtype.element_ty), mask=mask)

    group = row % GROUP_SIZE_M
    lock = Locks + group
    dw_ptrs = DW_acc + group * N + cols
    db_ptrs = DB_acc + group * N + cols
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    tl.store(dw_ptrs, tl.load(dw_ptrs, mask=mask) + dy * xhat, mask=mask)
    tl.store(db_ptrs, tl.load(db_ptrs, mask=mask) + dy, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


class LayerNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, normalized_shape, weight, bias, eps=1e-5):
        x_2d = x.reshape(-1, x.shape[-1])
        M, N = x_2d.shape
        y = torch.empty_like(x_2d)
        mean = torch.empty((M,), dtype=torch.float32, device=x.device)
        rstd = torch.empty((M,), dtype=torch.float32, device=x.device)
        BLOCK_N = triton.next_power_of_2(N)
        if N * x.element_size() > 65536:
            raise RuntimeError("this layer norm does not support feature dims >= 64KB")
        num_warps = min(max(BLOCK_N // 256, 1), 8)
        layer_norm_fwd_kernel[(M,)](x_2d, y, weight, bias, mean, rstd, x_2d.stride(0), y.stride(0), N, eps,
                                    BLOCK_N=BLOCK_N, num_warps=num_warps)
        ctx.save_for_backward(x, weight, bias, mean, rstd)
        return y.view_as(x)

    @staticmethod
    def backward(ctx, dy):
        x, weight, bias, mean, rstd = ctx.saved_tensors
        x_2d = x.reshape(-1, x.shape[-1])
        dy = dy.reshape(x_2d.shape).contiguous()
        M, N = x_2d.shape
        GROUP_SIZE_M = 64 if N <= 8192 else 32
        dw_acc = torch.zeros((GROUP_SIZE_M, N), dtype=torch.float32, device=x.device)
        db_acc = torch.zeros((GROUP_SIZE_M, N), dtype=torch.float32, device=x.device)
        locks = torch.zeros(GROUP_SIZE_M, dtype=torch.int32, device=x.device)
        dx = torch.empty_like(dy)
        BLOCK_N = triton.next_power_of_2(N)
        layer_norm_bwd_dx_fused_kernel[(M,)](dx, dy, dw_acc, db_acc, x_2d, weight, mean, rstd, locks,
                                             x_2d.stride(0), N, GROUP_SIZE_M=GROUP_SIZE_M, BLOCK_N=BLOCK_N,
                                             num_warps=min(max(BLOCK_N // 256, 1), 8))
        dw = dw_acc.sum(0).to(weight.dtype)
        db = db_acc.sum(0).to(bias.dtype)
        return dx.view_as(x), None, dw, db, None
