//===- Prelude.cpp - triton.language functions written in the language ---===//
//
// Triton's random numbers, the reductions it writes with a combine
// function (cumprod, xor_sum), swizzle2d, ravel, and join, split, interleave,
// cat, flip, sort and topk (a bitonic network), gather, and dot_scaled
// (microscaled operands decoded to bf16) built from where, broadcasts,
// reshapes and reductions (correct for every value;
// a dedicated layout would make them cheaper). The random numbers: Philox 4x32 with 10
// rounds keyed by the seed, counting from the offsets (a 64-bit offset fills
// two counter words), so that a seed and offsets give the numbers Triton
// gives (philox() itself runs Philox 4x64 on 64-bit counters); uniform
// floats from the top 31 bits as Triton scales them, normals by Box-Muller.
// Only `tl.`-qualified calls, the prelude's own combine functions (looked up
// here first) and no module-level names are used, so the user's module
// cannot change what these functions mean.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Prelude.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilec;

static constexpr const char *kPrelude = R"tile(import triton.language as tl


def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr = 10):
    # 32-bit counters are u32; 64-bit ones are computed as i64 (the same bits;
    # umulhi is unsigned either way) because the 64-bit constants do not fit
    # a signed literal.
    if c0.dtype == tl.uint32:
        key_a: tl.constexpr = 0x9E3779B9
        key_b: tl.constexpr = 0xBB67AE85
        mul_a: tl.constexpr = 0xD2511F53
        mul_b: tl.constexpr = 0xCD9E8D57
    else:
        tl.static_assert(c0.dtype == tl.int64, "philox counters are 32 or 64 bits wide")
        key_a: tl.constexpr = -7046029254386353131
        key_b: tl.constexpr = -4942790177534073029
        mul_a: tl.constexpr = -3249550476889527149
        mul_b: tl.constexpr = -3865633965929787049
    for _ in tl.static_range(n_rounds):
        prev_c0 = c0
        prev_c2 = c2
        c0 = tl.umulhi(mul_b, prev_c2) ^ c1 ^ k0
        c2 = tl.umulhi(mul_a, prev_c0) ^ c3 ^ k1
        c1 = mul_b * prev_c2
        c3 = mul_a * prev_c0
        k0 = k0 + key_a
        k1 = k1 + key_b
    return c0, c1, c2, c3


def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = 10):
    tl.static_assert(c0.dtype.is_int(), "philox counters must be integers")
    seed = tl.cast(seed, tl.uint64)
    if c0.dtype.primitive_bitwidth == 32:
        seed_lo = (seed & 0xFFFFFFFF).to(tl.uint32)
        seed_hi = ((seed >> 32) & 0xFFFFFFFF).to(tl.uint32)
        return tl.philox_impl(c0.to(tl.uint32, bitcast=True), c1.to(tl.uint32, bitcast=True),
                              c2.to(tl.uint32, bitcast=True), c3.to(tl.uint32, bitcast=True),
                              seed_lo, seed_hi, n_rounds)
    tl.static_assert(c0.dtype.primitive_bitwidth == 64, "philox counters are 32 or 64 bits wide")
    key = seed.to(tl.int64, bitcast=True)
    r0, r1, r2, r3 = tl.philox_impl(c0.to(tl.int64, bitcast=True), c1.to(tl.int64, bitcast=True),
                                    c2.to(tl.int64, bitcast=True), c3.to(tl.int64, bitcast=True),
                                    key, key * 0, n_rounds)
    return (r0.to(tl.uint64, bitcast=True), r1.to(tl.uint64, bitcast=True),
            r2.to(tl.uint64, bitcast=True), r3.to(tl.uint64, bitcast=True))


def randint4x(seed, offset, n_rounds: tl.constexpr = 10):
    # 32-bit Philox; a 64-bit offset is the counter's low and high words.
    tl.static_assert(offset.dtype.is_int(), "random offsets must be integers")
    low = offset.to(tl.uint32)
    zero = low * 0
    if offset.dtype.primitive_bitwidth > 32:
        high = (offset >> 32).to(tl.uint32)
    else:
        high = zero
    return tl.philox(seed, low, high, zero, zero, n_rounds)


def randint(seed, offset, n_rounds: tl.constexpr = 10):
    r0, r1, r2, r3 = tl.randint4x(seed, offset, n_rounds)
    return r0


def uint_to_uniform_float(x):
    # The largest scale with which the largest 31-bit value stays below 1.0.
    if x.dtype.primitive_bitwidth == 32:
        x = x.to(tl.int32, bitcast=True)
        scale = 4.6566127342e-10
    else:
        tl.static_assert(x.dtype.primitive_bitwidth == 64, "expected 32- or 64-bit integers")
        x = x.to(tl.int64, bitcast=True)
        scale = 1.0842020432385337e-19
    x = tl.where(x < 0, -x - 1, x)
    return x * scale


def rand(seed, offset, n_rounds: tl.constexpr = 10):
    return tl.uint_to_uniform_float(tl.randint(seed, offset, n_rounds))


def rand4x(seed, offset, n_rounds: tl.constexpr = 10):
    r0, r1, r2, r3 = tl.randint4x(seed, offset, n_rounds)
    return (tl.uint_to_uniform_float(r0), tl.uint_to_uniform_float(r1),
            tl.uint_to_uniform_float(r2), tl.uint_to_uniform_float(r3))


def pair_uniform_to_normal(u1, u2):
    u1 = tl.maximum(1.0e-7, u1)
    angle = 6.283185307179586 * u2
    radius = tl.sqrt(-2.0 * tl.log(u1))
    return radius * tl.cos(angle), radius * tl.sin(angle)


def randn(seed, offset, n_rounds: tl.constexpr = 10):
    r0, r1, r2, r3 = tl.randint4x(seed, offset, n_rounds)
    n0, n1 = tl.pair_uniform_to_normal(tl.uint_to_uniform_float(r0),
                                       tl.uint_to_uniform_float(r1))
    return n0


def randn4x(seed, offset, n_rounds: tl.constexpr = 10):
    u0, u1, u2, u3 = tl.rand4x(seed, offset, n_rounds)
    n0, n1 = tl.pair_uniform_to_normal(u0, u1)
    n2, n3 = tl.pair_uniform_to_normal(u2, u3)
    return n0, n1, n2, n3


def swizzle2d(i, j, size_i, size_j, size_g):
    # Row-major (i, j) of a size_i x size_j grid, renumbered so that groups
    # of size_g rows are walked column by column.
    linear = i * size_j + j
    group_size = size_g * size_j
    group = linear // group_size
    first_row = group * size_g
    rows = tl.minimum(size_i - first_row, size_g)
    within = linear % group_size
    return first_row + within % rows, within // rows


def ravel(x, can_reorder: tl.constexpr = False):
    return tl.reshape(x, [x.numel], can_reorder=can_reorder)


def join(a, b):
    # A new last dimension of 2: a's values at 0, b's at 1.
    a, b = tl.broadcast(a, b)
    first = tl.arange(0, 2) == 0
    return tl.where(first, tl.expand_dims(a, -1), tl.expand_dims(b, -1))


def _tilec_at_0(x, i, y, j):
    pick = i == 0
    return tl.where(pick, x, y), tl.where(pick, i, j)


def _tilec_at_1(x, i, y, j):
    pick = i == 1
    return tl.where(pick, x, y), tl.where(pick, i, j)


def split(a):
    # The two halves of a last dimension of 2, selected by index (exact for
    # any value, NaN and -0.0 included).
    tl.static_assert(len(a.shape) > 0 and a.shape[-1] == 2,
                     "split needs a tile whose last dimension is 2")
    index = tl.broadcast_to(tl.arange(0, 2), a.shape)
    x, i = tl.reduce((a, index), -1, _tilec_at_0)
    y, j = tl.reduce((a, index), -1, _tilec_at_1)
    return x, y


def interleave(a, b):
    c = tl.join(a, b)
    return tl.reshape(c, c.shape[:-2] + (2 * c.shape[-2],))


def cat(input, other, can_reorder: tl.constexpr = False):
    # Triton's cat may reorder the elements and says so: the same contract.
    tl.static_assert(can_reorder, "cat may reorder elements: pass can_reorder=True")
    tl.static_assert(input.shape == other.shape, "cat needs two tiles of one shape")
    c = tl.join(input, other)
    return tl.reshape(c, (2 * input.shape[0],) + input.shape[1:], can_reorder=True)


def _tilec_product(a, b):
    return a * b


def cumprod(input, axis: tl.constexpr = 0, reverse: tl.constexpr = False):
    if input.dtype == tl.bfloat16:
        input = input.to(tl.float32)
    return tl.associative_scan(input, axis, _tilec_product, reverse)


def _tilec_xor(a, b):
    return a ^ b


def xor_sum(input, axis: tl.constexpr = None, keep_dims: tl.constexpr = False):
    tl.static_assert(input.dtype.is_int(), "xor_sum only supports integers")
    return tl.reduce(input, axis, _tilec_xor, keep_dims)


def _tilec_log2(n: tl.constexpr):
    steps = 0
    for i in tl.static_range(31):
        if (1 << i) < n:
            steps += 1
    return steps


def _tilec_along(x, axis: tl.constexpr, rank: tl.constexpr):
    # A 1-D tile as dimension `axis` of a rank-`rank` tile (others of size 1).
    for _ in tl.static_range(axis):
        x = tl.expand_dims(x, 0)
    for _ in tl.static_range(rank - 1 - axis):
        x = tl.expand_dims(x, len(x.shape))
    return x


def _tilec_last_dim(x, dim: tl.constexpr, what: tl.constexpr):
    # Triton's sort, topk and flip work along the last dimension only.
    rank: tl.constexpr = len(x.shape)
    tl.static_assert(rank > 0, what + " needs a tile")
    if dim is not None:
        tl.static_assert(dim == rank - 1 or dim == -1,
                         what + " works along the last dimension only")
    n: tl.constexpr = x.shape[rank - 1]
    tl.static_assert(n & (n - 1) == 0, what + " needs a power-of-two last dimension")
    return n


def _tilec_swap_halves(y, axis: tl.constexpr, swap):
    # Along `axis` (of size 2): where `swap`, the two elements trade places.
    # Elements are picked by index, exact for any value (NaN, -0.0).
    index = tl.broadcast_to(tl._tilec_along(tl.arange(0, 2), axis, len(y.shape)), y.shape)
    first, i0 = tl.reduce((y, index), axis, _tilec_at_0, True)
    second, i1 = tl.reduce((y, index), axis, _tilec_at_1, True)
    partner = tl.where(index == 0, second, first)
    return tl.where(swap, partner, y)


def flip(x, dim: tl.constexpr = None):
    # The last dimension viewed as log2(n) dimensions of 2; swapping the two
    # halves of each maps index i to n - 1 - i.
    n: tl.constexpr = tl._tilec_last_dim(x, dim, "flip")
    rank: tl.constexpr = len(x.shape)
    steps: tl.constexpr = tl._tilec_log2(n)
    shape = x.shape[:rank - 1]
    for _ in tl.static_range(steps):
        shape = shape + (2,)
    y = tl.reshape(x, shape)
    for i in tl.static_range(steps):
        y = tl._tilec_swap_halves(y, rank - 1 + i, True)
    return tl.reshape(y, x.shape)


def _tilec_compare_swap(x, distance: tl.constexpr, block: tl.constexpr,
                        descending: tl.constexpr):
    # One step of a bitonic network along the last dimension: elements
    # `distance` apart are put in order, ascending where bit log2(block) of
    # their index is 0 (block 0: every pair in the order `descending` says),
    # the network Triton's sort runs, so that NaNs land where Triton's do.
    rank: tl.constexpr = len(x.shape)
    n: tl.constexpr = x.shape[rank - 1]
    groups: tl.constexpr = n // (2 * distance)
    y = tl.reshape(x, x.shape[:rank - 1] + (groups, 2, distance))
    pair = tl.broadcast_to(tl._tilec_along(tl.arange(0, 2), rank, rank + 2), y.shape)
    first, i0 = tl.reduce((y, pair), rank, _tilec_at_0, True)
    second, i1 = tl.reduce((y, pair), rank, _tilec_at_1, True)
    if block == 0:
        flipped = descending
    else:
        group = tl.arange(0, groups) * (2 * distance) // block % 2
        flipped = tl._tilec_along(group, rank - 1, rank + 2) != 0
    swap = (first > second) != flipped
    return tl.reshape(tl._tilec_swap_halves(y, rank, swap), x.shape)


def sort(x, dim: tl.constexpr = None, descending: tl.constexpr = False):
    # Bitonic sort along the last dimension: log2(n) merges, the last one in
    # the requested order.
    n: tl.constexpr = tl._tilec_last_dim(x, dim, "sort")
    steps: tl.constexpr = tl._tilec_log2(n)
    for stage in tl.static_range(1, steps + 1):
        for j in tl.static_range(stage):
            x = tl._tilec_compare_swap(x, 1 << (stage - 1 - j),
                                       (1 << stage) if stage < steps else 0, descending)
    return x


def topk(x, k: tl.constexpr, dim: tl.constexpr = None):
    # The k largest along the last dimension, largest first.
    n: tl.constexpr = tl._tilec_last_dim(x, dim, "topk")
    tl.static_assert(k & (k - 1) == 0 and k <= n,
                     "topk needs a power-of-two k of at most the last dimension")
    rank: tl.constexpr = len(x.shape)
    y = tl.reshape(tl.sort(x, descending=True), x.shape[:rank - 1] + (n // k, k))
    index = tl.broadcast_to(tl._tilec_along(tl.arange(0, n // k), rank - 1, rank + 1),
                            y.shape)
    top, i0 = tl.reduce((y, index), rank - 1, _tilec_at_0)
    return top


def _tilec_first_hit(h0, v0, h1, v1):
    return h0 | h1, tl.where(h0, v0, v1)


def gather(src, index, axis: tl.constexpr):
    # out[..., i, ...] = src[..., index[..., i, ...], ...] along `axis`; the
    # other dimensions of index match src's. An index outside the axis
    # gives 0.
    rank: tl.constexpr = len(src.shape)
    tl.static_assert(len(index.shape) == rank, "gather needs src and index of one rank")
    tl.static_assert(index.dtype.is_int(), "gather needs an integer index")
    a: tl.constexpr = axis % rank
    # A new dimension after `axis` runs over src's positions along it.
    candidates = tl._tilec_along(tl.arange(0, src.shape[a]), a + 1, rank + 1)
    hit = tl.expand_dims(index, a + 1) == candidates
    values = tl.expand_dims(src, a)
    found, picked = tl.reduce((hit, tl.where(hit, values, tl.zeros_like(values))), a + 1,
                              _tilec_first_hit)
    return picked


def _tilec_e8m0(scale):
    # e8m0 scales (uint8) as fp32: 2^(s - 127); 255 is NaN, 0 is 2^-127.
    s = scale.to(tl.int32)
    value = (s << 23).to(tl.float32, bitcast=True)
    value = tl.where(s == 0, 5.877471754111438e-39, value)
    return tl.where(s == 255, float("nan"), value)


def _tilec_e2m1(v):
    # One fp4 e2m1 code (the low 4 bits of an int32) as fp32: 0, 0.5, 1,
    # 1.5, 2, 3, 4 or 6, signed.
    e = (v >> 1) & 3
    m = (v & 1).to(tl.float32)
    magnitude = tl.where(e == 0, m * 0.5, (2.0 + m) * (1 << e).to(tl.float32) * 0.25)
    return tl.where((v & 8) != 0, -magnitude, magnitude)


def _tilec_mx_operand(x, fmt: tl.constexpr, packed_dim: tl.constexpr):
    # A dot_scaled operand as fp32: fp4 bytes (two codes each, the first in
    # the low bits, along dimension packed_dim) unpacked, fp8 bytes or fp8
    # values decoded, bf16 and fp16 widened.
    if fmt == "e2m1":
        tl.static_assert(x.dtype == tl.uint8 or x.dtype == tl.int8,
                         "dot_scaled: e2m1 operands are bytes holding two fp4 values")
        bits = x.to(tl.int32) & 255
        both = tl.join(_tilec_e2m1(bits & 15), _tilec_e2m1(bits >> 4))
        if packed_dim == 1:
            return tl.reshape(both, [x.shape[0], 2 * x.shape[1]])
        return tl.reshape(tl.permute(both, (0, 2, 1)), [2 * x.shape[0], x.shape[1]])
    elif fmt == "e4m3":
        if x.dtype == tl.float8e4nv:
            return x.to(tl.float32)
        return x.to(tl.float8e4nv, bitcast=True).to(tl.float32)
    elif fmt == "e5m2":
        if x.dtype == tl.float8e5:
            return x.to(tl.float32)
        return x.to(tl.float8e5, bitcast=True).to(tl.float32)
    else:
        tl.static_assert(fmt == "bf16" or fmt == "fp16",
                         "dot_scaled formats are e2m1, e4m3, e5m2, bf16 and fp16")
        return x.to(tl.float32)


def dot_scaled(lhs, lhs_scale, lhs_format: tl.constexpr, rhs, rhs_scale,
               rhs_format: tl.constexpr, acc=None, fast_math: tl.constexpr = False,
               lhs_k_pack: tl.constexpr = True, rhs_k_pack: tl.constexpr = True,
               out_dtype: tl.constexpr = tl.float32):
    # Microscaled operands decoded, scaled by 2^(scale - 127) per 32 elements
    # along K, and multiplied as bf16 (exact for the fp4 and fp8 formats), as
    # Triton emulates it where the hardware has no scaled MMA. fp4 operands
    # are packed along K, or along M / N without k_pack.
    a = _tilec_mx_operand(lhs, lhs_format, 1 if lhs_k_pack else 0)
    b = _tilec_mx_operand(rhs, rhs_format, 0 if rhs_k_pack else 1)
    M: tl.constexpr = a.shape[0]
    K: tl.constexpr = a.shape[1]
    N: tl.constexpr = b.shape[1]
    if lhs_scale is not None:
        a = tl.reshape(tl.reshape(a, [M, K // 32, 32]) *
                       tl.expand_dims(_tilec_e8m0(lhs_scale), 2), [M, K])
    if rhs_scale is not None:
        b = tl.reshape(tl.reshape(b, [K // 32, 32, N]) *
                       tl.expand_dims(tl.trans(_tilec_e8m0(rhs_scale)), 1), [K, N])
    return tl.dot(a.to(tl.bfloat16), b.to(tl.bfloat16), acc, out_dtype=out_dtype)


def fdiv(x, y, ieee_rounding: tl.constexpr = False):
    # tl.math.fdiv: for fp32 the fast approximate division unless
    # ieee_rounding; other floats divide rounded to nearest.
    if ieee_rounding or (x / y).dtype != tl.float32:
        return x / y
    return tl.extra.cuda.libdevice.fast_dividef(x, y)


def softmax(x, dim: tl.constexpr = None, keep_dims: tl.constexpr = False,
            ieee_rounding: tl.constexpr = False):
    # triton.language.softmax: exp(x - max) / sum along dim (0 by default).
    _dim: tl.constexpr = 0 if dim is None else dim
    z = x - tl.max(x, _dim, keep_dims=keep_dims)
    num = tl.exp(z)
    den = tl.sum(num, _dim, keep_dims=keep_dims)
    return fdiv(num, den, ieee_rounding)


def _log2(i: tl.constexpr):
    # triton.language.standard._log2: floor(log2(i)), 0 below 2.
    log2 = 0
    for k in tl.static_range(1, 63):
        if (1 << k) <= i:
            log2 += 1
    return log2


def get_int_dtype(bitwidth: tl.constexpr, signed: tl.constexpr):
    tl.static_assert(bitwidth == 1 or bitwidth == 8 or bitwidth == 16 or bitwidth == 32 or
                     bitwidth == 64, "get_int_dtype: bitwidth must be 1, 8, 16, 32 or 64")
    if bitwidth == 1:
        return tl.int1
    if signed:
        return (tl.int8 if bitwidth == 8 else tl.int16 if bitwidth == 16 else
                tl.int32 if bitwidth == 32 else tl.int64)
    return (tl.uint8 if bitwidth == 8 else tl.uint16 if bitwidth == 16 else
            tl.uint32 if bitwidth == 32 else tl.uint64)
)tile";

llvm::StringRef tilec::getPreludeSource() { return kPrelude; }

bool tilec::isPreludeFunction(llvm::StringRef name) {
  return llvm::is_contained({"philox_impl", "philox", "randint4x", "randint",
                             "uint_to_uniform_float", "rand", "rand4x",
                             "pair_uniform_to_normal", "randn", "randn4x", "cumprod",
                             "xor_sum", "swizzle2d", "ravel", "join", "split",
                             "interleave", "cat", "flip", "sort", "topk", "gather", "fdiv",
                             "dot_scaled", "_tilec_e8m0", "_tilec_e2m1", "_tilec_mx_operand",
                             "_tilec_log2", "_tilec_along", "_tilec_last_dim",
                             "_tilec_swap_halves", "_tilec_compare_swap", "_log2",
                             "get_int_dtype", "softmax"},
                            name);
}
