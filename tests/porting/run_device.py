#!/usr/bin/env python3
"""Run the porting corpus on a GPU: tilec's PTX against Triton, same kernel source.

    python3 tests/porting/compile_all.py --out build/porting            # anywhere, with tilec
    python3 tests/porting/run_device.py --ptx-dir build/porting --out build/porting/device

needs torch, triton and a CUDA driver; run it from the repository root. For each case of
cases.py it builds the inputs with torch (fixed seed), launches the Triton kernel from
tests/porting/kernels (the function under @triton.autotune, with the case's config),
launches tilec's PTX for the same configuration through the CUDA driver API (ctypes on
libcuda.so.1, parameters in the order and types of the metadata JSON, on torch's
current stream), compares every output, and times the three (Triton, tilec, and
torch's equivalent where the case names one) as the median of --reps replays of a CUDA
graph holding --per-graph launches (plain launches between CUDA events if capture
fails). Writes results.md and results.json into --out.

Cases run in a worker process; a case that crashes it or leaves the CUDA context
unusable is reported as FAIL and a fresh worker continues with the next case.
"""

import argparse
import ctypes
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

import cases as registry  # noqa: E402

# -- the CUDA driver through ctypes --------------------------------------------------

CU_FUNC_ATTRIBUTE_NUM_REGS = 4
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_JIT_ERROR_LOG_BUFFER = 5
CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6


class CudaError(RuntimeError):
    pass


class Driver:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        L = self.lib
        vp, u32, i32 = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int
        L.cuInit.argtypes = [u32]
        L.cuGetErrorName.argtypes = [i32, ctypes.POINTER(ctypes.c_char_p)]
        L.cuGetErrorString.argtypes = [i32, ctypes.POINTER(ctypes.c_char_p)]
        L.cuDriverGetVersion.argtypes = [ctypes.POINTER(i32)]
        L.cuCtxGetCurrent.argtypes = [ctypes.POINTER(vp)]
        L.cuCtxSetCurrent.argtypes = [vp]
        L.cuDeviceGet.argtypes = [ctypes.POINTER(i32), i32]
        L.cuDevicePrimaryCtxRetain.argtypes = [ctypes.POINTER(vp), i32]
        L.cuModuleLoadDataEx.argtypes = [ctypes.POINTER(vp), ctypes.c_char_p, u32, ctypes.POINTER(i32),
                                         ctypes.POINTER(vp)]
        L.cuModuleUnload.argtypes = [vp]
        L.cuModuleGetFunction.argtypes = [ctypes.POINTER(vp), vp, ctypes.c_char_p]
        L.cuFuncSetAttribute.argtypes = [vp, i32, i32]
        L.cuFuncGetAttribute.argtypes = [ctypes.POINTER(i32), i32, vp]
        L.cuLaunchKernel.argtypes = [vp, u32, u32, u32, u32, u32, u32, u32, vp, ctypes.POINTER(vp),
                                     ctypes.POINTER(vp)]
        u64p, u32p = ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(u32)
        L.cuTensorMapEncodeTiled.argtypes = [vp, i32, u32, vp, u64p, u64p, u32p, u32p, i32, i32, i32, i32]
        for name in ("cuInit", "cuGetErrorName", "cuGetErrorString", "cuDriverGetVersion", "cuCtxGetCurrent",
                     "cuCtxSetCurrent", "cuDeviceGet", "cuDevicePrimaryCtxRetain", "cuModuleLoadDataEx",
                     "cuModuleUnload", "cuModuleGetFunction", "cuFuncSetAttribute", "cuFuncGetAttribute",
                     "cuLaunchKernel", "cuTensorMapEncodeTiled"):
            getattr(L, name).restype = i32
        self.check(L.cuInit(0), "cuInit")

    def check(self, rc, what, detail=""):
        if rc == 0:
            return
        name, text = ctypes.c_char_p(), ctypes.c_char_p()
        self.lib.cuGetErrorName(rc, ctypes.byref(name))
        self.lib.cuGetErrorString(rc, ctypes.byref(text))
        msg = f"{what} failed: {(name.value or b'?').decode()} ({rc}): {(text.value or b'').decode()}"
        raise CudaError(msg + (f"\n{detail}" if detail else ""))

    def version(self):
        v = ctypes.c_int()
        self.check(self.lib.cuDriverGetVersion(ctypes.byref(v)), "cuDriverGetVersion")
        return f"{v.value // 1000}.{v.value % 1000 // 10}"

    def ensure_context(self, device_index):
        """torch has made the device's primary context current on this thread; if not, do it."""
        ctx = ctypes.c_void_p()
        self.check(self.lib.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
        if ctx.value:
            return
        dev = ctypes.c_int()
        self.check(self.lib.cuDeviceGet(ctypes.byref(dev), device_index), "cuDeviceGet")
        self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev.value), "cuDevicePrimaryCtxRetain")
        self.check(self.lib.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")

    def load(self, ptx_text):
        module = ctypes.c_void_p()
        size = 1 << 16
        log = ctypes.create_string_buffer(size)
        opts = (ctypes.c_int * 2)(CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
        vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(size))
        rc = self.lib.cuModuleLoadDataEx(ctypes.byref(module), ptx_text.encode() + b"\0", 2, opts, vals)
        self.check(rc, "cuModuleLoadDataEx", log.value.decode(errors="replace"))
        return module

    def unload(self, module):
        self.lib.cuModuleUnload(module)

    def function(self, module, name):
        fn = ctypes.c_void_p()
        self.check(self.lib.cuModuleGetFunction(ctypes.byref(fn), module, name.encode()), f"cuModuleGetFunction({name})")
        return fn

    def set_dynamic_shared(self, fn, nbytes):
        self.check(self.lib.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, nbytes),
                   "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")

    def num_regs(self, fn):
        v = ctypes.c_int()
        self.check(self.lib.cuFuncGetAttribute(ctypes.byref(v), CU_FUNC_ATTRIBUTE_NUM_REGS, fn), "cuFuncGetAttribute")
        return v.value

    def encode_tensor_map(self, t, box, swizzle):
        """The 128-byte CUtensorMap of the 2-D or wider tensor t with boxes of `box`
        (outermost dimension first) and a `swizzle`-byte swizzle, as tile::Kernel
        encodes a descriptor's map: returned as a ctypes object (64-byte aligned
        inside a larger buffer) whose address a launch passes."""
        rank, size = t.dim(), t.element_size()
        kinds = {"torch.float16": 6, "torch.bfloat16": 9, "torch.float32": 7, "torch.float64": 8,
                 "torch.int32": 3, "torch.int64": 5}
        kind = kinds.get(str(t.dtype), 1 if size == 2 else 0)
        dims = (ctypes.c_uint64 * rank)(*[t.shape[rank - 1 - i] for i in range(rank)])
        strides = (ctypes.c_uint64 * max(1, rank - 1))(*[t.stride(rank - 1 - i) * size for i in range(1, rank)])
        boxes = (ctypes.c_uint * rank)(*[box[rank - 1 - i] for i in range(rank)])
        ones = (ctypes.c_uint * rank)(*([1] * rank))
        storage = ctypes.create_string_buffer(128 + 64)
        offset = -ctypes.addressof(storage) % 64
        mode = {0: 0, 32: 1, 64: 2, 128: 3}[swizzle]
        self.check(self.lib.cuTensorMapEncodeTiled(ctypes.addressof(storage) + offset, kind, rank,
                                                   ctypes.c_void_p(t.data_ptr()), dims, strides, boxes,
                                                   ones, 0, mode, 2, 0), "cuTensorMapEncodeTiled")
        return (ctypes.c_uint8 * 128).from_buffer(storage, offset), storage

    def launch(self, fn, grid, block, shared, stream, params):
        self.check(self.lib.cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared,
                                           ctypes.c_void_p(stream), params, None), "cuLaunchKernel")


SCALAR_CTYPES = {
    "i1": ctypes.c_uint8, "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32, "i64": ctypes.c_int64,
    "u8": ctypes.c_uint8, "u16": ctypes.c_uint16, "u32": ctypes.c_uint32, "u64": ctypes.c_uint64,
    "fp32": ctypes.c_float, "fp64": ctypes.c_double,
}


# -- inputs --------------------------------------------------------------------------

def torch_dtype(torch, name):
    table = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "fp64": "float64", "i8": "int8",
             "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "i1": "bool",
             "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2"}
    return getattr(torch, table[name])


def poison_value(torch, dtype):
    if dtype.is_floating_point:
        return float("nan")
    if dtype == torch.bool:
        return False
    return {torch.int8: -77, torch.uint8: 177, torch.int16: -7777}.get(dtype, -1431655766)


def moe_routing(case, part, seed):
    """The sorted-and-padded routing of a fused-MoE case, as lists (see cases.moe_routing)."""
    ns = case.namespace()
    tokens, top_k, experts, em, block_m = ns["tokens"], ns["top_k"], ns["experts"], ns["EM"], ns["BLOCK_M"]
    rng = random.Random(seed)
    per_expert = [[] for _ in range(experts)]
    for t in range(tokens):
        for j, e in enumerate(rng.sample(range(experts), top_k)):
            per_expert[e].append(t * top_k + j)
    pad_id = tokens * top_k
    sorted_ids, expert_ids = [], []
    for e, slots in enumerate(per_expert):
        slots = slots + [pad_id] * ((-len(slots)) % block_m)
        sorted_ids += slots
        expert_ids += [e] * (len(slots) // block_m)
    used = len(sorted_ids)
    if used > em:
        raise ValueError(f"routing needs {used} padded slots, EM is {em}")
    if part == "sorted_ids":
        return sorted_ids + [pad_id] * (em - used)
    if part == "expert_ids":
        return expert_ids + [0] * (registry.cdiv(em, block_m) - len(expert_ids))
    return [used]


def make_tensor(torch, case, arg, gen, device):
    shape = case.shape(arg)
    stored = list(shape)
    if arg.transposed:
        stored[-1], stored[-2] = stored[-2], stored[-1]
    dtype = torch_dtype(torch, arg.dtype)
    init = arg.init
    p = init.params
    f32 = dict(device=device, dtype=torch.float32)
    if init.kind == "randn":
        t = torch.randn(stored, generator=gen, **f32) * p["scale"] + p["shift"]
        if p["specials"]:
            flat = t.view(-1)
            flat[::97] = float("nan")
            flat[1::101] = float("inf")
            flat[2::103] = float("-inf")
        t = t.to(dtype)
    elif init.kind == "uniform":
        t = (torch.rand(stored, generator=gen, **f32) * (p["hi"] - p["lo"]) + p["lo"]).to(dtype)
    elif init.kind == "randint":
        t = torch.randint(int(case.eval(p["lo"])), int(case.eval(p["hi"])), stored, generator=gen, device=device,
                          dtype=torch.int64)
        if p["ignore_every"]:
            t.view(-1)[::p["ignore_every"]] = p["ignore_value"]
        t = t.to(dtype)
    elif init.kind == "slots":
        n = 1
        for d in stored:
            n *= d
        t = torch.randperm(int(case.eval(p["total"])), generator=gen, device=device)[:n].clone()
        if p["ignore_every"]:
            t[::p["ignore_every"]] = -1
        t = t.view(stored).to(dtype)
    elif init.kind == "randbool":
        t = torch.rand(stored, generator=gen, **f32) < p["p_true"]
    elif init.kind == "zeros":
        t = torch.zeros(stored, device=device, dtype=dtype)
    elif init.kind == "poison":
        t = torch.full(stored, poison_value(torch, dtype), device=device, dtype=dtype)
    elif init.kind == "moe_routing":
        values = moe_routing(case, p["part"], case.seed + 1)
        t = torch.tensor(values, dtype=dtype, device=device).view(stored)
    else:
        raise ValueError(f"unknown init {init.kind}")
    if arg.transposed:
        t = t.transpose(-1, -2)
    return t


def clone(torch, t):
    """A copy with the same strides (transposed views stay transposed)."""
    out = torch.empty_strided(t.size(), t.stride(), dtype=t.dtype, device=t.device)
    out.copy_(t)
    return out


def build_values(torch, case, device):
    """name -> tensor or Python scalar, for every runtime argument of the case."""
    gen = torch.Generator(device=device)
    gen.manual_seed(zlib.crc32(case.name.encode()) + case.seed)
    values = {}
    for a in case.args:
        if isinstance(a, registry.In):
            values[a.name] = make_tensor(torch, case, a, gen, device)
        elif isinstance(a, registry.NoneArg):
            values[a.name] = None
        else:
            values[a.name] = case.scalar_value(a)
    return values


def copy_values(torch, values):
    return {k: clone(torch, v) if isinstance(v, torch.Tensor) else v for k, v in values.items()}


# -- the two launches ----------------------------------------------------------------

_MODULES = {}


def load_kernel_module(file):
    if file not in _MODULES:
        path = HERE / "kernels" / file
        name = "porting_" + path.stem
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        _MODULES[file] = mod
    return _MODULES[file]


def unwrap_autotuner(fn):
    """The function under @triton.autotune (Heuristics and JITFunction stay)."""
    try:
        from triton.runtime.autotuner import Autotuner
    except ImportError:  # pragma: no cover
        Autotuner = None
    while (Autotuner is not None and isinstance(fn, Autotuner)) or type(fn).__name__ == "Autotuner":
        fn = fn.fn
    return fn


def constexpr_for_triton(tl, value):
    if isinstance(value, str) and value.startswith("tl."):
        return getattr(tl, value[3:])
    return value


def triton_launcher(case, values):
    import triton.language as tl
    fn = unwrap_autotuner(getattr(load_kernel_module(case.file), case.kernel))
    kwargs = dict(values)
    kwargs["num_warps"] = case.num_warps
    kwargs["num_stages"] = case.num_stages
    for k, v in case.constexprs.items():  # heuristics are left to @triton.heuristics
        kwargs[k] = constexpr_for_triton(tl, v)
    for a in case.args:
        if isinstance(a, (registry.DescIn, registry.DescOut)):
            from triton.tools.tensor_descriptor import TensorDescriptor
            t = values[a.name]
            kwargs[a.name] = TensorDescriptor(t, list(t.shape), list(t.stride()),
                                              [int(case.eval(b)) for b in a.block])
    grid = case.grid_dims()

    def launch():
        return fn[grid](**kwargs)
    return launch


class TilecKernel:
    """tilec's PTX and metadata for one case, loaded and ready to launch."""

    def __init__(self, driver, ptx_path):
        self.driver = driver
        meta = json.loads(Path(ptx_path).with_suffix(".json").read_text())
        self.meta_all = meta
        self.module = driver.load(Path(ptx_path).read_text())
        self.kernels = meta["kernels"]

    def entry(self, name):
        for k in self.kernels:
            if k["name"] == name:
                return k
        raise KeyError(f"metadata lists no kernel {name}")


def tilec_launcher(torch, driver, loaded, case, values):
    k = loaded.entry(case.kernel)
    fn = driver.function(loaded.module, k["name"])
    shared = int(k["shared_bytes"])
    if shared > 48 * 1024:
        driver.set_dynamic_shared(fn, shared)
    keep, slots = [], []
    for p in k["params"]:
        if "descriptor" in p:
            # A host tensor descriptor's part: its tensor's base, shape or strides.
            t = values[p["descriptor"]]
            part = p["name"][len(p["descriptor"]) + 1:]
            if "block_shape" in p:  # what the kernel assumes, as tile::TensorDescriptor checks
                rank, size = len(p["block_shape"]), t.element_size()
                if t.dim() != rank or t.stride(-1) != 1 or any(
                        t.stride(d) * size % 16 for d in range(rank - 1)):
                    raise ValueError(f"{p['descriptor']}: a tensor of shape {tuple(t.shape)} and "
                                     f"strides {t.stride()} cannot be a rank-{rank} descriptor "
                                     "(last stride 1, the others whole 16 bytes)")
            if p["type"] == "tensormap":  # encoded from the tensor, as the runtime does
                tensor_map, storage = driver.encode_tensor_map(t, p["box"], p["swizzle"])
                keep.append(storage)
                slots.append(ctypes.cast(ctypes.pointer(tensor_map), ctypes.c_void_p))
                continue
            v = (t if part == "base" else t.shape[int(part[5:])] if part.startswith("shape")
                 else t.stride(int(part[6:])))
        elif p["name"] not in values:
            raise KeyError(f"metadata parameter {p['name']} is no argument of the case")
        else:
            v = values[p["name"]]
        ty = p["type"]
        if ty.startswith("*"):
            if not isinstance(v, torch.Tensor):
                raise TypeError(f"{p['name']}: the kernel takes a pointer ({ty}), the case gives {v!r}")
            align = p.get("align", 1)
            if v.data_ptr() % align:
                raise ValueError(f"{p['name']}: pointer {v.data_ptr():#x} is not {align}-byte aligned")
            obj = ctypes.c_uint64(v.data_ptr())
        elif ty in ("fp16", "bf16"):
            bits = torch.tensor([float(v)], dtype=torch_dtype(torch, ty)).view(torch.int16).item() & 0xFFFF
            obj = ctypes.c_uint16(bits)
        else:
            if "divisibility" in p and int(v) % p["divisibility"]:
                raise ValueError(f"{p['name']}={v} is not a multiple of {p['divisibility']}, as compiled")
            if "equal_to" in p and v != p["equal_to"]:
                raise ValueError(f"{p['name']}={v} is not {p['equal_to']}, as compiled")
            obj = SCALAR_CTYPES[ty](v)
        keep.append(obj)
        slots.append(ctypes.cast(ctypes.pointer(obj), ctypes.c_void_p))
    grid = case.grid_dims()
    scratch_bytes = int(k.get("global_scratch_bytes", 0))
    if scratch_bytes:  # the tensor maps the kernel builds: one more parameter, last
        scratch = torch.empty(scratch_bytes * grid[0] * grid[1] * grid[2], dtype=torch.uint8,
                              device="cuda")
        obj = ctypes.c_uint64(scratch.data_ptr())
        keep += [scratch, obj]
        slots.append(ctypes.cast(ctypes.pointer(obj), ctypes.c_void_p))
    params = (ctypes.c_void_p * max(1, len(slots)))(*slots)
    block = (32 * int(k["num_warps"]), 1, 1)

    def launch():
        driver.launch(fn, grid, block, shared, torch.cuda.current_stream().cuda_stream, params)
    launch.keep = (keep, params)  # the argument storage must outlive the launches
    launch.regs = driver.num_regs(fn)
    launch.meta = k
    return launch


# -- comparison and timing -----------------------------------------------------------

DEFAULT_TOL = {"fp32": (1e-5, 1e-4), "fp64": (1e-9, 1e-7), "fp16": (1e-3, 2e-3), "bf16": (1e-2, 1.6e-2),
               "fp8e4nv": (0.0, 0.0), "fp8e5": (0.0, 0.0)}


def compare(torch, case, ours, ref, initial):
    """(ok, message, max_abs_err per output, notes)."""
    ok, msgs, errs, notes = True, [], {}, []
    for a in case.outputs():
        o, r = ours[a.name], ref[a.name]
        dtype = a.dtype
        if r.dtype.is_floating_point:
            of, rf = o.float(), r.float()
            both_nan = torch.isnan(of) & torch.isnan(rf)
            diff = (of - rf).abs().masked_fill(both_nan, 0.0)
            diff = diff.masked_fill(torch.isinf(of) & torch.isinf(rf) & (of == rf), 0.0)
            errs[a.name] = float(diff.max()) if diff.numel() else 0.0
            atol, rtol = DEFAULT_TOL.get(dtype, (1e-5, 1e-4))
            atol = case.atol if case.atol is not None else atol
            rtol = case.rtol if case.rtol is not None else rtol
            atol = a.atol if a.atol is not None else atol
            rtol = a.rtol if a.rtol is not None else rtol
            try:
                torch.testing.assert_close(of, rf, atol=atol, rtol=rtol, equal_nan=True)
            except AssertionError as e:
                ok = False
                msgs.append(f"{a.name}: " + " ".join(str(e).split())[:400])
            if a.init.kind == "poison":
                unwritten = int(torch.isnan(rf).sum()) - (int(torch.isnan(initial[a.name].float()).sum())
                                                          if a.role == "inout" else 0)
                if unwritten > 0 and a.role == "out":
                    notes.append(f"{a.name}: {unwritten} NaN in Triton's output (unwritten or NaN results)")
        else:
            diff = (o.long() - r.long()).abs() if r.dtype != torch.bool else (o != r).long()
            err = int(diff.max()) if diff.numel() else 0
            errs[a.name] = err
            limit = int(a.atol) if a.atol is not None else 0
            if err > limit:
                ok = False
                bad = int((diff > limit).sum())
                msgs.append(f"{a.name}: {bad} of {diff.numel()} elements differ (max |diff| {err}, allowed {limit})")
    return ok, "; ".join(msgs), errs, notes


def bench(torch, fn, warmup, reps, per_graph, use_graph):
    """Median microseconds per launch, and how it was measured."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    graph, method = None, "events"
    if use_graph:
        try:
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                for _ in range(per_graph):
                    fn()
            torch.cuda.synchronize()
            for _ in range(3):
                graph.replay()
            torch.cuda.synchronize()
            method = "graph"
        except Exception as e:  # capture unsupported: fall back to launches between events
            graph, method = None, f"events (graph capture failed: {type(e).__name__})"
            torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        if graph is not None:
            graph.replay()
        else:
            for _ in range(per_graph):
                fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0 / per_graph)
    return statistics.median(times), method


def torch_ref_fn(torch, case, values):
    if not case.torch_ref:
        return None
    import torch.nn.functional as F
    code = compile(case.torch_ref, f"<torch_ref {case.name}>", "eval")
    ns = {"torch": torch, "F": F}
    ns.update(case.sizes)
    ns.update(values)
    return lambda: eval(code, ns)  # noqa: S307 (the registry's own expressions)


# -- one case, in the worker -----------------------------------------------------------

def compile_status(ptx_dir, arch):
    path = Path(ptx_dir) / "compile_results.json"
    if not path.exists():
        return {}
    return {(r["case"], r["arch"]): r for r in json.loads(path.read_text())}


def context_alive(torch):
    try:
        torch.cuda.synchronize()
        torch.zeros(1, device="cuda").add_(1).item()
        return True
    except Exception:
        return False


def run_case(torch, driver, case, opts, compiled):
    res = {"case": case.name, "file": case.file, "kernel": case.kernel, "status": "FAIL", "message": "",
           "ours_us": None, "triton_us": None, "torch_us": None, "ratio": None, "max_abs_err": {}, "notes": []}
    ptx = Path(opts.ptx_dir) / opts.arch / f"{case.name}.ptx"
    info = compiled.get((case.name, opts.arch))
    if info is not None and info.get("status") not in ("OK", "XPASS"):
        res.update(status="NOCOMPILE", message=info.get("error", ""))
        return res
    if not ptx.exists():
        res.update(status="NOCOMPILE", message=f"no {ptx} (run compile_all.py)")
        return res

    device = "cuda"
    initial = build_values(torch, case, device)
    stage = "triton"
    try:
        tri_vals = copy_values(torch, initial)
        tri = triton_launcher(case, tri_vals)
        compiled_kernel = tri()
        torch.cuda.synchronize()
        for attr, key in (("n_regs", "triton_regs"), ("n_spills", "triton_spills")):
            if hasattr(compiled_kernel, attr):
                res[key] = getattr(compiled_kernel, attr)
    except Exception as e:
        res.update(status="TRITON-ERR", message=f"{type(e).__name__}: {' '.join(str(e).split())[:500]}")
        tri = None
        if not context_alive(torch):
            res["context_lost"] = True
            return res

    loaded = None
    try:
        stage = "tilec"
        loaded = TilecKernel(driver, ptx)
        our_vals = copy_values(torch, initial)
        ours = tilec_launcher(torch, driver, loaded, case, our_vals)
        res["ours_regs"] = ours.regs
        res["shared_bytes"] = ours.meta["shared_bytes"]
        ours()
        torch.cuda.synchronize()
        if tri is not None:
            stage = "compare"
            ok, msg, errs, notes = compare(torch, case, our_vals, tri_vals, initial)
            res["max_abs_err"] = errs
            res["notes"] += notes
            res.update(status="PASS" if ok else "MISMATCH", message=msg)
        if not opts.no_timing:
            stage = "timing"
            res["ours_us"], res["timing"] = bench(torch, ours, opts.warmup, opts.reps, opts.per_graph, not opts.no_graph)
            if tri is not None:
                res["triton_us"], _ = bench(torch, tri, opts.warmup, opts.reps, opts.per_graph, not opts.no_graph)
                res["ratio"] = res["triton_us"] / res["ours_us"]
            ref = torch_ref_fn(torch, case, copy_values(torch, initial))
            if ref is not None:
                try:
                    res["torch_us"], _ = bench(torch, ref, opts.warmup, opts.reps, opts.per_graph, not opts.no_graph)
                except Exception as e:  # torch's side is informative only
                    res["notes"].append(f"torch_ref: {type(e).__name__}: {str(e)[:200]}")
    except Exception as e:
        failed_status = res["status"] if stage == "timing" and res["status"] in ("PASS", "MISMATCH") else "FAIL"
        res.update(status=failed_status, message=(res["message"] + "; " if res["message"] else "")
                   + f"{stage}: {type(e).__name__}: {' '.join(str(e).split())[:600]}")
        if opts.verbose:
            traceback.print_exc()
        if not context_alive(torch):
            res["context_lost"] = True
    finally:
        if loaded is not None and not res.get("context_lost"):
            driver.unload(loaded.module)
    return res


def worker(opts):
    import torch
    import triton
    torch.cuda.init()
    torch.zeros(1, device="cuda")  # makes the primary context current on this thread
    driver = Driver()
    driver.ensure_context(torch.cuda.current_device())
    env = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
           "driver": driver.version(), "arch": opts.arch}
    compiled = compile_status(opts.ptx_dir, opts.arch)
    with open(opts.results, "a") as out:
        out.write(json.dumps({"event": "env", **env}) + "\n")
        out.flush()
        for case in registry.select(opts.cases):
            out.write(json.dumps({"event": "start", "case": case.name}) + "\n")
            out.flush()
            start = time.monotonic()
            res = run_case(torch, driver, case, opts, compiled)
            res["seconds"] = round(time.monotonic() - start, 1)
            out.write(json.dumps({"event": "result", **res}) + "\n")
            out.flush()
            print(line(res), flush=True)
            if res.get("context_lost"):
                return 3
            torch.cuda.empty_cache()
    return 0


# -- the parent: workers, tables -------------------------------------------------------

def fmt(v, digits=1):
    return "-" if v is None else f"{v:.{digits}f}"


def line(r):
    return (f"{r['status']:10} {r['case']:28} ours {fmt(r['ours_us']):>9} us  triton {fmt(r['triton_us']):>9} us  "
            f"ratio {fmt(r['ratio'], 2):>5}  {r['message'][:160]}")


def write_tables(out_dir, env, results):
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "results.json").write_text(json.dumps({"env": env, "results": results}, indent=1) + "\n")
    rows = ["| case | status | ours us | triton us | ratio triton/ours | torch us | max abs err | note |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in results:
        err = ", ".join(f"{k} {v:.3g}" for k, v in r.get("max_abs_err", {}).items())
        note = "; ".join(x for x in [r.get("message", "")] + r.get("notes", []) if x).replace("|", "\\|")
        rows.append(f"| {r['case']} | {r['status']} | {fmt(r['ours_us'])} | {fmt(r['triton_us'])} | "
                    f"{fmt(r['ratio'], 2)} | {fmt(r['torch_us'])} | {err} | {note[:300]} |")
    counts = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    ratios = [r["ratio"] for r in results if r.get("ratio") and r["status"] == "PASS"]
    geo = statistics.geometric_mean(ratios) if ratios else None
    head = [f"# Porting corpus on {env.get('device', '?')}", "",
            f"torch {env.get('torch')}, triton {env.get('triton')}, CUDA driver {env.get('driver')}, "
            f"tilec PTX for {env.get('arch')}. Times are medians per launch (CUDA graph replays); ratio > 1: "
            f"tilec is faster.", "",
            "Status: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
            + (f"; geometric mean of the ratio over PASS cases: {geo:.3f}" if geo else ""), ""]
    (out_dir / "results.md").write_text("\n".join(head + rows) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptx-dir", default=str(REPO / "build" / "porting"), help="compile_all.py's --out")
    ap.add_argument("--arch", default="sm_90", help="which compilation of --ptx-dir to run (default sm_90)")
    ap.add_argument("--out", default=None, help="where results.md/json go (default PTX_DIR/device)")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--reps", type=int, default=50, help="timed graph replays per implementation")
    ap.add_argument("--per-graph", type=int, default=10, help="launches captured in one graph")
    ap.add_argument("--no-graph", action="store_true", help="time plain launches between events")
    ap.add_argument("--no-timing", action="store_true", help="only check the outputs")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--results", help=argparse.SUPPRESS)
    ap.add_argument("cases", nargs="*", help="case names (default: all)")
    opts = ap.parse_args(argv)
    if opts.worker:
        return worker(opts)

    selected = [c.name for c in registry.select(opts.cases)]
    out_dir = Path(opts.out or Path(opts.ptx_dir) / "device")
    results, env = {}, {}
    remaining = list(selected)
    passthrough = [f"--ptx-dir={opts.ptx_dir}", f"--arch={opts.arch}", f"--warmup={opts.warmup}",
                   f"--reps={opts.reps}", f"--per-graph={opts.per_graph}"]
    passthrough += [f for f, on in (("--no-graph", opts.no_graph), ("--no-timing", opts.no_timing),
                                    ("-v", opts.verbose)) if on]
    while remaining:
        done_before = len(results)
        with tempfile.NamedTemporaryFile("r", suffix=".jsonl", delete=False) as tmp:
            path = tmp.name
        proc = subprocess.run([sys.executable, __file__, "--worker", f"--results={path}"] + passthrough + remaining)
        started = None
        for raw in Path(path).read_text().splitlines():
            ev = json.loads(raw)
            kind = ev.pop("event")
            if kind == "env":
                env = ev
            elif kind == "start":
                started = ev["case"]
            else:
                results[ev["case"]] = ev
                started = None
        os.unlink(path)
        if started is not None:  # the worker died inside this case
            results[started] = {"case": started, "status": "FAIL", "ours_us": None, "triton_us": None,
                                "torch_us": None, "ratio": None, "max_abs_err": {}, "notes": [],
                                "message": f"worker died (exit status {proc.returncode}) in this case"}
            print(line(results[started]), flush=True)
        if len(results) == done_before:
            print(f"the worker ran no case (exit status {proc.returncode})", file=sys.stderr)
            return 2
        remaining = [n for n in remaining if n not in results]

    ordered = [results[n] for n in selected]
    write_tables(out_dir, env, ordered)
    print(f"\nwrote {out_dir / 'results.md'} and {out_dir / 'results.json'}")
    return 0 if all(r["status"] in ("PASS", "NOCOMPILE") for r in ordered) else 1


if __name__ == "__main__":
    sys.exit(main())
