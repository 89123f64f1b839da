//===- ControlFlowTest.cpp - Sema of loops, runtime ifs and device calls ---===//
//
// The typed statements Sema builds for `for`/`while`/`if` on runtime values
// (carried variables and their types) and device-function inlining.
//
//===----------------------------------------------------------------------===//
#include "FrontendTestUtils.h"

using namespace tilec;
using namespace tilec::test;

namespace {
std::unique_ptr<KernelInstance> analyzeOne(Compilation &c) {
  auto kernels = c.analyze();
  EXPECT_EQ(kernels.size(), 1u) << c.output();
  return kernels.empty() ? nullptr : std::move(kernels[0]);
}

/// The first statement of kind T in a block, or null.
template <typename T> const T *find(const Block &block) {
  for (const StmtPtr &stmt : block)
    if (auto *typed = llvm::dyn_cast<T>(stmt.get()))
      return typed;
  return nullptr;
}

/// Analyzes `c` (asserting success) into `kernel`; returns the first
/// statement of kind T of its body, or null.
template <typename T>
const T *analyzeFirst(Compilation &c, std::unique_ptr<KernelInstance> &kernel) {
  kernel = analyzeOne(c);
  return kernel ? find<T>(kernel->body) : nullptr;
}

/// "name : type" for each carried variable, space-separated.
std::string carriedText(llvm::ArrayRef<CarriedVar> carried) {
  std::string text;
  for (const CarriedVar &var : carried)
    text +=
        (text.empty() ? "" : ", ") + var.var->getName().str() + " : " + var.type.str();
  return text;
}

TEST(ControlFlow, RangeForCarriesTilesAndScalars) {
  Compilation c(kernelWith("offs = tl.arange(0, BLOCK)\n"
                           "acc = tl.zeros((BLOCK,), dtype=tl.float32)\n"
                           "count = 0\n"
                           "for i in range(0, n, BLOCK):\n"
                           "    tmp = tl.load(x_ptr + i + offs, mask=i + offs < n)\n"
                           "    acc += tmp\n"
                           "    count += 1\n"
                           "tl.store(y_ptr + offs, acc + count)"));
  std::unique_ptr<KernelInstance> kernel;
  auto *loop = analyzeFirst<RangeForStmt>(c, kernel);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->getInductionType().str(), "i32");
  EXPECT_EQ(loop->getStepSign(), RangeForStmt::StepSign::Positive);
  // `tmp` is defined in the loop only: not carried.
  EXPECT_EQ(carriedText(loop->getCarried()), "acc : [128] fp32, count : i32");
  EXPECT_EQ(c.lineCol(loop->getLoc()), "6:5");
  EXPECT_EQ(loop->getStep().getType().str(), "i32");
}

TEST(ControlFlow, RangeForWidth) {
  Compilation c(kernelWith("s = n\nfor i in range(m):\n    s += 1\ntl.store(x_ptr, s)",
                           "x_ptr: *i64, n: i32, m: i64"));
  std::unique_ptr<KernelInstance> kernel;
  auto *loop = analyzeFirst<RangeForStmt>(c, kernel);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->getInductionType().str(), "i64");
  EXPECT_EQ(carriedText(loop->getCarried()), "s : i32");
}

TEST(ControlFlow, RuntimeStepSignDecidedAtRunTime) {
  Compilation c(kernelWith("s = 0\nfor i in range(n, 0, -n):\n    s += i\n"
                           "tl.store(x_ptr, s.to(tl.float32))"));
  std::unique_ptr<KernelInstance> kernel;
  auto *loop = analyzeFirst<RangeForStmt>(c, kernel);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->getStepSign(), RangeForStmt::StepSign::Runtime);
  EXPECT_EQ(loop->getStep().getType().str(), "i32");
}

TEST(ControlFlow, NegativeConstexprStep) {
  Compilation c(kernelWith("s = 0\nfor i in range(n, 0, -2):\n    s += i\n"
                           "tl.store(x_ptr, s.to(tl.float32))"));
  std::unique_ptr<KernelInstance> kernel;
  auto *loop = analyzeFirst<RangeForStmt>(c, kernel);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->getStepSign(), RangeForStmt::StepSign::Negative);
  auto *step = llvm::dyn_cast<ConstantExpr>(&loop->getStep());
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->getValue().getInt(), 2);
}

TEST(ControlFlow, DeadAssignmentsAreNotCarried) {
  // `tmp` exists before the loop but is neither read before its assignment
  // in the loop nor after it: no iter_arg (and its type may change).
  Compilation c(kernelWith("tmp = 0\nacc = 0.0\nfor i in range(n):\n"
                           "    tmp = tl.load(x_ptr + i)\n    acc += tmp\n"
                           "tl.store(y_ptr, acc)"));
  std::unique_ptr<KernelInstance> kernel;
  auto *loop = analyzeFirst<RangeForStmt>(c, kernel);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(carriedText(loop->getCarried()), "acc : fp32");
}

TEST(ControlFlow, StaticRangeInsideRuntimeLoop) {
  Compilation c(kernelWith("acc = 0.0\nfor i in range(n):\n"
                           "    for j in tl.static_range(3):\n"
                           "        acc += tl.load(x_ptr + i * 3 + j)\n"
                           "tl.store(y_ptr, acc)"));
  std::unique_ptr<KernelInstance> kernel;
  auto *loop = analyzeFirst<RangeForStmt>(c, kernel);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(carriedText(loop->getCarried()), "acc : fp32");
  // Three unrolled assignments to acc in the body.
  unsigned assigns = 0;
  for (const StmtPtr &stmt : loop->getBody())
    assigns += llvm::isa<AssignStmt>(*stmt);
  EXPECT_EQ(assigns, 3u);
}

TEST(ControlFlow, WhileCarriesConditionVariables) {
  Compilation c(
      kernelWith("i = 0\nwhile i < n:\n    i = i * 2 + 1\ntl.store(x_ptr, i * 1.0)"));
  std::unique_ptr<KernelInstance> kernel;
  auto *loop = analyzeFirst<RuntimeWhileStmt>(c, kernel);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(carriedText(loop->getCarried()), "i : i32");
  EXPECT_EQ(loop->getCond().getType().str(), "i1");
}

TEST(ControlFlow, RuntimeIfResults) {
  Compilation c(
      kernelWith("x = 1.0\nif n > 4:\n    x = 2.0\n    y = 3.0\nelif n > 2:\n"
                 "    y = 4.0\nelse:\n    y = tl.load(x_ptr)\ntl.store(y_ptr, x + y)"));
  std::unique_ptr<KernelInstance> kernel;
  auto *ifStmt = analyzeFirst<RuntimeIfStmt>(c, kernel);
  ASSERT_NE(ifStmt, nullptr);
  EXPECT_EQ(carriedText(ifStmt->getResults()), "x : fp32, y : fp32");
  // elif: a nested runtime if in the else branch.
  auto *inner = find<RuntimeIfStmt>(ifStmt->getElse());
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(carriedText(inner->getResults()), "y : fp32");
}

TEST(ControlFlow, ConstexprIfTakesOneBranch) {
  Compilation c(
      kernelWith("if MODE == 'fast' and BLOCK is not None:\n    x = 1.0\n"
                 "else:\n    x = undefined_name\ntl.store(x_ptr, x)",
                 "x_ptr: *fp32, MODE: constexpr = 'fast', BLOCK: constexpr = 4"));
  auto kernel = analyzeOne(c);
  ASSERT_TRUE(kernel);
  EXPECT_EQ(find<RuntimeIfStmt>(kernel->body), nullptr);
}

TEST(ControlFlow, RuntimeConditionalExpression) {
  // Only the taken side runs (as in Triton): an if with one result.
  Compilation c(kernelWith("x = tl.load(x_ptr) if n > 2 else 2\ntl.store(x_ptr, x)"));
  std::unique_ptr<KernelInstance> kernel;
  auto *ifStmt = analyzeFirst<RuntimeIfStmt>(c, kernel);
  ASSERT_NE(ifStmt, nullptr);
  EXPECT_EQ(carriedText(ifStmt->getResults()), "if.value : fp32");
  EXPECT_EQ(typeOf(*kernel, "x"), "fp32");
  ASSERT_EQ(ifStmt->getThen().size(), 1u);
  auto &load = llvm::cast<AssignStmt>(*ifStmt->getThen()[0]).getValue();
  EXPECT_EQ(llvm::cast<BuiltinCallExpr>(load).getBuiltin(), Builtin::Load);
  ASSERT_EQ(ifStmt->getElse().size(), 1u);
  EXPECT_TRUE(
      llvm::isa<ConstantExpr>(llvm::cast<AssignStmt>(*ifStmt->getElse()[0]).getValue()));
}

TEST(ControlFlow, SwapReadsBothValuesFirst) {
  Compilation c(
      kernelWith("a = n\nb = n + 1\na, b = b, a\ntl.store(x_ptr, (a - b) * 1.0)"));
  auto kernel = analyzeOne(c);
  ASSERT_TRUE(kernel);
  // Two temporaries, then a and b read them.
  const auto &assignA = *findAssign(*kernel, "a");
  (void)assignA;
  unsigned temps = 0;
  for (const StmtPtr &stmt : kernel->body)
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get()))
      temps += llvm::cast<NameExpr>(assign->getTarget()).getName() == "tuple.element";
  EXPECT_EQ(temps, 2u);
}

TEST(DeviceFunctions, InlinedWithConstexprAndKeywords) {
  Compilation c("def scale(x, factor: constexpr = 2, bias=0.5):\n"
                "    y = x * factor\n"
                "    return y + bias, y\n"
                "@kernel\n"
                "def k(x_ptr: *fp32):\n"
                "    v = tl.load(x_ptr)\n"
                "    a, b = scale(v, bias=1.0)\n"
                "    c, d = scale(v, 3)\n"
                "    tl.store(x_ptr, a + b + c + d)\n");
  auto kernel = analyzeOne(c);
  ASSERT_TRUE(kernel);
  EXPECT_EQ(typeOf(*kernel, "a"), "fp32");
  EXPECT_EQ(typeOf(*kernel, "d"), "fp32");
  // Each call has its own `y` variable.
  std::set<const Variable *> ys;
  for (const StmtPtr &stmt : kernel->body)
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get())) {
      auto &target = llvm::cast<NameExpr>(assign->getTarget());
      if (target.getName() == "y")
        ys.insert(target.getVariable());
    }
  EXPECT_EQ(ys.size(), 2u);
}

TEST(DeviceFunctions, ReturnInConstexprBranch) {
  Compilation c("def pick(x, FIRST: constexpr):\n"
                "    if FIRST:\n"
                "        return x + 1\n"
                "    return x + 2\n"
                "@kernel\n"
                "def k(x_ptr: *i32):\n"
                "    v = tl.load(x_ptr)\n"
                "    tl.store(x_ptr, pick(v, True) + pick(v, False))\n");
  auto kernel = analyzeOne(c);
  ASSERT_TRUE(kernel);
  unsigned returns = 0;
  for (const StmtPtr &stmt : kernel->body)
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get()))
      returns += llvm::cast<NameExpr>(assign->getTarget()).getName() == "pick.return";
  EXPECT_EQ(returns, 2u);
}

TEST(DeviceFunctions, ReturnInRuntimeIf) {
  // Every path returns: the statements after an `if` whose branch returns
  // run in its other branch, and the scf.if yields the returned value
  // (weak literals take the type of the runtime values).
  Compilation c("def sign(x):\n"
                "    if x > 0:\n"
                "        return 1\n"
                "    elif x < 0:\n"
                "        return -1\n"
                "    return 0\n"
                "def clamp(x, hi):\n"
                "    if x > hi:\n"
                "        return hi\n"
                "    y = x * 2.0\n"
                "    return y\n"
                "@kernel\n"
                "def k(x_ptr: *fp32, n: i32):\n"
                "    s = sign(n)\n"
                "    tl.store(x_ptr + s, clamp(tl.load(x_ptr), 1))\n"
                "    if n > 8:\n"
                "        return\n"
                "    tl.store(x_ptr, 2.0)\n");
  auto kernel = analyzeOne(c);
  ASSERT_TRUE(kernel);
  std::vector<const RuntimeIfStmt *> ifs;
  for (const StmtPtr &stmt : kernel->body)
    if (auto *ifStmt = llvm::dyn_cast<RuntimeIfStmt>(stmt.get()))
      ifs.push_back(ifStmt);
  ASSERT_EQ(ifs.size(), 3u);
  EXPECT_EQ(carriedText(ifs[0]->getResults()), "sign.return : i32");
  auto *elif = find<RuntimeIfStmt>(ifs[0]->getElse());
  ASSERT_NE(elif, nullptr);
  EXPECT_EQ(carriedText(elif->getResults()), "sign.return : i32");
  // The rest of clamp runs in the else branch.
  EXPECT_EQ(carriedText(ifs[1]->getResults()), "clamp.return : fp32");
  EXPECT_EQ(ifs[1]->getElse().size(), 2u);
  // A kernel's bare return: the rest of the kernel is the else branch.
  EXPECT_TRUE(ifs[2]->getResults().empty());
  EXPECT_TRUE(ifs[2]->getThen().empty());
  EXPECT_EQ(ifs[2]->getElse().size(), 1u);
  EXPECT_EQ(kernel->body.back().get(), ifs[2]);
}

TEST(ControlFlow, BlockPointersAreCarriedAsParts) {
  Compilation c(
      "def step(bp, D: tl.constexpr):\n"
      "    return tl.advance(bp, (0, D))\n"
      "@kernel\n"
      "def k(x_ptr: *fp32, R: i32, C: i32):\n"
      "    bp = tl.make_block_ptr(x_ptr, shape=(R, C), strides=(C, 1), "
      "offsets=(0, 0), block_shape=(16, 32), order=(1, 0))\n"
      "    acc = tl.zeros((16, 32), dtype=tl.float32)\n"
      "    for i in range(tl.cdiv(C, 32)):\n"
      "        acc += tl.load(bp, boundary_check=(0, 1), padding_option='zero')\n"
      "        bp = step(bp, 32)\n"
      "    tl.store(x_ptr, tl.sum(tl.sum(acc, axis=1), axis=0))\n");
  std::unique_ptr<KernelInstance> kernel;
  auto *loop = analyzeFirst<RangeForStmt>(c, kernel);
  ASSERT_NE(loop, nullptr);
  std::string carried = carriedText(loop->getCarried());
  EXPECT_NE(carried.find("acc : [16, 32] fp32"), std::string::npos) << carried;
  EXPECT_NE(carried.find("bp.offset1 : i32"), std::string::npos) << carried;
  EXPECT_NE(carried.find("bp.base : *fp32"), std::string::npos) << carried;
}

TEST(ControlFlow, ConstexprConditionsOnStringsAndNone) {
  for (const char *define : {"sum", "max"}) {
    Compilation c(
        kernelWith("if MODE == 'sum' and BIAS is None:\n    r = 1.0\n"
                   "elif not (BIAS is not None):\n    r = 2.0\n"
                   "tl.store(x_ptr, r)",
                   "x_ptr: *fp32, MODE: constexpr = 'sum', BIAS: constexpr = None"));
    SemaOptions options;
    options.defines.push_back({"MODE", ConstValue::getString(define)});
    auto kernels = c.analyze(options);
    ASSERT_EQ(kernels.size(), 1u) << c.output();
    EXPECT_EQ(find<RuntimeIfStmt>(kernels[0]->body), nullptr);
    // r stays a compile-time value: the store's value is a constant.
    auto &store = llvm::cast<BuiltinCallExpr>(
        llvm::cast<ExprStmt>(*kernels[0]->body.back()).getExpr());
    auto *value = llvm::dyn_cast<ConstantExpr>(&store.getArg(1));
    ASSERT_NE(value, nullptr);
    EXPECT_EQ(value->getValue().getFloat(), std::string(define) == "sum" ? 1.0 : 2.0);
  }
}

TEST(ControlFlow, ConstexprAndOrShortCircuit) {
  // `B > 3` would be an error with B = None: it is never analyzed.
  Compilation c(kernelWith("x = 0.0\nif B is not None and B > 3:\n    x = 1.0\n"
                           "if MODE == 'a' or undefined_name:\n    x = x + 2.0\n"
                           "tl.store(x_ptr, x)",
                           "x_ptr: *fp32, MODE: constexpr = 'a', B: constexpr = None"));
  auto kernel = analyzeOne(c);
  ASSERT_TRUE(kernel);
  EXPECT_EQ(find<RuntimeIfStmt>(kernel->body), nullptr);
  auto &store =
      llvm::cast<BuiltinCallExpr>(llvm::cast<ExprStmt>(*kernel->body.back()).getExpr());
  auto *value = llvm::dyn_cast<ConstantExpr>(&store.getArg(1));
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(value->getValue().getFloat(), 2.0);
}

struct ControlFlowError {
  const char *source;  ///< A whole file.
  const char *message; ///< The exact first diagnostic line.
};

class ControlFlowErrors : public ::testing::TestWithParam<ControlFlowError> {};

TEST_P(ControlFlowErrors, ReportsWithLocation) {
  Compilation c(GetParam().source);
  auto kernels = c.analyze();
  EXPECT_TRUE(kernels.empty());
  EXPECT_GE(c.numErrors(), 1u);
  EXPECT_EQ(c.firstError(), GetParam().message) << c.output();
}

INSTANTIATE_TEST_SUITE_P(
    All, ControlFlowErrors,
    ::testing::Values(
        ControlFlowError{"@kernel\ndef k(x_ptr: *fp32, n: i32):\n    acc = 0\n"
                         "    for i in range(n):\n        acc = acc + 1.5\n"
                         "    tl.store(x_ptr, acc)\n",
                         "test.tile:5:9: error: 'acc' is carried by the loop at line 4 "
                         "with type i32, but here it has type fp32"},
        ControlFlowError{"@kernel\ndef k(x_ptr: *fp32, n: i32):\n    x = tl.load(x_ptr)\n"
                         "    if n > 0:\n        x = tl.zeros((4,), tl.float32)\n"
                         "    tl.store(x_ptr, x)\n",
                         "test.tile:5:9: error: 'x' has type fp32 in one branch of the "
                         "'if' at line 4, but here it has type [4] fp32"},
        ControlFlowError{"@kernel\ndef k(x_ptr: *fp32, n: i32):\n    if n > 0:\n"
                         "        y = 1.0\n    tl.store(x_ptr, y)\n",
                         "test.tile:5:21: error: 'y' is assigned in only one branch of "
                         "the 'if' at line 3; assign it before the 'if' or in both "
                         "branches"},
        ControlFlowError{
            "@kernel\ndef k(x_ptr: *fp32, n: i32):\n"
            "    for i in range(n):\n        pass\n    tl.store(x_ptr + i, 1.0)\n",
            "test.tile:5:22: error: the loop variable 'i' of the loop at line "
            "3 cannot be used after the loop (as in Triton)"},
        ControlFlowError{
            "@kernel\ndef k(x_ptr: *fp32, n: i32):\n"
            "    for i in range(n):\n        v = 1.0\n    tl.store(x_ptr, v)\n",
            "test.tile:5:21: error: 'v' is assigned inside the loop at line 3 "
            "but not before it, so it is not defined after the loop; assign "
            "it before the loop"},
        ControlFlowError{"@kernel\ndef k(x_ptr: *fp32, n: i32):\n"
                         "    o = tl.arange(0, 4)\n    if o < n:\n        pass\n",
                         "test.tile:4:10: error: the condition of 'if' must be a scalar, "
                         "but it is a tile [4] i1; use tl.where to select elementwise"},
        ControlFlowError{"@kernel\ndef k(x_ptr: *fp32, n: i32):\n"
                         "    while n > 0:\n        break\n",
                         "test.tile:4:9: error: 'break' is not supported (as in Triton); "
                         "use a 'while' loop with a condition instead"},
        ControlFlowError{"@kernel\ndef k(x_ptr: *fp32, n: i32):\n"
                         "    for i in range(n):\n        continue\n",
                         "test.tile:4:9: error: 'continue' is not supported (as in "
                         "Triton); use a 'while' loop with a condition instead"},
        ControlFlowError{"@kernel\ndef k(x_ptr: *fp32, n: i32):\n"
                         "    for i in range(n, 0, 0):\n        pass\n",
                         "test.tile:3:26: error: the step of range must not be 0"},
        ControlFlowError{
            "@kernel\ndef k(x_ptr: *fp32, n: i32):\n"
            "    for i in range(1.5):\n        pass\n",
            "test.tile:3:20: error: a range bound must be an integer, got 1.5"},
        ControlFlowError{"@kernel\ndef k(x_ptr: *fp32, n: i32):\n"
                         "    for i in [1, 2]:\n        pass\n",
                         "test.tile:3:14: error: a 'for' loop must iterate over "
                         "range(...), tl.range(...) or tl.static_range(...)"},
        ControlFlowError{"@kernel\ndef k(x_ptr: *fp32, n: i32):\n"
                         "    x = None\n    for i in range(n):\n        x = 1.0\n"
                         "    tl.store(x_ptr, x)\n",
                         "test.tile:4:5: error: 'x' is the constexpr None here but is "
                         "assigned at run time inside; only numbers can become runtime "
                         "values"},
        // Device functions.
        ControlFlowError{"def f(x):\n    return g(x)\ndef g(x):\n    return f(x)\n"
                         "@kernel\ndef k(x_ptr: *fp32):\n    tl.store(x_ptr, f(1.0))\n",
                         "test.tile:4:12: error: recursive call of device function 'f' "
                         "(f -> g -> f); device functions are inlined, so recursion is "
                         "not supported"},
        ControlFlowError{
            "def f(x, n):\n    while n > 0:\n        if n > 1:\n            return x\n"
            "    return x + 1\n"
            "@kernel\ndef k(x_ptr: *fp32, n: i32):\n    tl.store(x_ptr, f(1.0, n))\n",
            "test.tile:4:13: error: not supported yet: 'return' inside a loop (as in "
            "Triton; return after the loop)"},
        ControlFlowError{
            "def f(x, n):\n    if n > 0:\n        return x\n    return n\n"
            "@kernel\ndef k(x_ptr: *fp32, n: i32):\n"
            "    tl.store(x_ptr, f(tl.load(x_ptr), n))\n",
            "test.tile:4:5: error: 'f' returns values of different types: fp32 (line 3) "
            "and i32 (line 4)"},
        ControlFlowError{
            "def f(x, n):\n    if n > 0:\n        return x\n"
            "@kernel\ndef k(x_ptr: *fp32, n: i32):\n"
            "    tl.store(x_ptr, f(tl.load(x_ptr), n))\n",
            "test.tile:1:5: error: 'f' returns values of different types: fp32 (line 3) "
            "and None (the end of the function)"},
        ControlFlowError{"def f(x):\n    return x + undefined\n"
                         "@kernel\ndef k(x_ptr: *fp32):\n    tl.store(x_ptr, f(1.0))\n",
                         "test.tile:2:16: error: unknown name 'undefined'"},
        ControlFlowError{
            "def f(x, y):\n    return x\n"
            "@kernel\ndef k(x_ptr: *fp32):\n    tl.store(x_ptr, f(1.0))\n",
            "test.tile:5:21: error: missing argument 'y' in the call of 'f'"},
        ControlFlowError{
            "def f(x):\n    return x\n"
            "@kernel\ndef k(x_ptr: *fp32):\n    tl.store(x_ptr, f(1.0, z=2))\n",
            "test.tile:5:28: error: 'f' has no parameter named 'z'"},
        ControlFlowError{
            "def f(x, N: constexpr):\n    return tl.arange(0, N)\n"
            "@kernel\ndef k(x_ptr: *fp32, n: i32):\n    tl.store(x_ptr, f(1.0, n))\n",
            "test.tile:2:25: error: 'N' must be a constexpr (it is the end of arange), but it "
            "is a runtime i32"},
        ControlFlowError{"def f(x: i32):\n    return x\n"
                         "@kernel\ndef k(x_ptr: *fp32):\n    tl.store(x_ptr, f(x_ptr))\n",
                         "test.tile:5:23: error: argument 'x' of 'f' is annotated i32, "
                         "got *fp32"},
        ControlFlowError{"@kernel\ndef k(x_ptr: *fp32):\n    return 1\n",
                         "test.tile:3:12: error: a kernel cannot return a value"},
        ControlFlowError{
            "@kernel\ndef k(x_ptr: *fp32):\n"
            "    tl.static_assert(1 > 2, \"one is not greater\")\n",
            "test.tile:3:5: error: static_assert failed: one is not greater"}));

TEST(DeviceFunctions, ErrorInBodyHasCallNote) {
  Compilation c("def f(x):\n    return x + undefined\n"
                "@kernel\ndef k(x_ptr: *fp32):\n    tl.store(x_ptr, f(1.0))\n");
  EXPECT_TRUE(c.analyze().empty());
  EXPECT_NE(c.output().find("test.tile:5:21: note: in the call to 'f'"),
            std::string::npos)
      << c.output();
}

TEST(DeviceFunctions, InliningDepthIsLimited) {
  // f0 calls f1 calls ... f69: deeper than the limit, no recursion.
  std::string source;
  for (int i = 0; i < 70; ++i)
    source += "def f" + std::to_string(i) + "(x):\n    return " +
              (i == 69 ? std::string("x") : "f" + std::to_string(i + 1) + "(x)") + "\n";
  source += "@kernel\ndef k(x_ptr: *fp32):\n    tl.store(x_ptr, f0(1.0))\n";
  Compilation c(source);
  EXPECT_TRUE(c.analyze().empty());
  EXPECT_NE(
      c.firstError().find("error: device function calls nest deeper than 64 levels"),
      std::string::npos)
      << c.output();
}
} // namespace
