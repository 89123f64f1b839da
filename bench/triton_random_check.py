"""Triton's own random numbers against the Philox reference that
tests/gpu/RandomTest.cpp holds tilec's to (written again here in Python):
if both match it, tilec gives Triton's numbers. Checks tl.randint and tl.rand
bit for bit, tl.randn within float rounding, tl.randint4x with 64-bit
offsets (two 32-bit counter words) and tl.philox on 64-bit counters (Philox
4x64), for RandomTest's seeds and offsets; prints one line per check and a
summary, exit status 1 on any mismatch."""
import math
import struct
import sys

N = 5000
SEEDS = [0, 42, 0x123456789AB]


def philox(key0, key1, c0, bits, c1=0):
    """Philox with 10 rounds on `bits`-wide words, counter (c0, c1, 0, 0)."""
    if bits == 32:
        mul_a, mul_b = 0xD2511F53, 0xCD9E8D57
        key_a, key_b = 0x9E3779B9, 0xBB67AE85
    else:
        mul_a, mul_b = 0xD2E7470EE14C6C93, 0xCA5A826395121157
        key_a, key_b = 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B
    mask = (1 << bits) - 1
    c = [c0, c1, 0, 0]
    k0, k1 = key0, key1
    for _ in range(10):
        p0, p2 = mul_a * c[0], mul_b * c[2]
        c = [((p2 >> bits) ^ c[1] ^ k0) & mask, p2 & mask,
             ((p0 >> bits) ^ c[3] ^ k1) & mask, p0 & mask]
        k0, k1 = (k0 + key_a) & mask, (k1 + key_b) & mask
    return c


def f32(x):
    """`x` rounded to float32."""
    return struct.unpack("f", struct.pack("f", x))[0]


def uniform(bits):
    x = bits - (1 << 32) if bits >= 1 << 31 else bits
    x = -x - 1 if x < 0 else x
    return f32(f32(float(x)) * f32(4.6566127342e-10))


def main():
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def k_random(seed, ints, uni, nor, split, wide, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(ints + offs, tl.randint(seed, offs), mask=mask)
        tl.store(uni + offs, tl.rand(seed, offs), mask=mask)
        tl.store(nor + offs, tl.randn(seed, offs), mask=mask)
        big = offs.to(tl.int64) + 6000000000
        r0, r1, r2, r3 = tl.randint4x(seed, big)
        tl.store(split + offs, r0 ^ r3, mask=mask)
        zero = big * 0
        w0, w1, w2, w3 = tl.philox(seed, big, zero, zero, zero)
        tl.store(wide + offs, w0 ^ w3, mask=mask)

    failures = 0
    for seed in SEEDS:
        ints = torch.empty(N, dtype=torch.int32, device="cuda")
        uni = torch.empty(N, dtype=torch.float32, device="cuda")
        nor = torch.empty(N, dtype=torch.float32, device="cuda")
        split = torch.empty(N, dtype=torch.int32, device="cuda")
        wide = torch.empty(N, dtype=torch.int64, device="cuda")
        k_random[(triton.cdiv(N, 256),)](seed, ints, uni, nor, split, wide, N, BLOCK=256)
        torch.cuda.synchronize()
        got_ints = [v & 0xFFFFFFFF for v in ints.tolist()]
        got_uni, got_nor = uni.tolist(), nor.tolist()
        got_split = [v & 0xFFFFFFFF for v in split.tolist()]
        got_wide = [v & 0xFFFFFFFFFFFFFFFF for v in wide.tolist()]
        wrong = {"randint": 0, "rand": 0, "randint4x (64-bit offsets)": 0,
                 "philox (64-bit counters)": 0}
        worst, beyond = 0.0, 0
        for i in range(N):
            r = philox(seed & 0xFFFFFFFF, seed >> 32, i, 32)
            wrong["randint"] += got_ints[i] != r[0]
            wrong["rand"] += got_uni[i] != uniform(r[0])
            big = i + 6000000000
            s = philox(seed & 0xFFFFFFFF, seed >> 32, big & 0xFFFFFFFF, 32, big >> 32)
            wrong["randint4x (64-bit offsets)"] += got_split[i] != (s[0] ^ s[3])
            w = philox(seed & 0xFFFFFFFFFFFFFFFF, 0, big, 64)
            wrong["philox (64-bit counters)"] += got_wide[i] != (w[0] ^ w[3])
            u1 = max(f32(1e-7), uniform(r[0]))
            angle = f32(6.283185307179586) * uniform(r[1])
            ref = math.sqrt(-2.0 * math.log(u1)) * math.cos(angle)
            err = abs(got_nor[i] - ref)
            worst = max(worst, err)
            beyond += err > 2e-5 + 2e-5 * abs(ref)
        for name, count in wrong.items():
            print(f"seed {seed:#x} {name}: {count} of {N} differ")
            failures += count != 0
        print(f"seed {seed:#x} randn: max |diff| {worst:.3g}, {beyond} of {N} beyond 2e-5")
        failures += beyond != 0
    print("triton_random_check:", "PASSED" if failures == 0 else f"{failures} FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
