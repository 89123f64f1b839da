//===- ParserTest.cpp - Tests of the recursive-descent parser --------------===//
#include "FrontendTestUtils.h"

using namespace tilec;
using namespace tilec::test;

namespace {
/// Parses `source` and returns the printed module ("" on error).
std::string parseAndPrint(llvm::StringRef source, Compilation **out = nullptr) {
  static std::unique_ptr<Compilation> last;
  last = std::make_unique<Compilation>(source);
  if (out)
    *out = last.get();
  Module *module = last->parse();
  if (!module)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  printModule(*module, os);
  return text;
}

/// The expression of `x = <expr>` printed.
std::string exprTree(llvm::StringRef expr) {
  Compilation c("def f():\n    x = " + expr.str() + "\n");
  Module *module = c.parse();
  if (!module)
    return "error: " + c.output();
  auto &assign = llvm::cast<AssignStmt>(*module->functions[0]->body[0]);
  std::string text;
  llvm::raw_string_ostream os(text);
  printExpr(assign.getValue(), os);
  return text;
}

TEST(Parser, SeedKernels) {
  Compilation c(kSeedKernels);
  Module *module = c.parse();
  ASSERT_NE(module, nullptr) << c.output();
  ASSERT_EQ(module->functions.size(), 2u);
  const FunctionDef &add = *module->functions[0];
  EXPECT_EQ(add.getName(), "add_kernel");
  EXPECT_TRUE(add.isKernel());
  ASSERT_EQ(add.params.size(), 5u);
  EXPECT_EQ(add.params[0].annotation, ParamAnnotation::Type);
  EXPECT_EQ(add.params[0].type.str(), "*fp32");
  EXPECT_EQ(add.params[3].type.str(), "i32");
  EXPECT_EQ(add.params[4].annotation, ParamAnnotation::Constexpr);
  ASSERT_NE(add.params[4].defaultValue, nullptr);
  EXPECT_EQ(llvm::cast<ConstantExpr>(*add.params[4].defaultValue).getValue().getInt(), 1024);
  EXPECT_EQ(add.body.size(), 6u);
  EXPECT_EQ(c.lineCol(add.getLoc()), "3:5");
  EXPECT_EQ(c.lineCol(add.body[5]->getLoc()), "9:5");
  EXPECT_EQ(module->functions[1]->body.size(), 7u);
}

TEST(Parser, Decorators) {
  Compilation c("@kernel(num_warps=8, num_stages=3)\ndef a(): pass\n"
                "@triton.jit\ndef b(): pass\n@jit\ndef c(): pass\n"
                "def d(x, y=2): return x\n");
  Module *module = c.parse();
  ASSERT_NE(module, nullptr) << c.output();
  const FunctionDef &a = *module->functions[0];
  ASSERT_EQ(a.decorators.size(), 1u);
  EXPECT_EQ(a.decorators[0].name, "kernel");
  ASSERT_EQ(a.decorators[0].args.size(), 2u);
  EXPECT_EQ(a.decorators[0].args[0].keyword, "num_warps");
  EXPECT_EQ(module->functions[1]->decorators[0].name, "triton.jit");
  EXPECT_EQ(module->functions[2]->decorators[0].name, "jit");
  const FunctionDef &d = *module->functions[3];
  EXPECT_FALSE(d.isKernel());
  EXPECT_EQ(d.params[0].annotation, ParamAnnotation::None);
  EXPECT_NE(d.params[1].defaultValue, nullptr);
  EXPECT_TRUE(llvm::isa<ReturnStmt>(*d.body[0]));
}

TEST(Parser, TypeAnnotations) {
  Compilation c("def f(a: i1, b: u64, c: bf16, d: *fp16, e: tl.float32, f: tl.int8,\n"
                "      g: tl.uint16, h: bool, i: tl.constexpr, j: *tl.bfloat16,\n"
                "      k: fp64 , l: constexpr = 64) -> None:\n    pass\n");
  Module *module = c.parse();
  ASSERT_NE(module, nullptr) << c.output();
  std::vector<std::string> types;
  for (const Param &param : module->functions[0]->params)
    types.push_back(param.annotation == ParamAnnotation::Constexpr ? "constexpr"
                                                                   : param.type.str());
  std::vector<std::string> expected = {"i1",   "u64", "bf16", "*fp16",
                                       "fp32", "i8",  "u16",  "i1",
                                       "constexpr", "*bf16", "fp64", "constexpr"};
  EXPECT_EQ(types, expected);
}

TEST(Parser, ImportsAreIgnored) {
  Compilation c("import triton\nimport triton.language as tl, numpy\n"
                "from triton import jit, cdiv\nfrom x.y import (a as b, c,)\n"
                "from m import *\n@jit\ndef k(): pass\n");
  Module *module = c.parse();
  ASSERT_NE(module, nullptr) << c.output();
  EXPECT_EQ(module->functions.size(), 1u);
}

TEST(Parser, Precedence) {
  EXPECT_EQ(exprTree("a + b * c"), "Binary '+'\n  Name a\n  Binary '*'\n    Name b\n"
                                   "    Name c\n");
  EXPECT_EQ(exprTree("-a ** 2"), "Unary '-'\n  Binary '**'\n    Name a\n    Constant 2\n");
  EXPECT_EQ(exprTree("a ** -b"), "Binary '**'\n  Name a\n  Unary '-'\n    Name b\n");
  EXPECT_EQ(exprTree("a - b - c"),
            "Binary '-'\n  Binary '-'\n    Name a\n    Name b\n  Name c\n");
  EXPECT_EQ(exprTree("a < b and not c or d"),
            "Binary 'or'\n  Binary 'and'\n    Binary '<'\n      Name a\n      Name b\n"
            "    Unary 'not'\n      Name c\n  Name d\n");
  EXPECT_EQ(exprTree("a & b | c ^ d"),
            "Binary '|'\n  Binary '&'\n    Name a\n    Name b\n  Binary '^'\n"
            "    Name c\n    Name d\n");
  EXPECT_EQ(exprTree("a << 1 + 2"),
            "Binary '<<'\n  Name a\n  Binary '+'\n    Constant 1\n    Constant 2\n");
  EXPECT_EQ(exprTree("a // b % c @ d"),
            "Binary '@'\n  Binary '%'\n    Binary '//'\n      Name a\n      Name b\n"
            "    Name c\n  Name d\n");
  EXPECT_EQ(exprTree("x is not None"), "Binary 'is not'\n  Name x\n  Constant None\n");
  EXPECT_EQ(exprTree("~x"), "Unary '~'\n  Name x\n");
}

TEST(Parser, ConditionalTupleListAndLiterals) {
  EXPECT_EQ(exprTree("a if c else b"),
            "IfExp\n  cond: Name c\n  then: Name a\n  else: Name b\n");
  EXPECT_EQ(exprTree("(1, 2.5)"), "Tuple\n  Constant 1\n  Constant 2.5\n");
  EXPECT_EQ(exprTree("(1,)"), "Tuple\n  Constant 1\n");
  EXPECT_EQ(exprTree("()"), "Tuple\n");
  EXPECT_EQ(exprTree("[BM, BN]"), "List\n  Name BM\n  Name BN\n");
  EXPECT_EQ(exprTree("1, 2"), "Tuple\n  Constant 1\n  Constant 2\n");
  EXPECT_EQ(exprTree("(a)"), "Name a\n");
  EXPECT_EQ(exprTree("True"), "Constant True\n");
  EXPECT_EQ(exprTree("'a' \"b\""), "Constant 'ab'\n");
  EXPECT_EQ(exprTree("float('-inf')"),
            "Call\n  callee: Name float\n  Constant '-inf'\n");
}

TEST(Parser, CallsAttributesSubscripts) {
  EXPECT_EQ(exprTree("tl.load(p + o, mask=m, other=0.0)"),
            "Call\n  callee: Attribute .load\n    Name tl\n  Binary '+'\n    Name p\n"
            "    Name o\n  mask: Name m\n  other: Constant 0.0\n");
  EXPECT_EQ(exprTree("tl.math.exp2(x)"),
            "Call\n  callee: Attribute .exp2\n    Attribute .math\n      Name tl\n"
            "  Name x\n");
  EXPECT_EQ(exprTree("x.to(tl.float16)"),
            "Call\n  callee: Attribute .to\n    Name x\n  Attribute .float16\n"
            "    Name tl\n");
  EXPECT_EQ(exprTree("x.sum(axis=0)"),
            "Call\n  callee: Attribute .sum\n    Name x\n  axis: Constant 0\n");
  EXPECT_EQ(exprTree("x[:, None]"),
            "Subscript\n  Name x\n  index: Slice\n  index: Constant None\n");
  EXPECT_EQ(exprTree("x[None, :]"),
            "Subscript\n  Name x\n  index: Constant None\n  index: Slice\n");
  EXPECT_EQ(exprTree("x[1:n:2]"),
            "Subscript\n  Name x\n  index: Slice\n    lower: Constant 1\n"
            "    upper: Name n\n    step: Constant 2\n");
  EXPECT_EQ(exprTree("f()(1)"), "Call\n  callee: Call\n    callee: Name f\n  Constant 1\n");
}

TEST(Parser, Statements) {
  Compilation c("def f(a, b):\n"
                "    '''docstring'''\n"
                "    a, b = b, a\n"
                "    a += 1; b //= 2\n"
                "    if a < b:\n        pass\n    elif a:\n        a = 1\n"
                "    else:\n        b = 2\n"
                "    for i in range(0, 10, 2):\n        continue\n"
                "    for i in tl.static_range(4): break\n"
                "    while a > 0:\n        a -= 1\n"
                "    assert a == 0, 'msg'\n"
                "    return a, b\n");
  Module *module = c.parse();
  ASSERT_NE(module, nullptr) << c.output();
  const Block &body = module->functions[0]->body;
  ASSERT_EQ(body.size(), 10u);
  EXPECT_TRUE(llvm::isa<ExprStmt>(*body[0]));
  auto &swap = llvm::cast<AssignStmt>(*body[1]);
  EXPECT_TRUE(llvm::isa<TupleExpr>(swap.getTarget()));
  EXPECT_EQ(llvm::cast<AugAssignStmt>(*body[2]).getOp(), BinaryOp::Add);
  EXPECT_EQ(llvm::cast<AugAssignStmt>(*body[3]).getOp(), BinaryOp::FloorDiv);
  auto &ifStmt = llvm::cast<IfStmt>(*body[4]);
  ASSERT_EQ(ifStmt.getElse().size(), 1u);
  auto &elif = llvm::cast<IfStmt>(*ifStmt.getElse()[0]);
  EXPECT_EQ(elif.getElse().size(), 1u);
  EXPECT_EQ(c.lineCol(elif.getLoc()), "7:5");
  EXPECT_TRUE(llvm::isa<ForStmt>(*body[5]));
  EXPECT_EQ(llvm::cast<ForStmt>(*body[6]).getBody()[0]->getKind(), Stmt::Kind::Break);
  EXPECT_TRUE(llvm::isa<WhileStmt>(*body[7]));
  EXPECT_NE(llvm::cast<AssertStmt>(*body[8]).getMessage(), nullptr);
  EXPECT_TRUE(llvm::isa<TupleExpr>(*llvm::cast<ReturnStmt>(*body[9]).getValue()));
}

TEST(Parser, LocationsOfExpressions) {
  Compilation c("def f():\n    y = tl.load(p + off, mask=m)\n");
  Module *module = c.parse();
  ASSERT_NE(module, nullptr);
  auto &assign = llvm::cast<AssignStmt>(*module->functions[0]->body[0]);
  auto &call = llvm::cast<CallExpr>(assign.getValue());
  EXPECT_EQ(c.lineCol(call.getLoc()), "2:9");
  EXPECT_EQ(c.lineCol(call.getArgs()[0].value->getLoc()), "2:19"); // The '+'.
  EXPECT_EQ(c.lineCol(call.getArgs()[1].loc), "2:26");
  EXPECT_EQ(c.lineCol(call.getArgs()[1].value->getLoc()), "2:31");
}

struct ParseError {
  const char *source;
  const char *message;
};

class ParserErrors : public ::testing::TestWithParam<ParseError> {};

TEST_P(ParserErrors, ReportsFirstErrorOnly) {
  Compilation c(GetParam().source);
  EXPECT_EQ(c.parse(), nullptr);
  EXPECT_EQ(c.numErrors(), 1u);
  EXPECT_EQ(c.firstError(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    All, ParserErrors,
    ::testing::Values(
        ParseError{"@kernel\ndef f(x y): pass\n",
                   "test.tile:2:9: error: expected ',' or ')' after parameter 'x', "
                   "got identifier 'y'"},
        ParseError{"@kernel\ndef f(x: foo): pass\n",
                   "test.tile:2:10: error: unknown type 'foo'; expected a scalar type "
                   "(i32, fp32, ...), a pointer (*fp32, ...) or constexpr"},
        ParseError{"@kernel\ndef f(x, x): pass\n", "test.tile:2:10: error: duplicate parameter 'x'"},
        ParseError{"@kernel\ndef f()\n    pass\n",
                   "test.tile:2:8: error: expected ':' after function signature, got "
                   "end of line"},
        ParseError{"@kernel\ndef f():\npass\n",
                   "test.tile:3:1: error: expected an indented block after function "
                   "definition, got 'pass'"},
        ParseError{"@kernel\ndef f():\n    x = 1\n        y = 2\n",
                   "test.tile:4:1: error: unexpected indent"},
        ParseError{"@kernel\ndef f():\n    if x\n        pass\n",
                   "test.tile:3:9: error: expected ':' after 'if' condition, got end "
                   "of line"},
        ParseError{"@kernel\ndef f():\n    x = (1 +)\n",
                   "test.tile:3:13: error: expected an expression, got ')'"},
        ParseError{"@kernel\ndef f():\n    f(a=1, 2)\n",
                   "test.tile:3:12: error: positional argument follows keyword argument"},
        ParseError{"@kernel\ndef f():\n    f(a=1, a=2)\n",
                   "test.tile:3:12: error: keyword argument 'a' repeated"},
        ParseError{"@kernel\ndef f():\n    a < b < c\n",
                   "test.tile:3:11: error: chained comparisons like 'a < b < c' are "
                   "not supported; write '(a < b) and (b < c)'"},
        ParseError{"@kernel\ndef f():\n    a = b = 1\n",
                   "test.tile:3:11: error: chained assignment ('a = b = c') is not "
                   "supported"},
        ParseError{"@kernel\ndef f():\n    x[0] = 1\n",
                   "test.tile:3:5: error: cannot assign to an element or attribute; "
                   "tiles are values, build a new one instead"},
        ParseError{"@kernel\ndef f():\n    1 = x\n",
                   "test.tile:3:5: error: cannot assign to this expression"},
        ParseError{"@kernel\ndef f():\n    def g(): pass\n",
                   "test.tile:3:5: error: nested functions are not supported; define "
                   "device functions at the top level"},
        ParseError{"@kernel\ndef f():\n    class A: pass\n",
                   "test.tile:3:5: error: 'class' statements are not supported"},
        ParseError{"@kernel\ndef f():\n    else:\n",
                   "test.tile:3:5: error: 'else' without a matching 'if'"},
        ParseError{"@kernel\ndef f():\n    x = lambda a b: 1\n",
                   "test.tile:3:18: error: expected ':' after the parameters of a "
                   "lambda, got identifier 'b'"},
        ParseError{"@kernel\ndef f():\n    x = {1}\n",
                   "test.tile:3:10: error: dict keys must be string literals (as in "
                   "triton.Config({'BLOCK_SIZE': 128})); set literals are not supported"},
        ParseError{"@kernel\ndef f():\n    x = {'a' 1}\n",
                   "test.tile:3:14: error: expected ':' after a dict key, got integer literal 1"},
        ParseError{"@kernel\ndef f():\n    x = a in b\n",
                   "test.tile:3:11: error: the 'in' operator is not supported"},
        ParseError{"@kernel\ndef f():\n    x: i32\n",
                   "test.tile:3:11: error: an annotation without a value ('x: type') "
                   "is not supported; write 'x: type = value'"},
        ParseError{"@kernel\ndef f():\n    x[0]: i32 = 1\n",
                   "test.tile:3:5: error: an annotated assignment needs a single name "
                   "as its target"},
        ParseError{"@kernel\ndef f(*args): pass\n",
                   "test.tile:2:7: error: '*', '**' and '/' parameters are not "
                   "supported"},
        ParseError{"@kernel\ndef f():\n    x = [i for i y]\n",
                   "test.tile:3:18: error: expected 'in' after the target of a "
                   "comprehension, got identifier 'y'"},
        ParseError{"@kernel\ndef f():\n    x = [i for i in y\n",
                   "test.tile:3:9: error: '[' was never closed"},
        ParseError{"@kernel\ndef f():\n    x = 9223372036854775808\n",
                   "test.tile:3:9: error: integer literal 9223372036854775808 is too "
                   "large; the maximum is 2**63 - 1"},
        ParseError{"@kernel\ndef f(): pass\n@kernel\ndef f(): pass\n",
                   "test.tile:4:5: error: redefinition of function 'f'"},
        ParseError{"@kernel\nx = 1\n",
                   "test.tile:2:1: error: expected 'def' after decorator, got "
                   "identifier 'x'"},
        ParseError{"@kernel\ndef f():\n    import os\n",
                   "test.tile:3:5: error: imports are only allowed at the top level"},
        ParseError{"@kernel\ndef f():\n    (a, b) += 1\n",
                   "test.tile:3:5: error: augmented assignment needs a single name as "
                   "its target"}));

TEST(Parser, NestingTooDeep) {
  std::string deep = "@kernel\ndef f():\n    x = " + std::string(300, '(') + "1" +
                     std::string(300, ')') + "\n";
  Compilation c(deep);
  EXPECT_EQ(c.parse(), nullptr);
  EXPECT_NE(c.firstError().find("nesting too deep"), std::string::npos) << c.output();

  std::string unary = "@kernel\ndef f():\n    x = " + std::string(5000, '-') + "1\n";
  Compilation u(unary);
  EXPECT_EQ(u.parse(), nullptr);
  EXPECT_NE(u.firstError().find("nesting too deep (more than 256 levels)"),
            std::string::npos);

  std::string chain = "@kernel\ndef f():\n    x = 1";
  for (int i = 0; i < 5000; ++i)
    chain += " + 1";
  Compilation ch(chain + "\n");
  EXPECT_EQ(ch.parse(), nullptr);
  EXPECT_NE(ch.firstError().find("expression too deeply nested"), std::string::npos);

  std::string blocks = "@kernel\ndef f():\n";
  for (int i = 0; i < 300; ++i)
    blocks += std::string(i + 1, ' ') + "if x:\n";
  blocks += std::string(302, ' ') + "pass\n";
  Compilation b(blocks);
  EXPECT_EQ(b.parse(), nullptr);
  EXPECT_NE(b.firstError().find("nesting too deep"), std::string::npos);
}

TEST(Parser, LexerErrorsStopBeforeParsing) {
  Compilation c("def f():\n    x = 'a\n    y = (\n");
  EXPECT_EQ(c.parse(), nullptr);
  // The unterminated string and the unclosed '('; no parse errors.
  EXPECT_EQ(c.numErrors(), 2u) << c.output();
}

TEST(Parser, HostCodeIsKeptForItsNames) {
  Compilation c("import torch\n"
                "try:\n"
                "    from triton.language.extra.libdevice import tanh\n"
                "except ImportError:\n"
                "    from triton.language.extra.cuda.libdevice import tanh, rsqrt\n"
                "if HAS_X:\n"
                "    X = 2\n"
                "1 + 2\n"
                "x = 1\n"
                "x = 2\n"
                "y += 1\n"
                "class Config:\n"
                "    a: int = 3\n"
                "    def f(self, *args): return f\"{args}\"\n"
                "@torch.compile\n"
                "def compiled(x): return x\n"
                "def host(x, **kw):\n"
                "    with torch.no_grad():\n"
                "        return [y for y in x if y := 1]\n"
                "@triton.jit\n"
                "def k(x_ptr):\n"
                "    pass\n");
  Module *module = c.parse();
  ASSERT_NE(module, nullptr) << c.output();
  EXPECT_EQ(c.numErrors(), 0u);
  // The first branch that binds a name wins.
  EXPECT_EQ(module->tritonAliases["tanh"], "triton.language.extra.libdevice.tanh");
  EXPECT_EQ(module->tritonAliases["rsqrt"], "triton.language.extra.cuda.libdevice.rsqrt");
  std::vector<std::string> names;
  for (const HostCode &code : module->hostCode)
    names.push_back(code.name);
  // Each skipped statement's own name, then every name it may bind.
  EXPECT_EQ(names, (std::vector<std::string>{"X", "", "x", "y", "y", "Config", "Config",
                                             "host", "host"}));
  ASSERT_EQ(module->functions.size(), 2u); // compiled (a host function) and k
  EXPECT_TRUE(module->functions[0]->isHostFunction());
  EXPECT_TRUE(module->functions[1]->isKernel());
}

TEST(Parser, SyntaxErrorsInHostCodeAreReported) {
  Compilation indent("def host():\n    x = 1\n        y = 2\n");
  EXPECT_EQ(indent.parse(), nullptr);
  EXPECT_EQ(indent.firstError(), "test.tile:3:1: error: unexpected indent");
  Compilation repeated("def host():\n    f(a=1, a=2)\n");
  EXPECT_EQ(repeated.parse(), nullptr);
  EXPECT_EQ(repeated.firstError(), "test.tile:2:12: error: keyword argument 'a' repeated");
}
} // namespace
