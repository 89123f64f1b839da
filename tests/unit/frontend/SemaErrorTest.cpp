//===- SemaErrorTest.cpp - Every Sema error: message and location ---------===//
#include "FrontendTestUtils.h"

using namespace tilec;
using namespace tilec::test;

namespace {
struct SemaError {
  const char *body;    ///< Kernel body (see kernelWith; line 3 is the first).
  const char *message; ///< The exact first diagnostic line.
};

class SemaErrors : public ::testing::TestWithParam<SemaError> {};

TEST_P(SemaErrors, ReportsWithLocation) {
  Compilation c(kernelWith(GetParam().body));
  auto kernels = c.analyze();
  EXPECT_TRUE(kernels.empty());
  EXPECT_GE(c.numErrors(), 1u);
  EXPECT_EQ(c.firstError(), GetParam().message) << c.output();
}

INSTANTIATE_TEST_SUITE_P(
    All, SemaErrors,
    ::testing::Values(
        // The mask/pointer shape check of LANGUAGE.md.
        SemaError{"o = tl.arange(0, 512)\nm = tl.arange(0, 1024) < n\n"
                  "x = tl.load(x_ptr + o, mask=m)",
                  "test.tile:5:33: error: 'mask' has shape [1024] but the pointer tile "
                  "has shape [512]"},
        SemaError{"m = tl.arange(0, 4) < n\nx = tl.load(x_ptr, mask=m)",
                  "test.tile:4:29: error: 'mask' has shape [4] but the pointer is a "
                  "scalar"},
        SemaError{"o = tl.arange(0, 8)\ntl.store(y_ptr + o, tl.arange(0, 16) * 1.0)",
                  "test.tile:4:42: error: 'value' has shape [16] but the pointer tile "
                  "has shape [8]"},
        SemaError{"o = tl.arange(0, 8)\nx = tl.load(x_ptr + o, other=tl.arange(0, 4))",
                  "test.tile:4:34: error: 'other' has shape [4] but the pointer tile has "
                  "shape [8]"},
        SemaError{"o = tl.arange(0, 8)\nx = tl.load(x_ptr + o, mask=o)",
                  "test.tile:4:33: error: 'mask' must be a boolean (i1) tile or scalar, "
                  "got [8] i32"},
        SemaError{"x = tl.load(n)",
                  "test.tile:3:17: error: 'ptr' of load must be a pointer or a tile of "
                  "pointers, got i32"},
        SemaError{"tl.store(3, 1.0)",
                  "test.tile:3:14: error: 'ptr' of store must be a pointer or a tile of "
                  "pointers, got 3"},
        SemaError{"tl.store(y_ptr, x_ptr)",
                  "test.tile:3:21: error: 'value' of store must be a number or a tile of "
                  "numbers, got *fp32"},
        // arange.
        SemaError{"r = tl.arange(0, 100)",
                  "test.tile:3:9: error: tile dimensions must be powers of two, got 100"},
        SemaError{"r = tl.arange(0, n)",
                  "test.tile:3:22: error: 'n' must be a constexpr (it is the end of "
                  "arange), but it is a runtime i32"},
        SemaError{"r = tl.arange(0, n + 1)",
                  "test.tile:3:24: error: the end of arange must be a constexpr, but it "
                  "is a runtime i32"},
        SemaError{"r = tl.arange(4, 4)",
                  "test.tile:3:9: error: arange(4, 4) is empty: the end must be greater "
                  "than the start"},
        SemaError{"r = tl.arange(-4, 4)",
                  "test.tile:3:9: error: arange(-4, 4): the bounds must be in [0, 2**31); "
                  "add an offset to the result for other values"},
        SemaError{"r = tl.arange(0, True)",
                  "test.tile:3:22: error: the end of arange must be an integer, got the "
                  "bool True"},
        SemaError{"r = tl.full([16], 2.75, tl.int32)",
                  "test.tile:3:23: error: the value of 'tl.full': the float 2.75 cannot "
                  "become an integer of type i32 without losing its value"},
        SemaError{"r = tl.full([16], 3000000000, tl.int32)",
                  "test.tile:3:23: error: the value of 'tl.full': 3000000000 does not fit "
                  "in i32"},
        SemaError{"r = tl.full([16], -1, tl.uint8)",
                  "test.tile:3:23: error: the value of 'tl.full': -1 does not fit in u8"},
        SemaError{"r = tl.arange(0, 1 << 21)",
                  "test.tile:3:9: error: a tile of shape [2097152] is too large; the "
                  "maximum is 1048576 elements"},
        SemaError{"a = tl.arange(0, 2048)\nb = a[:, None] + a[None, :]",
                  "test.tile:4:20: error: a tile of shape [2048, 2048] is too large; the "
                  "maximum is 1048576 elements"},
        SemaError{"z = tl.zeros((1 << 40, 1 << 40), tl.float32)",
                  "test.tile:3:18: error: a tile of shape [1099511627776, 1099511627776] "
                  "is too large; the maximum is 1048576 elements"},
        SemaError{"for i in tl.static_range(0, 1 << 62, 1):\n    pass",
                  "test.tile:3:14: error: static_range unrolls 4611686018427387904 "
                  "iterations; the limit is 4096"},
        SemaError{"r = tl.arange(0, 2.0)",
                  "test.tile:3:22: error: the end of arange must be an integer, got 2.0"},
        // Names, builtins, arguments.
        SemaError{"x = foo + 1", "test.tile:3:9: error: unknown name 'foo'"},
        SemaError{"x = tl.foo(1)", "test.tile:3:9: error: unknown builtin 'tl.foo'"},
        SemaError{"x = foo(1)", "test.tile:3:9: error: unknown function 'foo'"},
        SemaError{"x = np.exp(1.0)", "test.tile:3:9: error: unknown name 'np'"},
        SemaError{"x = tl.load", "test.tile:3:9: error: builtin 'tl.load' can only be "
                                 "called"},
        SemaError{"x = n.foo()", "test.tile:3:11: error: unknown method 'foo' of i32"},
        SemaError{"x = n(1)", "test.tile:3:9: error: 'n' is a variable, not a function"},
        SemaError{"x = tl.program_id(0, 1)",
                  "test.tile:3:26: error: too many arguments to 'tl.program_id'; "
                  "expected program_id(axis)"},
        SemaError{"x = tl.program_id()",
                  "test.tile:3:9: error: 'tl.program_id' is missing required argument "
                  "'axis'; expected program_id(axis)"},
        SemaError{"x = tl.load(x_ptr, maks=1)",
                  "test.tile:3:24: error: 'tl.load' got an unexpected keyword argument "
                  "'maks'; expected load(ptr, mask=None, other=None, boundary_check=(), "
                  "padding_option='', cache_modifier='', eviction_policy='', "
                  "volatile=False)"},
        SemaError{"x = tl.load(x_ptr, ptr=x_ptr)",
                  "test.tile:3:24: error: 'tl.load' got multiple values for argument "
                  "'ptr'"},
        SemaError{"x = tl.program_id(axis=3)",
                  "test.tile:3:28: error: axis must be 0, 1 or 2, got 3"},
        SemaError{"x = tl.exp(tl.arange(0, 4))",
                  "test.tile:3:16: error: 'tl.exp' expects a floating-point argument, got "
                  "[4] i32"},
        // Operators.
        SemaError{"x = tl.arange(0, 4) + tl.arange(0, 8)",
                  "test.tile:3:25: error: incompatible shapes for '+': [4] and [8]"},
        SemaError{"x = x_ptr * 2",
                  "test.tile:3:15: error: unsupported operand types for '*': *fp32 and 2"},
        SemaError{"x = x_ptr + 1.5",
                  "test.tile:3:17: error: pointer offset must be an integer, got 1.5"},
        SemaError{"x = x_ptr + y_ptr",
                  "test.tile:3:15: error: unsupported operand types for '+': *fp32 and "
                  "*fp32"},
        SemaError{"x = tl.load(x_ptr) // 2",
                  "test.tile:3:24: error: '//' requires integer operands, got fp32"},
        SemaError{"x = BLOCK // 0",
                  "test.tile:3:15: error: division by zero in constexpr expression"},
        SemaError{"x = 'a' - 1",
                  "test.tile:3:13: error: unsupported operand types for '-': 'str' and "
                  "'int'"},
        SemaError{"x = n ** 2", "test.tile:3:11: error: not supported yet: '**' on runtime "
                                "values"},
        SemaError{"x = -x_ptr", "test.tile:3:9: error: unary '-' is not defined on *fp32"},
        SemaError{"x = tl.store(y_ptr, 1.0) + 1",
                  "test.tile:3:9: error: operand of '+' has no value"},
        SemaError{"x = tl.store(y_ptr, 1.0)",
                  "test.tile:3:9: error: this expression has no value to assign to 'x'"},
        // Shapes and dtypes.
        SemaError{"z = tl.zeros((4, 3), tl.float32)",
                  "test.tile:3:18: error: tile dimensions must be powers of two, got 3"},
        SemaError{"z = tl.zeros((4, n), tl.float32)",
                  "test.tile:3:18: error: the shape of tl.zeros must be a constexpr shape "
                  "such as (64, 32)"},
        SemaError{"z = tl.zeros((4,), 'f32')",
                  "test.tile:3:24: error: expected a dtype such as tl.float16, got 'f32'"},
        SemaError{"r = tl.arange(0, 4)\nz = r[0]",
                  "test.tile:4:11: error: not supported yet: tile indexing other than ':' "
                  "and 'None' (as in x[:, None])"},
        SemaError{"r = tl.arange(0, 4)\nz = r[:, :]",
                  "test.tile:4:9: error: subscript of [4] i32 has more ':' than its 1 "
                  "dimensions (2)"},
        SemaError{"r = tl.arange(0, 4)\nz = tl.broadcast_to(r, (4, 8))",
                  "test.tile:4:9: error: cannot broadcast shape [4] to [4, 8]"},
        // Not implemented yet.
        // Control flow (more in ControlFlowTest.cpp).
        SemaError{"for i in range(n):\n    if i > 2:\n        return",
                  "test.tile:5:13: error: not supported yet: 'return' inside a loop "
                  "(as in Triton; return after the loop)"},
        SemaError{"for i in range(x_ptr):\n    pass",
                  "test.tile:3:20: error: a range bound must be an integer scalar, got "
                  "*fp32"},
        SemaError{"x = x_ptr.to(tl.float32)",
                  "test.tile:3:9: error: not supported yet: casting *fp32 to fp32 (a pointer "
                  "casts to tl.int64, tl.uint64 or a tl.pointer_type)"},
        SemaError{"x = (1).to(tl.pointer_type(tl.float32))",
                  "test.tile:3:10: error: a cast to pointer<fp32> needs a runtime int64 "
                  "address or a pointer, got 1"},
        SemaError{"return n", "test.tile:3:12: error: a kernel cannot return a value"},
        SemaError{"x = tl.dot(1, 2)",
                  "test.tile:3:16: error: 'dot' expects a tile or a scalar, got 1"},
        SemaError{"x = n if tl.arange(0, 4) < n else 1",
                  "test.tile:3:30: error: the condition of a conditional expression must be "
                  "a scalar, but it is a tile [4] i1; use tl.where to select elementwise"},
        // Compile-time checks.
        SemaError{"tl.static_assert(BLOCK == 64, 'BLOCK must be 64')",
                  "test.tile:3:5: error: static_assert failed: BLOCK must be 64"},
        SemaError{"x = tl.range(0, 4)",
                  "test.tile:3:9: error: 'tl.range' can only be the iterable of a 'for' "
                  "loop"},
        SemaError{"a, b = 1, 2, 3",
                  "test.tile:3:5: error: cannot unpack 3 values into 2 targets"},
        SemaError{"x = float('abc')",
                  "test.tile:3:15: error: could not convert 'abc' to float"}));

TEST(SemaErrors, ErrorsRecoverPerStatement) {
  // Each bad statement is reported once; uses of a failed name stay silent.
  Compilation c(kernelWith("a = foo\nb = a + 1\nc = bar\nd = tl.arange(0, 3)"));
  EXPECT_TRUE(c.analyze().empty());
  EXPECT_EQ(c.numErrors(), 3u) << c.output();
}

TEST(SemaErrors, KernelLevelErrors) {
  struct Case {
    std::string source;
    const char *message;
  } cases[] = {
      {"@kernel\ndef k(x):\n    pass\n",
       "test.tile:2:7: error: parameter 'x' of kernel 'k' has no type: annotate it ('x: "
       "*fp32', 'x: i32' or 'x: constexpr'), give it with --signature x=TYPE, or launch "
       "the kernel through the JIT, which takes it from the argument"},
      {"@kernel\ndef k(B: constexpr):\n    pass\n",
       "test.tile:2:7: error: constexpr parameter 'B' of kernel 'k' has no value; give it "
       "a default or pass -D B=VALUE"},
      {"@kernel\ndef k(n: i32 = 3):\n    pass\n",
       "test.tile:2:16: error: only constexpr parameters can have a default value"},
      {"@kernel(num_warps=3)\ndef k():\n    pass\n",
       "test.tile:2:5: error: num_warps must be a power of two between 1 and 32, got 3"},
      {"@kernel(warps=4)\ndef k():\n    pass\n",
       "test.tile:1:9: error: unknown option 'warps' of @kernel; expected num_warps or "
       "num_stages"},
      {"@jit\ndef k(x: *fp32):\n    tl.store(x, (1).to(x.dtype))\n",
       "test.tile:3:18: error: a cast to pointer<fp32> needs a runtime int64 address or a "
       "pointer, got 1"},
      {"@jit\ndef k(x: *fp32, n: i32):\n    tl.store(x, n.to(n.dtype.element_ty))\n",
       "test.tile:3:30: error: 'dtype.element_ty' needs a pointer, got i32"},
      {"from mylib import helper\n@jit\ndef k(x: *fp32):\n    tl.store(x, helper(1.0))\n",
       "test.tile:4:17: error: 'helper' comes from module 'mylib', which tilec cannot "
       "read: define it in this file, or put mylib.tile (or .py) beside it or in a -I "
       "directory"},
      {"A = B\nB = A + 1\n@jit\ndef k(x: *fp32):\n    tl.store(x, A)\n",
       "test.tile:2:5: error: module-level 'A' is defined in terms of itself"},
      {"A = tl.arange(0, 4)\n@jit\ndef k(x: *fp32):\n    tl.store(x, A)\n",
       "test.tile:1:5: error: module-level 'A' must be a compile-time constant, got [4] i32"},
      {"@triton.foo\ndef k():\n    pass\n",
       "test.tile:1:1: error: no kernels in this file (a kernel is a function decorated "
       "with @triton.jit or @kernel)"},
      {"@torch.compile\ndef host(x):\n    return x\n@jit\ndef k(x: *fp32):\n"
       "    tl.store(x, host(1.0))\n",
       "test.tile:6:17: error: 'host' is decorated with @torch.compile, not @triton.jit: it "
       "is Python host code, which tilec does not compile"},
      {"class C:\n    pass\n@jit\ndef k(x: *fp32):\n    tl.store(x, C)\n",
       "test.tile:5:17: error: 'C' is defined by Python host code that tilec does not "
       "compile"},
      {"def host(*args):\n    pass\n@jit\ndef k(x: *fp32):\n    tl.store(x, host(1))\n",
       "test.tile:5:17: error: 'host' is defined by Python host code that tilec does not "
       "compile"},
      {"B = 4\nB = 8\n@jit\ndef k(x: *fp32):\n    tl.store(x, B)\n",
       "test.tile:5:17: error: module-level 'B' is also bound elsewhere in this file; tilec "
       "cannot tell which one the kernel sees (bind it once)"},
      // Names bound inside skipped host code, and functions bound twice.
      {"B = 4\nfor _ in range(2):\n    B = 8\n@jit\ndef k(x: *fp32):\n    tl.store(x, B)\n",
       "test.tile:6:17: error: module-level 'B' is also bound elsewhere in this file; tilec "
       "cannot tell which one the kernel sees (bind it once)"},
      {"B = 4\nif cfg[0:1]:\n    A, B = 1, 2\n@jit\ndef k(x: *fp32):\n    tl.store(x, B)\n",
       "test.tile:6:17: error: module-level 'B' is also bound elsewhere in this file; tilec "
       "cannot tell which one the kernel sees (bind it once)"},
      {"def h(x):\n    return x + 1\nif USE:\n    def h(x):\n        return x * 2\n"
       "@jit\ndef k(x: *fp32):\n    tl.store(x, h(1.0))\n",
       "test.tile:8:17: error: function 'h' is also bound elsewhere in this file; tilec "
       "cannot tell which one the kernel sees (bind it once)"},
      {"def h(x):\n    return x + 1\nh = triton.jit(lambda x: x)\n"
       "@jit\ndef k(x: *fp32):\n    tl.store(x, h(1.0))\n",
       "test.tile:6:17: error: function 'h' is also bound elsewhere in this file; tilec "
       "cannot tell which one the kernel sees (bind it once)"},
      {"@autotune(configs=[config(B=4)], key=['n'])\n@jit\n"
       "def k(n: i32, B: constexpr):\n    pass\n",
       "test.tile:3:15: error: constexpr parameter 'B' of kernel 'k' has no value; it is "
       "tuned by @autotune: pass one config's value with -D B=VALUE, or launch the "
       "kernel through the JIT, which tunes it"},
      {"@jit\ndef k(x: *fp32, n: i32):\n    d = tl.make_tensor_descriptor(x, [n], [1], [16])\n"
       "    tl.store(x, tl.load(d))\n",
       "test.tile:4:25: error: tl.load takes a pointer or a block pointer, not a tensor "
       "descriptor: use desc.load(offsets)"},
      {"@jit\ndef k(x: *fp32, n: i32):\n    d = tl.make_tensor_descriptor(x, [n, n], [n, 2], "
       "[16, 16])\n",
       "test.tile:3:50: error: the last stride of a tensor descriptor must be 1, got 2"},
      {"@jit\ndef k(x: *fp32, n: i32):\n    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], "
       "[16, 16])\n    tl.store(x, d.shape[2])\n",
       "test.tile:4:25: error: index 2 is out of range for a tuple of 2 values"},
      {"@jit\ndef k(x: *fp32, n: i32):\n    tl.store(x, (n + 1, n)[1])\n",
       "test.tile:3:17: error: not supported yet: indexing a tuple of computed runtime values "
       "(unpack it, or assign the value first)"},
      {"@jit\ndef k(x: *fp32):\n    x.store([0], 1.0)\n",
       "test.tile:3:5: error: store expects a tensor descriptor (made in the kernel by "
       "tl.make_tensor_descriptor, or passed from the host), got *fp32 (a parameter that "
       "receives a host TensorDescriptor is typed tensordesc<ELEMENT[BLOCK...]>: "
       "--signature NAME=tensordesc<fp16[64, 64]>, or the JIT's tile::TensorDescriptor "
       "argument)"},
      {"@jit\ndef k(x: *i32, n: i32):\n    d = tl.make_tensor_descriptor(x, [n], [1], [16], "
       "padding_option=\"nan\")\n",
       "test.tile:3:69: error: padding_option of make_tensor_descriptor must be \"zero\" or "
       "\"nan\" (floats only), got 'nan'"},
      {"def helper():\n    pass\n",
       "test.tile:1:1: error: no kernels in this file (a kernel is a function decorated "
       "with @triton.jit or @kernel)"},
  };
  for (const Case &test : cases) {
    Compilation c(test.source);
    EXPECT_TRUE(c.analyze().empty());
    EXPECT_EQ(c.firstError(), test.message) << test.source;
  }
}

// A compilation takes its constexprs from -D: a decorator list it cannot
// read is one warning there (the JIT, through inspectSource, reports it as
// an error; CompilerTest checks that).
TEST(SemaErrors, UnreadableDecoratorListsAreWarningsWhenCompiling) {
  struct Case {
    const char *source, *message;
  } cases[] = {
      {"@triton.autotune\n@triton.jit\ndef k(B: tl.constexpr = 1):\n    pass\n",
       "test.tile:1:1: warning: @autotune is ignored: @autotune needs configs=[...]"},
      {"@triton.heuristics\n@triton.jit\ndef k():\n    pass\n",
       "test.tile:1:1: warning: @triton.heuristics is ignored: it needs a dict literal of "
       "parameter names to functions ({\"BLOCK\": lambda args: ...}); give the values "
       "with -D"},
      {"@autotune(configs=[config(B=4, n=2)], key=['n'])\n@jit\n"
       "def k(n: i32, B: constexpr = 4):\n    pass\n",
       "test.tile:1:32: warning: @autotune is ignored: config sets 'n', which is not a "
       "constexpr parameter of kernel 'k'"},
      {"@triton.autotune(configs=[triton.Config({'B': 4}, num_warps=3)], key=['n'])\n"
       "@triton.jit\ndef k(n: i32, B: tl.constexpr = 4):\n    pass\n",
       "test.tile:1:61: warning: @autotune is ignored: num_warps must be a power of two"},
      {"@autotune(configs=[config(B=4)], key=['m'])\n@jit\n"
       "def k(n: i32, B: constexpr = 4):\n    pass\n",
       "test.tile:1:39: warning: @autotune is ignored: 'm' in key is not a parameter of "
       "kernel 'k'"},
      {"@autotune(configs=[config(B=4)], key=['n'], bogus_option=1)\n@jit\n"
       "def k(n: i32, B: constexpr = 4):\n    pass\n",
       "test.tile:1:45: warning: @autotune is ignored: unsupported argument "
       "'bogus_option' of @autotune; expected configs, key, reset_to_zero, "
       "restore_value, warmup or rep"},
  };
  for (const Case &test : cases) {
    Compilation c(test.source);
    EXPECT_FALSE(c.analyze().empty()) << test.source;
    EXPECT_EQ(c.numErrors(), 0u) << test.source;
    EXPECT_EQ(c.firstError().rfind(test.message, 0), 0u)
        << test.source << "\n" << c.firstError();
  }
}

TEST(SemaErrors, SelectionAndDefines) {
  Compilation c(std::string(kSeedKernels) + "\ndef helper(x):\n    return x\n");
  ASSERT_NE(c.parse(), nullptr);
  SemaOptions missing;
  missing.kernelName = "nope";
  EXPECT_TRUE(analyze(*c.module, missing, c.diag).empty());
  EXPECT_EQ(c.firstError(), "error: no kernel named 'nope'");

  Compilation d(std::string(kSeedKernels) + "\ndef helper(x):\n    return x\n");
  ASSERT_NE(d.parse(), nullptr);
  SemaOptions device;
  device.kernelName = "helper";
  EXPECT_TRUE(analyze(*d.module, device, d.diag).empty());
  EXPECT_EQ(d.firstError(), "test.tile:21:5: error: 'helper' is a device function, not "
                            "a kernel (add @kernel)");

  Compilation e(kSeedKernels);
  SemaOptions unknownDefine;
  unknownDefine.defines.push_back({"BLOCK", ConstValue::getInt(64)});
  EXPECT_TRUE(e.analyze(unknownDefine).empty());
  EXPECT_EQ(e.firstError(), "error: -D BLOCK does not name a parameter of any kernel");

  Compilation f(kSeedKernels);
  SemaOptions runtimeDefine;
  runtimeDefine.kernelName = "add_kernel";
  runtimeDefine.defines.push_back({"n_elements", ConstValue::getInt(64)});
  EXPECT_TRUE(f.analyze(runtimeDefine).empty());
  EXPECT_EQ(f.firstError(), "test.tile:3:60: error: -D n_elements: 'n_elements' is a "
                            "runtime parameter of kernel 'add_kernel', not a constexpr");

  Compilation g(kSeedKernels);
  SemaOptions badBlock;
  badBlock.defines.push_back({"BLOCK_SIZE", ConstValue::getInt(1000)});
  EXPECT_TRUE(g.analyze(badBlock).empty());
  EXPECT_EQ(g.firstError(),
            "test.tile:5:34: error: tile dimensions must be powers of two, got 1000");
  EXPECT_EQ(g.numErrors(), 2u); // Once per kernel.
}
} // namespace
