"""The porting corpus: which kernel of which file, compiled how, launched on what.

Plain data, importable without torch or triton (compile_all.py runs where neither is
installed). Each Case describes one compilation and one launch:

- `file`, `kernel`: a module of kernels/ and the @triton.jit function to launch;
- `args`: the kernel's runtime parameters in the order of its signature (constexpr
  parameters are not listed there): In/Out/InOut tensors (DescIn/DescOut: passed as
  host tensor descriptors, Triton's TensorDescriptor), Scalar/Stride values and
  NoneArg (a pointer passed as None, which Triton turns into a constexpr None and tilec
  gets as -D NAME=None);
- `sizes`: the problem's sizes; shapes, scalar values and the grid are Python
  expressions over the sizes and the constexprs (with cdiv, next_power_of_2, min, max);
- `constexprs`: given to tilec as -D NAME=VALUE and to Triton as keyword arguments, so
  both compile the same configuration. A string "tl.float32" is a dtype;
- `heuristics`: constexprs that the kernel's @triton.heuristics computes from runtime
  arguments. Triton computes them itself; tilec cannot (they read runtime scalars), so
  it gets the values they take at these sizes with -D;
- `num_warps`, `num_stages`: given to both (tilec --num-warps/--num-stages);
- autotuned kernels: the comparison launches the function under @triton.autotune with
  the constexprs and num_warps/num_stages of one of its configs, the one tilec
  compiles, so both run the same tile configuration (run_device.py unwraps Autotuner);
- `atol`/`rtol`: the tolerance of every output (each Out may override it; integer
  outputs are compared exactly unless they give an atol);
- `torch_ref`: an expression timed beside both (names: the arguments, torch, F);
- `expect_fail`: a substring of the tilec error for kernels tilec does not compile yet
  (compile_all.py reports them as XFAIL, and as XPASS once they compile);
- `do_not_specialize`: the kernel's @triton.jit(do_not_specialize=[...]) names;
- `min_arch`: the oldest target the kernel is for (fp8 needs sm_89: "sm_90"); older
  ones are not compiled.

The --signature string is derived from the arguments as Triton specializes a launch:
tensors are 16-byte aligned pointers, an integer equal to 1 is `:1`, one divisible by
16 is `:16`, except the do_not_specialize ones (see signature()).
"""

import math

# -- argument kinds -----------------------------------------------------------------


class Init:
    """How an input tensor is filled (the device script interprets these)."""

    def __init__(self, kind, **params):
        self.kind = kind
        self.params = params

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.kind}({inner})"


def randn(scale=1.0, shift=0.0, specials=False):
    """Normal samples * scale + shift; specials=True plants NaN, +inf and -inf."""
    return Init("randn", scale=scale, shift=shift, specials=specials)


def uniform(lo, hi):
    return Init("uniform", lo=lo, hi=hi)


def randint(lo, hi, ignore_every=0, ignore_value=None):
    """Integers in [lo, hi) (expressions allowed); every ignore_every-th element becomes
    ignore_value (labels with ignore_index, padding tokens)."""
    return Init("randint", lo=lo, hi=hi, ignore_every=ignore_every, ignore_value=ignore_value)


def slots(total, ignore_every=0):
    """Distinct random indices in [0, total) (a paged cache's slots), -1 every
    ignore_every-th element."""
    return Init("slots", total=total, ignore_every=ignore_every)


def moe_routing(part):
    """One of the three tensors of a mixture-of-experts routing (sizes tokens, top_k,
    experts, EM and constexpr BLOCK_M): "sorted_ids" (slots grouped by expert, each group
    padded to BLOCK_M with tokens * top_k, then to EM), "expert_ids" (the expert of each
    block) or "num_post_padded" (the padded length, one element)."""
    return Init("moe_routing", part=part)


def randbool(p_true=0.5):
    return Init("randbool", p_true=p_true)


def zeros():
    return Init("zeros")


POISON = Init("poison")  # outputs: NaN (floats) or a sentinel (integers) before each run


class Arg:
    role = "scalar"

    def __init__(self, name):
        self.name = name


class In(Arg):
    """An input tensor. transposed=True allocates the last two dimensions swapped and
    passes the transposed view (a column-major operand)."""

    role = "in"

    def __init__(self, name, shape, dtype, init=None, transposed=False):
        super().__init__(name)
        self.shape = tuple(shape)
        self.dtype = dtype
        self.init = init or randn()
        self.transposed = transposed


class Out(In):
    """A tensor the kernel writes; compared after the launch."""

    role = "out"

    def __init__(self, name, shape, dtype, init=POISON, atol=None, rtol=None):
        super().__init__(name, shape, dtype, init)
        self.atol = atol
        self.rtol = rtol


class InOut(Out):
    """An input the kernel overwrites (in-place kernels); compared after the launch."""

    role = "inout"

    def __init__(self, name, shape, dtype, init=None, atol=None, rtol=None, transposed=False):
        super().__init__(name, shape, dtype, init or randn(), atol, rtol)
        self.transposed = transposed


class DescIn(In):
    """An input tensor passed as a host tensor descriptor (Triton's TensorDescriptor)
    with block shape `block` (expressions over the sizes and constexprs)."""

    def __init__(self, name, shape, dtype, block, init=None):
        super().__init__(name, shape, dtype, init)
        self.block = list(block)


class DescOut(Out):
    """An output tensor passed as a host tensor descriptor; compared after the launch."""

    def __init__(self, name, shape, dtype, block, init=POISON, atol=None, rtol=None):
        super().__init__(name, shape, dtype, init, atol, rtol)
        self.block = list(block)


class Scalar(Arg):
    """A runtime scalar: a number or an expression over sizes and constexprs."""

    def __init__(self, name, value, dtype=None):
        super().__init__(name)
        self.value = value
        self.dtype = dtype  # None: i32 for ints (i64 when too large), fp32 for floats


class Stride(Arg):
    """tensor.stride(dim) of another argument, passed as an integer."""

    def __init__(self, name, tensor, dim):
        super().__init__(name)
        self.tensor = tensor
        self.dim = dim
        self.dtype = None


class NoneArg(Arg):
    """An optional pointer passed as None."""

    role = "none"


# -- the case -------------------------------------------------------------------------


class Case:
    def __init__(self, name, file, kernel, args, grid, sizes=None, constexprs=None, heuristics=None,
                 num_warps=4, num_stages=3, atol=None, rtol=None, torch_ref=None, idioms="",
                 expect_fail=None, seed=0, do_not_specialize=(), min_arch=None):
        self.name = name
        self.file = file
        self.kernel = kernel
        self.args = list(args)
        self.grid = tuple(grid)
        self.sizes = dict(sizes or {})
        self.constexprs = dict(constexprs or {})
        self.heuristics = dict(heuristics or {})
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.atol = atol
        self.rtol = rtol
        self.torch_ref = torch_ref
        self.idioms = idioms
        self.expect_fail = expect_fail
        self.seed = seed
        self.do_not_specialize = tuple(do_not_specialize)
        self.min_arch = min_arch

    def targets(self, arch):
        """Whether the case is compiled for `arch` ("sm_80", "sm_90a", ...)."""
        number = lambda a: int(a[3:].rstrip("a"))
        return self.min_arch is None or number(arch) >= number(self.min_arch)

    def namespace(self):
        ns = {"cdiv": cdiv, "next_power_of_2": next_power_of_2, "min": min, "max": max, "math": math}
        ns.update(self.sizes)
        ns.update({k: v for k, v in self.constexprs.items() if not isinstance(v, str)})
        ns.update(self.heuristics)
        return ns

    def eval(self, expr):
        """An int, float or expression string over the sizes and constexprs."""
        if isinstance(expr, str):
            return eval(expr, {"__builtins__": {}}, self.namespace())  # noqa: S307 (our own data)
        return expr

    def shape(self, arg):
        return tuple(int(self.eval(d)) for d in arg.shape)

    def grid_dims(self):
        dims = [int(self.eval(g)) for g in self.grid]
        return tuple(dims + [1] * (3 - len(dims)))

    def scalar_value(self, arg):
        """The value of a Scalar or Stride argument (a Stride from the tensor's layout)."""
        if isinstance(arg, Stride):
            tensor = self.arg(arg.tensor)
            return contiguous_strides(self.shape(tensor), tensor.transposed)[arg.dim]
        return self.eval(arg.value)

    def arg(self, name):
        for a in self.args:
            if a.name == name:
                return a
        raise KeyError(f"{self.name}: no argument {name!r}")

    def tensors(self):
        return [a for a in self.args if isinstance(a, In)]

    def outputs(self):
        return [a for a in self.args if isinstance(a, Out)]


def cdiv(a, b):
    return -(-a // b)


def next_power_of_2(n):
    return 1 << (int(n) - 1).bit_length() if n > 1 else 1


def contiguous_strides(shape, transposed=False):
    """Strides in elements of a contiguous tensor of `shape`, or of the transpose view of
    one allocated with its last two dimensions swapped."""
    stored = list(shape)
    if transposed:
        stored[-1], stored[-2] = stored[-2], stored[-1]
    strides = [1] * len(stored)
    for i in range(len(stored) - 2, -1, -1):
        strides[i] = strides[i + 1] * stored[i + 1]
    if transposed:
        strides[-1], strides[-2] = strides[-2], strides[-1]
    return strides


def scalar_type(arg, value):
    if arg.dtype:
        return arg.dtype
    if isinstance(value, bool):
        return "i1"
    if isinstance(value, int):
        return "i32" if -2**31 <= value < 2**31 else "i64"
    return "fp32"


def signature(case):
    """tilec's --signature for the case, specialized as Triton specializes the launch."""
    parts = []
    for a in case.args:
        if isinstance(a, (DescIn, DescOut)):
            block = ", ".join(str(int(case.eval(b))) for b in a.block)
            divisible = all(int(case.eval(d)) % 16 == 0 for d in a.shape)
            parts.append(f"{a.name}=tensordesc<{a.dtype}[{block}]>" + (":16" if divisible else ""))
        elif isinstance(a, In):
            parts.append(f"{a.name}=*{a.dtype}:16")
        elif isinstance(a, (Scalar, Stride)):
            value = case.scalar_value(a)
            ty = scalar_type(a, value)
            spec = ""
            if (isinstance(value, int) and not isinstance(value, bool) and ty != "i1"
                    and a.name not in case.do_not_specialize):
                spec = ":1" if value == 1 else (":16" if value % 16 == 0 else "")
            parts.append(f"{a.name}={ty}{spec}")
    return ",".join(parts)


def define_value(value):
    """A constexpr as tilec's -D reads it."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if value is None:
        return "None"
    if isinstance(value, str):
        return value if value.startswith("tl.") else f'"{value}"'
    return repr(value)


def defines(case):
    """The -D NAME=VALUE pairs tilec needs: constexprs, heuristics and None pointers."""
    out = [(k, define_value(v)) for k, v in case.constexprs.items()]
    out += [(k, define_value(v)) for k, v in case.heuristics.items()]
    out += [(a.name, "None") for a in case.args if isinstance(a, NoneArg)]
    return out


# -- the cases ------------------------------------------------------------------------

FP32 = dict(atol=1e-5, rtol=1e-4)
FP16 = dict(atol=1e-3, rtol=2e-3)
BF16 = dict(atol=1e-2, rtol=1.6e-2)
MATMUL16 = dict(atol=2e-2, rtol=4e-3)

CASES = []


def case(*args, **kwargs):
    CASES.append(Case(*args, **kwargs))


# Elementwise -------------------------------------------------------------------------

case("scaled_add", "scaled_add.py", "axpby_kernel",
     sizes=dict(n=(1 << 24) + 3),
     args=[In("x_ptr", ["n"], "fp32"), In("y_ptr", ["n"], "fp32"), Out("out_ptr", ["n"], "fp32"),
           Scalar("alpha", 0.5), Scalar("beta", -2.0), Scalar("n_elements", "n")],
     constexprs=dict(BLOCK_SIZE=2048), num_warps=8,
     grid=["cdiv(n, BLOCK_SIZE)"], **FP32,
     torch_ref="alpha * x_ptr + beta * y_ptr",
     idioms="scalar float args, tl.multiple_of, tl.max_contiguous, eviction_policy")

for approx in ("tanh", "none"):
    case(f"gelu_{approx}", "gelu.py", "gelu_fwd_kernel",
         sizes=dict(n=1 << 24),
         args=[In("x_ptr", ["n"], "fp16", randn(3.0)), Out("y_ptr", ["n"], "fp16"), Scalar("n_elements", "n")],
         constexprs=dict(APPROXIMATE=approx, BLOCK_SIZE=1024),
         grid=["cdiv(n, BLOCK_SIZE)"], **FP16,
         torch_ref=f"F.gelu(x_ptr, approximate='{approx}')",
         idioms="try/except libdevice import, tl.constexpr globals, @jit helpers, string constexpr, "
                "libdevice.tanh/erf, .to(tl.float32), ptr.dtype.element_ty")

case("gelu_fast", "gelu.py", "gelu_fast_kernel",
     sizes=dict(n=1 << 24),
     args=[In("x_ptr", ["n"], "fp16", randn(3.0)), Out("y_ptr", ["n"], "fp16"), Scalar("n_elements", "n")],
     constexprs=dict(BLOCK_SIZE=1024), grid=["cdiv(n, BLOCK_SIZE)"], atol=2e-3, rtol=4e-3,
     torch_ref="F.gelu(x_ptr, approximate='tanh')",
     idioms="tl.inline_asm_elementwise (tanh.approx.f32)")

_swiglu = dict(sizes=dict(rows=4096, cols=11008), constexprs=dict(BLOCK_SIZE=16384), num_warps=16,
               grid=["rows"], **BF16)
case("swiglu_fwd", "swiglu.py", "swiglu_fwd_kernel",
     args=[In("gate_ptr", ["rows", "cols"], "bf16"), In("up_ptr", ["rows", "cols"], "bf16"),
           Out("out_ptr", ["rows", "cols"], "bf16"), Stride("row_stride", "out_ptr", 0), Scalar("n_cols", "cols")],
     torch_ref="F.silu(gate_ptr) * up_ptr",
     idioms="program_id().to(tl.int64), pointer params reassigned (ptr += ...), tl.sigmoid, x.dtype, "
            "autograd.Function wrapper", **_swiglu)
case("swiglu_bwd", "swiglu.py", "swiglu_bwd_kernel",
     args=[In("grad_ptr", ["rows", "cols"], "bf16"), InOut("gate_ptr", ["rows", "cols"], "bf16"),
           InOut("up_ptr", ["rows", "cols"], "bf16"), Stride("row_stride", "grad_ptr", 0), Scalar("n_cols", "cols")],
     idioms="in-place gradient stores over the inputs", **_swiglu)

for variant, idioms in (("exact", "tl.math.erf, tl.math.rsqrt of a constant"),
                        ("approx", "module-level alias of libdevice.tanh")):
    case(f"geglu_{variant}", "geglu.py", "geglu_fwd_kernel",
         sizes=dict(b=4, s=1024, h=8192),
         args=[In("gate_ptr", ["b", "s", "h"], "fp16"), In("up_ptr", ["b", "s", "h"], "fp16"),
               Out("h_ptr", ["b", "s", "h"], "fp16"), Scalar("n_elements", "b * s * h")],
         constexprs=dict(APPROXIMATE=variant == "approx", BLOCK_SIZE=1024), grid=["cdiv(b * s * h, BLOCK_SIZE)"],
         **FP16,
         torch_ref="F.gelu(gate_ptr, approximate='%s') * up_ptr" % ("tanh" if variant == "approx" else "none"),
         idioms="flat 1-D index over a 3-D tensor, " + idioms)

case("dropout", "dropout.py", "seeded_dropout_kernel",
     sizes=dict(n=(1 << 24) + 5),
     args=[In("x_ptr", ["n"], "fp32"), Out("out_ptr", ["n"], "fp32"), Scalar("n_elements", "n"),
           Scalar("p", 0.2), Scalar("seed", 20231)],
     constexprs=dict(BLOCK_SIZE=1024), grid=["cdiv(n, BLOCK_SIZE)"], **FP32, do_not_specialize=["seed"],
     torch_ref="F.dropout(x_ptr, p)",
     idioms="@triton.jit(do_not_specialize=[...]), tl.rand(seed, offsets) (Philox), tl.where")
case("dropout_mask", "dropout.py", "dropout_mask_kernel",
     sizes=dict(n=(1 << 24) + 5),
     args=[Out("mask_ptr", ["n"], "i8"), Scalar("n_elements", "n"), Scalar("p", 0.3), Scalar("seed", 7)],
     constexprs=dict(BLOCK_SIZE=1024), grid=["cdiv(n, BLOCK_SIZE)"],
     idioms="tl.rand, bool .to(tl.int8) store")
case("gaussian_noise", "dropout.py", "gaussian_noise_kernel",
     sizes=dict(n=1 << 24),
     args=[In("x_ptr", ["n"], "bf16"), Out("out_ptr", ["n"], "bf16"), Scalar("n_elements", "n"),
           Scalar("sigma", 0.5), Scalar("seed", 99991)],
     constexprs=dict(BLOCK_SIZE=2048), num_warps=8, grid=["cdiv(n, BLOCK_SIZE)"], **BF16,
     idioms="tl.randn (Box-Muller)")

case("nan_to_num_clamp", "sanitize.py", "nan_to_num_clamp_kernel",
     sizes=dict(n=1 << 22),
     args=[In("x_ptr", ["n"], "fp32", randn(3e4, specials=True)), Out("out_ptr", ["n"], "fp32"),
           Scalar("n_elements", "n"), Scalar("nan_value", 0.0), Scalar("posinf_value", 65504.0),
           Scalar("neginf_value", -65504.0), Scalar("lo", -1.0e4), Scalar("hi", 1.0e4)],
     constexprs=dict(BLOCK_SIZE=4096), num_warps=8, grid=["cdiv(n, BLOCK_SIZE)"], atol=0.0, rtol=0.0,
     torch_ref="torch.nan_to_num(x_ptr, 0.0, 65504.0, -65504.0).clamp_(-1.0e4, 1.0e4)",
     idioms="libdevice.isnan, comparisons with float('inf'), tl.clamp with runtime bounds")
case("masked_fill", "sanitize.py", "masked_fill_kernel",
     sizes=dict(m=4096, n=4096),
     args=[In("x_ptr", ["m", "n"], "fp32"), In("mask_ptr", ["m", "n"], "i1", randbool(0.25)),
           Out("out_ptr", ["m", "n"], "fp32"), Scalar("n_rows", "m"), Scalar("n_cols", "n"),
           Stride("stride_x", "x_ptr", 0), Stride("stride_mask", "mask_ptr", 0), Scalar("value", -1.0e4)],
     constexprs=dict(BLOCK_N=1024), grid=["m", "cdiv(n, BLOCK_N)"], atol=0.0, rtol=0.0,
     torch_ref="x_ptr.masked_fill(mask_ptr, value)",
     idioms="torch.bool tensor (a *i1 pointer), other=False")

# Reductions, normalization -----------------------------------------------------------

case("softmax_rows", "softmax.py", "softmax_rows_kernel",
     sizes=dict(rows=8192, cols=1000, programs=528),
     args=[Out("out_ptr", ["rows", "cols"], "fp32"), In("in_ptr", ["rows", "cols"], "fp32"),
           Stride("in_row_stride", "in_ptr", 0), Stride("out_row_stride", "out_ptr", 0),
           Scalar("n_rows", "rows"), Scalar("n_cols", "cols")],
     constexprs=dict(BLOCK_SIZE=1024, num_stages=4), num_stages=4,
     grid=["min(rows, programs)"], **FP32,
     torch_ref="torch.softmax(in_ptr, dim=-1)",
     idioms="persistent grid: tl.range(pid, n, tl.num_programs(0), num_stages=...), kernel param named "
            "num_stages, other=-float('inf')")

case("online_softmax", "online_softmax.py", "online_softmax_kernel",
     sizes=dict(rows=512, cols=50257),
     args=[In("x_ptr", ["rows", "cols"], "fp16", randn(4.0)), Out("y_ptr", ["rows", "cols"], "fp16"),
           Stride("stride_x", "x_ptr", 0), Stride("stride_y", "y_ptr", 0), Scalar("n_cols", "cols")],
     constexprs=dict(BLOCK_N=2048), num_warps=8, grid=["rows"], atol=1e-4, rtol=5e-3,
     torch_ref="torch.softmax(x_ptr, dim=-1)",
     idioms="online softmax over chunks, tl.math.exp2, tl.full with -inf, tl.where on -inf")

_ce_args = [InOut("logits_ptr", ["rows", "vocab"], "fp32", randn(2.0), atol=1e-7, rtol=1e-4),
            Stride("logits_row_stride", "logits_ptr", 0),
            In("labels_ptr", ["rows"], "i64", randint(0, "vocab", ignore_every=7, ignore_value=-100)),
            Out("loss_ptr", ["rows"], "fp32"), Out("lse_ptr", ["rows"], "fp32"),
            Scalar("n_cols", "vocab"), Scalar("n_non_ignore", "rows - cdiv(rows, 7)"),
            Scalar("ignore_index", -100), Scalar("label_smoothing", "smoothing")]
case("cross_entropy_smooth", "cross_entropy.py", "cross_entropy_fwd_kernel",
     sizes=dict(rows=2048, vocab=32000, smoothing=0.1), args=_ce_args,
     constexprs=dict(HAS_SMOOTHING=True, BLOCK_SIZE=32768), num_warps=32, grid=["rows"], **FP32,
     torch_ref="F.cross_entropy(logits_ptr, labels_ptr, ignore_index=-100, label_smoothing=0.1, reduction='none')",
     idioms="early return in a runtime if, loop-carried float('-inf') scalar, int64 labels, "
            "gradient written over the logits, constexpr if defining a name used later")
case("cross_entropy", "cross_entropy.py", "cross_entropy_fwd_kernel",
     sizes=dict(rows=2048, vocab=50257, smoothing=0.0), args=_ce_args,
     constexprs=dict(HAS_SMOOTHING=False, BLOCK_SIZE=4096), num_warps=8, grid=["rows"], **FP32,
     torch_ref="F.cross_entropy(logits_ptr, labels_ptr, ignore_index=-100, reduction='none')",
     idioms="as above, several chunks per row")

case("layer_norm", "layer_norm.py", "layer_norm_fwd_kernel",
     sizes=dict(M=4096, N=5120),
     args=[In("X", ["M", "N"], "fp16"), Out("Y", ["M", "N"], "fp16"), In("W", ["N"], "fp16", uniform(0.5, 1.5)),
           In("B", ["N"], "fp16"), Out("Mean", ["M"], "fp32"), Out("Rstd", ["M"], "fp32"),
           Stride("stride_x_row", "X", 0), Stride("stride_y_row", "Y", 0), Scalar("N", "N"), Scalar("eps", 1e-5)],
     constexprs=dict(BLOCK_N=8192), num_warps=8, grid=["M"], atol=2e-3, rtol=2e-3,
     torch_ref="F.layer_norm(X, (N,), W, B, eps)",
     idioms="capitalized pointer params reassigned, tl.where(mask, x - mean, 0), 1 / tl.sqrt, tl.fma")

case("layer_norm_bwd", "layer_norm.py", "layer_norm_bwd_dx_fused_kernel",
     sizes=dict(M=4096, N=5120),
     args=[Out("DX", ["M", "N"], "fp16"), In("DY", ["M", "N"], "fp16"),
           Out("DW_acc", ["GROUP_SIZE_M", "N"], "fp32", zeros(), atol=1e-3, rtol=1e-4),
           Out("DB_acc", ["GROUP_SIZE_M", "N"], "fp32", zeros(), atol=1e-3, rtol=1e-4),
           In("X", ["M", "N"], "fp16"), In("W", ["N"], "fp16", uniform(0.5, 1.5)),
           In("Mean", ["M"], "fp32", uniform(-0.1, 0.1)), In("Rstd", ["M"], "fp32", uniform(0.8, 1.2)),
           Out("Locks", ["GROUP_SIZE_M"], "i32", zeros()), Stride("stride_row", "X", 0), Scalar("N", "N")],
     constexprs=dict(GROUP_SIZE_M=64, BLOCK_N=8192), num_warps=8, grid=["M"], atol=2e-3, rtol=2e-3,
     idioms="spin lock: while tl.atomic_cas(lock, 0, 1) == 1: pass, tl.atomic_xchg release, "
            "tl.debug_barrier, docstring in a kernel, read-modify-write of shared accumulators")

case("rms_norm_fwd", "rms_norm.py", "rms_norm_fwd_kernel",
     sizes=dict(rows=4096, cols=4096),
     args=[Out("Y_ptr", ["rows", "cols"], "bf16"), Stride("Y_row_stride", "Y_ptr", 0),
           In("X_ptr", ["rows", "cols"], "bf16"), Stride("X_row_stride", "X_ptr", 0),
           In("W_ptr", ["cols"], "bf16", uniform(0.5, 1.5)), Out("RSTD_ptr", ["rows"], "fp32"),
           Scalar("n_cols", "cols"), Scalar("eps", 1e-6)],
     constexprs=dict(offset=0.0, BLOCK_SIZE=4096), num_warps=8, grid=["rows"], **BF16,
     torch_ref="F.rms_norm(X_ptr, (cols,), W_ptr, eps)",
     idioms="tl.math.rsqrt, x.dtype of a loaded tile, float constexpr offset")
case("rms_norm_bwd", "rms_norm.py", "rms_norm_bwd_kernel",
     sizes=dict(rows=4096, cols=4096),
     args=[In("dY_ptr", ["rows", "cols"], "bf16"), Stride("dY_row_stride", "dY_ptr", 0),
           Out("dX_ptr", ["rows", "cols"], "bf16"), Stride("dX_row_stride", "dX_ptr", 0),
           In("X_ptr", ["rows", "cols"], "bf16"), Stride("X_row_stride", "X_ptr", 0),
           In("W_ptr", ["cols"], "bf16", uniform(0.5, 1.5)), In("RSTD_ptr", ["rows"], "fp32", uniform(0.5, 2.0)),
           Out("dW_ptr", ["cdiv(rows, rows_per_program)", "cols"], "fp32", atol=1e-3, rtol=1e-4),
           Stride("dW_row_stride", "dW_ptr", 0), Scalar("n_rows", "rows"), Scalar("n_cols", "cols")],
     constexprs=dict(offset=0.0, rows_per_program=32, BLOCK_SIZE=4096), num_warps=8,
     grid=["cdiv(rows, rows_per_program)"], **BF16,
     idioms="Python min() on runtime values, runtime range(row_start, row_end), per-program partial dW")

case("fused_add_rms_norm", "fused_add_rms_norm.py", "fused_add_rms_norm_kernel",
     sizes=dict(tokens=4096, hidden=8192),
     args=[Out("out_ptr", ["tokens", "hidden"], "bf16"), In("x_ptr", ["tokens", "hidden"], "bf16"),
           InOut("residual_ptr", ["tokens", "hidden"], "bf16"), In("weight_ptr", ["hidden"], "bf16", uniform(0.5, 1.5)),
           Stride("stride_row", "x_ptr", 0), Scalar("hidden_size", "hidden"), Scalar("eps", 1e-6)],
     constexprs=dict(BLOCK_SIZE=1024), grid=["tokens"], **BF16,
     idioms="in-place residual update, two chunked passes over a row, tl.rsqrt, "
            "eviction_policy on a re-read")

case("row_cumsum", "scan.py", "row_cumsum_kernel",
     sizes=dict(rows=4096, cols=1999),
     args=[In("x_ptr", ["rows", "cols"], "fp32"), Out("y_ptr", ["rows", "cols"], "fp32", atol=1e-4, rtol=1e-4),
           Stride("stride_row", "x_ptr", 0), Scalar("n_cols", "cols")],
     constexprs=dict(REVERSE=False, BLOCK=2048), grid=["rows"],
     torch_ref="torch.cumsum(x_ptr, dim=1)", idioms="tl.cumsum")
case("row_cumsum_reverse", "scan.py", "row_cumsum_kernel",
     sizes=dict(rows=4096, cols=2048),
     args=[In("x_ptr", ["rows", "cols"], "fp32"), Out("y_ptr", ["rows", "cols"], "fp32", atol=1e-4, rtol=1e-4),
           Stride("stride_row", "x_ptr", 0), Scalar("n_cols", "cols")],
     constexprs=dict(REVERSE=True, BLOCK=2048), grid=["rows"],
     idioms="tl.cumsum(reverse=True)")
case("linear_recurrence", "scan.py", "linear_recurrence_kernel",
     sizes=dict(rows=4096, seq=1024),
     args=[In("a_ptr", ["rows", "seq"], "fp32", uniform(0.5, 1.0)), In("x_ptr", ["rows", "seq"], "fp32"),
           Out("h_ptr", ["rows", "seq"], "fp32", atol=1e-4, rtol=1e-4), Stride("stride_row", "x_ptr", 0),
           Scalar("seq_len", "seq")],
     constexprs=dict(BLOCK=1024), grid=["rows"],
     idioms="tl.associative_scan over a tuple with a @jit combine_fn, `_, h = ...` unpacking")

case("argmax_long_rows", "argmax.py", "argmax_long_rows_kernel",
     sizes=dict(rows=256, vocab=32000),
     args=[In("x_ptr", ["rows", "vocab"], "fp16"), Out("max_ptr", ["rows"], "fp32"),
           Out("idx_ptr", ["rows"], "i64"), Stride("stride_row", "x_ptr", 0), Scalar("n_cols", "vocab")],
     constexprs=dict(BLOCK_N=4096), num_warps=8, grid=["rows"], atol=0.0, rtol=0.0,
     torch_ref="torch.max(x_ptr, dim=1)",
     idioms="tl.max(return_indices=True), loop-carried (value, index) with ties, int64 store")
case("argmax_small_rows", "argmax.py", "argmax_small_rows_kernel",
     sizes=dict(rows=65536, cols=100),
     args=[In("x_ptr", ["rows", "cols"], "fp32"), Out("idx_ptr", ["rows"], "i32"), Scalar("n_rows", "rows"),
           Scalar("n_cols", "cols"), Stride("stride_row", "x_ptr", 0)],
     constexprs=dict(BLOCK_M=32, BLOCK_N=128), grid=["cdiv(rows, BLOCK_M)"],
     torch_ref="torch.argmax(x_ptr, dim=1)", idioms="tl.argmax(axis=1) of a 2-D tile")

case("topk_filter", "topk_filter.py", "topk_filter_kernel",
     sizes=dict(rows=1024, vocab=4000),
     args=[In("logits_ptr", ["rows", "vocab"], "fp32"), Out("out_ptr", ["rows", "vocab"], "fp32"),
           In("k_ptr", ["rows"], "i32", randint(1, 64)), Stride("stride_row", "logits_ptr", 0),
           Scalar("vocab", "vocab")],
     constexprs=dict(BLOCK_V=4096), num_warps=8, grid=["rows"], atol=0.0, rtol=0.0,
     torch_ref="torch.topk(logits_ptr, 64, dim=-1)",
     idioms="tl.sort(descending=True), selecting one element of a tile with where + max")

case("sum_dim1", "sum_dim.py", "sum_dim1_kernel",
     sizes=dict(M=64, N=1024, K=4096),
     args=[In("x_ptr", ["M", "N", "K"], "fp16"), Out("out_ptr", ["M", "K"], "fp16", atol=2e-2, rtol=2e-3),
           Scalar("M", "M"), Scalar("N", "N"), Scalar("K", "K")],
     constexprs=dict(ACC_DTYPE="tl.float32", BLOCK_N=32, BLOCK_K=128), num_warps=4,
     grid=["cdiv(K, BLOCK_K)", "M"],
     torch_ref="x_ptr.sum(dim=1)",
     idioms="unknown project decorator above @autotune (configs from a host function), dtype constexpr, "
            "2-D accumulator reduced once with tl.sum(axis=0)")

for variant, extra in (("atomic", dict(torch_ref="torch.histc(x_ptr, 256, -4.0, 4.0)",
                                       idioms="tl.atomic_add of a constant into computed bins, float-to-int index")),
                       ("local", dict(torch_ref="torch.histc(x_ptr, 256, -4.0, 4.0)",
                                      idioms="tl.histogram per program, vector atomic_add merge"))):
    case(f"histc_{variant}", "histogram.py", f"histc_{variant}_kernel",
         sizes=dict(n=1 << 24),
         args=[In("x_ptr", ["n"], "fp32", randn(1.5)), Out("hist_ptr", ["NUM_BINS"], "i32", zeros()),
               Scalar("n_elements", "n"), Scalar("lo", -4.0), Scalar("hi", 4.0)],
         constexprs=dict(NUM_BINS=256, BLOCK_SIZE=4096), num_warps=8, grid=["cdiv(n, BLOCK_SIZE)"], **extra)

# Gather / scatter / layout -------------------------------------------------------------

case("embedding_fwd", "embedding.py", "embedding_fwd_kernel",
     sizes=dict(tokens=8192, vocab=32000, dim=4096),
     args=[In("ids_ptr", ["tokens"], "i64", randint(0, "vocab")), In("weight_ptr", ["vocab", "dim"], "fp16"),
           Out("out_ptr", ["tokens", "dim"], "fp16"), Scalar("n_tokens", "tokens"), Scalar("vocab_size", "vocab"),
           Scalar("embedding_dim", "dim"), Stride("stride_w", "weight_ptr", 0), Stride("stride_out", "out_ptr", 0)],
     constexprs=dict(BLOCK_T=32, BLOCK_D=128), grid=["cdiv(tokens, BLOCK_T)", "cdiv(dim, BLOCK_D)"],
     atol=0.0, rtol=0.0, torch_ref="F.embedding(ids_ptr, weight_ptr)",
     idioms="gather through loaded int64 indices, tl.device_assert on them, 2-D grid, int64 offsets")
case("embedding_bwd", "embedding.py", "embedding_bwd_kernel",
     sizes=dict(tokens=8192, vocab=8000, dim=4096),
     args=[In("ids_ptr", ["tokens"], "i64", randint(0, "vocab")), In("grad_out_ptr", ["tokens", "dim"], "fp16"),
           Out("grad_weight_ptr", ["vocab", "dim"], "fp32", zeros()), Scalar("n_tokens", "tokens"),
           Scalar("embedding_dim", "dim"), Stride("stride_gout", "grad_out_ptr", 0),
           Stride("stride_gw", "grad_weight_ptr", 0)],
     constexprs=dict(BLOCK_T=16, BLOCK_D=256), grid=["cdiv(tokens, BLOCK_T)", "cdiv(dim, BLOCK_D)"],
     atol=1e-5, rtol=1e-5,
     idioms="scatter-add with tl.atomic_add on fp32 through gathered rows (duplicate ids)")

case("kv_cache_write", "kv_cache.py", "reshape_and_cache_kernel",
     sizes=dict(tokens=4096, heads=8, head_size=128, blocks=512, block=16),
     args=[In("key_ptr", ["tokens", "heads", "head_size"], "fp16"),
           In("value_ptr", ["tokens", "heads", "head_size"], "fp16"),
           Out("key_cache_ptr", ["blocks", "block", "heads", "head_size"], "fp16"),
           Out("value_cache_ptr", ["blocks", "block", "heads", "head_size"], "fp16"),
           In("slot_mapping_ptr", ["tokens"], "i64", slots("blocks * block", ignore_every=9)),
           Stride("key_stride", "key_ptr", 0), Stride("value_stride", "value_ptr", 0),
           Stride("block_stride", "key_cache_ptr", 0), Stride("page_stride", "key_cache_ptr", 1),
           Scalar("num_heads", "heads"), Scalar("head_size", "head_size")],
     constexprs=dict(block_size=16, TILE_SIZE=1024), grid=["tokens"], atol=0.0, rtol=0.0,
     idioms="early return on a padding slot, int64 // and % by a constexpr, scatter to computed rows")

_rope_args = [InOut("q_ptr", ["b", "s", "qh", "hd"], "fp16"), Stride("q_row_stride", "q_ptr", 1),
              InOut("k_ptr", ["b", "s", "kh", "hd"], "fp16"), Stride("k_row_stride", "k_ptr", 1),
              In("cos_ptr", ["s", "hd"], "fp32", uniform(-1.0, 1.0)), Stride("cos_row_stride", "cos_ptr", 0),
              In("sin_ptr", ["s", "hd"], "fp32", uniform(-1.0, 1.0)), Stride("sin_row_stride", "sin_ptr", 0),
              Scalar("seq_len", "s")]
for name, (b, s_, qh, kh, hd, backward), idioms in (
        ("rope", (4, 2048, 32, 8, 128, False),
         "in-place q and k, [heads, head_dim/2] tiles, constexpr shapes passed positionally, constexpr default, "
         "constexpr conditional expression"),
        ("rope_padded", (2, 512, 12, 4, 96, True), "heads and head_dim padded to powers of two and masked")):
    case(name, "rope.py", "rope_fwd_kernel", sizes=dict(b=b, s=s_, qh=qh, kh=kh, hd=hd), args=_rope_args,
         constexprs=dict(n_qh=qh, n_kh=kh, hd=hd, pad_n_qh=next_power_of_2(qh), pad_n_kh=next_power_of_2(kh),
                         pad_hd=next_power_of_2(hd), BACKWARD_PASS=backward),
         grid=["b * s"], idioms=idioms, **FP16)

case("rope_gptj", "rope_gptj.py", "rope_interleaved_kernel",
     sizes=dict(tokens=8192, heads=28, hd=128, max_pos=4096),
     args=[In("x_ptr", ["tokens", "heads", "hd"], "bf16"), Out("out_ptr", ["tokens", "heads", "hd"], "bf16"),
           In("cos_ptr", ["max_pos", "hd // 2"], "fp32", uniform(-1.0, 1.0)),
           In("sin_ptr", ["max_pos", "hd // 2"], "fp32", uniform(-1.0, 1.0)),
           In("pos_ptr", ["tokens"], "i64", randint(0, "max_pos")),
           Stride("stride_xt", "x_ptr", 0), Stride("stride_xh", "x_ptr", 1), Stride("stride_ot", "out_ptr", 0),
           Stride("stride_oh", "out_ptr", 1), Stride("stride_cos", "cos_ptr", 0), Scalar("num_heads", "heads")],
     constexprs=dict(HEAD_DIM=128, BLOCK_H=32), grid=["tokens"], **BF16,
     idioms="x.reshape(a, b, 2) to a 3-D tile, tl.split, tl.interleave, table lookup by loaded positions, "
            "heads padded to a power of two")

for variant, kernel in (("", "transpose_kernel"), ("_block_ptr", "transpose_block_ptr_kernel")):
    case(f"transpose{variant}", "transpose.py", kernel,
         sizes=dict(M=3000, N=5000),
         args=[In("x_ptr", ["M", "N"], "fp32"), Out("out_ptr", ["N", "M"], "fp32"), Scalar("M", "M"),
               Scalar("N", "N"), Stride("stride_xm", "x_ptr", 0), Stride("stride_xn", "x_ptr", 1),
               Stride("stride_om", "out_ptr", 0), Stride("stride_on", "out_ptr", 1)],
         constexprs=dict(BLOCK_M=64, BLOCK_N=64), grid=["cdiv(M, BLOCK_M)", "cdiv(N, BLOCK_N)"],
         atol=0.0, rtol=0.0, torch_ref="x_ptr.t().contiguous()",
         idioms="tl.trans of a tile and of its mask" if not variant else
                "make_block_ptr for a transposed destination, boundary_check, padding_option, tile.T")

# Quantization -------------------------------------------------------------------------

case("quantize_int8", "quant_int8.py", "quantize_int8_rowwise_kernel",
     sizes=dict(rows=4096, hidden=5120),
     args=[In("x_ptr", ["rows", "hidden"], "fp16"), Out("q_ptr", ["rows", "hidden"], "i8", atol=1),
           Out("scale_ptr", ["rows"], "fp32", atol=0.0, rtol=1e-6), Stride("stride_x", "x_ptr", 0),
           Stride("stride_q", "q_ptr", 0), Scalar("hidden", "hidden")],
     constexprs=dict(HIDDEN_BLOCKS=3, BLOCK=2048), grid=["rows"],
     idioms="tl.static_range, libdevice.rint, tl.clamp, float to int8 cast, per-row scale")
case("dequantize_int8", "quant_int8.py", "dequantize_int8_rowwise_kernel",
     sizes=dict(rows=4096, hidden=5120),
     args=[In("q_ptr", ["rows", "hidden"], "i8", randint(-127, 128)), In("scale_ptr", ["rows"], "fp32", uniform(1e-3, 1e-1)),
           Out("y_ptr", ["rows", "hidden"], "fp16"), Scalar("n_rows", "rows"), Scalar("hidden", "hidden"),
           Stride("stride_q", "q_ptr", 0), Stride("stride_y", "y_ptr", 0)],
     constexprs=dict(BLOCK_M=16, BLOCK_N=256), grid=["cdiv(rows, BLOCK_M)", "cdiv(hidden, BLOCK_N)"],
     atol=0.0, rtol=0.0,
     torch_ref="(q_ptr.float() * scale_ptr[:, None]).half()", idioms="int8 loads, broadcast per-row scale")
case("dequant_int4", "int4_dequant.py", "dequant_int4_kernel",
     sizes=dict(K=4096, N=11008, group=128),
     args=[In("qweight_ptr", ["K // 8", "N"], "i32", randint(-2**31, 2**31)),
           In("scales_ptr", ["K // group", "N"], "fp16", uniform(1e-3, 1e-2)),
           In("qzeros_ptr", ["K // group", "N // 8"], "i32", randint(-2**31, 2**31)),
           Out("out_ptr", ["K", "N"], "fp16"), Scalar("K", "K"), Scalar("N", "N"),
           Stride("stride_qk", "qweight_ptr", 0), Stride("stride_sg", "scales_ptr", 0),
           Stride("stride_zg", "qzeros_ptr", 0), Stride("stride_ok", "out_ptr", 0)],
     constexprs=dict(GROUP_SIZE=128, BLOCK_K=64, BLOCK_N=128), grid=["cdiv(K, BLOCK_K)", "cdiv(N, BLOCK_N)"],
     atol=0.0, rtol=0.0, idioms="packed int32 nibbles: >>, & 0xF, // and % on index tiles, repeated addresses")

case("fp8_quant_static", "quant_fp8.py", "static_fp8_quant_kernel",
     sizes=dict(n=1 << 24),
     args=[In("x_ptr", ["n"], "fp16", randn(100.0)), Out("out_ptr", ["n"], "fp8e4nv"),
           In("scale_ptr", [1], "fp32", uniform(0.5, 1.0)), Scalar("n_elements", "n")],
     constexprs=dict(BLOCK_SIZE=2048), grid=["cdiv(n, BLOCK_SIZE)"], atol=0.0, rtol=0.0,
     idioms="fp8 (e4m3) output pointer, scalar load of a device scale, tl.clamp with constexpr bounds",
     min_arch="sm_90")
case("fp8_quant_per_token", "quant_fp8.py", "dynamic_per_token_fp8_quant_kernel",
     sizes=dict(rows=4096, hidden=8192),
     args=[In("x_ptr", ["rows", "hidden"], "fp16", randn(10.0)), Out("out_ptr", ["rows", "hidden"], "fp8e4nv"),
           Out("scale_ptr", ["rows", 1], "fp32"), Stride("stride_x", "x_ptr", 0), Stride("stride_out", "out_ptr", 0),
           Scalar("hidden", "hidden")],
     constexprs=dict(BLOCK=8192), num_warps=16, grid=["rows"], atol=0.0, rtol=0.0,
     idioms=".to(tl.float8e4nv), per-row absmax scale", min_arch="sm_90")

# Matrix multiplication ------------------------------------------------------------------

_mm_args = [In("a_ptr", ["M", "K"], "fp16"), In("b_ptr", ["K", "N"], "fp16"), Out("c_ptr", ["M", "N"], "fp16"),
            Scalar("M", "M"), Scalar("N", "N"), Scalar("K", "K"),
            Stride("stride_am", "a_ptr", 0), Stride("stride_ak", "a_ptr", 1),
            Stride("stride_bk", "b_ptr", 0), Stride("stride_bn", "b_ptr", 1),
            Stride("stride_cm", "c_ptr", 0), Stride("stride_cn", "c_ptr", 1)]
case("matmul", "matmul.py", "matmul_kernel", sizes=dict(M=4096, N=4096, K=4096), args=_mm_args,
     constexprs=dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, GROUP_M=8), num_warps=4, num_stages=4,
     grid=["cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)"], **MATMUL16,
     torch_ref="torch.matmul(a_ptr, b_ptr)",
     idioms="@autotune (configs from a host function), grouped program order, Python min() on runtime "
            "values, % M wrap with multiple_of/max_contiguous hints, tl.dot into fp32")
case("matmul_odd", "matmul.py", "matmul_kernel", sizes=dict(M=1000, N=1000, K=1000), args=_mm_args,
     constexprs=dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=8), num_warps=2, num_stages=5,
     grid=["cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)"], **MATMUL16,
     torch_ref="torch.matmul(a_ptr, b_ptr)",
     idioms="sizes and strides not multiples of 16 (unspecialized loads), 2 warps")

_lin = [In("x_ptr", ["M", "K"], "fp16"), In("w_ptr", ["K", "N"], "fp16", randn(0.05))]
_lin_rest = [Out("y_ptr", ["M", "N"], "fp16"), Scalar("M", "M"), Scalar("N", "N"), Scalar("K", "K"),
             Stride("stride_xm", "x_ptr", 0), Stride("stride_xk", "x_ptr", 1),
             Stride("stride_wk", "w_ptr", 0), Stride("stride_wn", "w_ptr", 1),
             Stride("stride_ym", "y_ptr", 0), Stride("stride_yn", "y_ptr", 1)]
case("matmul_descriptor", "matmul_descriptor.py", "matmul_descriptor_kernel",
     sizes=dict(M=4096, N=4096, K=4096),
     args=[In("a_ptr", ["M", "K"], "fp16"), In("b_ptr", ["K", "N"], "fp16"), Out("c_ptr", ["M", "N"], "fp16"),
           Scalar("M", "M"), Scalar("N", "N"), Scalar("K", "K")],
     constexprs=dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64), num_warps=8, num_stages=3,
     grid=["cdiv(M, BLOCK_M)", "cdiv(N, BLOCK_N)"], **MATMUL16,
     torch_ref="torch.matmul(a_ptr, b_ptr)",
     idioms="tl.make_tensor_descriptor built in the kernel, desc.load/desc.store, desc.dtype, "
            "triton.set_allocator at import")

_host_desc_mm = dict(
    args=[DescIn("a_desc", ["M", "K"], "fp16", ["BLOCK_M", "BLOCK_K"]),
          DescIn("b_desc", ["K", "N"], "fp16", ["BLOCK_K", "BLOCK_N"]),
          DescOut("c_desc", ["M", "N"], "fp16", ["BLOCK_M", "BLOCK_N"]),
          Scalar("M", "M"), Scalar("N", "N"), Scalar("K", "K")],
    constexprs=dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64), num_warps=8, num_stages=3,
    grid=["cdiv(M, BLOCK_M)", "cdiv(N, BLOCK_N)"], torch_ref="torch.matmul(a_desc, b_desc)",
    **MATMUL16)

case("matmul_host_descriptor", "matmul_host_descriptor.py", "matmul_host_descriptor_kernel",
     sizes=dict(M=4096, N=4096, K=4096), **_host_desc_mm,
     idioms="TensorDescriptor arguments made on the host (unannotated parameters typed "
            "tensordesc<fp16[128, 64]> by the signature), desc.load/desc.store")

case("matmul_host_descriptor_ragged", "matmul_host_descriptor.py", "matmul_host_descriptor_kernel",
     sizes=dict(M=1000, N=1000, K=1000), **_host_desc_mm,
     idioms="host TensorDescriptors whose tensors end inside a block (zeros read past "
            "every edge, stores clipped)")

case("matmul_persistent", "matmul_persistent.py", "matmul_persistent_kernel",
     sizes=dict(M=4096, N=4096, K=4096), args=_mm_args,
     constexprs=dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, NUM_SMS=132), num_warps=8, num_stages=3,
     grid=["min(NUM_SMS, cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N))"], **MATMUL16,
     torch_ref="torch.matmul(a_ptr, b_ptr)",
     idioms="persistent tile loop tl.range(pid, num_tiles, NUM_SMS, flatten=True) around the K loop, "
            "@jit helper returning a tuple, tl.where clamping of out-of-range offsets")

case("linear_bias_gelu", "linear_act.py", "linear_act_kernel",
     sizes=dict(M=4096, N=4096, K=1024),
     args=_lin + [In("bias_ptr", ["N"], "fp16")] + _lin_rest,
     constexprs=dict(ACTIVATION="gelu", BLOCK_M=128, BLOCK_N=64, BLOCK_K=32),
     heuristics=dict(EVEN_K=True, HAS_BIAS=True), grid=["cdiv(M, BLOCK_M)", "cdiv(N, BLOCK_N)"], **MATMUL16,
     torch_ref="F.gelu(torch.addmm(bias_ptr, x_ptr, w_ptr), approximate='tanh')",
     idioms="@triton.heuristics (EVEN_K from K, HAS_BIAS from `is not None`), activation chosen by a "
            "string constexpr, bias epilogue, acc += tl.dot(a, b)")
case("linear_leaky_relu_nobias", "linear_act.py", "linear_act_kernel",
     sizes=dict(M=1024, N=1024, K=1000),
     args=_lin + [NoneArg("bias_ptr")] + _lin_rest,
     constexprs=dict(ACTIVATION="leaky_relu", BLOCK_M=128, BLOCK_N=64, BLOCK_K=32),
     heuristics=dict(EVEN_K=False, HAS_BIAS=False), grid=["cdiv(M, BLOCK_M)", "cdiv(N, BLOCK_N)"], **MATMUL16,
     torch_ref="F.leaky_relu(torch.matmul(x_ptr, w_ptr), 0.01)",
     idioms="bias pointer passed as None, masked K tail (EVEN_K false)")

case("bmm_bf16_bt", "bmm.py", "bmm_kernel",
     sizes=dict(batch=32, M=512, N=512, K=256),
     args=[In("A", ["batch", "M", "K"], "bf16"), In("B", ["batch", "K", "N"], "bf16", transposed=True),
           Out("C", ["batch", "M", "N"], "bf16"), Scalar("M", "M"), Scalar("N", "N"), Scalar("K", "K"),
           Stride("stride_ab", "A", 0), Stride("stride_am", "A", 1), Stride("stride_ak", "A", 2),
           Stride("stride_bb", "B", 0), Stride("stride_bk", "B", 1), Stride("stride_bn", "B", 2),
           Stride("stride_cb", "C", 0), Stride("stride_cm", "C", 1), Stride("stride_cn", "C", 2)],
     constexprs=dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=32), grid=["cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)", "batch"],
     atol=3e-2, rtol=1.6e-2, torch_ref="torch.bmm(A, B)",
     idioms="tl.assume, batch on program_id(1), int64 batch offsets, B as a transposed (column-major) view, "
            "tl.range loop, tl.dot(acc=...)")

case("splitk_matmul", "splitk_matmul.py", "splitk_matmul_kernel",
     sizes=dict(M=64, N=256, K=16384),
     args=[In("a_ptr", ["M", "K"], "fp16"), In("b_ptr", ["K", "N"], "fp16"),
           Out("c_ptr", ["M", "N"], "fp32", zeros()), Scalar("M", "M"), Scalar("N", "N"), Scalar("K", "K"),
           Stride("stride_am", "a_ptr", 0), Stride("stride_ak", "a_ptr", 1),
           Stride("stride_bk", "b_ptr", 0), Stride("stride_bn", "b_ptr", 1),
           Stride("stride_cm", "c_ptr", 0), Stride("stride_cn", "c_ptr", 1)],
     constexprs=dict(BLOCK_M=32, BLOCK_N=64, BLOCK_K=64, SPLIT_K=8),
     grid=["cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)", "SPLIT_K"], atol=1e-3, rtol=1e-4,
     torch_ref="torch.matmul(a_ptr, b_ptr)",
     idioms="split-K on program_id(1), tl.atomic_add of an fp32 tile, constexpr if on SPLIT_K")

case("fused_moe", "fused_moe.py", "fused_moe_kernel",
     sizes=dict(tokens=2048, top_k=2, experts=8, N=1024, K=1024, EM=2048 * 2 + 8 * (64 - 1)),
     args=[In("a_ptr", ["tokens", "K"], "fp16"), In("b_ptr", ["experts", "N", "K"], "fp16", randn(0.05)),
           Out("c_ptr", ["tokens * top_k", "N"], "fp16"),
           In("topk_weights_ptr", ["tokens * top_k"], "fp32", uniform(0.0, 1.0)),
           In("sorted_token_ids_ptr", ["EM"], "i32", moe_routing("sorted_ids")),
           In("expert_ids_ptr", ["cdiv(EM, BLOCK_M)"], "i32", moe_routing("expert_ids")),
           In("num_tokens_post_padded_ptr", [1], "i32", moe_routing("num_post_padded")),
           Scalar("N", "N"), Scalar("K", "K"), Scalar("EM", "EM"), Scalar("num_valid_tokens", "tokens * top_k"),
           Stride("stride_am", "a_ptr", 0), Stride("stride_ak", "a_ptr", 1),
           Stride("stride_be", "b_ptr", 0), Stride("stride_bn", "b_ptr", 1), Stride("stride_bk", "b_ptr", 2),
           Stride("stride_cm", "c_ptr", 0), Stride("stride_cn", "c_ptr", 1)],
     constexprs=dict(MUL_ROUTED_WEIGHT=True, top_k=2, compute_type="tl.float16",
                     BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=8),
     grid=["cdiv(EM, BLOCK_M) * cdiv(N, BLOCK_N)"], **MATMUL16,
     idioms="early return on a loaded bound, rows of A gathered through loaded ids (// top_k), per-block "
            "expert offset, scatter store, dtype constexpr for the output, tl.arange(...).to(tl.int64)")

case("gemv", "gemv.py", "gemv_kernel",
     sizes=dict(N=14336, K=4096),
     args=[In("w_ptr", ["N", "K"], "fp16"), In("x_ptr", ["K"], "fp16"), Out("y_ptr", ["N"], "fp16", atol=2e-2, rtol=4e-3),
           Scalar("N", "N"), Scalar("K", "K"), Stride("stride_wn", "w_ptr", 0), Stride("stride_wk", "w_ptr", 1)],
     constexprs=dict(BLOCK_N=16, BLOCK_K=256), grid=["cdiv(N, BLOCK_N)"],
     torch_ref="torch.mv(w_ptr, x_ptr)",
     idioms="1-D and 2-D make_block_ptr, tl.advance in a loop, boundary_check with zero padding, "
            "block-pointer store, ptr.type.element_ty")

for causal in (True, False):
    case("flash_attn_fwd" + ("_causal" if causal else ""), "flash_attn_fwd.py", "attn_fwd_kernel",
         sizes=dict(Z=4, H=16, N_CTX=1024, D=64),
         args=[In("Q", ["Z", "H", "N_CTX", "D"], "fp16"), In("K", ["Z", "H", "N_CTX", "D"], "fp16"),
               In("V", ["Z", "H", "N_CTX", "D"], "fp16"), Scalar("sm_scale", 0.125),
               Out("M", ["Z", "H", "N_CTX"], "fp32", atol=1e-3, rtol=1e-4), Out("Out", ["Z", "H", "N_CTX", "D"], "fp16"),
               Stride("stride_qz", "Q", 0), Stride("stride_qh", "Q", 1), Stride("stride_qm", "Q", 2),
               Stride("stride_qk", "Q", 3), Stride("stride_kz", "K", 0), Stride("stride_kh", "K", 1),
               Stride("stride_kn", "K", 2), Stride("stride_kk", "K", 3), Stride("stride_vz", "V", 0),
               Stride("stride_vh", "V", 1), Stride("stride_vk", "V", 2), Stride("stride_vn", "V", 3),
               Stride("stride_oz", "Out", 0), Stride("stride_oh", "Out", 1), Stride("stride_om", "Out", 2),
               Stride("stride_on", "Out", 3), Scalar("Z", "Z"), Scalar("H", "H")],
         constexprs=dict(N_CTX=1024, HEAD_DIM=64, BLOCK_M=128, BLOCK_N=64, CAUSAL=causal),
         num_warps=8, num_stages=3, grid=["cdiv(N_CTX, BLOCK_M)", "Z * H"], atol=2e-3, rtol=1e-2,
         torch_ref=f"F.scaled_dot_product_attention(Q, K, V, is_causal={causal}, scale=sm_scale)",
         idioms="block pointers (K transposed via order=(0, 1)) advanced in a @jit helper returning a tuple, "
                "constexpr STAGE dispatch, tl.math.exp2/log2, tile-valued helper params annotated "
                "tl.constexpr, tl.static_assert")

for causal in (False, True):
    case("attn_descriptor" + ("_causal" if causal else ""), "attn_descriptor.py",
         "attn_descriptor_kernel",
         sizes=dict(Z=4, H=16, N_CTX=1024, D=64),
         args=[In("Q", ["Z", "H", "N_CTX", "D"], "fp16"), In("K", ["Z", "H", "N_CTX", "D"], "fp16"),
               In("V", ["Z", "H", "N_CTX", "D"], "fp16"), Out("Out", ["Z", "H", "N_CTX", "D"], "fp16"),
               Scalar("sm_scale", 0.125), Scalar("Z", "Z"), Scalar("H", "H")],
         constexprs=dict(N_CTX=1024, HEAD_DIM=64, BLOCK_M=128, BLOCK_N=64, CAUSAL=causal),
         num_warps=8, num_stages=3, grid=["cdiv(N_CTX, BLOCK_M)", "Z * H"], atol=2e-3, rtol=1e-2,
         torch_ref=f"F.scaled_dot_product_attention(Q, K, V, is_causal={causal}, scale=sm_scale)",
         idioms="tensor descriptors over a 2-D view of (batch, heads, seq) built in the kernel, "
                "k.T in tl.dot, desc.store of the output, constexpr-selected loop bound, "
                "tl.range, triton.set_allocator at import")


def by_name():
    names = {}
    for c in CASES:
        if c.name in names:
            raise ValueError(f"duplicate case name {c.name}")
        names[c.name] = c
    return names


def select(names=None):
    """The cases named (all when names is empty), in registry order."""
    table = by_name()
    if not names:
        return list(CASES)
    missing = [n for n in names if n not in table]
    if missing:
        raise KeyError(f"unknown case(s): {', '.join(missing)} (known: {', '.join(table)})")
    return [table[n] for n in names]
