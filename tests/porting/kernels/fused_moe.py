"""Grouped GEMM of a mixture-of-experts layer: each (token, choice) slot is multiplied by
the weight of the expert the router picked for it.

The slots are pre-sorted by expert and each expert's list is padded to a multiple of
BLOCK_M (padding entries hold num_valid_tokens), so a block of BLOCK_M sorted slots
belongs to one expert: expert_ids[block]. Rows of A are gathered through the sorted
ids (slot // top_k is the token), and results are scattered back to slot order,
optionally scaled by the routing weight.

a: (num_tokens, K); b: (num_experts, N, K) (nn.Linear layout, so B^T is read);
c: (num_tokens * top_k, N).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def fused_moe_kernel(
    a_ptr, b_ptr, c_ptr,
    topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr,
    N, K, EM, num_valid_tokens,
    stride_am, stride_ak,
    stride_be, stride_bn, stride_bk,
    stride_cm, stride_cn,
    MUL_ROUTED_WEIGHT: tl.constexpr,
    top_k: tl.constexpr,
    compute_type: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(EM, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pids_per_group = GROUP_M * num_pid_n
    first_m = (pid // pids_per_group) * GROUP_M
    rows_in_group = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % pids_per_group) % rows_in_group
    pid_n = (pid % pids_per_group) // rows_in_group

    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_M >= num_tokens_post_padded:
        return

    offs_slot = pid_m * BLOCK_M + tl.arange(0, BLOCK_M).to(tl.int64)
    slot = tl.load(sorted_token_ids_ptr + offs_slot)
    slot_mask = slot < num_valid_tokens
    expert = tl.load(expert_ids_ptr + pid_m).to(tl.int64)

    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N).to(tl.int64)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (slot[:, None] // top_k * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + expert * stride_be + (offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=slot_mask[:, None] & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    if MUL_ROUTED_WEIGHT:
        w = tl.load(topk_weights_ptr + slot, mask=slot_mask, other=0)
        acc = acc * w[:, None]
    acc = acc.to(compute_type)

    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * slot[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, acc, mask=slot_mask[:, None] & (offs_cn[None, :] < N))


def moe_align_block_size(topk_ids: torch.Tensor, block_m: int, num_experts: int):
    """Host-side version of the sort-and-pad step (real engines do it in a kernel)."""
    flat = topk_ids.flatten()
    num_valid = flat.numel()
    sorted_ids, expert_ids = [], []
    for e in range(num_experts):
        slots = (flat == e).nonzero().flatten().tolist()
        pad = (-len(slots)) % block_m
        slots += [num_valid] * pad
        sorted_ids += slots
        expert_ids += [e] * (len(slots) // block_m)
    device = topk_ids.device
    return (torch.tensor(sorted_ids, dtype=torch.int32, device=device),
            torch.tensor(expert_ids, dtype=torch.int32, device=device),
            torch.tensor([len(sorted_ids)], dtype=torch.int32, device=device))


def fused_moe_gemm(a, w, topk_weights, topk_ids, mul_routed_weight=True, block_m=64):
    num_tokens, K = a.shape
    num_experts, N, _ = w.shape
    top_k = topk_ids.shape[1]
    sorted_ids, expert_ids, num_post_padded = moe_align_block_size(topk_ids, block_m, num_experts)
    c = torch.empty((num_tokens * top_k, N), dtype=a.dtype, device=a.device)
    EM = sorted_ids.numel()
    grid = lambda meta: (triton.cdiv(EM, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
    fused_moe_kernel[grid](
        a, w, c, topk_weights, sorted_ids, expert_ids, num_post_padded,
        N, K, EM, topk_ids.numel(),
        a.stride(0), a.stride(1), w.stride(0), w.stride(1), w.stride(2), c.stride(0), c.stride(1),
        MUL_ROUTED_WEIGHT=mul_routed_weight, top_k=top_k,
        compute_type=tl.bfloat16 if a.dtype == torch.bfloat16 else tl.float16,
        BLOCK_M=block_m, BLOCK_N=64, BLOCK_K=32, GROUP_M=8, num_warps=4, num_stages=3,
    )
    return c
