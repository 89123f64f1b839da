//===- FrontendTestUtils.h - Helpers shared by the frontend tests -*- C++ -*-===//
//
// A Compilation owns a SourceMgr holding one in-memory file ("test.tile"), a
// DiagnosticEngine writing into a string, and runs the lexer, parser and
// Sema on demand.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TESTS_FRONTEND_TESTUTILS_H
#define TILEC_TESTS_FRONTEND_TESTUTILS_H

#include "tilec/Frontend/ASTPrinter.h"
#include "tilec/Frontend/Lexer.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/Sema.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

namespace tilec::test {

/// The two seed kernels of the first milestone.
inline const char *kSeedKernels = R"(import triton.language as tl
@kernel
def add_kernel(x_ptr: *fp32, y_ptr: *fp32, out_ptr: *fp32, n_elements: i32, BLOCK_SIZE: constexpr = 1024):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)

@kernel
def gelu_kernel(x_ptr: *fp32, out_ptr: *fp32, n_elements: i32, BLOCK_SIZE: constexpr = 1024):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0
    tl.store(out_ptr + offs, 0.5 * x * (1.0 + t), mask=mask)
)";

/// One source file and its diagnostics.
class Compilation {
public:
  explicit Compilation(llvm::StringRef source, llvm::StringRef name = "test.tile")
      : diag(srcMgr, diagStream) {
    bufferId = srcMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, name), llvm::SMLoc());
  }

  std::vector<Token> lexTokens() { return lex(bufferId, diag); }
  /// Parses; the module stays owned here.
  Module *parse() {
    module = parseFile(bufferId, diag);
    return module.get();
  }
  /// Parses and analyzes; returns the kernels (empty on error).
  std::vector<std::unique_ptr<KernelInstance>> analyze(const SemaOptions &options = {}) {
    if (!parse())
      return {};
    return tilec::analyze(*module, options, diag);
  }
  /// The first line of the diagnostics ("test.tile:3:5: error: ...").
  std::string firstError() const {
    return diagText.substr(0, diagText.find('\n'));
  }
  /// "line:col" of a location.
  std::string lineCol(SourceLoc loc) const {
    LineColumn lc = diag.resolve(loc);
    return std::to_string(lc.line) + ":" + std::to_string(lc.column);
  }
  unsigned numErrors() const { return diag.getNumErrors(); }
  const std::string &output() const { return diagText; }

  llvm::SourceMgr srcMgr;
  std::string diagText;
  llvm::raw_string_ostream diagStream{diagText};
  DiagnosticEngine diag;
  unsigned bufferId = 0;
  std::unique_ptr<Module> module;
};

/// Wraps statements in a kernel with common parameters; the body starts on
/// line 3 and each body line is indented by 4 spaces.
inline std::string kernelWith(llvm::StringRef body,
                              llvm::StringRef params =
                                  "x_ptr: *fp32, y_ptr: *fp32, n: i32, "
                                  "BLOCK: constexpr = 128") {
  std::string text = "@kernel\ndef k(" + params.str() + "):\n";
  llvm::SmallVector<llvm::StringRef> lines;
  body.split(lines, '\n');
  for (llvm::StringRef line : lines)
    text += "    " + line.str() + "\n";
  return text;
}

/// Finds the AssignStmt defining `name` in a typed body, or null.
inline const AssignStmt *findAssign(const KernelInstance &kernel, llvm::StringRef name) {
  for (const StmtPtr &stmt : kernel.body)
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get()))
      if (llvm::cast<NameExpr>(assign->getTarget()).getName() == name)
        return assign;
  return nullptr;
}

/// The type (as text) of the value assigned to `name`; "<none>" if absent.
inline std::string typeOf(const KernelInstance &kernel, llvm::StringRef name) {
  const AssignStmt *assign = findAssign(kernel, name);
  return assign ? assign->getValue().getType().str() : "<none>";
}

} // namespace tilec::test

#endif // TILEC_TESTS_FRONTEND_TESTUTILS_H
