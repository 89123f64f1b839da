"""Cross-entropy forward that also leaves the gradient in place of the logits (so the
backward is a scale), with ignore_index and label smoothing, one row per program.

Rows whose label is ignored zero their logits and return early. The log-sum-exp is
computed online in a single sweep; a second sweep turns each logit into its gradient.
"""
import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536 // 2


@triton.jit
def cross_entropy_fwd_kernel(
    logits_ptr,
    logits_row_stride,
    labels_ptr,
    loss_ptr,
    lse_ptr,
    n_cols,
    n_non_ignore,
    ignore_index,
    label_smoothing,
    HAS_SMOOTHING: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    logits_ptr += row * logits_row_stride
    label = tl.load(labels_ptr + row)

    if label == ignore_index:
        for start in range(0, n_cols, BLOCK_SIZE):
            cols = start + tl.arange(0, BLOCK_SIZE)
            tl.store(logits_ptr + cols, 0.0, mask=cols < n_cols)
        tl.store(loss_ptr + row, 0.0)
        tl.store(lse_ptr + row, 0.0)
        return

    running_max = float("-inf")
    running_sum = 0.0
    logit_sum = 0.0
    label_logit = tl.load(logits_ptr + label).to(tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(logits_ptr + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        if HAS_SMOOTHING:
            logit_sum += tl.sum(tl.where(cols < n_cols, x, 0.0))
        new_max = tl.maximum(running_max, tl.max(x, axis=0))
        running_sum = running_sum * tl.exp(running_max - new_max) + tl.sum(tl.exp(x - new_max))
        running_max = new_max
    lse = running_max + tl.log(running_sum)

    loss = lse - label_logit
    if HAS_SMOOTHING:
        # the smoothed target puts label_smoothing / n_cols on every class
        smooth = label_smoothing / n_cols
        loss = (1.0 - label_smoothing) * loss + label_smoothing * (lse - logit_sum / n_cols)

    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(logits_ptr + cols, mask=mask, other=float("-inf")).to(tl.float32)
        grad = tl.exp(x - lse)
        if HAS_SMOOTHING:
            grad = grad - smooth
            grad = tl.where(cols == label, grad - (1.0 - label_smoothing), grad)
        else:
            grad = tl.where(cols == label, grad - 1.0, grad)
        grad = grad / n_non_ignore
        tl.store(logits_ptr + cols, grad.to(logits_ptr.dtype.element_ty), mask=mask)

    tl.store(loss_ptr + row, loss / n_non_ignore)
    tl.store(lse_ptr + row, lse)


def cross_entropy_forward(logits, labels, ignore_index=-100, label_smoothing=0.0):
    """Returns the mean loss; `logits` holds d(loss)/d(logits) afterwards."""
    n_rows, n_cols = logits.shape
    block = min(MAX_FUSED_SIZE, triton.next_power_of_2(n_cols))
    loss = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    lse = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    n_non_ignore = int((labels != ignore_index).sum().item())
    cross_entropy_fwd_kernel[(n_rows,)](
        logits, logits.stride(0), labels, loss, lse,
        n_cols, max(n_non_ignore, 1), ignore_index, label_smoothing,
        HAS_SMOOTHING=label_smoothing > 0.0, BLOCK_SIZE=block, num_warps=32 if block >= 32768 else 8,
    )
    return loss.sum()
