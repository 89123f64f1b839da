//===- SemaTest.cpp - Tests of typing, promotion and specialization -------===//
#include "FrontendTestUtils.h"

#include <cmath>

using namespace tilec;
using namespace tilec::test;

namespace {
/// Analyzes one kernel built by kernelWith and returns it (asserting success).
std::unique_ptr<KernelInstance> analyzeOne(Compilation &c, const SemaOptions &options = {}) {
  auto kernels = c.analyze(options);
  EXPECT_EQ(kernels.size(), 1u) << c.output();
  return kernels.empty() ? nullptr : std::move(kernels[0]);
}

TEST(Sema, AddKernelTypes) {
  Compilation c(kSeedKernels);
  auto kernels = c.analyze();
  ASSERT_EQ(kernels.size(), 2u) << c.output();
  const KernelInstance &add = *kernels[0];
  EXPECT_EQ(add.name, "add_kernel");
  EXPECT_EQ(add.numWarps, 4u);
  EXPECT_EQ(add.numStages, 3u);
  EXPECT_EQ(typeOf(add, "pid"), "i32");
  EXPECT_EQ(typeOf(add, "offsets"), "[1024] i32");
  EXPECT_EQ(typeOf(add, "mask"), "[1024] i1");
  EXPECT_EQ(typeOf(add, "x"), "[1024] fp32");
  EXPECT_EQ(typeOf(add, "y"), "[1024] fp32");
  ASSERT_EQ(add.body.size(), 6u);
  auto &store = llvm::cast<BuiltinCallExpr>(llvm::cast<ExprStmt>(*add.body[5]).getExpr());
  EXPECT_EQ(store.getBuiltin(), Builtin::Store);
  EXPECT_TRUE(store.getType().isVoid());
  EXPECT_EQ(store.getArg(0).getType().str(), "[1024] *fp32");
  EXPECT_EQ(store.getArg(1).getType().str(), "[1024] fp32");
  EXPECT_EQ(store.getArg(2).getType().str(), "[1024] i1");
  EXPECT_EQ(c.lineCol(store.getLoc()), "9:5");
  // Parameters: four runtime, one constexpr.
  ASSERT_EQ(add.params.size(), 5u);
  EXPECT_FALSE(add.params[0].isConstexpr);
  EXPECT_EQ(add.params[0].type.str(), "*fp32");
  ASSERT_NE(add.params[0].var, nullptr);
  EXPECT_EQ(add.params[0].var->getName(), "x_ptr");
  EXPECT_TRUE(add.params[4].isConstexpr);
  EXPECT_EQ(add.params[4].value.getInt(), 1024);
  EXPECT_EQ(add.params[4].var, nullptr);
}

TEST(Sema, AddKernelNormalizedLoad) {
  Compilation c(kSeedKernels);
  auto kernels = c.analyze();
  ASSERT_EQ(kernels.size(), 2u);
  const AssignStmt *x = findAssign(*kernels[0], "x");
  ASSERT_NE(x, nullptr);
  auto &load = llvm::cast<BuiltinCallExpr>(x->getValue());
  EXPECT_EQ(load.getBuiltin(), Builtin::Load);
  ASSERT_EQ(load.getArgs().size(), getBuiltinInfo(Builtin::Load).params.size());
  // ptr = x_ptr + offsets: an addptr of the broadcast pointer and the offsets.
  auto &ptr = llvm::cast<BinaryExpr>(load.getArg(0));
  EXPECT_EQ(ptr.getOp(), BinaryOp::Add);
  EXPECT_EQ(ptr.getType().str(), "[1024] *fp32");
  auto &base = llvm::cast<BroadcastExpr>(ptr.getLHS());
  EXPECT_EQ(llvm::cast<NameExpr>(base.getOperand()).getVariable(),
            kernels[0]->params[0].var);
  EXPECT_EQ(ptr.getRHS().getType().str(), "[1024] i32");
  // mask is a variable read; other is absent.
  auto &mask = llvm::cast<NameExpr>(load.getArg(1));
  EXPECT_EQ(mask.getName(), "mask");
  EXPECT_NE(mask.getVariable(), nullptr);
  EXPECT_TRUE(load.isAbsent(2));
  EXPECT_FALSE(load.isAbsent(1));
  EXPECT_EQ(load.getConstArg(7).isBool(), true); // volatile=False
}

TEST(Sema, AddKernelOffsetsFoldConstexpr) {
  Compilation c(kSeedKernels);
  auto kernels = c.analyze();
  ASSERT_EQ(kernels.size(), 2u);
  // offsets = pid * BLOCK_SIZE + arange: the product is a scalar i32 broadcast.
  auto &add = llvm::cast<BinaryExpr>(findAssign(*kernels[0], "offsets")->getValue());
  auto &splat = llvm::cast<BroadcastExpr>(add.getLHS());
  auto &mul = llvm::cast<BinaryExpr>(splat.getOperand());
  auto &block = llvm::cast<ConstantExpr>(mul.getRHS());
  EXPECT_EQ(block.getValue().getInt(), 1024);
  EXPECT_EQ(block.getType().str(), "i32");
  auto &arange = llvm::cast<BuiltinCallExpr>(add.getRHS());
  EXPECT_EQ(arange.getBuiltin(), Builtin::Arange);
  EXPECT_EQ(arange.getConstArg(0).getInt(), 0);
  EXPECT_EQ(arange.getConstArg(1).getInt(), 1024);
}

TEST(Sema, GeluKernelTypes) {
  Compilation c(kSeedKernels);
  auto kernels = c.analyze();
  ASSERT_EQ(kernels.size(), 2u) << c.output();
  const KernelInstance &gelu = *kernels[1];
  EXPECT_EQ(typeOf(gelu, "x"), "[1024] fp32");
  EXPECT_EQ(typeOf(gelu, "u"), "[1024] fp32");
  EXPECT_EQ(typeOf(gelu, "t"), "[1024] fp32");
  // other=0.0 is a fp32 splat constant of the pointer's shape.
  auto &load = llvm::cast<BuiltinCallExpr>(findAssign(gelu, "x")->getValue());
  auto &other = llvm::cast<ConstantExpr>(load.getArg(2));
  EXPECT_EQ(other.getType().str(), "[1024] fp32");
  EXPECT_EQ(other.getValue().getFloat(), 0.0);
  // t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0: -2.0 is folded, literals splat.
  auto &sub = llvm::cast<BinaryExpr>(findAssign(gelu, "t")->getValue());
  EXPECT_EQ(sub.getOp(), BinaryOp::Sub);
  auto &div = llvm::cast<BinaryExpr>(sub.getLHS());
  EXPECT_EQ(llvm::cast<ConstantExpr>(div.getLHS()).getType().str(), "[1024] fp32");
  auto &exp = llvm::cast<BuiltinCallExpr>(llvm::cast<BinaryExpr>(div.getRHS()).getRHS());
  EXPECT_EQ(exp.getBuiltin(), Builtin::Exp);
  auto &mul = llvm::cast<BinaryExpr>(exp.getArg(0));
  EXPECT_EQ(llvm::cast<ConstantExpr>(mul.getLHS()).getValue().getFloat(), -2.0);
}

TEST(Sema, PromotionRules) {
  Compilation c(kernelWith(
      "pid = tl.program_id(0)\n"
      "r = tl.arange(0, BLOCK)\n"
      "a = r + 1\n"            // int literal adopts i32
      "b = r * 2.5\n"          // float literal with int tile -> fp32
      "c = r / 2\n"            // int / int -> fp32
      "d = r // 2\n"           // stays int
      "e = r % 3\n"
      "f = r < 4\n"            // comparison -> i1
      "g = r.to(tl.float16)\n"
      "h = g * 2.0\n"          // float literal adopts fp16
      "i = g + r\n"            // fp16 + i32 -> fp16
      "j = g + tl.load(x_ptr + r)\n" // fp16 + fp32 -> fp32
      "k = r.to(tl.int64) + r\n"     // i64 + i32 -> i64
      "l = r.to(tl.uint32) + r\n"    // u32 + i32 -> u32
      "m = pid + 5000000000\n"       // literal too big for i32 -> i64
      "n = f & (r > 1)\n"
      "o = -r\n"
      "p = g.to(tl.bfloat16) + g\n"  // bf16 + fp16 -> fp32
      "q = n.to(tl.int32)\n"));
  auto kernel = analyzeOne(c);
  ASSERT_NE(kernel, nullptr);
  std::pair<const char *, const char *> expected[] = {
      {"a", "[128] i32"},  {"b", "[128] fp32"}, {"c", "[128] fp32"},
      {"d", "[128] i32"},  {"e", "[128] i32"},  {"f", "[128] i1"},
      {"g", "[128] fp16"}, {"h", "[128] fp16"}, {"i", "[128] fp16"},
      {"j", "[128] fp32"}, {"k", "[128] i64"},  {"l", "[128] u32"},
      {"m", "i64"},        {"n", "[128] i1"},   {"o", "[128] i32"},
      {"p", "[128] fp32"}, {"q", "[128] i32"}};
  for (auto [name, type] : expected)
    EXPECT_EQ(typeOf(*kernel, name), type) << name;
  // Implicit conversions are explicit in the typed tree.
  auto &i = llvm::cast<BinaryExpr>(findAssign(*kernel, "i")->getValue());
  EXPECT_TRUE(llvm::isa<ConvertExpr>(i.getRHS()));
  EXPECT_EQ(i.getRHS().getType().str(), "[128] fp16");
}

TEST(Sema, Broadcasting) {
  Compilation c(kernelWith("r = tl.arange(0, 16)\n"
                           "col = r[:, None]\n"
                           "row = r[None, :]\n"
                           "grid = col * 16 + row\n"
                           "e = tl.expand_dims(r, 0)\n"
                           "b = tl.broadcast_to(e, (8, 16))\n"
                           "z = tl.zeros((4, 16), tl.float32)\n"
                           "w = z + r\n"
                           "s = tl.where(grid < 3, 1.0, z[:, :, None])\n"));
  auto kernel = analyzeOne(c);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(typeOf(*kernel, "col"), "[16, 1] i32");
  EXPECT_EQ(typeOf(*kernel, "row"), "[1, 16] i32");
  EXPECT_EQ(typeOf(*kernel, "grid"), "[16, 16] i32");
  EXPECT_EQ(typeOf(*kernel, "e"), "[1, 16] i32");
  EXPECT_EQ(typeOf(*kernel, "b"), "[8, 16] i32");
  EXPECT_EQ(typeOf(*kernel, "z"), "[4, 16] fp32");
  EXPECT_EQ(typeOf(*kernel, "w"), "[4, 16] fp32");
  // where: [16,16] cond, scalar 1.0 and [4,16,1]: broadcast to [4,16,16].
  EXPECT_EQ(typeOf(*kernel, "s"), "[4, 16, 16] fp32");
  auto &grid = llvm::cast<BinaryExpr>(findAssign(*kernel, "grid")->getValue());
  EXPECT_EQ(grid.getLHS().getType().str(), "[16, 16] i32");
  EXPECT_TRUE(llvm::isa<BroadcastExpr>(grid.getRHS()));
  // zeros is a splat constant.
  auto &z = llvm::cast<ConstantExpr>(findAssign(*kernel, "z")->getValue());
  EXPECT_EQ(z.getValue().getFloat(), 0.0);
}

TEST(Sema, ConstexprFolding) {
  Compilation c(kernelWith("HALF = BLOCK // 2\n"
                           "TWICE = HALF * 4 - 1 + 1\n"
                           "r = tl.arange(0, TWICE // 2)\n"
                           "s = tl.arange(HALF, BLOCK)\n"
                           "f = 7 / 2\n"
                           "g = -7 // 2\n"
                           "h = -7 % 3\n"
                           "k = 2 ** 10\n"
                           "m = tl.cdiv(1000, BLOCK)\n"
                           "n = min(BLOCK, 64) + max(1, 2, 3)\n"
                           "o = BLOCK if BLOCK > 64 else 1\n"
                           "p = float('-inf')\n"
                           "q = (BLOCK, HALF)[1]\n"
                           "tl.static_assert(k == 1024, 'pow')\n"
                           "v = tl.full((2,), k + f + g + h + m + n + o + q, tl.float32)\n"
                           "w = tl.full((2,), p, tl.float32)\n"));
  auto kernel = analyzeOne(c);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(typeOf(*kernel, "r"), "[128] i32");
  EXPECT_EQ(typeOf(*kernel, "s"), "[64] i32");
  // Constexpr locals are not runtime variables.
  EXPECT_EQ(findAssign(*kernel, "HALF"), nullptr);
  auto &v = llvm::cast<ConstantExpr>(findAssign(*kernel, "v")->getValue());
  // 1024 + 3.5 + -4 + 2 + 8 + (64 + 3) + 128 + 64
  EXPECT_DOUBLE_EQ(v.getValue().getFloat(), 1024 + 3.5 - 4 + 2 + 8 + 67 + 128 + 64);
  EXPECT_EQ(v.getType().str(), "[2] fp32");
  auto &w = llvm::cast<ConstantExpr>(findAssign(*kernel, "w")->getValue());
  EXPECT_TRUE(std::isinf(w.getValue().getFloat()) && w.getValue().getFloat() < 0);
}

TEST(Sema, ConstexprIfAndStaticRange) {
  Compilation c(kernelWith("acc = tl.zeros((BLOCK,), tl.float32)\n"
                           "for i in tl.static_range(3):\n"
                           "    acc += i\n"
                           "if BLOCK > 64:\n"
                           "    acc = acc * 2\n"
                           "else:\n"
                           "    acc = acc * 3\n"));
  auto kernel = analyzeOne(c);
  ASSERT_NE(kernel, nullptr);
  // zeros, three unrolled `acc += i`, one branch.
  ASSERT_EQ(kernel->body.size(), 5u);
  auto &last = llvm::cast<AssignStmt>(*kernel->body[4]);
  auto &mul = llvm::cast<BinaryExpr>(last.getValue());
  EXPECT_EQ(llvm::cast<ConstantExpr>(mul.getRHS()).getValue().getFloat(), 2.0);
  auto &second = llvm::cast<BinaryExpr>(llvm::cast<AssignStmt>(*kernel->body[2]).getValue());
  EXPECT_EQ(llvm::cast<ConstantExpr>(second.getRHS()).getValue().getFloat(), 1.0);
  // Every definition of acc is the same Variable (SSA-friendly rebinding).
  Variable *var = llvm::cast<NameExpr>(llvm::cast<AssignStmt>(*kernel->body[0]).getTarget())
                      .getVariable();
  EXPECT_EQ(llvm::cast<NameExpr>(last.getTarget()).getVariable(), var);
}

TEST(Sema, DefineOverridesAndOptions) {
  Compilation c(std::string("@kernel(num_warps=8, num_stages=2)\n") +
                "def k(x_ptr: *fp16, BLOCK: constexpr, SCALE: constexpr = 1.5,\n"
                "      FLAG: tl.constexpr = False, NAME: constexpr = 'a'):\n"
                "    r = tl.arange(0, BLOCK)\n"
                "    v = tl.load(x_ptr + r) * SCALE\n"
                "    if FLAG:\n"
                "        v = v + 1\n"
                "    tl.static_assert(NAME == 'hello')\n");
  SemaOptions options;
  std::pair<std::string, ConstValue> define;
  std::string error;
  for (const char *text : {"BLOCK=256", "SCALE=0.25", "FLAG=true", "NAME=hello"}) {
    ASSERT_TRUE(parseDefine(text, define, error)) << error;
    options.defines.push_back(define);
  }
  auto kernel = analyzeOne(c, options);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->numWarps, 8u);
  EXPECT_EQ(kernel->numStages, 2u);
  EXPECT_EQ(typeOf(*kernel, "r"), "[256] i32");
  EXPECT_EQ(typeOf(*kernel, "v"), "[256] fp16");
  EXPECT_EQ(kernel->body.size(), 3u); // r, v, v + 1
  EXPECT_EQ(kernel->params[1].value.getInt(), 256);
  EXPECT_EQ(kernel->params[2].value.getFloat(), 0.25);
  EXPECT_TRUE(kernel->params[3].value.getBool());
  EXPECT_EQ(kernel->params[4].value.getString(), "hello");

  // Command-line launch options win over the decorator.
  Compilation c2(kSeedKernels);
  SemaOptions cli;
  cli.kernelName = "gelu_kernel";
  cli.numWarps = 2;
  auto kernels = c2.analyze(cli);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0]->name, "gelu_kernel");
  EXPECT_EQ(kernels[0]->numWarps, 2u);
}

TEST(Sema, ParseDefine) {
  std::pair<std::string, ConstValue> define;
  std::string error;
  ASSERT_TRUE(parseDefine("N=0x10", define, error));
  EXPECT_EQ(define.first, "N");
  EXPECT_EQ(define.second.getInt(), 16);
  ASSERT_TRUE(parseDefine("X=-3", define, error));
  EXPECT_EQ(define.second.getInt(), -3);
  ASSERT_TRUE(parseDefine("X=1e-3", define, error));
  EXPECT_DOUBLE_EQ(define.second.getFloat(), 1e-3);
  ASSERT_TRUE(parseDefine("X=False", define, error));
  EXPECT_TRUE(define.second.isBool() && !define.second.getBool());
  ASSERT_TRUE(parseDefine("X='q'", define, error));
  EXPECT_EQ(define.second.getString(), "q");
  ASSERT_TRUE(parseDefine("X=tl.float16", define, error));
  EXPECT_TRUE(define.second.isDType() && define.second.getDType() == ScalarKind::F16);
  ASSERT_TRUE(parseDefine("X='float16'", define, error)); // Quoted: a string.
  EXPECT_EQ(define.second.getString(), "float16");
  ASSERT_TRUE(parseDefine("X=(16, 32)", define, error));
  ASSERT_EQ(define.second.getTuple().size(), 2u);
  EXPECT_EQ(define.second.getTuple()[1].getInt(), 32);
  ASSERT_TRUE(parseDefine("X=[4,]", define, error));
  EXPECT_EQ(define.second.getTuple().size(), 1u);
  ASSERT_TRUE(parseDefine("X=None", define, error));
  EXPECT_TRUE(define.second.isNone());
  EXPECT_FALSE(parseDefine("=3", define, error));
  EXPECT_EQ(error, "expected NAME=VALUE in -D '=3'");
  EXPECT_FALSE(parseDefine("NOVALUE", define, error));
  EXPECT_FALSE(parseDefine("9X=1", define, error));
}

TEST(Sema, BuiltinSpellingsAndKeywords) {
  Compilation ok(kernelWith("a = triton.language.program_id(axis=1)\n"
                            "b = program_id(2)\n"
                            "r = arange(0, BLOCK)\n"
                            "x = load(x_ptr + r, r < n, 1.0)\n"
                            "e = tl.math.exp2(x) + exp(x) + tl.exp(x) + x.exp()\n"
                            "m = tl.maximum(x, 0) + tl.math.sqrt(tl.abs(x))\n"
                            "s = tl.sigmoid(x) * tl.where(x > 0, x, 0.0)\n"
                            "tl.store(value=s, ptr=y_ptr + r, mask=r < n)\n"));
  auto kernel = analyzeOne(ok);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(typeOf(*kernel, "a"), "i32");
  EXPECT_EQ(typeOf(*kernel, "x"), "[128] fp32");
  EXPECT_EQ(typeOf(*kernel, "e"), "[128] fp32");
  EXPECT_EQ(typeOf(*kernel, "m"), "[128] fp32");
  EXPECT_EQ(typeOf(*kernel, "s"), "[128] fp32");
  auto &load = llvm::cast<BuiltinCallExpr>(findAssign(*kernel, "x")->getValue());
  EXPECT_EQ(load.getArg(1).getType().str(), "[128] i1"); // positional mask
  auto &store = llvm::cast<BuiltinCallExpr>(
      llvm::cast<ExprStmt>(*kernel->body.back()).getExpr());
  EXPECT_EQ(store.getArg(0).getType().str(), "[128] *fp32"); // keywords reordered
  EXPECT_EQ(store.getArg(1).getType().str(), "[128] fp32");
}

TEST(Sema, ScalarLoadStoreAndPointerArithmetic) {
  Compilation c(kernelWith("v = tl.load(x_ptr)\n"
                           "w = tl.load(x_ptr + n - 1)\n"
                           "p = 4 + x_ptr\n"
                           "tl.store(y_ptr, v + w)\n"
                           "tl.store(y_ptr + tl.arange(0, 4), 1.0)\n"));
  auto kernel = analyzeOne(c);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(typeOf(*kernel, "v"), "fp32");
  EXPECT_EQ(typeOf(*kernel, "w"), "fp32");
  EXPECT_EQ(typeOf(*kernel, "p"), "*fp32");
  auto &p = llvm::cast<BinaryExpr>(findAssign(*kernel, "p")->getValue());
  EXPECT_TRUE(p.getLHS().getType().isPointer()); // int + ptr is normalized.
  auto &store = llvm::cast<BuiltinCallExpr>(
      llvm::cast<ExprStmt>(*kernel->body.back()).getExpr());
  EXPECT_EQ(store.getArg(1).getType().str(), "[4] fp32");
}

TEST(Sema, AllKernelsOrOneByName) {
  Compilation c(std::string(kSeedKernels) + "\ndef helper(x):\n    return x\n");
  SemaOptions options;
  options.kernelName = "add_kernel";
  auto kernels = c.analyze(options);
  ASSERT_EQ(kernels.size(), 1u) << c.output();
  EXPECT_EQ(kernels[0]->name, "add_kernel");
}

TEST(Sema, TensorDescriptorAttributesAndRangeHints) {
  Compilation c("@triton.jit\n"
                "def k(x_ptr: *fp16, M: i32, N: i32, BM: tl.constexpr = 16):\n"
                "    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, 32])\n"
                "    tl.static_assert(d.block_shape[1] == 32 and d.dtype == tl.float16)\n"
                "    m, n = d.shape\n"
                "    s, one = d.strides\n"
                "    x = d.load([0, 0])\n"
                "    for i in tl.range(0, m, flatten=True, loop_unroll_factor=None):\n"
                "        x += 1\n"
                "    d.store([n - s, 0], x.to(d.dtype))\n");
  auto kernels = c.analyze();
  ASSERT_EQ(kernels.size(), 1u) << c.output();
  EXPECT_EQ(c.output(), "test.tile:8:37: warning: flatten of tl.range is ignored: tilec "
                        "compiles the loop as if it were absent\n"
                        "    for i in tl.range(0, m, flatten=True, loop_unroll_factor=None):\n"
                        "                                    ^\n");
}

TEST(Sema, KernelDecoratorsThroughImportAliases) {
  Compilation c("import triton as tr\n"
                "from triton import jit as tjit\n"
                "@tr.jit\n"
                "def a(x_ptr: *fp32):\n"
                "    tl.store(x_ptr, 1.0)\n"
                "@tjit\n"
                "def b(x_ptr: *fp32):\n"
                "    tl.store(x_ptr, 2.0)\n");
  auto kernels = c.analyze();
  ASSERT_EQ(kernels.size(), 2u) << c.output();
  EXPECT_EQ(kernels[0]->name, "a");
  EXPECT_EQ(kernels[1]->name, "b");
}

TEST(Sema, HostWrappersDoNotMakeKernelsHelpers) {
  // A launch in a host wrapper is no call; a call from a kernel is.
  Compilation c("import torch\n"
                "@triton.jit\n"
                "def scale(x):\n"
                "    return x * 2\n"
                "@triton.jit\n"
                "def k(x_ptr: *fp32):\n"
                "    tl.store(x_ptr, scale(tl.load(x_ptr)))\n"
                "def launch(x):\n"
                "    out = torch.empty_like(x)\n"
                "    k[(1,)](x)\n"
                "    scale(x)\n"
                "    return out\n"
                "class Op(torch.autograd.Function):\n"
                "    @staticmethod\n"
                "    def forward(ctx, x):\n"
                "        k[(1,)](x)\n");
  auto kernels = c.analyze();
  ASSERT_EQ(kernels.size(), 1u) << c.output();
  EXPECT_EQ(kernels[0]->name, "k");
}
} // namespace

namespace {
/// The value convertConstant gives `value` as `kind`, as a double.
double converted(ConstValue value, ScalarKind kind) {
  ConstValue result = convertConstant(value, kind);
  return result.isFloat() ? result.getFloat() : double(result.getInt());
}
} // namespace

TEST(Constants, ConvertLikeTheGpu) {
  // Integers wrap to the width (two's complement), as a cast does.
  EXPECT_EQ(converted(ConstValue::getInt(300), ScalarKind::I8), 44);
  EXPECT_EQ(converted(ConstValue::getInt(-1), ScalarKind::U8), 255);
  EXPECT_EQ(converted(ConstValue::getInt(3000000000), ScalarKind::I32), -1294967296);
  // Floats truncate toward zero into integers, saturating; NaN is 0.
  EXPECT_EQ(converted(ConstValue::getFloat(-2.75), ScalarKind::I32), -2);
  EXPECT_EQ(converted(ConstValue::getFloat(1e30), ScalarKind::I16), 32767);
  EXPECT_EQ(converted(ConstValue::getFloat(-1e30), ScalarKind::I16), -32768);
  EXPECT_EQ(converted(ConstValue::getFloat(-5.0), ScalarKind::U16), 0);
  EXPECT_EQ(converted(ConstValue::getFloat(NAN), ScalarKind::I32), 0);
  // Floats round to the kind's precision.
  EXPECT_EQ(converted(ConstValue::getFloat(0.1), ScalarKind::F16), 0.0999755859375);
  EXPECT_EQ(converted(ConstValue::getFloat(0.1), ScalarKind::BF16), 0.10009765625);
  EXPECT_EQ(converted(ConstValue::getFloat(0.1), ScalarKind::F32), double(0.1f));
  EXPECT_EQ(converted(ConstValue::getFloat(0.1), ScalarKind::F64), 0.1);
  EXPECT_TRUE(convertConstant(ConstValue::getInt(2), ScalarKind::I1).isTruthy());
}

TEST(Constants, RepresentableOnlyWithoutLoss) {
  EXPECT_EQ(checkRepresentable(ConstValue::getInt(127), ScalarKind::I8), "");
  EXPECT_EQ(checkRepresentable(ConstValue::getInt(128), ScalarKind::I8),
            "128 does not fit in i8");
  EXPECT_EQ(checkRepresentable(ConstValue::getInt(-1), ScalarKind::U32),
            "-1 does not fit in u32");
  EXPECT_EQ(checkRepresentable(ConstValue::getFloat(2.0), ScalarKind::I32), "");
  EXPECT_EQ(checkRepresentable(ConstValue::getFloat(2.5), ScalarKind::I32),
            "the float 2.5 cannot become an integer of type i32 without losing its value");
  EXPECT_EQ(checkRepresentable(ConstValue::getInt(2), ScalarKind::I1),
            "2 does not fit in i1");
  EXPECT_EQ(checkRepresentable(ConstValue::getBool(true), ScalarKind::I8), "");
  EXPECT_EQ(checkRepresentable(ConstValue::getFloat(1e300), ScalarKind::F16), "");
}
