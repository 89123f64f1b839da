//===- Compiler.h - libtilec: the compiler as a library ---------*- C++ -*-===//
//
// The public interface of the tile-language compiler: compile a .tile source
// (a string or a file) to PTX and the metadata JSON the runtime loads beside
// it, with every option the tilec command line has, and diagnostics returned
// as values. It also reads a source's kernels (their parameters and
// @autotune lists) without compiling them, which is what a JIT needs.
//
// This header includes only the standard library. The functions are
// thread-safe: every call builds its own MLIR and LLVM contexts.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_H
#define TILEC_COMPILER_H

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilec {

/// The stages of a compilation, in order.
enum class Stage {
  AST,      ///< The typed AST of each kernel.
  Tile,     ///< The tile dialect.
  TileGPU,  ///< The tilegpu dialect (layouts).
  LLVMMLIR, ///< The LLVM and NVVM dialects.
  LLVMIR,   ///< LLVM IR, optimized.
  PTX,      ///< PTX.
};

/// The name tilec --emit uses for `stage`: "ast", "tile", "tilegpu",
/// "llvm-mlir", "llvm" or "ptx".
const char *stageName(Stage stage);

/// One message of a compilation.
struct Diagnostic {
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  std::string file;     ///< The source name; empty when unlocated.
  unsigned line = 0;    ///< 1-based; 0 when unlocated.
  unsigned column = 0;  ///< 1-based; 0 when unlocated.
  std::string message;  ///< Without the location prefix.
};

/// What to compile and how; every field has the tilec flag of the same name.
struct CompileOptions {
  /// --arch: sm_80, sm_90 or sm_90a.
  std::string arch = "sm_90";
  /// --kernel: compile only this kernel; empty compiles every kernel.
  std::string kernel;
  /// -D: "NAME=VALUE" constexpr values.
  std::vector<std::string> defines;
  /// --signature: "NAME=TYPE[:16|:1|:none]" types of unannotated parameters.
  std::vector<std::string> signature;
  /// --specialize: "NAME=16", "NAME=1" or "NAME=none".
  std::vector<std::string> specializations;
  /// "NAME=VALUE": values of runtime scalar arguments that
  /// @triton.heuristics read (the JIT passes each launch's; see
  /// KernelSignature::heuristicInputs).
  std::vector<std::string> argumentValues;
  /// --num-warps / --num-stages: override the decorator's.
  std::optional<unsigned> numWarps, numStages;
  /// --autotune-config: which configuration of a kernel's @autotune list
  /// gives the tuned constexprs that -D leaves out (and its num_warps and
  /// num_stages). Unset, such a constexpr is an error (the JIT passes every
  /// value itself).
  std::optional<unsigned> autotuneConfig;
  /// --fp-fusion.
  bool fpFusion = true;
  /// --tma-stores: a descriptor's or block pointer's store of a 2-D 16-bit
  /// tile goes through shared memory and the tensor memory accelerator
  /// (sm_90; tilegpu-tma-store). On by default; false stores from
  /// registers (docs/architecture.md).
  bool tmaStores = true;
  /// -I: directories `from helpers import f` searches after the source's own.
  std::vector<std::string> includePaths;
  /// LLVM's optimization level (tilec -O0 .. -O3), 3 by default.
  unsigned optLevel = 3;
  /// `.loc` lines in the PTX (tilec -lineinfo, the default; -g0 drops them).
  bool lineInfo = true;
  /// --libdevice: empty searches the usual places.
  std::string libdevicePath;
  /// Stop after this stage; CompileResult::output holds its text.
  Stage stopAfter = Stage::PTX;
  /// Called with the text of every stage reached (--dump-stages); may be
  /// empty. Printing a stage costs time, so leave it empty when not needed.
  std::function<void(Stage, std::string_view)> onStage;
  /// --dump-ir-after-all: the IR after every MLIR pass goes into
  /// CompileResult::irDump.
  bool dumpIRAfterAll = false;
  /// --emit=cubin: assembles the PTX into a cubin (tilec runs ptxas), which
  /// goes into CompileResult::cubin while the metadata records its hash
  /// ("cubin_hash"). Returns the cubin, or nothing with `error` set, which
  /// fails the compilation. Empty: no cubin.
  std::function<std::optional<std::string>(std::string_view ptx, std::string &error)>
      assemble;
};

/// The outcome of one compilation.
struct CompileResult {
  /// Errors, warnings and notes, in the order they were reported.
  std::vector<Diagnostic> diagnostics;
  /// The diagnostics as tilec prints them: "file:line:col: error: message",
  /// then the source line and a caret under the column.
  std::string diagnosticText;
  /// The text of CompileOptions::stopAfter (the PTX by default).
  std::string output;
  /// The PTX and its metadata JSON (when stopAfter is Stage::PTX).
  std::string ptx, metadata;
  /// The cubin CompileOptions::assemble made of the PTX.
  std::string cubin;
  /// The IR after every pass (CompileOptions::dumpIRAfterAll).
  std::string irDump;
  /// The kernels compiled, in source order.
  std::vector<std::string> kernels;
  /// The files the compilation read (compileFile's source first), for a
  /// build system's depfile (tilec -MD).
  std::vector<std::string> dependencies;
  /// The files imports looked for and did not find before the ones they read
  /// (the JIT's cache is stale when one of them appears).
  std::vector<std::string> importMisses;
  /// Compiled without errors.
  bool succeeded() const;
};

/// Compiles `source`; `sourceName` is the file name diagnostics and the
/// metadata carry. Never throws and never prints.
CompileResult compileSource(std::string_view source, std::string_view sourceName,
                            const CompileOptions &options);

/// Reads the file `path` (at most 16 MiB) and compiles it.
CompileResult compileFile(const std::string &path, const CompileOptions &options);

/// A C++ header that launches `result`'s kernels with no file at run time:
/// the PTX and metadata embedded, and per kernel a class whose call
/// operator takes the runtime parameters with their C++ types
/// (tile::TypedPtr<float> for *fp32, std::int32_t for i32, ...). It lives
/// in namespace `cppNamespace` (e.g. "tilec_kernels::matmul"). `result`
/// must hold PTX (stopAfter == Stage::PTX).
std::string emitLauncherHeader(const CompileResult &result,
                               std::string_view cppNamespace);

/// One parameter of a kernel, as written.
struct ParamSignature {
  std::string name;
  bool isConstexpr = false;
  /// The annotated type ("*fp32", "i32"); empty when unannotated.
  std::string type;
  /// A constexpr parameter's default, as source text; empty when none.
  std::string defaultValue;
};

/// One configuration of an @autotune list.
struct AutotuneConfig {
  /// Constexpr values as "NAME=VALUE" (CompileOptions::defines' form).
  std::vector<std::string> defines;
  std::optional<unsigned> numWarps, numStages;
  /// "BLOCK_M=128, BLOCK_N=64, num_warps=8", for progress lines.
  std::string describe() const;
};

/// A kernel of a source, read without compiling it.
struct KernelSignature {
  std::string name;
  std::vector<ParamSignature> params; ///< In source order.
  /// The @autotune configurations; empty without the decorator.
  std::vector<AutotuneConfig> configs;
  /// @autotune's key, reset_to_zero and restore_value parameter names.
  std::vector<std::string> key, resetToZero, restoreValue;
  /// @autotune's warmup and rep, in milliseconds.
  unsigned warmupMs = 25, repMs = 100;
  /// The runtime parameters whose values @triton.heuristics read: a
  /// compilation needs them in CompileOptions::argumentValues.
  std::vector<std::string> heuristicInputs;
};

/// The kernels of a source.
struct SourceSignature {
  std::vector<KernelSignature> kernels;
  std::vector<Diagnostic> diagnostics;
  std::string diagnosticText;
  bool succeeded() const;
};

/// Parses `source` and reads its kernels' signatures and @autotune lists.
SourceSignature inspectSource(std::string_view source, std::string_view sourceName);

/// For command-line tools: registers MLIR's --mlir-* options (pass timing,
/// IR printing, threading) with llvm::cl; every later compilation applies
/// them. Call before llvm::cl::ParseCommandLineOptions.
void registerCommandLineOptions();

/// tilec's version, e.g. "0.9.0".
std::string version();

/// The LLVM version tilec was built with, e.g. "22.1.8".
std::string llvmVersion();

/// True when `arch` is a target tilec compiles for.
bool isSupportedArch(std::string_view arch);

/// The supported targets, for messages: "sm_80, sm_86, ..., sm_90a".
std::string supportedArchList();

/// 64-bit FNV-1a of `text` as 16 lowercase hex digits (the metadata's
/// source and PTX hashes, and the JIT cache's keys).
std::string fnv1a64(std::string_view text);

} // namespace tilec

#endif // TILEC_COMPILER_H
