"""Rotary position embedding applied in place to q and k, one program per (batch, position).

q is (batch, seq, n_q_heads, head_dim) and k is (batch, seq, n_kv_heads, head_dim), both
contiguous; cos and sin are (seq, head_dim) tables in the Hugging Face layout (each half
repeats the frequencies), so only their first half is read. Heads are padded to powers
of two and masked.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def rope_fwd_kernel(
    q_ptr, q_row_stride,
    k_ptr, k_row_stride,
    cos_ptr, cos_row_stride,
    sin_ptr, sin_row_stride,
    seq_len,
    n_qh: tl.constexpr, n_kh: tl.constexpr, hd: tl.constexpr,
    pad_n_qh: tl.constexpr, pad_n_kh: tl.constexpr, pad_hd: tl.constexpr,
    BACKWARD_PASS: tl.constexpr = False,
):
    pid = tl.program_id(0)
    q_ptr = q_ptr + pid * q_row_stride
    k_ptr = k_ptr + pid * k_row_stride

    pos = pid % seq_len
    half = tl.arange(0, pad_hd // 2)
    half_mask = half < hd // 2
    cos_row = tl.load(cos_ptr + pos * cos_row_stride + half, mask=half_mask, other=0)
    sin_row = tl.load(sin_ptr + pos * sin_row_stride + half, mask=half_mask, other=0)
    sin_row = -sin_row if BACKWARD_PASS else sin_row

    q_first = tl.arange(0, pad_n_qh)[:, None] * hd + half[None, :]
    k_first = tl.arange(0, pad_n_kh)[:, None] * hd + half[None, :]
    q_mask = (tl.arange(0, pad_n_qh)[:, None] < n_qh) & half_mask[None, :]
    k_mask = (tl.arange(0, pad_n_kh)[:, None] < n_kh) & half_mask[None, :]

    q1 = tl.load(q_ptr + q_first, mask=q_mask, other=0).to(sin_row.dtype)
    q2 = tl.load(q_ptr + q_first + hd // 2, mask=q_mask, other=0).to(sin_row.dtype)
    k1 = tl.load(k_ptr + k_first, mask=k_mask, other=0).to(sin_row.dtype)
    k2 = tl.load(k_ptr + k_first + hd // 2, mask=k_mask, other=0).to(sin_row.dtype)

    tl.store(q_ptr + q_first, q1 * cos_row - q2 * sin_row, mask=q_mask)
    tl.store(q_ptr + q_first + hd // 2, q2 * cos_row + q1 * sin_row, mask=q_mask)
    tl.store(k_ptr + k_first, k1 * cos_row - k2 * sin_row, mask=k_mask)
    tl.store(k_ptr + k_first + hd // 2, k2 * cos_row + k1 * sin_row, mask=k_mask)


def rope_forward(q, k, cos, sin):
    batch, seq_len, n_q_head, head_dim = q.shape
    n_kv_head = k.shape[2]
    pad_hd = triton.next_power_of_2(head_dim)
    q = q.contiguous()
    k = k.contiguous()
    cos = cos.contiguous()
    sin = sin.contiguous()
    rope_fwd_kernel[(batch * seq_len,)](
        q, q.stride(1), k, k.stride(1), cos, cos.stride(-2), sin, sin.stride(-2), seq_len,
        n_q_head, n_kv_head, head_dim,
        triton.next_power_of_2(n_q_head), triton.next_power_of_2(n_kv_head), pad_hd,
        BACKWARD_PASS=False,
    )
    return q, k
