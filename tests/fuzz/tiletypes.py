"""The typing and shape rules of docs/language.md that kernelgen relies on.

Element types, the promotion of mixed operands, the result types of operators,
reductions and scans, which element types each atomic accepts, and NumPy
broadcasting of power-of-two shapes. Every rule here is one the language
reference states; kernelgen.py builds only expressions these rules type.
"""

from collections import namedtuple

# A runtime value: its source text, element type and shape (() is a scalar),
# and whether the GPU and the interpreter may compute it differently in the
# last bits (approx: transcendentals, float sums and dots; kernelgen.py).
Val = namedtuple("Val", "code dtype shape approx", defaults=(False,))

# Elements per tile (and per dot operand): keeps each kernel quick to compile.
MAX_ELEMENTS = 4096
DIMS = [16, 32, 64, 128, 256]

SIGNED = ["i8", "i16", "i32", "i64"]
UNSIGNED = ["u8", "u16", "u32", "u64"]
INTS = SIGNED + UNSIGNED
FLOATS = ["fp16", "bf16", "fp32", "fp64"]
NUMERIC = INTS + FLOATS

TL_NAMES = {
    "i1": "tl.int1", "i8": "tl.int8", "i16": "tl.int16", "i32": "tl.int32",
    "i64": "tl.int64", "u8": "tl.uint8", "u16": "tl.uint16", "u32": "tl.uint32",
    "u64": "tl.uint64", "fp16": "tl.float16", "bf16": "tl.bfloat16",
    "fp32": "tl.float32", "fp64": "tl.float64",
}

# Element types of each atomic ("Atomics": what GPU atomics can do).
ATOMIC_TYPES = {
    "atomic_add": ["i32", "i64", "u32", "u64", "fp16", "bf16", "fp32", "fp64"],
    "atomic_max": ["i32", "i64", "u32", "u64", "fp32", "fp64"],
    "atomic_min": ["i32", "i64", "u32", "u64", "fp32", "fp64"],
    "atomic_xchg": ["i32", "i64", "u32", "u64", "fp32", "fp64"],
    "atomic_and": ["i32", "i64", "u32", "u64"],
    "atomic_or": ["i32", "i64", "u32", "u64"],
    "atomic_xor": ["i32", "i64", "u32", "u64"],
    "atomic_cas": ["i32", "i64", "u32", "u64"],
}


def is_float(t):
    return t in FLOATS


def is_int(t):
    """Integers, i1 included (bit operations accept it)."""
    return t == "i1" or t in INTS


def bits(t):
    if t == "i1":
        return 1
    if t == "bf16":
        return 16
    return int(t.lstrip("fiup"))


def same_width(t):
    """Types a runtime value of type `t` may be bitcast to."""
    return [u for u in NUMERIC if u != t and bits(u) == bits(t)]


def promote(a, b):
    """Mixed runtime types ("Mixed runtime types promote")."""
    if a == b:
        return a
    if a == "i1":
        return b
    if b == "i1":
        return a
    if is_float(a) and is_float(b):
        return "fp64" if "fp64" in (a, b) else "fp32"
    if is_float(a) or is_float(b):
        return a if is_float(a) else b
    if bits(a) != bits(b):
        return a if bits(a) > bits(b) else b
    return a if a in UNSIGNED else b


def with_literal(t, literal_is_float):
    """Type of `x op literal` for a runtime `x` of type `t` (weak literals)."""
    if literal_is_float and not is_float(t):
        return "fp32"
    return t


def binary_result(op, a, b):
    """Result type of `x op y` for runtime operands of types a and b."""
    if op in ("<", "<=", ">", ">=", "==", "!="):
        return "i1"
    if op == "/" and is_int(a) and is_int(b):
        return "fp32"
    return promote(a, b)


def sum_result(t):
    """sum and cumsum: narrow integers accumulate in i32 or u32."""
    if t in ("i1", "i8", "i16"):
        return "i32"
    if t in ("u8", "u16"):
        return "u32"
    return t


def cumsum_result(t):
    """cumsum computes bf16 in fp32 (and returns fp32, as Triton 3 does)."""
    return "fp32" if t == "bf16" else sum_result(t)


def minmax_result(t):
    """max and min widen types narrower than 32 bits."""
    if t in ("fp16", "bf16"):
        return "fp32"
    if t in ("i1", "i8", "u8", "i16", "u16"):
        return "i32"
    return t


def broadcast(a, b):
    """NumPy's broadcast of two shapes, or None."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(out)


def fits(small, shape):
    """True when a value of shape `small` broadcasts to `shape`."""
    return broadcast(small, shape) == shape


def elements(shape):
    n = 1
    for d in shape:
        n *= d
    return n
