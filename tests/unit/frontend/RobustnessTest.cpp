//===- RobustnessTest.cpp - No input crashes or hangs the frontend ---------===//
//
// Feeds truncated and mutated seed kernels and random bytes through the
// lexer, parser and Sema. Every run must finish; invalid inputs must report
// at least one error; valid results must be fully typed.
//
//===----------------------------------------------------------------------===//
#include "FrontendTestUtils.h"

#include <random>

using namespace tilec;
using namespace tilec::test;

namespace {
/// Checks that every expression of a typed body has a type (no Void except
/// builtin calls used as statements).
void checkTyped(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::Binary:
    checkTyped(llvm::cast<BinaryExpr>(expr).getLHS());
    checkTyped(llvm::cast<BinaryExpr>(expr).getRHS());
    break;
  case Expr::Kind::Unary:
    checkTyped(llvm::cast<UnaryExpr>(expr).getOperand());
    break;
  case Expr::Kind::Convert:
    checkTyped(llvm::cast<ConvertExpr>(expr).getOperand());
    break;
  case Expr::Kind::Broadcast:
    checkTyped(llvm::cast<BroadcastExpr>(expr).getOperand());
    break;
  case Expr::Kind::BuiltinCall:
    for (const ExprPtr &arg : llvm::cast<BuiltinCallExpr>(expr).getArgs())
      checkTyped(*arg);
    return;
  case Expr::Kind::Constant:
    break;
  case Expr::Kind::Name:
    EXPECT_NE(llvm::cast<NameExpr>(expr).getVariable(), nullptr);
    break;
  default:
    ADD_FAILURE() << "syntactic node in a typed tree";
    return;
  }
  EXPECT_FALSE(expr.getType().isVoid());
}

/// Checks every statement of a typed block, nested blocks included.
void checkTyped(const Block &block) {
  for (const StmtPtr &stmt : block) {
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get())) {
      checkTyped(assign->getValue());
    } else if (auto *exprStmt = llvm::dyn_cast<ExprStmt>(stmt.get())) {
      checkTyped(exprStmt->getExpr());
    } else if (auto *loop = llvm::dyn_cast<RangeForStmt>(stmt.get())) {
      checkTyped(loop->getStart());
      checkTyped(loop->getEnd());
      checkTyped(loop->getStep());
      checkTyped(loop->getBody());
    } else if (auto *loop = llvm::dyn_cast<RuntimeWhileStmt>(stmt.get())) {
      checkTyped(loop->getCondBlock());
      checkTyped(loop->getCond());
      checkTyped(loop->getBody());
    } else if (auto *ifStmt = llvm::dyn_cast<RuntimeIfStmt>(stmt.get())) {
      checkTyped(ifStmt->getCond());
      checkTyped(ifStmt->getThen());
      checkTyped(ifStmt->getElse());
    } else {
      ADD_FAILURE() << "syntactic statement in a typed body";
    }
  }
}

/// Runs the whole frontend on `source`; returns whether it succeeded.
bool runFrontend(const std::string &source) {
  Compilation c(source);
  auto kernels = c.analyze();
  if (kernels.empty()) {
    EXPECT_GT(c.numErrors(), 0u) << "failure without an error for:\n" << source;
    return false;
  }
  EXPECT_EQ(c.numErrors(), 0u);
  for (const auto &kernel : kernels) {
    checkTyped(kernel->body);
    std::string dump;
    llvm::raw_string_ostream os(dump);
    printKernel(*kernel, os);
    EXPECT_FALSE(dump.empty());
  }
  return true;
}

TEST(Robustness, SeedKernelsAreValid) { EXPECT_TRUE(runFrontend(kSeedKernels)); }

TEST(Robustness, EveryTruncation) {
  std::string seed = kSeedKernels;
  unsigned succeeded = 0;
  for (size_t length = 0; length < seed.size(); ++length)
    succeeded += runFrontend(seed.substr(0, length));
  // Cutting at a line end of the first kernel leaves valid files; most cuts do not.
  EXPECT_GT(succeeded, 0u);
  EXPECT_LT(succeeded, seed.size() / 4);
}

TEST(Robustness, SingleCharacterMutations) {
  std::string seed = kSeedKernels;
  std::mt19937 rng(1234);
  const std::string alphabet = "()[]{}:,.=+-*/%<>!@#'\"\\\t\n\r 0123456789aZ_$?\x01\xff";
  for (int i = 0; i < 3000; ++i) {
    std::string mutated = seed;
    size_t pos = rng() % mutated.size();
    switch (rng() % 3) {
    case 0:
      mutated[pos] = alphabet[rng() % alphabet.size()];
      break;
    case 1:
      mutated.insert(pos, 1, alphabet[rng() % alphabet.size()]);
      break;
    default:
      mutated.erase(pos, 1 + rng() % 8);
      break;
    }
    runFrontend(mutated);
  }
}

TEST(Robustness, LineShuffles) {
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(kSeedKernels).split(lines, '\n');
  std::mt19937 rng(99);
  for (int i = 0; i < 500; ++i) {
    std::string text;
    for (size_t j = 0; j < lines.size(); ++j) {
      llvm::StringRef line = lines[rng() % lines.size()];
      text += (rng() % 4 == 0 ? "  " : "") + line.str() + "\n";
    }
    runFrontend(text);
  }
}

TEST(Robustness, RandomBytes) {
  std::mt19937 rng(42);
  for (int i = 0; i < 2000; ++i) {
    std::string bytes(rng() % 200, '\0');
    for (char &c : bytes)
      c = static_cast<char>(rng() % 256);
    EXPECT_FALSE(runFrontend(bytes));
  }
  // Random printable Python-ish tokens.
  const char *pieces[] = {"def ", "@kernel\n", "(", ")", ":", "\n", "    ", "x", " = ",
                          "tl.load", "tl.arange(0, 8)", "+", "*", ",", "[", "]",
                          "None", "1.5", "'s'", "if ", "else", "for ", " in ",
                          "return", "mask=", "x_ptr: *fp32", "B: constexpr = 4"};
  for (int i = 0; i < 2000; ++i) {
    std::string text;
    for (int j = rng() % 40; j > 0; --j)
      text += pieces[rng() % std::size(pieces)];
    runFrontend(text);
  }
}

/// A kernel with control flow and device functions, to mutate.
const char *kControlFlowSeed = R"(import triton.language as tl

def combine(a, b, SCALE: constexpr = 2):
    c = a * SCALE
    if SCALE > 1:
        return c + b, c
    return c, b

@kernel
def k(x_ptr: *fp32, n: i32, BLOCK: constexpr = 64):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    s = 0
    for i in range(0, n, BLOCK):
        x = tl.load(x_ptr + i + offs, mask=i + offs < n)
        acc, t = combine(acc, x)
        s += 1
    while s < n:
        s = s * 2 + 1
    if s > 3:
        acc = acc + 1.0
    elif s > 1:
        acc = acc * 2.0
    else:
        s = 0
    y = 1.0 if s > 2 else 2.0
    for j in range(10, 0, -2):
        for q in tl.static_range(2):
            acc += j * q
    tl.store(x_ptr + offs, acc + y)
)";

TEST(Robustness, ControlFlowSeedIsValid) { EXPECT_TRUE(runFrontend(kControlFlowSeed)); }

TEST(Robustness, ControlFlowMutations) {
  std::string seed = kControlFlowSeed;
  for (size_t length = 0; length < seed.size(); length += 7)
    runFrontend(seed.substr(0, length));
  std::mt19937 rng(777);
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(kControlFlowSeed).split(lines, '\n');
  for (int i = 0; i < 1500; ++i) {
    std::string text;
    for (size_t j = 0; j < lines.size(); ++j) {
      llvm::StringRef line = lines[rng() % 3 == 0 ? rng() % lines.size() : j];
      text += (rng() % 8 == 0 ? "    " : "") + line.str() + "\n";
    }
    runFrontend(text);
  }
}

TEST(Robustness, DeepBlocksAndCalls) {
  // Deeply nested runtime ifs: an error, not a stack overflow.
  std::string ifs = "@kernel\ndef k(x_ptr: *fp32, n: i32):\n    s = 0\n";
  for (int i = 0; i < 300; ++i)
    ifs += std::string(4 * (i + 1), ' ') + "if n > " + std::to_string(i) + ":\n";
  ifs += std::string(4 * 301, ' ') + "s = 1\n    tl.store(x_ptr, s * 1.0)\n";
  EXPECT_FALSE(runFrontend(ifs));
  // Self and mutual recursion, and a long chain of calls.
  EXPECT_FALSE(runFrontend("def f(x):\n    return f(x)\n@kernel\ndef k(p: *fp32):\n"
                           "    tl.store(p, f(1.0))\n"));
  std::string chain;
  for (int i = 0; i < 200; ++i)
    chain += "def f" + std::to_string(i) + "(x):\n    return f" + std::to_string(i + 1) +
             "(x) + f" + std::to_string(i + 1) + "(x)\n";
  chain += "def f200(x):\n    return x\n@kernel\ndef k(p: *fp32):\n"
           "    tl.store(p, f0(1.0))\n";
  EXPECT_FALSE(runFrontend(chain));
  // Exponentially many inlined copies, or nested unrolling: bounded work.
  std::string wide;
  for (int i = 0; i < 40; ++i)
    wide += "def g" + std::to_string(i) + "(x):\n    y = g" + std::to_string(i + 1) +
            "(x)\n    return y + g" + std::to_string(i + 1) + "(x)\n";
  wide += "def g40(x):\n    return x\n@kernel\ndef k(p: *fp32):\n"
          "    tl.store(p, g0(1.0))\n";
  EXPECT_FALSE(runFrontend(wide));
  EXPECT_FALSE(runFrontend("@kernel\ndef k(p: *fp32):\n    s = 0.0\n"
                           "    for i in tl.static_range(4000):\n"
                           "        for j in tl.static_range(4000):\n"
                           "            s += 1.0\n    tl.store(p, s)\n"));
}

TEST(Robustness, PathologicalNesting) {
  for (const std::string &deep :
       {std::string(100000, '('), std::string(100000, '['),
        "def f():\n    x = " + std::string(100000, '-') + "1\n",
        "def f():\n    x = " + std::string(100000, '~') + "1\n",
        "def f():\n    x = a" + std::string(50000, '.') + "\n",
        "def f():\n    x = not " + std::string(0, ' ') + [] {
          std::string s;
          for (int i = 0; i < 50000; ++i)
            s += "not ";
          return s;
        }() + "x\n",
        "def f():\n    x = a" + [] {
          std::string s;
          for (int i = 0; i < 50000; ++i)
            s += "[0]";
          return s;
        }() + "\n",
        "def f():\n    x = a" + [] {
          std::string s;
          for (int i = 0; i < 50000; ++i)
            s += "()";
          return s;
        }() + "\n",
        "def f():\n    x = 1 if a else " + [] {
          std::string s;
          for (int i = 0; i < 50000; ++i)
            s += "1 if a else ";
          return s;
        }() + "1\n",
        "def f():\n    x = 2 ** " + [] {
          std::string s;
          for (int i = 0; i < 50000; ++i)
            s += "2 ** ";
          return s;
        }() + "2\n"}) {
    EXPECT_FALSE(runFrontend(deep));
  }
}
} // namespace
