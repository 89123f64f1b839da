#!/usr/bin/env python3
"""kernelgen: writes random well-typed .tile kernels.

Every kernel follows docs/language.md (the typing rules are in tiletypes.py):
power-of-two shapes of at most MAX_ELEMENTS elements, every element type,
elementwise chains with literals and mixed types, casts and bitcasts, masked
loads and stores, reductions and scans, shape operations, dot with dimensions
of at least 16, atomics, block pointers, device functions, and runtime
for/while/if with loop-carried values that keep their types. The compiler must
accept each one and its PTX must pass ptxas (check_kernels.py runs them).

  kernelgen.py --count 100 --seed 7 --out DIR    writes DIR/kgen_7_<i>.tile
Kernel i of seed S is always the same text, so a finding can be regenerated.
--deterministic writes kernels whose results do not depend on thread timing,
for comparing the GPU with the interpreter (tests/differential/).
"""

import argparse
import os
import random
import sys

from kernelstmts import StatementsMixin
from tiletypes import (DIMS, FLOATS, INTS, MAX_ELEMENTS, NUMERIC, TL_NAMES, Val,
                       binary_result, bits, broadcast, cumsum_result, elements, fits, is_float,
                       is_int, minmax_result, same_width, sum_result, with_literal)

MAX_DEPTH = 3
FLOAT_MATH = ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos",
              "tanh", "floor", "ceil", "sigmoid", "erf"]
# Those the GPU approximates (ex2.approx, libdevice) in ways the interpreter's
# libm does not reproduce bit for bit.
APPROX_MATH = ["exp", "exp2", "log", "log2", "rsqrt", "sin", "cos", "tanh",
               "sigmoid", "erf"]
REDUCTIONS = ["sum", "max", "min", "argmax", "argmin"]

class KernelBuilder(StatementsMixin):
    """Builds one kernel: expressions here, statements in kernelstmts.py."""

    def __init__(self, rng, name, deterministic=False):
        self.rng = rng
        self.name = name
        # Deterministic kernels (for comparing the GPU with the interpreter)
        # only read p0.. and write each result once to its own o0..; they
        # have no races, atomics or prints. Values the two may compute
        # differently in the last bits (Val.approx: approximated math, float
        # sums, scans and dots) are never asked an integer question, where
        # such a difference becomes a different answer: conversions to
        # integers, bitcasts, comparisons, %, floor, ceil and argmax/argmin
        # take operands built by exact_expr, without approximate operations.
        self.deterministic = deterministic
        self.tainted = False  # the expression being built is approximate
        self.exact_only = 0  # > 0 inside exact_expr
        self.loop_depth = 0
        self.bm = rng.choice([16, 32, 64])
        self.bn = rng.choice([d for d in DIMS if d * self.bm <= MAX_ELEMENTS])
        extra = rng.sample(NUMERIC, rng.randint(1, 4))
        self.pointers = [("p0", "fp32"), ("p1", "i32")] + [
            ("p%d" % (i + 2), t) for i, t in enumerate(extra)]
        self.env = {
            "pid": Val("pid", "i32", ()), "n": Val("n", "i32", ()),
            "s": Val("s", "fp32", ()), "offs_m": Val("offs_m", "i32", (self.bm,)),
            "offs_n": Val("offs_n", "i32", (self.bn,)),
        }
        self.fixed = set(self.env)
        self.lines = []
        self.helpers = {}  # device functions: name -> source
        self.block_ptrs = {}
        self.counter = 0

    # -- names and source text -------------------------------------------
    def fresh(self, prefix="v"):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def emit(self, depth, text):
        self.lines.append("    " * depth + text)

    def dim(self, d):
        return "BM" if d == self.bm else "BN" if d == self.bn else str(d)

    def shape_code(self, shape):
        dims = [self.dim(d) for d in shape]
        return "(%s,)" % dims[0] if len(dims) == 1 else "(%s)" % ", ".join(dims)

    def arange(self, d):
        if d == self.bm:
            return "offs_m"
        return "offs_n" if d == self.bn else "tl.arange(0, %d)" % d

    def offsets(self, shape):
        if not shape:
            return "pid"
        if len(shape) == 1:
            return self.arange(shape[0])
        return "%s[:, None] * %s + %s[None, :]" % (
            self.arange(shape[0]), self.dim(shape[1]), self.arange(shape[1]))

    def mask(self, shape):
        if not shape:
            return "pid < n"
        if len(shape) == 1:
            return "%s < n" % self.arange(shape[0])
        return "(%s[:, None] < n) & (%s[None, :] < n)" % (
            self.arange(shape[0]), self.arange(shape[1]))

    def literal(self, t):
        if is_float(t):
            return self.rng.choice(["0.5", "1.5", "2.0", "0.25", "3.0"])
        return str(self.rng.randint(1, 7))

    def tile_shapes(self, limit=MAX_ELEMENTS):
        shapes = [(self.bn,), (self.bm,), (self.bm, self.bn)]
        return [s for s in shapes if elements(s) <= limit]

    def random_dtype(self):
        r = self.rng.random()
        if r < 0.1:
            return "i1"
        if r < 0.55:
            return self.rng.choice(FLOATS + ["fp32", "fp32"])
        return self.rng.choice(INTS + ["i32", "i32"])

    # -- expressions -------------------------------------------------------
    def cast(self, v, t):
        if v.dtype == t:
            return v
        if self.deterministic and is_float(v.dtype) and is_int(t) and t != "i1":
            # Out-of-range and NaN float-to-int conversions are undefined:
            # clamp into every integer type's range first (maximum drops NaN).
            lo, hi = ("0.0", "200.0") if t.startswith("u") else ("-100.0", "100.0")
            v = Val("tl.minimum(tl.maximum(%s, %s), %s)" % (v.code, lo, hi), v.dtype, v.shape)
        if self.rng.random() < 0.2:
            return Val("tl.cast(%s, %s)" % (v.code, TL_NAMES[t]), t, v.shape)
        return Val("%s.to(%s)" % (v.code, TL_NAMES[t]), t, v.shape)

    def exact(self, v, shape):
        """`v` stretched to exactly `shape`."""
        if v.shape == shape:
            return v
        if not v.shape:
            return Val("tl.full(%s, %s, %s)" % (self.shape_code(shape), v.code,
                                                TL_NAMES[v.dtype]), v.dtype, shape, v.approx)
        return Val("tl.broadcast_to(%s, %s)" % (v.code, self.shape_code(shape)),
                   v.dtype, shape, v.approx)

    def integer_question(self, source, t):
        """Whether converting a `source` value to `t` must start from an
        exact value."""
        return self.deterministic and is_float(source) and not is_float(t)

    def approximate(self):
        """Marks the expression being built as approximate."""
        assert not self.exact_only
        self.tainted = True

    def exact_expr(self, t, shape, depth):
        """expr(), without approximate operations in deterministic kernels."""
        if not self.deterministic:
            return self.expr(t, shape, depth)
        self.exact_only += 1
        v = self.expr(t, shape, depth)
        self.exact_only -= 1
        assert not v.approx, v
        return v

    def expr(self, t, shape, depth=0):
        """A value of type `t` whose shape broadcasts to `shape`."""
        productions = [(3, self.leaf)]
        if depth < MAX_DEPTH:
            productions += [(4, self.binary), (2, self.unary), (1, self.convert),
                            (1, self.where), (1, self.reduce), (1, self.scan),
                            (1, self.reshaped), (1, self.helper_call)]
            if is_float(t) and len(shape) == 2 and min(shape) >= 16 and not self.exact_only:
                productions.append((1, self.dot))
            if not shape:
                productions.append((1, self.ternary))
        weights, fns = zip(*productions)
        saved, self.tainted = self.tainted, False
        v = self.rng.choices(fns, weights)[0](t, shape, depth + 1)
        assert fits(v.shape, shape), (v, shape)
        approx = self.tainted or v.approx
        if approx and self.integer_question(v.dtype, t):
            v, approx = self.exact_expr(t, shape, depth), False
        else:
            v = self.cast(v, t)
        self.tainted = saved or approx
        return v._replace(approx=approx)

    def leaf(self, t, shape, depth):
        names = [v for v in self.env.values()
                 if fits(v.shape, shape) and not (self.exact_only and v.approx)]
        names += [Val("tl.num_programs(0)", "i32", ()), Val("tl.cdiv(n, BN)", "i32", ())]
        r = self.rng.random()
        if names and r < 0.5:
            return self.rng.choice(names)
        if shape and r < 0.65:
            if self.rng.random() < 0.5:
                return Val("tl.zeros(%s, %s)" % (self.shape_code(shape), TL_NAMES[t]),
                           t, shape)
            lit = self.literal(t) if t != "i1" else "True"
            return Val("tl.full(%s, %s, %s)" % (self.shape_code(shape), lit,
                                                TL_NAMES[t]), t, shape)
        return self.load(t, shape)

    def load(self, t, shape):
        matching = [p for p in self.pointers if p[1] == t]
        name, pt = self.rng.choice(matching or self.pointers)
        ptr = "%s + %s" % (name, self.offsets(shape))
        if self.rng.random() < 0.3 and shape:
            ptr = "%s + pid * %d + %s" % (name, elements(shape), self.offsets(shape))
        blocks = [b for b in self.block_ptrs.values() if fits(b.shape, shape)]
        if blocks and self.rng.random() < 0.2:
            return self.block_load(self.rng.choice(blocks))
        if self.rng.random() < 0.4:
            return Val("tl.load(%s)" % ptr, pt, shape)
        other = ", other=%s" % self.literal(pt) if self.rng.random() < 0.5 else ""
        return Val("tl.load(%s, mask=%s%s)" % (ptr, self.mask(shape), other), pt, shape)

    def operand_shape(self, shape):
        """A shape that broadcasts to `shape`."""
        options = [shape, ()] + ([shape[1:]] if len(shape) == 2 else [])
        return self.rng.choice(options)

    def binary(self, t, shape, depth):
        if t == "i1":
            if self.rng.random() < 0.3:
                a, b = (self.expr("i1", self.operand_shape(shape), depth) for _ in "ab")
                op = self.rng.choice(["&", "|", "^", "and", "or"])
                return Val("(%s %s %s)" % (a.code, op, b.code), "i1",
                           broadcast(a.shape, b.shape))
            u = self.rng.choice(NUMERIC)
            op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        elif is_float(t):
            # fp16 and bf16 `/` go through div.full.f32 and round twice
            exact_ops = self.exact_only and t in ("fp16", "bf16")
            u, op = t, self.rng.choice(["+", "-", "*", "%"] + ([] if exact_ops else ["/"]))
        else:
            u = t
            op = self.rng.choice(["+", "-", "*", "//", "%", "&", "|", "^", "<<", ">>"])
        # a comparison or % of floats turns a last-bit difference into another result
        operand = self.exact_expr if is_float(u) and (t == "i1" or op == "%") else self.expr
        a = operand(u, self.operand_shape(shape), depth)
        # Deterministic kernels shift by literals only (a shift by the width
        # or more is undefined) and divide integers by 1..8 (not by zero).
        shift = op in ("<<", ">>")
        if self.rng.random() < 0.35 or (self.deterministic and shift):
            # a weakly typed literal operand
            int_only = op in ("//", "%", "<<", ">>", "&", "|", "^") and not is_float(u)
            float_lit = not int_only and self.rng.random() < (0.8 if is_float(u) else 0.15)
            lit = self.literal("fp32" if float_lit else "i32")
            if op in ("<<", ">>"):
                lit = str(self.rng.randint(1, bits(u) - 1))
            result = binary_result(op, u, with_literal(u, float_lit))
            if op == "/" and result in ("fp16", "bf16"):
                self.approximate()
            operands = (lit, a.code) if self.rng.random() < 0.3 else (a.code, lit)
            if self.deterministic and (shift or int_only and op in ("//", "%")):
                operands = (a.code, lit if lit.lstrip("-") not in ("0", "1") else "3")
            return Val(self.binary_code(op, result, *operands), result, a.shape)
        other = self.rng.choice(NUMERIC) if self.rng.random() < 0.3 else u
        if (is_float(u) != is_float(other)) or op in ("/",) and not is_float(u):
            other = u
        b = operand(other, self.operand_shape(shape), depth)
        if self.deterministic and op in ("//", "%") and not is_float(u):
            b = Val("((%s & 7) + 1)" % b.code, other, b.shape)
        result = binary_result(op, u, other)
        if op == "/" and result in ("fp16", "bf16"):
            self.approximate()
        return Val(self.binary_code(op, result, a.code, b.code), result,
                   broadcast(a.shape, b.shape))

    def binary_code(self, op, result, a, b):
        # fp32 `/` is div.full.f32 on the GPU (within 2 ulp, as in Triton),
        # which the interpreter does not reproduce bit for bit; deterministic
        # kernels divide with the correctly rounded tl.div_rn instead.
        if self.deterministic and op == "/" and result == "fp32":
            return "tl.div_rn(%s, %s)" % (a, b)
        return "(%s %s %s)" % (a, op, b)

    def unary(self, t, shape, depth):
        if is_float(t) and self.rng.random() < 0.6:
            fn = self.rng.choice([f for f in FLOAT_MATH + ["abs", "fma", "clamp", "maximum"]
                                  if not (self.exact_only and f in APPROX_MATH)])
            x = (self.exact_expr if fn in ("floor", "ceil") else self.expr)(t, shape, depth)
            if fn in APPROX_MATH:
                self.approximate()
            if fn == "fma":
                y, z = (self.expr(t, shape, depth) for _ in "yz")
                return Val("tl.fma(%s, %s, %s)" % (x.code, y.code, z.code), t,
                           broadcast(broadcast(x.shape, y.shape), z.shape))
            if fn == "clamp":
                return Val("tl.clamp(%s, -2.0, 2.0)" % x.code, t, x.shape)
            if fn == "maximum":
                return self.extremum(x, t, shape, depth)
            if x.shape and self.rng.random() < 0.3:  # the method spelling
                return Val("%s.%s()" % (x.code, fn), t, x.shape)
            return Val("tl.%s(%s)" % (fn, x.code), t, x.shape)
        if t == "i1":
            u = self.rng.choice(NUMERIC + ["i1"])
            x = (self.exact_expr if is_float(u) else self.expr)(u, shape, depth)
            return Val("(not %s)" % x.code, "i1", x.shape)
        x = self.expr(t, shape, depth)
        if self.rng.random() < 0.25:
            return self.extremum(x, t, shape, depth)
        op = self.rng.choice(["-", "tl.abs"] + (["~"] if is_int(t) else []))
        if op == "tl.abs":
            return Val("tl.abs(%s)" % x.code, t, x.shape)
        return Val("(%s%s)" % (op, x.code), t, x.shape)

    def extremum(self, x, t, shape, depth):
        """tl.maximum/tl.minimum, or Python's max/min of two runtime values."""
        y = self.expr(t, shape, depth)
        fn = self.rng.choice(["tl.maximum", "tl.minimum", "max", "min"])
        return Val("%s(%s, %s)" % (fn, x.code, y.code), t, broadcast(x.shape, y.shape))

    def convert(self, t, shape, depth):
        widths = [u for u in same_width(t)] if t != "i1" else []
        if widths and self.rng.random() < 0.3:
            u = self.rng.choice(widths)
            x = (self.exact_expr if is_float(u) else self.expr)(u, shape, depth)
            return Val("%s.to(%s, bitcast=True)" % (x.code, TL_NAMES[t]), t, x.shape)
        u = self.rng.choice(NUMERIC + ["i1"])
        x = (self.exact_expr if self.integer_question(u, t) else self.expr)(u, shape, depth)
        if not shape and self.rng.random() < 0.2:
            return Val("float(%s)" % x.code, "fp32", ())
        return self.cast(x, t)

    def where(self, t, shape, depth):
        c = self.expr("i1", self.operand_shape(shape), depth)
        a, b = (self.expr(t, self.operand_shape(shape), depth) for _ in "ab")
        return Val("tl.where(%s, %s, %s)" % (c.code, a.code, b.code), t,
                   broadcast(broadcast(c.shape, a.shape), b.shape))

    def reduce(self, t, shape, depth):
        if len(shape) == 2:  # keep_dims: [M, N] -> [M, 1]
            x = self.exact(self.expr(t, shape, depth), shape)
            fn = self.rng.choice(["max", "min"] + ([] if self.exact_only else ["sum"]))
            result = sum_result(t) if fn == "sum" else minmax_result(t)
            if fn == "sum" and (is_float(result) or self.order_sensitive(t)):
                self.approximate()
            if fn == "sum" and self.order_sensitive(t):
                return Val("tl.sum(%s.to(tl.float32), axis=1, keep_dims=True).to(%s)"
                           % (x.code, TL_NAMES[t]), t, (shape[0], 1))
            return Val("tl.%s(%s, axis=1, keep_dims=True)" % (fn, x.code), result,
                       (shape[0], 1))
        fn = self.rng.choice([r for r in REDUCTIONS if not (self.exact_only and r == "sum")])
        if shape:
            d = shape[0]
            others = [x for x in DIMS if x * d <= MAX_ELEMENTS]
            if not others:
                return self.leaf(t, shape, depth)
            other = self.rng.choice(others)
            axis = self.rng.randint(0, 1)
            source = (other, d) if axis == 0 else (d, other)
        elif fn.startswith("arg"):  # argmax/argmin need an axis
            source, axis = self.rng.choice([(self.bn,), (self.bm,)]), 0
        else:
            source, axis = self.rng.choice(self.tile_shapes()), None
        u = self.rng.choice(NUMERIC + ["i1"])
        ties = fn.startswith("arg") and is_float(u)  # which of two near-equal values wins
        x = self.exact((self.exact_expr if ties else self.expr)(u, source, depth), source)
        result = {"sum": sum_result(u), "max": minmax_result(u), "min": minmax_result(u),
                  "argmax": "i32", "argmin": "i32"}[fn]
        to_fp32 = fn == "sum" and (self.rng.random() < 0.2 or self.order_sensitive(u))
        if fn == "sum" and (to_fp32 or is_float(result)):
            self.approximate()
        if to_fp32:
            return Val("tl.sum(%s, axis=%s, dtype=tl.float32)" % (x.code, axis), "fp32",
                       shape)
        if self.rng.random() < 0.3:  # the method spelling
            return Val("%s.%s(axis=%s)" % (x.code, fn, axis), result, shape)
        return Val("tl.%s(%s, axis=%s)" % (fn, x.code, axis), result, shape)

    def scan(self, t, shape, depth):
        if not shape:
            return self.leaf(t, shape, depth)
        u = self.rng.choice(INTS if self.exact_only else NUMERIC)
        x = self.exact(self.expr(u, shape, depth), shape)
        if is_float(u):
            self.approximate()
        axis = self.rng.randint(0, len(shape) - 1)
        reverse = ", reverse=True" if self.rng.random() < 0.3 else ""
        if self.order_sensitive(u):
            return Val("tl.cumsum(%s.to(tl.float32), axis=%d%s)" % (x.code, axis, reverse),
                       "fp32", shape)
        return Val("tl.cumsum(%s, axis=%d%s)" % (x.code, axis, reverse), cumsum_result(u),
                   shape)

    def order_sensitive(self, t):
        """Deterministic kernels sum fp16 and bf16 in fp32: in 16 bits the
        order of the additions, which the GPU and the interpreter choose
        differently, changes the result beyond any tolerance."""
        return self.deterministic and t in ("fp16", "bf16")

    def reshaped(self, t, shape, depth):
        if len(shape) == 2:
            kind = self.rng.choice(["trans", "permute", "reshape", "expand"])
            if kind in ("trans", "permute"):
                x = self.exact(self.expr(t, shape[::-1], depth), shape[::-1])
                code = ("tl.trans(%s)" if kind == "trans" else "tl.permute(%s, (1, 0))")
                return Val(code % x.code, t, shape)
            if kind == "reshape":
                flat = (elements(shape),)
                x = self.exact(self.expr(t, flat, depth), flat)
                return Val("tl.reshape(%s, %s)" % (x.code, self.shape_code(shape)), t, shape)
            if self.rng.random() < 0.5:
                x = self.exact(self.expr(t, shape[:1], depth), shape[:1])
                return Val("%s[:, None]" % x.code, t, (shape[0], 1))
            x = self.exact(self.expr(t, shape[1:], depth), shape[1:])
            return Val("tl.expand_dims(%s, 0)" % x.code, t, (1, shape[1]))
        if len(shape) == 1 and shape[0] >= 4:
            two = (2, shape[0] // 2)
            x = self.exact(self.expr(t, two, depth), two)
            return Val("%s.reshape(%s)" % (x.code, self.shape_code(shape)), t, shape)
        return self.leaf(t, shape, depth)

    def dot(self, t, shape, depth):
        m, n = shape
        k = self.rng.choice([16, 32])
        if m * n * k > 131072 or m * k > MAX_ELEMENTS or k * n > MAX_ELEMENTS:
            return self.leaf(t, shape, depth)
        self.approximate()
        u = self.rng.choice(["fp16", "bf16", "fp32"])
        a = self.exact(self.expr(u, (m, k), depth), (m, k))
        b = self.exact(self.expr(u, (k, n), depth), (k, n))
        r = self.rng.random()
        if r < 0.4:
            acc = self.exact(self.expr("fp32", shape, depth), shape)
            return Val("tl.dot(%s, %s, %s)" % (a.code, b.code, acc.code), "fp32", shape)
        if r < 0.6 and u != "fp32":
            return Val("tl.dot(%s, %s, out_dtype=%s)" % (a.code, b.code, TL_NAMES[u]),
                       u, shape)
        return Val("tl.dot(%s, %s)" % (a.code, b.code), "fp32", shape)

    def ternary(self, t, shape, depth):
        c = self.expr("i1", (), depth)
        a, b = (self.expr(t, (), depth) for _ in "ab")
        return Val("(%s if %s else %s)" % (a.code, c.code, b.code), t, ())

    def helper_call(self, t, shape, depth):
        if t == "i1":
            return self.leaf(t, shape, depth)
        names = [h for h in self.helpers if h.startswith("helper")]
        if not names or self.rng.random() < 0.3:
            body = self.rng.choice(["a * b + a", "tl.maximum(a, b) - b",
                                    "tl.where(a > b, a, b)", "a - b * 2"])
            names.append("helper%d" % len(names))
            self.helpers[names[-1]] = "def %s(a, b):\n    return %s\n" % (names[-1], body)
        name = self.rng.choice(names)
        a, b = (self.expr(t, self.operand_shape(shape), depth) for _ in "ab")
        return Val("%s(%s, %s)" % (name, a.code, b.code), t, broadcast(a.shape, b.shape))


def generate(seed, index, deterministic=False):
    """The source text of kernel `index` of `seed`."""
    rng = random.Random("%d/%d" % (seed, index))
    builder = KernelBuilder(rng, "kgen_%d_%d" % (seed, index), deterministic)
    return builder.build()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="index of the first kernel")
    parser.add_argument("--out", required=True)
    parser.add_argument("--deterministic", action="store_true",
                        help="kernels whose results do not depend on thread timing: "
                             "inputs only read, each result written once to its own "
                             "output, no atomics or prints")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for index in range(args.first, args.first + args.count):
        path = os.path.join(args.out, "kgen_%d_%d.tile" % (args.seed, index))
        with open(path, "w") as f:
            f.write(generate(args.seed, index, args.deterministic))
    return 0


if __name__ == "__main__":
    sys.exit(main())
