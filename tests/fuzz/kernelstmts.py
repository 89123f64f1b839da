"""The statements of kernelgen's kernels, and the kernel around them.

Assignments (also augmented and tuple ones), stores, atomics, block pointers,
runtime if/for/while, static_range, constexpr if and the debugging builtins.
Names follow docs/language.md's scoping: a name first assigned inside a
branch or loop body is not used after it, and a name assigned inside keeps
the type and shape it had before (so loop-carried values stay well typed).
"""

from tiletypes import (ATOMIC_TYPES, FLOATS, MAX_ELEMENTS, TL_NAMES, Val, elements, fits,
                       is_float, is_int)

MAX_NESTING = 3
# Atomics on large tiles compile slowly (one atomic per element).
MAX_ATOMIC_ELEMENTS = 1024


class StatementsMixin:
    """Statement generation for KernelBuilder (which has the expressions)."""

    def build(self):
        """The whole .tile file."""
        warps = self.rng.choice([1, 2, 4, 4, 8, 16, 32])
        self.emit(1, "pid = tl.program_id(0)")
        self.emit(1, "offs_m = tl.arange(0, BM)")
        self.emit(1, "offs_n = tl.arange(0, BN)")
        if self.rng.random() < 0.2:
            self.emit(1, "tl.static_assert(BM * BN <= 4096, \"tile too large\")")
        if self.rng.random() < 0.3:
            self.emit(1, "offs_n = tl.max_contiguous(tl.multiple_of(pid * BN, 16) + "
                         "offs_n, BN)")
        self.block(1, self.rng.randint(3, 9))
        if self.deterministic:
            self.store_results()
        else:
            value = self.rng.choice([v for v in self.env.values() if v.shape])
            self.emit(1, "tl.store(p0 + %s, %s)" % (self.offsets(value.shape), value.code))
        decorator = self.rng.choice(["@kernel(num_warps=%d)" % warps,
                                     "@triton.jit", "@jit", "@kernel"])
        params = ["%s: *%s" % p for p in self.pointers]
        params += ["n: i32", "s: fp32", "BM: constexpr = %d" % self.bm,
                   "BN: constexpr = %d" % self.bn]
        header = ["import triton", "import triton.language as tl", ""]
        header += [h for helper in self.helpers.values() for h in (helper, "")]
        header += [decorator, "def %s(%s):" % (self.name, ", ".join(params))]
        return "\n".join(header + self.lines) + "\n"

    def store_results(self):
        """Deterministic kernels: up to three values, each to its own output
        pointer o<i>, in a region of MAX_ELEMENTS per program."""
        values = [v for k, v in self.env.items() if k not in ("pid", "n", "s")]
        for i, value in enumerate(self.rng.sample(values, min(3, len(values)))):
            dtype, code = value.dtype, value.code
            if dtype == "i1":
                dtype, code = "i8", "(%s).to(tl.int8)" % code
            self.pointers.append(("o%d" % i, dtype))
            self.emit(1, "tl.store(o%d + pid * %d + %s, %s)"
                      % (i, MAX_ELEMENTS, self.offsets(value.shape), code))

    def block(self, depth, count):
        for _ in range(count):
            self.statement(depth)

    def loop_body(self, depth, count):
        self.loop_depth += 1
        self.scoped(depth, count)
        self.loop_depth -= 1

    def scoped(self, depth, count):
        """A nested block whose new names die at its end; an outer variable
        that became approximate inside stays so (the block may have run)."""
        saved, saved_blocks = dict(self.env), dict(self.block_ptrs)
        self.block(depth, count)
        inner = self.env
        self.env, self.block_ptrs = saved, saved_blocks
        for name, v in saved.items():
            if name in inner and inner[name].approx and not v.approx:
                self.env[name] = v._replace(approx=True)

    def statement(self, depth):
        kinds = [(4, self.assign), (3, self.reassign), (3, self.store),
                 (1, self.atomic), (1, self.tuple_assign), (0.5, self.debug)]
        if depth == 1:
            kinds.append((1, self.make_block_ptr))
        if self.block_ptrs:
            kinds += [(1, self.advance), (1, self.block_store)]
        if self.deterministic:
            writes = (self.store, self.atomic, self.debug, self.block_store)
            kinds = [k for k in kinds if k[1] not in writes]
        if depth < MAX_NESTING:
            kinds += [(1.5, self.if_stmt), (1.5, self.for_stmt), (1, self.while_stmt),
                      (0.5, self.static_for), (0.5, self.constexpr_if)]
        weights, fns = zip(*kinds)
        self.rng.choices(fns, weights)[0](depth)

    def random_shape(self):
        return self.rng.choice([()] + self.tile_shapes())

    def assign(self, depth):
        t, shape = self.random_dtype(), self.random_shape()
        v = self.exact(self.expr(t, shape), shape)
        name = self.fresh()
        self.emit(depth, "%s = %s" % (name, v.code))
        self.env[name] = Val(name, t, shape, v.approx)

    def reassign(self, depth):
        names = [v for k, v in self.env.items() if k not in self.fixed]
        if not names:
            return self.assign(depth)
        target = self.rng.choice(names)
        # In a loop, an exact variable stays exact: the statements before
        # this one in the body were built taking it for exact.
        value_expr = (self.exact_expr if self.deterministic and self.loop_depth
                      and not target.approx else self.expr)
        ops = ["+", "-", "*"] + (["/"] if is_float(target.dtype) else
                                 ["//", "%", "&", "|", "^", "<<", ">>"])
        if value_expr == self.exact_expr and target.dtype in ("fp16", "bf16"):
            ops.remove("/")
        if target.dtype != "i1" and self.rng.random() < 0.5:
            op = self.rng.choice(ops)
            value = value_expr(target.dtype, target.shape, 0)
            approx = target.approx or value.approx or (
                op == "/" and target.dtype in ("fp16", "bf16"))
            if op in ("<<", ">>"):
                value = Val(str(self.rng.randint(1, 3)), target.dtype, ())
            elif op in ("//", "%") and self.deterministic:  # no division by zero
                value = Val("((%s & 7) + 1)" % value.code, value.dtype, value.shape)
            if op == "/" and self.deterministic and target.dtype == "fp32":
                # correctly rounded, as binary_code divides
                self.emit(depth, "%s = tl.div_rn(%s, %s)" % (target.code, target.code,
                                                             value.code))
            else:
                self.emit(depth, "%s %s= %s" % (target.code, op, value.code))
            self.env[target.code] = target._replace(approx=approx)
            return
        v = self.exact(value_expr(target.dtype, target.shape, 0), target.shape)
        self.emit(depth, "%s = %s" % (target.code, v.code))
        # a branch may keep the old value
        self.env[target.code] = target._replace(approx=target.approx or v.approx)

    def tuple_assign(self, depth):
        """`x, y = a, b`, or `x, y = pair(a, b)` through a device function."""
        shape = self.random_shape()
        t = self.random_dtype()
        a, b = (self.exact(self.expr(t, shape), shape) for _ in "ab")
        approx = a.approx or b.approx
        x, y = self.fresh(), self.fresh()
        if t != "i1" and self.rng.random() < 0.4:
            self.helpers["pair"] = "def pair(a, b):\n    return a + b, a - b\n"
            self.emit(depth, "%s, %s = pair(%s, %s)" % (x, y, a.code, b.code))
        else:
            self.emit(depth, "%s, %s = %s, %s" % (x, y, a.code, b.code))
        self.env[x], self.env[y] = Val(x, t, shape, approx), Val(y, t, shape, approx)

    def store(self, depth):
        name, _ = self.rng.choice(self.pointers)
        shape = self.random_shape()
        value = self.expr(self.random_dtype(), shape)
        mask = ", mask=%s" % self.mask(shape) if self.rng.random() < 0.6 else ""
        self.emit(depth, "tl.store(%s + %s, %s%s)" % (name, self.offsets(shape),
                                                       value.code, mask))

    def atomic(self, depth):
        op = self.rng.choice(sorted(ATOMIC_TYPES))
        pointers = [p for p in self.pointers if p[1] in ATOMIC_TYPES[op]]
        name, pt = self.rng.choice(pointers)
        shape = self.rng.choice([()] + self.tile_shapes(MAX_ATOMIC_ELEMENTS))
        value = self.expr(pt, shape)
        ptr = "%s + %s" % (name, self.offsets(shape)) if shape else name
        if op == "atomic_cas":
            args = "%s, %s, %s" % (ptr, self.expr(pt, shape).code, value.code)
        else:
            args = "%s, %s" % (ptr, value.code)
            if shape and self.rng.random() < 0.5:
                args += ", mask=%s" % self.mask(shape)
        if self.rng.random() < 0.2:
            args += ", sem=\"acq_rel\", scope=\"gpu\""
        old = self.fresh("old")
        self.emit(depth, "%s = tl.%s(%s)" % (old, op, args))
        self.env[old] = Val(old, pt, shape)

    def make_block_ptr(self, depth):
        name, pt = self.rng.choice(self.pointers)
        bp = self.fresh("bp")
        if self.rng.random() < 0.5:
            shape = (self.bm, self.bn)
            self.emit(depth, "%s = tl.make_block_ptr(base=%s, shape=(n, n), strides=(n, 1), "
                             "offsets=(pid * BM, 0), block_shape=(BM, BN), order=(1, 0))"
                      % (bp, name))
        else:
            shape = (self.bn,)
            self.emit(depth, "%s = tl.make_block_ptr(%s, (n,), (1,), (pid * BN,), (BN,), (0,))"
                      % (bp, name))
        self.block_ptrs[bp] = Val(bp, pt, shape)

    def block_load(self, bp):
        check = "(0, 1)" if len(bp.shape) == 2 else "(0,)"
        padding = self.rng.choice(["zero", ""] + (["nan"] if is_float(bp.dtype) else []))
        return Val("tl.load(%s, boundary_check=%s, padding_option=\"%s\")"
                   % (bp.code, check, padding), bp.dtype, bp.shape)

    def advance(self, depth):
        bp = self.rng.choice(list(self.block_ptrs.values()))
        step = "(0, BN)" if len(bp.shape) == 2 else "(BN,)"
        if self.rng.random() < 0.5:
            self.emit(depth, "%s = tl.advance(%s, %s)" % (bp.code, bp.code, step))
        else:
            self.emit(depth, "%s = %s.advance(%s)" % (bp.code, bp.code, step))

    def block_store(self, depth):
        bp = self.rng.choice(list(self.block_ptrs.values()))
        value = self.expr(self.random_dtype(), bp.shape)
        check = self.rng.choice(["(0,)", "()"] + (["(0, 1)"] if len(bp.shape) == 2 else []))
        self.emit(depth, "tl.store(%s, %s, boundary_check=%s)" % (bp.code, value.code, check))

    def condition(self):
        """A runtime scalar condition."""
        if self.rng.random() < 0.5:
            return self.rng.choice(["pid % 2 == 0", "n > 17", "s > 0.5", "pid < n"])
        return self.expr("i1", ()).code

    def if_stmt(self, depth):
        self.emit(depth, "if %s:" % self.condition())
        self.scoped(depth + 1, self.rng.randint(1, 3))
        if self.rng.random() < 0.3:
            self.emit(depth, "elif %s:" % self.condition())
            self.scoped(depth + 1, self.rng.randint(1, 2))
        if self.rng.random() < 0.5:
            self.emit(depth, "else:")
            self.scoped(depth + 1, self.rng.randint(1, 2))

    def for_stmt(self, depth):
        var = self.fresh("i")
        bounds = self.rng.choice(["range(0, n, BN)", "range(n)", "range(1, n, 3)",
                                  "tl.range(n - 1, -1, -1, num_stages=2)",
                                  "range(0, n, pid + 1)"])
        self.emit(depth, "for %s in %s:" % (var, bounds))
        self.env[var] = Val(var, "i32", ())
        self.loop_body(depth + 1, self.rng.randint(1, 3))
        del self.env[var]

    def while_stmt(self, depth):
        counter = self.fresh("w")
        self.emit(depth, "%s = 0" % counter)
        self.emit(depth, "while %s < n and %s:" % (counter, self.condition()))
        self.env[counter] = Val(counter, "i32", ())
        self.fixed.add(counter)
        self.loop_body(depth + 1, self.rng.randint(1, 3))
        self.emit(depth + 1, "%s += 1" % counter)

    def static_for(self, depth):
        var = self.fresh("k")
        self.emit(depth, "for %s in tl.static_range(%d):" % (var, self.rng.randint(1, 3)))
        self.loop_body(depth + 1, self.rng.randint(1, 2))

    def constexpr_if(self, depth):
        self.emit(depth, "if BN >= 64:")
        self.scoped(depth + 1, self.rng.randint(1, 2))
        self.emit(depth, "else:")
        self.scoped(depth + 1, self.rng.randint(1, 2))

    def debug(self, depth):
        r = self.rng.random()
        v = self.rng.choice(list(self.env.values()))
        if r < 0.3:
            self.emit(depth, "tl.device_print(\"v = \", %s)" % v.code)
        elif r < 0.6:
            self.emit(depth, "tl.device_assert(%s == %s, \"equal\")" % (v.code, v.code))
        elif r < 0.8:
            self.emit(depth, "tl.debug_barrier()")
        else:
            self.emit(depth, "tl.static_print(\"value\", %s)" % v.code)
