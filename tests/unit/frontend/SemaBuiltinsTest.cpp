//===- SemaBuiltinsTest.cpp - Typing and errors of LANGUAGE.md's builtins -===//
//
// For each builtin group: the types Sema gives (shapes, promotions), and
// every error with its exact message and location.
//
//===----------------------------------------------------------------------===//
#include "FrontendTestUtils.h"

using namespace tilec;
using namespace tilec::test;

namespace {
constexpr const char *kParams =
    "x_ptr: *fp32, h_ptr: *fp16, b_ptr: *bf16, i_ptr: *i32, c_ptr: *i8, "
    "u_ptr: *u32, n: i32, BLOCK: constexpr = 32";

/// Analyzes `body` (with kParams) and returns the kernel, or null after
/// recording a test failure with the diagnostics.
std::unique_ptr<KernelInstance> analyzeBody(Compilation &c) {
  auto kernels = c.analyze();
  EXPECT_EQ(kernels.size(), 1u) << c.output();
  return kernels.empty() ? nullptr : std::move(kernels[0]);
}

struct Typing {
  const char *body; ///< Defines `y` (and maybe more).
  const char *type; ///< The expected type of `y`.
};

class BuiltinTypes : public ::testing::TestWithParam<Typing> {};

TEST_P(BuiltinTypes, TypesTheResult) {
  std::string body = std::string("r = tl.arange(0, BLOCK)\n"
                                 "x = tl.load(x_ptr + r)\n"
                                 "m = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :])\n"
                                 "h = tl.load(h_ptr + r)\n"
                                 "hm = tl.load(h_ptr + r[:, None] * BLOCK + r[None, :])\n"
                                 "i = tl.load(i_ptr + r)\n") +
                     GetParam().body;
  Compilation c(kernelWith(body, kParams));
  auto kernel = analyzeBody(c);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(typeOf(*kernel, "y"), GetParam().type) << GetParam().body;
}

INSTANTIATE_TEST_SUITE_P(
    All, BuiltinTypes,
    ::testing::Values(
        // Math keeps the type; fp16 stays fp16 (computed in fp32 inside).
        Typing{"y = tl.exp(x)", "[32] fp32"}, Typing{"y = tl.exp(h)", "[32] fp16"},
        Typing{"y = tl.math.exp2(x)", "[32] fp32"}, Typing{"y = tl.abs(i)", "[32] i32"},
        Typing{"y = tl.sigmoid(x)", "[32] fp32"}, Typing{"y = tl.fma(x, x, 1.0)", "[32] fp32"},
        Typing{"y = tl.maximum(i, 2)", "[32] i32"},
        Typing{"y = tl.minimum(x, h)", "[32] fp32"},
        Typing{"y = tl.where(x > 0, x, 0)", "[32] fp32"},
        Typing{"y = tl.where(m > 0, x, 0.0)", "[32, 32] fp32"},
        Typing{"y = tl.clamp(x, 0.0, 1.0)", "[32] fp32"},
        Typing{"y = tl.cdiv(i, 16)", "[32] i32"},
        Typing{"y = tl.cdiv(n, 16)", "i32"},
        // Casts.
        Typing{"y = x.to(tl.int32, bitcast=True)", "[32] i32"},
        Typing{"y = h.to(tl.float32)", "[32] fp32"},
        Typing{"y = x.to(tl.bfloat16)", "[32] bf16"},
        Typing{"y = i / 2", "[32] fp32"},
        Typing{"y = i // 2", "[32] i32"},
        Typing{"y = (i > 0) & (i < 4)", "[32] i1"},
        Typing{"y = ~(i > 0)", "[32] i1"},
        Typing{"y = x + float('inf')", "[32] fp32"},
        Typing{"y = tl.maximum(x, -float('inf'))", "[32] fp32"},
        Typing{"y = x[None]", "[1, 32] fp32"},
        Typing{"y = x[:, None]", "[32, 1] fp32"},
        Typing{"y = not (n > 0)", "i1"},
        Typing{"y = n % 3", "i32"},
        Typing{"y = tl.load(u_ptr) + 1", "u32"},
        Typing{"y = tl.load(u_ptr) + n", "u32"},
        Typing{"y = h + 1", "[32] fp16"},
        Typing{"y = h + x", "[32] fp32"},
        Typing{"y = tl.load(b_ptr + r) * h", "[32] fp32"},
        Typing{"y = i.to(tl.uint8)", "[32] u8"},
        Typing{"y = x + float('nan')", "[32] fp32"},
        Typing{"y = min(n, 3)", "i32"},
        Typing{"y = max(x, 1.0)", "[32] fp32"},
        Typing{"y = (n > 0) & (n < 5)", "i1"},
        Typing{"y = (i > 0) | (i < -4) ^ (i == 2)", "[32] i1"},
        // Creation.
        Typing{"y = tl.zeros((BLOCK, 16), tl.float16)", "[32, 16] fp16"},
        Typing{"y = tl.full((8,), n, tl.int64)", "[8] i64"},
        Typing{"y = tl.zeros_like(m)", "[32, 32] fp32"},
        // Shape.
        Typing{"y = tl.reshape(m, (1024,))", "[1024] fp32"},
        Typing{"y = m.reshape(16, 64)", "[16, 64] fp32"},
        Typing{"y = tl.trans(tl.zeros((16, 64), tl.float32))", "[64, 16] fp32"},
        Typing{"y = tl.permute(tl.zeros((2, 4, 8), tl.float32), (2, 0, 1))",
               "[8, 2, 4] fp32"},
        Typing{"y = tl.zeros((16, 64), tl.float32).T", "[64, 16] fp32"},
        Typing{"y = tl.expand_dims(x, -1)", "[32, 1] fp32"},
        Typing{"y = tl.expand_dims(x, (0, -1))", "[1, 32, 1] fp32"},
        Typing{"a, y = tl.broadcast(x[None, :], i[:, None])", "[32, 32] i32"},
        Typing{"y = tl.broadcast_to(x[None, :], (4, 32))", "[4, 32] fp32"},
        // Reductions.
        Typing{"y = tl.sum(m, axis=0)", "[32] fp32"},
        Typing{"y = tl.sum(m, axis=-1, keep_dims=True)", "[32, 1] fp32"},
        Typing{"y = tl.sum(m)", "fp32"},
        Typing{"y = tl.sum(m, keep_dims=True)", "[1, 1] fp32"},
        Typing{"y = m.max(1)", "[32] fp32"},
        Typing{"y = tl.min(x)", "fp32"},
        Typing{"y = tl.sum(h, 0)", "fp16"},
        Typing{"y = tl.sum(tl.load(c_ptr + r), 0)", "i32"},
        Typing{"y = tl.sum(i > 0, 0)", "i32"},
        Typing{"y = tl.sum(tl.load(u_ptr + r).to(tl.uint8), 0)", "u32"},
        Typing{"y = tl.max(tl.load(b_ptr + r), 0)", "fp32"},
        Typing{"y = tl.min(h, 0)", "fp32"},
        Typing{"y = tl.max(tl.load(c_ptr + r), 0)", "i32"},
        Typing{"y = tl.argmax(h, 0)", "i32"},
        Typing{"y = tl.argmax(m, axis=1)", "[32] i32"},
        Typing{"y = tl.argmin(x, 0, keep_dims=True)", "[1] i32"},
        Typing{"y = tl.cumsum(m, axis=1)", "[32, 32] fp32"},
        Typing{"y = tl.cumsum(tl.load(c_ptr + r))", "[32] i32"},
        // Matrix.
        Typing{"y = tl.dot(hm, hm)", "[32, 32] fp32"},
        Typing{"y = tl.dot(m, m, acc=m)", "[32, 32] fp32"},
        Typing{"y = tl.dot(hm, hm, out_dtype=tl.float16)", "[32, 32] fp16"},
        Typing{"y = tl.dot(m, m, input_precision=\"ieee\")", "[32, 32] fp32"},
        // Atomics return the old values.
        Typing{"y = tl.atomic_add(x_ptr + r, 1.0, mask=r < n)", "[32] fp32"},
        Typing{"y = tl.atomic_max(u_ptr + r, 1)", "[32] u32"},
        Typing{"y = tl.atomic_cas(i_ptr, 0, 1)", "i32"},
        Typing{"y = tl.atomic_xchg(i_ptr + r, i, sem=\"acq_rel\")", "[32] i32"},
        Typing{"y = tl.atomic_xor(i_ptr + r, 1)", "[32] i32"},
        Typing{"y = tl.atomic_add(h_ptr + r, h)", "[32] fp16"},
        Typing{"y = tl.atomic_max(b_ptr, 1.0)", "bf16"},
        Typing{"y = tl.atomic_xchg(h_ptr + r, h)", "[32] fp16"},
        // Hints.
        Typing{"y = tl.multiple_of(r, 16)", "[32] i32"},
        Typing{"y = tl.max_contiguous(tl.multiple_of(r, (16,)), 16)", "[32] i32"}));

struct BuiltinError {
  const char *body;    ///< Kernel body; line 3 is the first.
  const char *message; ///< The exact first diagnostic line.
};

class BuiltinErrors : public ::testing::TestWithParam<BuiltinError> {};

TEST_P(BuiltinErrors, ReportsWithLocation) {
  Compilation c(kernelWith(GetParam().body, kParams));
  auto kernels = c.analyze();
  EXPECT_TRUE(kernels.empty());
  EXPECT_GE(c.numErrors(), 1u);
  EXPECT_EQ(c.firstError(), GetParam().message) << c.output();
}

INSTANTIATE_TEST_SUITE_P(
    All, BuiltinErrors,
    ::testing::Values(
        BuiltinError{"y = tl.nope(n)", "test.tile:3:9: error: unknown builtin 'tl.nope'"},
        BuiltinError{"y = nope(n)", "test.tile:3:9: error: unknown function 'nope'"},
        BuiltinError{"y = tl.exp(n, n)",
                     "test.tile:3:19: error: too many arguments to 'tl.exp'; expected "
                     "exp(x)"},
        BuiltinError{"y = tl.sum(n, axes=0)",
                     "test.tile:3:19: error: 'tl.sum' got an unexpected keyword argument "
                     "'axes'; expected sum(input, axis=None, keep_dims=False, dtype=None)"},
        BuiltinError{"y = tl.where(n > 0)",
                     "test.tile:3:9: error: 'tl.where' is missing required argument 'x'; "
                     "expected where(condition, x, y)"},
        BuiltinError{"y = tl.exp(tl.arange(0, 8))",
                     "test.tile:3:16: error: 'tl.exp' expects a floating-point argument, "
                     "got [8] i32"},
        BuiltinError{"y = tl.fma(n, n, n)",
                     "test.tile:3:9: error: 'fma' expects floating-point arguments, got i32"},
        BuiltinError{"y = tl.arange(0, 48)",
                     "test.tile:3:9: error: tile dimensions must be powers of two, got 48"},
        BuiltinError{"y = tl.arange(0, n)",
                     "test.tile:3:22: error: 'n' must be a constexpr (it is the end of "
                     "arange), but it is a runtime i32"},
        BuiltinError{"y = tl.zeros((3, 4), tl.float32)",
                     "test.tile:3:18: error: tile dimensions must be powers of two, got 3"},
        BuiltinError{"y = tl.zeros((4, 4), 3)",
                     "test.tile:3:26: error: expected a dtype such as tl.float16, got 3"},
        BuiltinError{"y = tl.reshape(tl.zeros((4, 4), tl.float32), (8,))",
                     "test.tile:3:9: error: cannot reshape [4, 4] fp32 to [8]: the numbers "
                     "of elements differ (16 and 8)"},
        BuiltinError{"y = tl.trans(tl.arange(0, 8))",
                     "test.tile:3:9: error: 'tl.trans' without dims needs a 2-D tile, got "
                     "[8] i32"},
        BuiltinError{"y = tl.permute(tl.zeros((4, 4), tl.float32), (0, 0))",
                     "test.tile:3:9: error: the dims (0, 0) of 'tl.permute' are not a "
                     "permutation of the 2 dimensions of [4, 4] fp32"},
        BuiltinError{"y = tl.expand_dims(tl.arange(0, 8), 2)",
                     "test.tile:3:41: error: axis 2 is out of range for a tile of rank 1"},
        BuiltinError{"y = tl.broadcast_to(tl.arange(0, 8), (4, 4))",
                     "test.tile:3:9: error: cannot broadcast shape [8] to [4, 4]"},
        BuiltinError{"y = tl.sum(tl.arange(0, 8), axis=1)",
                     "test.tile:3:38: error: axis 1 is out of range for 'tl.sum' of a tile "
                     "of rank 1"},
        BuiltinError{"y = tl.sum(n, 0)", "test.tile:3:16: error: 'tl.sum' expects a tile, "
                                         "got i32"},
        BuiltinError{"y = tl.max(tl.arange(0, 8), 0, return_indices=True, "
                     "return_indices_tie_break_left=False)",
                     "test.tile:3:87: error: not supported yet: "
                     "return_indices_tie_break_left=False"},
        BuiltinError{"y = ((n, n), n)",
                     "test.tile:3:5: error: not supported yet: keeping a tuple of tuples or "
                     "block pointers in 'y'; unpack it instead ('a, b = ...')"},
        BuiltinError{"y = tl.cumsum(tl.arange(0, 8), axis=n)",
                     "test.tile:3:41: error: 'n' must be a constexpr (it is the axis), but "
                     "it is a runtime i32"},
        BuiltinError{"a = tl.zeros((32, 16), tl.float16)\ny = tl.dot(a, a)",
                     "test.tile:4:9: error: incompatible shapes for 'dot': [32, 16] and "
                     "[32, 16] (inner dimensions 16 and 32 differ)"},
        BuiltinError{"a = tl.zeros((8, 8), tl.float16)\ny = tl.dot(a, a)",
                     "test.tile:4:9: error: 'dot' needs M, N and K of at least 16, got "
                     "[8, 8] and [8, 8]"},
        BuiltinError{"y = tl.dot(tl.arange(0, 16), tl.arange(0, 16))",
                     "test.tile:3:16: error: 'dot' expects 2-D tiles (or 3-D ones, batched), got "
                     "[16] i32"},
        BuiltinError{"a = tl.zeros((16, 16), tl.float16)\nb = tl.zeros((16, 16), "
                     "tl.float32)\ny = tl.dot(a, b)",
                     "test.tile:5:9: error: both operands of 'dot' must have the same "
                     "type, got [16, 16] fp16 and [16, 16] fp32"},
        BuiltinError{"a = tl.zeros((16, 16), tl.float16)\ny = tl.dot(a, a, acc=tl.zeros("
                     "(16, 32), tl.float32))",
                     "test.tile:4:26: error: 'acc' has shape [16, 32] but 'dot' of "
                     "[16, 16] and [16, 16] produces [16, 16]"},
        BuiltinError{"y = tl.atomic_add(n, 1)",
                     "test.tile:3:23: error: 'ptr' of tl.atomic_add must be a pointer or "
                     "a tile of pointers, got i32"},
        BuiltinError{"y = tl.atomic_add(x_ptr + tl.arange(0, 8), tl.arange(0, 4) * 1.0)",
                     "test.tile:3:64: error: 'val' has shape [4] but the pointer tile has "
                     "shape [8]"},
        BuiltinError{"y = tl.atomic_add(x_ptr + tl.arange(0, 8), 1.0, mask=tl.arange(0, "
                     "4) < n)",
                     "test.tile:3:74: error: 'mask' has shape [4] but the pointer tile has "
                     "shape [8]"},
        BuiltinError{"y = tl.atomic_add(x_ptr, 1.0, sem=\"seq_cst\")",
                     "test.tile:3:39: error: sem must be one of 'relaxed', 'acquire', "
                     "'release', 'acq_rel', got 'seq_cst'"},
        BuiltinError{"y = tl.inline_asm_elementwise(\"mov.b32 $0, $1;\", \"=r,h\", [n], "
                     "dtype=tl.float32, is_pure=True, pack=1)",
                     "test.tile:3:54: error: constraints '=r,h': 'h' needs a 16-bit value, "
                     "got argument 0, i32"},
        BuiltinError{"y = tl.inline_asm_elementwise(\"mov.b32 $0, $2;\", \"=r,r\", [n], "
                     "dtype=tl.float32, is_pure=True, pack=1)",
                     "test.tile:3:35: error: the asm of inline_asm_elementwise refers to "
                     "'$2', but only $0 to $1 (1 output, then the inputs) exist"},
        BuiltinError{"y = tl.inline_asm_elementwise(\"mov.b32 $0, $1;\", \"=r\", [n], "
                     "dtype=tl.float32, is_pure=True, pack=1)",
                     "test.tile:3:54: error: constraints '=r': expected 1 output and 1 input "
                     "constraints, got 1 in all"},
        BuiltinError{"y = tl.inline_asm_elementwise(\"mov.b32 $0, $1;\", \"=r,r\", [n], "
                     "dtype=tl.float32, is_pure=True, pack=4)",
                     "test.tile:3:54: error: constraints '=r,r': expected 4 output and 4 "
                     "input constraints (one per register: pack=4 values fill registers of "
                     "up to 32 bits), got 2 in all"},
        BuiltinError{"y = tl.inline_asm_elementwise(\"mov.b32 $0, $1;\", \"=r,r\", [n], "
                     "dtype=tl.float32, is_pure=True, pack=3)",
                     "test.tile:3:104: error: pack of inline_asm_elementwise must be 1, 2, 4 or "
                     "8, got 3"},
        BuiltinError{"a, b = tl.inline_asm_elementwise(\"mov.b32 $0, $2;\", \"=r,r,r\", [n], "
                     "dtype=(tl.int32, tl.int32), is_pure=True, pack=1)",
                     "test.tile:3:57: error: constraints '=r,r,r': the first 2 constraints "
                     "must be outputs ('=r')"},
        BuiltinError{"y = tl.atomic_and(x_ptr, 1.0)",
                     "test.tile:3:23: error: 'tl.atomic_and' does not support *fp32 "
                     "pointers"},
        BuiltinError{"y = tl.atomic_cas(h_ptr, 1.0, 2.0)",
                     "test.tile:3:23: error: 'tl.atomic_cas' does not support *fp16 "
                     "pointers"},
        BuiltinError{"y = tl.atomic_add(c_ptr, 1)",
                     "test.tile:3:23: error: 'tl.atomic_add' does not support *i8 "
                     "pointers"},
        BuiltinError{"y = tl.multiple_of(n, n)",
                     "test.tile:3:27: error: the values of 'tl.multiple_of' must be a "
                     "positive constexpr int or a tuple of 1 of them (one per dimension)"},
        BuiltinError{"y = tl.max_contiguous(tl.arange(0, 8), (8, 8))",
                     "test.tile:3:44: error: the values of 'tl.max_contiguous' must be a "
                     "positive constexpr int or a tuple of 1 of them (one per dimension)"},
        BuiltinError{"y = tl.load(x_ptr).to(tl.int64, bitcast=True)",
                     "test.tile:3:9: error: cannot bitcast fp32 to i64: a bitcast needs a "
                     "runtime value of the same bit width"},
        BuiltinError{"tl.static_assert(BLOCK > 64, \"BLOCK too small\")",
                     "test.tile:3:5: error: static_assert failed: BLOCK too small"},
        BuiltinError{"tl.device_print(n)",
                     "test.tile:3:21: error: the prefix of 'tl.device_print' must be a "
                     "constexpr string"},
        BuiltinError{"tl.device_assert(n > 0, n)",
                     "test.tile:3:29: error: the message of 'tl.device_assert' must be a "
                     "constexpr string"},
        BuiltinError{"y = tl.clamp(n, 0, 1)",
                     "test.tile:3:9: error: 'clamp' expects floating-point arguments, got "
                     "i32"}));

TEST(SemaBuiltins, DevicePrintKeepsValuesAfterThePrefix) {
  Compilation c(kernelWith("tl.device_print(\"v\", n, n + 1, hex=True)", kParams));
  auto kernel = analyzeBody(c);
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(kernel->body.size(), 1u);
  auto &call = llvm::cast<BuiltinCallExpr>(llvm::cast<ExprStmt>(*kernel->body[0]).getExpr());
  EXPECT_EQ(call.getBuiltin(), Builtin::DevicePrint);
  ASSERT_EQ(call.getArgs().size(), 4u);
  EXPECT_EQ(call.getConstArg(0).getString(), "v");
  EXPECT_TRUE(call.getConstArg(1).isTruthy());
  EXPECT_EQ(call.getArg(3).getType().str(), "i32");
}

TEST(SemaBuiltins, StaticPrintIsANote) {
  Compilation c(kernelWith("tl.static_print(\"block\", BLOCK)", kParams));
  auto kernel = analyzeBody(c);
  ASSERT_NE(kernel, nullptr);
  EXPECT_NE(c.output().find("note: static_print: block 32"), std::string::npos)
      << c.output();
}

TEST(SemaBuiltins, BlockPointerVariableKeepsOneScalarPerPart) {
  Compilation c(kernelWith(
      "b = tl.make_block_ptr(x_ptr, (n, n), (n, 1), (0, 0), (16, 32), (1, 0))\n"
      "b = b.advance((16, 0))\n"
      "y = tl.load(b, boundary_check=(0,), padding_option=\"nan\")",
      kParams));
  auto kernel = analyzeBody(c);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(typeOf(*kernel, "b.base"), "*fp32");
  EXPECT_EQ(typeOf(*kernel, "b.shape0"), "i64");
  EXPECT_EQ(typeOf(*kernel, "b.stride1"), "i64");
  EXPECT_EQ(typeOf(*kernel, "b.offset0"), "i32");
  EXPECT_EQ(typeOf(*kernel, "y"), "[16, 32] fp32");
  const AssignStmt *y = findAssign(*kernel, "y");
  ASSERT_NE(y, nullptr);
  auto &load = llvm::cast<BuiltinCallExpr>(y->getValue());
  EXPECT_EQ(load.getArg(0).getType().str(), "[16, 32] *fp32");
  EXPECT_EQ(load.getArg(1).getType().str(), "[16, 32] i1");
  EXPECT_EQ(load.getArg(2).getType().str(), "[16, 32] fp32");
}

TEST(SemaBuiltins, DiscardedBlockPointerIsDropped) {
  // A block pointer as a bare expression statement has no effect.
  Compilation c(kernelWith(
      "b = tl.make_block_ptr(x_ptr, (n, n), (n, 1), (0, 0), (16, 32), (1, 0))\n"
      "tl.make_block_ptr(x_ptr, (n, n), (n, 1), (0, 0), (16, 32), (1, 0))\n"
      "b.advance((0, 16))\n"
      "tl.advance(b, (16, 0))",
      kParams));
  auto kernel = analyzeBody(c);
  ASSERT_NE(kernel, nullptr);
  for (const StmtPtr &stmt : kernel->body)
    EXPECT_FALSE(llvm::isa<ExprStmt>(stmt.get()));
}

INSTANTIATE_TEST_SUITE_P(
    BlockPointers, BuiltinErrors,
    ::testing::Values(
        BuiltinError{"b = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (48,), (0,))",
                     "test.tile:3:52: error: tile dimensions must be powers of two, got 48"},
        BuiltinError{"b = tl.make_block_ptr(x_ptr, (n, n), (1,), (0, 0), (16, 16), (1, 0))",
                     "test.tile:3:42: error: the strides of make_block_ptr has 1 entries but "
                     "the block pointer has rank 2"},
        BuiltinError{"b = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (1,))",
                     "test.tile:3:59: error: the order of make_block_ptr must be a "
                     "permutation of the 1 dimensions, such as (1, 0)"},
        BuiltinError{"b = tl.make_block_ptr(x_ptr, (n,), (1.5,), (0,), (16,), (0,))",
                     "test.tile:3:40: error: the strides of make_block_ptr must hold integer "
                     "scalars, got 1.5"},
        BuiltinError{"b = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))\n"
                     "y = tl.load(b, boundary_check=(1,))",
                     "test.tile:4:35: error: boundary_check must list dimensions of the "
                     "block pointer (0 to 0), got (1,)"},
        BuiltinError{"b = tl.make_block_ptr(i_ptr, (n,), (1,), (0,), (16,), (0,))\n"
                     "y = tl.load(b, padding_option=\"nan\")",
                     "test.tile:4:35: error: padding_option must be \"\", \"zero\" or "
                     "\"nan\" (floats only), got 'nan'"},
        BuiltinError{"y = tl.advance(x_ptr, (1,))",
                     "test.tile:3:20: error: advance expects a block pointer "
                     "(tl.make_block_ptr), got *fp32"},
        BuiltinError{"y = tl.load(x_ptr, boundary_check=(0,))",
                     "test.tile:3:39: error: 'boundary_check' and 'padding_option' need a "
                     "block pointer (tl.make_block_ptr); use 'mask' and 'other' with a "
                     "pointer tile"}));

} // namespace
