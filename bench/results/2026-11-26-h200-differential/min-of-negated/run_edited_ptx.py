# Launches k_p from hand-edited PTX files through the driver API (ctypes) and
# counts wrong row minima of -trunc(x) against torch.
import ctypes, sys, torch
cuda = ctypes.CDLL("libcuda.so.1")
torch.zeros(1, device="cuda")  # a current context
def check(r, what):
    if r != 0: raise RuntimeError("%s failed: %d" % (what, r))
for path in sys.argv[1:]:
    mod = ctypes.c_void_p(); fn = ctypes.c_void_p()
    data = open(path, "rb").read() + b"\0"
    check(cuda.cuModuleLoadData(ctypes.byref(mod), data), "load " + path)
    check(cuda.cuModuleGetFunction(ctypes.byref(fn), mod, b"k_p"), "function")
    bad = 0
    g = torch.Generator(device="cuda").manual_seed(1)
    for trial in range(30):
        x = torch.rand(64 * 32, device="cuda", generator=g) * 8 - 4
        i = torch.zeros(64 * 32, dtype=torch.int32, device="cuda")
        o = torch.zeros(64, dtype=torch.int64, device="cuda")
        o3 = torch.zeros(64 * 32, dtype=torch.int64, device="cuda")
        ptrs = [ctypes.c_uint64(t.data_ptr()) for t in (x, i, o, o3)]
        args = (ctypes.c_void_p * 4)(*[ctypes.cast(ctypes.byref(p), ctypes.c_void_p) for p in ptrs])
        check(cuda.cuLaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, None, args, None), "launch")
        torch.cuda.synchronize()
        ref = (-(x.view(64, 32).to(torch.int32))).min(dim=1).values.to(torch.int64)
        bad += int((o != ref).sum())
    print(path, "wrong rows in 30 trials:", bad)
