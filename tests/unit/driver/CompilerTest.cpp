//===- CompilerTest.cpp - libtilec's public API ---------------------------===//
//
// Compiles real kernels through tilec/Compiler.h: PTX and metadata as
// values, diagnostics as values with their locations, stages, IR dumps,
// signatures and @autotune lists, and compilations on several threads.
//
//===----------------------------------------------------------------------===//
#include "tilec/Compiler.h"

#include <gtest/gtest.h>

#include <thread>

namespace {

constexpr const char *kAdd = R"(
@jit
def add(x_ptr: *fp32, y_ptr: *fp32, n: i32, BLOCK: constexpr = 256):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)
)";

TEST(Compiler, CompilesToPtxAndMetadata) {
  tilec::CompileOptions options;
  options.defines = {"BLOCK=512"};
  tilec::CompileResult result = tilec::compileSource(kAdd, "add.tile", options);
  ASSERT_TRUE(result.succeeded()) << result.diagnosticText;
  EXPECT_NE(result.ptx.find(".visible .entry add("), std::string::npos);
  EXPECT_EQ(result.output, result.ptx);
  EXPECT_NE(result.metadata.find("\"BLOCK\": 512"), std::string::npos);
  EXPECT_NE(result.metadata.find("\"source\": \"add.tile\""), std::string::npos);
  EXPECT_EQ(result.kernels, std::vector<std::string>{"add"});
  EXPECT_TRUE(result.diagnostics.empty());
}

TEST(Compiler, DiagnosticsAreValues) {
  tilec::CompileResult result = tilec::compileSource(
      "@jit\ndef k(x: *fp32):\n    tl.store(x, zz)\n", "bad.tile", {});
  ASSERT_FALSE(result.succeeded());
  ASSERT_EQ(result.diagnostics.size(), 1u);
  const tilec::Diagnostic &d = result.diagnostics[0];
  EXPECT_EQ(d.severity, tilec::Diagnostic::Severity::Error);
  EXPECT_EQ(d.file, "bad.tile");
  EXPECT_EQ(d.line, 3u);
  EXPECT_EQ(d.column, 17u);
  EXPECT_EQ(d.message, "unknown name 'zz'");
  EXPECT_NE(result.diagnosticText.find("bad.tile:3:17: error: unknown name 'zz'\n"
                                       "    tl.store(x, zz)\n"),
            std::string::npos);
  EXPECT_TRUE(result.ptx.empty());
}

TEST(Compiler, OptionErrorsAreUnlocated) {
  tilec::CompileOptions options;
  options.arch = "sm_70";
  options.defines = {"=3"};
  tilec::CompileResult result = tilec::compileSource(kAdd, "add.tile", options);
  ASSERT_EQ(result.diagnostics.size(), 2u);
  EXPECT_EQ(result.diagnostics[0].message,
            "unsupported --arch 'sm_70' (expected one of sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a)");
  EXPECT_EQ(result.diagnostics[0].line, 0u);
  EXPECT_EQ(result.diagnostics[1].message, "bad -D '=3': expected NAME=VALUE in -D '=3'");
}

TEST(Compiler, MissingFileIsAnError) {
  tilec::CompileResult result = tilec::compileFile("/nonexistent/k.tile", {});
  ASSERT_FALSE(result.succeeded());
  EXPECT_NE(result.diagnosticText.find("tilec: error: cannot read '/nonexistent/k.tile'"),
            std::string::npos);
}

TEST(Compiler, StopsAfterAStageAndReportsEveryStage) {
  std::vector<tilec::Stage> seen;
  tilec::CompileOptions options;
  options.stopAfter = tilec::Stage::TileGPU;
  options.onStage = [&](tilec::Stage stage, std::string_view text) {
    seen.push_back(stage);
    EXPECT_FALSE(text.empty());
  };
  tilec::CompileResult result = tilec::compileSource(kAdd, "add.tile", options);
  ASSERT_TRUE(result.succeeded()) << result.diagnosticText;
  EXPECT_EQ(seen, (std::vector<tilec::Stage>{tilec::Stage::AST, tilec::Stage::Tile,
                                             tilec::Stage::TileGPU}));
  EXPECT_NE(result.output.find("#tilegpu.blocked"), std::string::npos);
  EXPECT_TRUE(result.ptx.empty());
}

TEST(Compiler, DumpsIRAfterEveryPass) {
  tilec::CompileOptions options;
  options.dumpIRAfterAll = true;
  options.stopAfter = tilec::Stage::TileGPU;
  tilec::CompileResult result = tilec::compileSource(kAdd, "add.tile", options);
  ASSERT_TRUE(result.succeeded()) << result.diagnosticText;
  EXPECT_NE(result.irDump.find("// -----// IR Dump After"), std::string::npos);
}

TEST(Compiler, SignatureTypesUnannotatedParameters) {
  const char *source = "@triton.jit\ndef k(x_ptr, n, B: tl.constexpr):\n"
                       "    o = tl.arange(0, B)\n"
                       "    tl.store(x_ptr + o, o, mask=o < n)\n";
  tilec::CompileOptions options;
  options.signature = {"x_ptr=*i32:none,n=i32:16"};
  options.defines = {"B=64"};
  tilec::CompileResult result = tilec::compileSource(source, "k.tile", options);
  ASSERT_TRUE(result.succeeded()) << result.diagnosticText;
  EXPECT_NE(result.metadata.find("\"align\": 4"), std::string::npos);
  EXPECT_NE(result.metadata.find("\"divisibility\": 16"), std::string::npos);
}

TEST(Compiler, DecoratedHelpersAreDeviceFunctions) {
  // As in Triton's tutorials: a @triton.jit helper called from the kernel is
  // inlined, and only the kernel is an entry point.
  const char *source = "import triton\nimport triton.language as tl\n\n"
                       "@triton.jit\ndef leaky_relu(x):\n"
                       "    return tl.where(x >= 0, x, 0.01 * x)\n\n"
                       "@triton.jit\ndef k(x_ptr, n, B: tl.constexpr):\n"
                       "    o = tl.arange(0, B)\n"
                       "    x = tl.load(x_ptr + o, mask=o < n)\n"
                       "    tl.store(x_ptr + o, leaky_relu(x), mask=o < n)\n";
  tilec::CompileOptions options;
  options.signature = {"x_ptr=*fp32,n=i32"};
  options.defines = {"B=128"};
  tilec::CompileResult result = tilec::compileSource(source, "k.tile", options);
  ASSERT_TRUE(result.succeeded()) << result.diagnosticText;
  EXPECT_EQ(result.kernels, std::vector<std::string>{"k"});
  EXPECT_EQ(result.ptx.find(".entry leaky_relu"), std::string::npos);
  // --kernel may still name the helper (which, returning a value, cannot be one).
  options.kernel = "leaky_relu";
  options.signature = {"x=fp32"};
  options.defines = {};
  result = tilec::compileSource(source, "k.tile", options);
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].message, "a kernel cannot return a value");
}

TEST(Compiler, ElementTypesOfPointersAndTiles) {
  // Triton's tutorial matmul stores `accumulator.to(c_ptr.dtype.element_ty)`.
  const char *source = "@triton.jit\ndef k(c_ptr, B: tl.constexpr):\n"
                       "    o = tl.arange(0, B)\n"
                       "    x = tl.load(c_ptr + o).to(tl.float32)\n"
                       "    y = (x * 2).to(c_ptr.dtype.element_ty)\n"
                       "    tl.store(c_ptr + o, y.to(y.type.element_ty))\n";
  tilec::CompileOptions options;
  options.signature = {"c_ptr=*fp16"};
  options.defines = {"B=64"};
  options.stopAfter = tilec::Stage::AST;
  tilec::CompileResult result = tilec::compileSource(source, "k.tile", options);
  ASSERT_TRUE(result.succeeded()) << result.diagnosticText;
  EXPECT_NE(result.output.find("[64] fp16"), std::string::npos) << result.output;
}

TEST(Compiler, ModuleLevelConstants) {
  const char *source = "import triton\nimport triton.language as tl\n"
                       "BLOCK = tl.constexpr(128)\nSCALE: tl.constexpr = 3 * BLOCK\n"
                       "@triton.jit\ndef k(x_ptr):\n"
                       "    o = tl.arange(0, BLOCK)\n"
                       "    tl.store(x_ptr + o, o * SCALE)\n";
  tilec::CompileOptions options;
  options.signature = {"x_ptr=*i32"};
  options.stopAfter = tilec::Stage::AST;
  tilec::CompileResult result = tilec::compileSource(source, "k.tile", options);
  ASSERT_TRUE(result.succeeded()) << result.diagnosticText;
  EXPECT_NE(result.output.find("384"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("[128] i32"), std::string::npos) << result.output;
}

TEST(Compiler, InspectReadsSignaturesAndAutotune) {
  const char *source = R"(
@triton.autotune(configs=[
    triton.Config({'BLOCK_M': 128, 'BLOCK_N': 64}, num_warps=8, num_stages=3),
    triton.Config({'BLOCK_M': 64, 'BLOCK_N': 2 * 32}, num_warps=4),
], key=['M', 'N'], reset_to_zero=['c_ptr'], rep=50)
@triton.jit
def mm(a_ptr, c_ptr: *fp16, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
       SCALE: tl.constexpr = 1.5):
    pass

@autotune(configs=[config(B=256, num_warps=2)], key=['n'])
@jit
def add(x: *fp32, n: i32, B: constexpr):
    pass

def helper():
    pass
)";
  tilec::SourceSignature sig = tilec::inspectSource(source, "mm.tile");
  ASSERT_TRUE(sig.succeeded()) << sig.diagnosticText;
  ASSERT_EQ(sig.kernels.size(), 2u);
  const tilec::KernelSignature &mm = sig.kernels[0];
  EXPECT_EQ(mm.name, "mm");
  ASSERT_EQ(mm.params.size(), 7u);
  EXPECT_EQ(mm.params[0].type, "");
  EXPECT_EQ(mm.params[1].type, "*fp16");
  EXPECT_TRUE(mm.params[4].isConstexpr);
  EXPECT_EQ(mm.params[6].defaultValue, "1.5");
  ASSERT_EQ(mm.configs.size(), 2u);
  EXPECT_EQ(mm.configs[0].describe(), "BLOCK_M=128, BLOCK_N=64, num_warps=8, num_stages=3");
  EXPECT_EQ(mm.configs[1].defines, (std::vector<std::string>{"BLOCK_M=64", "BLOCK_N=64"}));
  EXPECT_FALSE(mm.configs[1].numStages.has_value());
  EXPECT_EQ(mm.key, (std::vector<std::string>{"M", "N"}));
  EXPECT_EQ(mm.resetToZero, std::vector<std::string>{"c_ptr"});
  EXPECT_EQ(mm.repMs, 50u);
  EXPECT_EQ(sig.kernels[1].configs[0].describe(), "B=256, num_warps=2");
}

TEST(Compiler, InspectReadsConfigComprehensionsAndHeuristicInputs) {
  // Config lists as real Triton code writes them: a module-level
  // comprehension with a filter, a sum of lists, positional configs and key.
  const char *source = R"(
NUM_WARPS = [4, 8]
configs = [
    triton.Config({"BM": bm, "BN": bn}, num_stages=s, num_warps=w)
    for bm in [64, 128]
    for bn in [32, 64]
    for s in [3, 4]
    for w in NUM_WARPS
    if bm * bn <= 4096
]
@triton.autotune(configs + [triton.Config({"BM": 16, "BN": 16}, num_warps=1)], ["n"])
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BM"] == 0,
                    "HAS_B": lambda args: args["b_ptr"] is not None})
@triton.jit
def k(x_ptr, b_ptr, n, BM: tl.constexpr, BN: tl.constexpr, EVEN: tl.constexpr,
      HAS_B: tl.constexpr):
    pass
)";
  tilec::SourceSignature sig = tilec::inspectSource(source, "k.tile");
  ASSERT_TRUE(sig.succeeded()) << sig.diagnosticText;
  const tilec::KernelSignature &k = sig.kernels.at(0);
  // (64, 32), (64, 64), (128, 32) pass the filter, times 2 stages x 2 warps.
  ASSERT_EQ(k.configs.size(), 13u);
  EXPECT_EQ(k.configs[0].describe(), "BM=64, BN=32, num_warps=4, num_stages=3");
  EXPECT_EQ(k.configs[11].describe(), "BM=128, BN=32, num_warps=8, num_stages=4");
  EXPECT_EQ(k.configs[12].describe(), "BM=16, BN=16, num_warps=1");
  EXPECT_EQ(k.key, std::vector<std::string>{"n"});
  // The runtime parameters read (the constexpr BM needs no value).
  EXPECT_EQ(k.heuristicInputs, (std::vector<std::string>{"n", "b_ptr"}));
}

TEST(Compiler, InspectReportsConfigListsItCannotRead) {
  // The JIT needs the list: what a compilation only warns about is an error.
  tilec::SourceSignature sig = tilec::inspectSource(
      "@autotune(configs=list(filter(keep, configs)), key=['n'])\n@jit\n"
      "def k(n: i32, B: constexpr = 4):\n    pass\n",
      "k.tile");
  EXPECT_FALSE(sig.succeeded());
  EXPECT_NE(sig.diagnosticText.find("k.tile:1:19: error: configs must be a list of "
                                    "config(...)"),
            std::string::npos)
      << sig.diagnosticText;
  tilec::CompileOptions options;
  tilec::CompileResult result = tilec::compileSource(
      "@autotune(configs=list(filter(keep, configs)), key=['n'])\n@jit\n"
      "def k(x: *fp32, n: i32, B: constexpr = 4):\n    pass\n",
      "k.tile", options);
  EXPECT_TRUE(result.succeeded()) << result.diagnosticText;
  ASSERT_FALSE(result.diagnostics.empty());
  EXPECT_EQ(result.diagnostics[0].severity, tilec::Diagnostic::Severity::Warning);
}

TEST(Compiler, CompilesOnSeveralThreadsAtOnce) {
  std::vector<tilec::CompileResult> results(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      tilec::CompileOptions options;
      options.defines = {"BLOCK=" + std::to_string(128 << i)};
      results[i] = tilec::compileSource(kAdd, "add.tile", options);
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(results[i].succeeded()) << results[i].diagnosticText;
    EXPECT_NE(results[i].metadata.find("\"BLOCK\": " + std::to_string(128 << i)),
              std::string::npos);
  }
}

} // namespace
