//===- PrinterTest.cpp - Tests of the --emit=ast dumps ---------------------===//
#include "FrontendTestUtils.h"

using namespace tilec;
using namespace tilec::test;

namespace {
const char *kSmall = "import triton.language as tl\n"
                     "@kernel(num_warps=2)\n"
                     "def k(x_ptr: *fp32, n: i32, B: constexpr = 4):\n"
                     "    '''Doubles the first B elements.'''\n"
                     "    r = tl.arange(0, B)\n"
                     "    tl.store(x_ptr + r, tl.load(x_ptr + r) * 2, mask=r < n)\n";

TEST(Printer, SyntacticModule) {
  Compilation c(kSmall);
  Module *module = c.parse();
  ASSERT_NE(module, nullptr) << c.output();
  std::string text;
  llvm::raw_string_ostream os(text);
  printModule(*module, os);
  EXPECT_EQ(text, R"(Module
  Kernel k
    Decorator @kernel
      num_warps: Constant 2
    Param x_ptr : *fp32
    Param n : i32
    Param B : constexpr
      default: Constant 4
    Body
      ExprStmt
        Constant 'Doubles the first B elements.'
      Assign
        target: Name r
        value: Call
          callee: Attribute .arange
            Name tl
          Constant 0
          Name B
      ExprStmt
        Call
          callee: Attribute .store
            Name tl
          Binary '+'
            Name x_ptr
            Name r
          Binary '*'
            Call
              callee: Attribute .load
                Name tl
              Binary '+'
                Name x_ptr
                Name r
            Constant 2
          mask: Binary '<'
            Name r
            Name n
)");
}

TEST(Printer, TypedKernel) {
  Compilation c(kSmall);
  auto kernels = c.analyze();
  ASSERT_EQ(kernels.size(), 1u) << c.output();
  std::string text;
  llvm::raw_string_ostream os(text);
  printKernel(*kernels[0], os);
  EXPECT_EQ(text, R"(Kernel k (num_warps=2, num_stages=3)
  Param x_ptr : *fp32
  Param n : i32
  Param B : constexpr = 4
  Body
    Assign
      target: Name r : [4] i32
      value: BuiltinCall arange : [4] i32
        start: Constant 0 : constexpr
        end: Constant 4 : constexpr
    ExprStmt
      BuiltinCall store : void
        ptr: Binary '+' : [4] *fp32
          Broadcast : [4] *fp32
            Name x_ptr : *fp32
          Name r : [4] i32
        value: Binary '*' : [4] fp32
          BuiltinCall load : [4] fp32
            ptr: Binary '+' : [4] *fp32
              Broadcast : [4] *fp32
                Name x_ptr : *fp32
              Name r : [4] i32
            mask: Constant None : constexpr
            other: Constant None : constexpr
            boundary_check: Constant () : constexpr
            padding_option: Constant '' : constexpr
            cache_modifier: Constant '' : constexpr
            eviction_policy: Constant '' : constexpr
            volatile: Constant False : constexpr
          Constant 2.0 : [4] fp32
        mask: Binary '<' : [4] i1
          Name r : [4] i32
          Broadcast : [4] i32
            Name n : i32
        boundary_check: Constant () : constexpr
        cache_modifier: Constant '' : constexpr
        eviction_policy: Constant '' : constexpr
)");
}

TEST(Printer, ConstValueFormatting) {
  EXPECT_EQ(ConstValue::getFloat(0.1).str(), "0.1");
  EXPECT_EQ(ConstValue::getFloat(1e-3).str(), "0.001");
  EXPECT_EQ(ConstValue::getFloat(2).str(), "2.0");
  EXPECT_EQ(ConstValue::getFloat(1e20).str(), "1e+20");
  EXPECT_EQ(ConstValue::getFloat(0.7978845608028654).str(), "0.7978845608028654");
  EXPECT_EQ(ConstValue::getTuple({ConstValue::getInt(3)}).str(), "(3,)");
  EXPECT_EQ(ConstValue::getDType(ScalarKind::BF16).str(), "bf16");
  EXPECT_EQ(Type::getTile(ScalarKind::F16, {64, 32}, true).str(), "[64, 32] *fp16");
}
} // namespace
