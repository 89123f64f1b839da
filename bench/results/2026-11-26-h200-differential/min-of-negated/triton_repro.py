# Does Triton (its own ptxas) hit the same wrong row minimum of -cast(x)?
import torch, triton, triton.language as tl

@triton.jit
def k(x_ptr, o_ptr, MODE: tl.constexpr, BM: tl.constexpr = 32, BN: tl.constexpr = 64):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    x = tl.load(x_ptr + offs_n[:, None] * BM + offs_m[None, :])
    if MODE == 0:
        v = tl.min(-(x.to(tl.int32)), axis=1)
    elif MODE == 1:
        v = tl.max(-(x.to(tl.int32)), axis=1)
    elif MODE == 2:
        v = tl.min(x.to(tl.int32) * -1, axis=1)
    else:
        v = tl.min(-(x.to(tl.int32)) + 1, axis=1) - 1
    tl.store(o_ptr + offs_n, v)

torch.manual_seed(0)
for mode in range(4):
    bad = 0
    for trial in range(20):
        x = (torch.rand(64 * 32, device="cuda") * 8 - 4)
        o = torch.empty(64, dtype=torch.int32, device="cuda")
        k[(1,)](x, o, MODE=mode, num_warps=8)
        t = -(x.view(64, 32).to(torch.int32))
        ref = t.min(dim=1).values if mode in (0, 2, 3) else t.max(dim=1).values
        bad += int((o != ref).sum())
    print("triton mode", mode, "wrong rows in 20 trials:", bad)
print("triton", triton.__version__)
