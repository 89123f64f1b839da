"""Write freshly computed keys and values into a paged KV cache.

key, value: (num_tokens, num_heads, head_size). key_cache, value_cache:
(num_blocks, block_size, num_heads, head_size). slot_mapping[t] is the flat slot
(block * block_size + offset) of token t, or -1 for padding tokens, which are skipped.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def reshape_and_cache_kernel(
    key_ptr, value_ptr, key_cache_ptr, value_cache_ptr, slot_mapping_ptr,
    key_stride, value_stride,
    block_stride, page_stride,
    num_heads, head_size,
    block_size: tl.constexpr,
    TILE_SIZE: tl.constexpr,
):
    token_idx = tl.program_id(0)
    slot_idx = tl.load(slot_mapping_ptr + token_idx).to(tl.int64)
    if slot_idx < 0:
        return

    block_idx = slot_idx // block_size
    block_offset = slot_idx % block_size
    n_values = num_heads * head_size

    src_key = key_ptr + token_idx * key_stride
    src_value = value_ptr + token_idx * value_stride
    dst = block_idx * block_stride + block_offset * page_stride

    for i in range(0, n_values, TILE_SIZE):
        offs = i + tl.arange(0, TILE_SIZE)
        m = offs < n_values
        k = tl.load(src_key + offs, mask=m)
        v = tl.load(src_value + offs, mask=m)
        tl.store(key_cache_ptr + dst + offs, k, mask=m)
        tl.store(value_cache_ptr + dst + offs, v, mask=m)


def reshape_and_cache(key, value, key_cache, value_cache, slot_mapping):
    num_tokens, num_heads, head_size = key.shape
    block_size = key_cache.shape[1]
    n = num_heads * head_size
    TILE_SIZE = min(2048, triton.next_power_of_2(n))
    reshape_and_cache_kernel[(num_tokens,)](
        key, value, key_cache, value_cache, slot_mapping,
        key.stride(0), value.stride(0), key_cache.stride(0), key_cache.stride(1),
        num_heads, head_size, block_size=block_size, TILE_SIZE=TILE_SIZE,
    )
