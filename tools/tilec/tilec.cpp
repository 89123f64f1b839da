//===- tilec.cpp - The tile-language compiler driver ----------------------===//
//
// The command line of libtilec (tilec/Compiler.h): reads the options,
// compiles, prints the stage asked for (--emit) or saves every stage
// (--dump-stages), and writes the PTX (or the cubin ptxas makes of it) with
// its metadata JSON beside it.
//
//===----------------------------------------------------------------------===//

#include "OutputFiles.h"
#include "Ptxas.h"

#include "tilec/Compiler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <unistd.h>

using namespace llvm;

namespace {

using tilec::Stage;

/// What --emit writes: a stage, or the launcher header.
enum class Emit { AST, Tile, TileGPU, LLVMMLIR, LLVMIR, PTX, Header, Cubin };

cl::OptionCategory category("tilec options");

cl::opt<std::string> inputPath(cl::Positional,
                               cl::desc("<input .tile or .py file, or - for stdin>"),
                               cl::Required, cl::cat(category));
cl::opt<std::string> outputPath("o",
                                cl::desc("Output file (default: the "
                                         "input's name with .ptx, or "
                                         "stdout for --emit other than ptx)"),
                                cl::value_desc("path"), cl::cat(category));
cl::opt<std::string> arch("arch",
                          cl::desc("Target GPU: sm_80, sm_86, sm_87, sm_89, sm_90 or "
                                   "sm_90a (wgmma); default sm_90"),
                          cl::init("sm_90"), cl::cat(category));
cl::opt<bool> fpFusion(
    "fp-fusion",
    cl::desc("Contract a multiply and an add into one fma, as Triton's "
             "enable_fp_fusion does (default on; --fp-fusion=false keeps "
             "them apart)"),
    cl::init(true), cl::cat(category));
cl::opt<bool> tmaStores(
    "tma-stores",
    cl::desc("Store 2-D 16-bit blocks of tensor descriptors and block pointers "
             "through shared memory and the tensor memory accelerator (sm_90; "
             "default on; --tma-stores=false stores them from registers)"),
    cl::init(true), cl::cat(category));
cl::opt<std::string> libdevice(
    "libdevice",
    cl::desc("NVIDIA's libdevice.10.bc, linked when a kernel uses sin, cos, "
             "tanh, erf, log or f64 math (default: $TILEC_LIBDEVICE, "
             "$CUDA_HOME/nvvm/libdevice, /usr/local/cuda/nvvm/libdevice)"),
    cl::value_desc("path"), cl::cat(category));
cl::opt<Emit> emit(
    "emit", cl::desc("The stage to output"), cl::init(Emit::PTX),
    cl::values(clEnumValN(Emit::AST, "ast", "typed AST of each kernel"),
               clEnumValN(Emit::Tile, "tile", "tile dialect"),
               clEnumValN(Emit::TileGPU, "tilegpu", "tilegpu dialect (layouts)"),
               clEnumValN(Emit::LLVMMLIR, "llvm-mlir", "LLVM + NVVM dialects"),
               clEnumValN(Emit::LLVMIR, "llvm", "LLVM IR (optimized)"),
               clEnumValN(Emit::PTX, "ptx", "PTX and its metadata JSON"),
               clEnumValN(Emit::Header, "header",
                          "a C++ header with the PTX embedded and a typed "
                          "launcher per kernel (default -o: the input's name "
                          "with .h)"),
               clEnumValN(Emit::Cubin, "cubin",
                          "the cubin NVIDIA's ptxas assembles from the PTX, "
                          "and its metadata JSON (default -o: the input's "
                          "name with .cubin)")),
    cl::cat(category));
cl::opt<bool> cubin("cubin", cl::desc("The same as --emit=cubin"),
                    cl::cat(category));
cl::opt<std::string> headerNamespace(
    "namespace",
    cl::desc("The C++ namespace of --emit=header (default: "
             "tilec_kernels::<the input's stem>)"),
    cl::value_desc("name"), cl::cat(category));
cl::list<std::string>
    defines("D", cl::Prefix,
            cl::desc("Set a constexpr parameter: -D NAME=VALUE"),
            cl::value_desc("NAME=VALUE"), cl::cat(category));
cl::list<std::string> includePaths(
    "I", cl::Prefix,
    cl::desc("A directory `from helpers import f` searches for helpers.tile or "
             "helpers.py, after the source's own directory"),
    cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string>
    kernelName("kernel", cl::desc("Compile only this kernel of the file"),
               cl::cat(category));
cl::opt<unsigned> numWarps("num-warps",
                           cl::desc("Warps per program (overrides @kernel)"),
                           cl::cat(category));
cl::opt<unsigned> numStages(
    "num-stages",
    cl::desc("Iterations of a loop's tl.dot operand loads in flight at once, "
             "as shared-memory slots filled by cp.async (overrides @kernel; "
             "1 turns software pipelining off)"),
    cl::cat(category));
cl::opt<unsigned> autotuneConfig(
    "autotune-config",
    cl::desc("Which configuration of a kernel's @autotune list (from 0) gives "
             "the tuned constexprs and launch options that -D and "
             "--num-warps/--num-stages leave out (default 0)"),
    cl::init(0), cl::value_desc("N"), cl::cat(category));
cl::list<std::string> signature(
    "signature",
    cl::desc("Types of unannotated kernel parameters, as Triton's AOT "
             "compiler takes them: NAME=TYPE[:16|:1|:none],... (e.g. "
             "\"x_ptr=*fp16:16, n=i32:16\"); a host tensor descriptor is "
             "NAME=tensordesc<fp16[64, 64]>[:16]"),
    cl::value_desc("NAME=TYPE,..."), cl::cat(category));
cl::list<std::string> specialize(
    "specialize",
    cl::desc(
        "Specialize parameters as Triton does: NAME=16 assumes an integer "
        "divisible by 16, NAME=1 equal to 1; NAME=none assumes nothing (a "
        "pointer then only its element's alignment, instead of 16 bytes); "
        "comma-separated; the runtime refuses arguments that break it"),
    cl::value_desc("NAME=16|1|none,..."), cl::cat(category));
cl::opt<bool>
    report("report",
           cl::desc("Assemble the PTX with ptxas -v and print each kernel's "
                    "registers, spills, stack and barriers to stderr"),
           cl::cat(category));
cl::opt<unsigned> optLevel(
    "O", cl::Prefix,
    cl::desc("LLVM's optimization level: -O0, -O1, -O2 or -O3 (the default)"),
    cl::init(3), cl::cat(category));
cl::opt<bool> lineInfo(
    "lineinfo",
    cl::desc("Put .loc lines into the PTX, so that profilers and compute-sanitizer "
             "name .tile lines (default on; -g0 or -lineinfo=false drops them)"),
    cl::init(true), cl::cat(category));
cl::opt<bool> noLineInfo("g0", cl::desc("No .loc lines in the PTX"), cl::cat(category));
cl::opt<bool> warningsAsErrors("Werror", cl::desc("Treat warnings as errors"),
                               cl::cat(category));
cl::opt<bool> writeDepfile(
    "MD",
    cl::desc("Write a depfile for make and ninja: the output depends on the "
             "source and every file it imports"),
    cl::cat(category));
cl::opt<std::string> depfilePath(
    "MF", cl::desc("The depfile -MD writes (default: the output with .d)"),
    cl::value_desc("path"), cl::cat(category));
cl::opt<std::string> depfileTarget(
    "MT", cl::desc("The target the depfile names (default: the output)"),
    cl::value_desc("target"), cl::cat(category));
cl::opt<bool> dumpAfterAll("dump-ir-after-all",
                           cl::desc("Print the IR after every pass to stderr"),
                           cl::cat(category));
cl::opt<std::string> dumpStages(
    "dump-stages",
    cl::desc("Save every stage (ast, tile, tilegpu, llvm-mlir, llvm, ptx) "
             "into this directory"),
    cl::value_desc("dir"), cl::cat(category));

/// Writes `files` as one group (OutputFiles.h); reports failure.
bool writeFiles(ArrayRef<tilec::OutputFile> files) {
  std::string error;
  if (tilec::writeOutputFiles(files, error))
    return true;
  errs() << "tilec: error: " << error << "\n";
  return false;
}

/// The suffix of a stage's file under --dump-stages.
StringRef stageSuffix(Stage stage) {
  switch (stage) {
  case Stage::AST:
    return ".ast.txt";
  case Stage::Tile:
    return ".tile.mlir";
  case Stage::TileGPU:
    return ".tilegpu.mlir";
  case Stage::LLVMMLIR:
    return ".llvm.mlir";
  case Stage::LLVMIR:
    return ".ll";
  case Stage::PTX:
    return ".ptx";
  }
  return "";
}

/// Saves `text`, the output of `stage`, under --dump-stages.
bool saveStage(Stage stage, std::string_view text) {
  SmallString<256> path(dumpStages);
  sys::path::append(path, sys::path::stem(inputPath) + stageSuffix(stage));
  if (!writeFiles({{std::string(path), std::string(text)}}))
    return false;
  errs() << "tilec: " << stageSuffix(stage).drop_front() << " -> " << path << "\n";
  return true;
}

/// What the fatal-error handler names: the file being compiled.
std::string compilingWhat;

/// LLVM's fatal errors (a backend that cannot select an instruction, an
/// output stream that fails) end tilec with a message naming the file,
/// not an abort with a stack dump.
void reportFatalError(void *, const char *reason, bool) {
  errs() << "tilec: error: LLVM failed while compiling " << compilingWhat
         << ": " << reason << "\n"
         << "tilec: note: this is a bug in tilec, not in the kernel; please "
            "report "
            "it with the .tile file and the command line\n";
  errs().flush();
  ::_exit(1);
}

/// --report: ptxas's view of each kernel, on stderr. False after an error.
bool printPtxasReport(StringRef ptx) {
  std::string ptxas = tilec::findPtxas();
  if (ptxas.empty()) {
    errs() << "tilec: error: --report needs NVIDIA's ptxas (the CUDA toolkit): "
              "set "
              "TILEC_PTXAS or CUDA_HOME, or put ptxas on PATH\n";
    return false;
  }
  std::string error;
  std::optional<std::string> lines =
      tilec::ptxasReport(ptxas, ptx, arch, error);
  if (!lines) {
    errs() << "tilec: error: --report: " << error << "\n";
    return false;
  }
  errs() << "tilec: ptxas report for " << arch << ":\n" << *lines;
  return true;
}

/// The source text on stdin (tilec -), at most 16 MiB like a file.
std::optional<std::string> readStdin() {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getSTDIN();
  if (!buffer) {
    errs() << "tilec: error: cannot read stdin: " << buffer.getError().message() << "\n";
    return std::nullopt;
  }
  if ((*buffer)->getBufferSize() > (16u << 20)) {
    errs() << "tilec: error: the source on stdin is larger than 16 MiB\n";
    return std::nullopt;
  }
  return (*buffer)->getBuffer().str();
}

/// A path as make and ninja read it in a depfile (spaces escaped).
std::string depfileEscape(StringRef path) {
  std::string escaped;
  for (char c : path) {
    if (c == ' ' || c == '#')
      escaped += '\\';
    if (c == '$')
      escaped += '$';
    escaped += c;
  }
  return escaped;
}

/// -MD: "<target>: <every file the compilation read>", for make and ninja.
tilec::OutputFile depfile(const tilec::CompileResult &result, StringRef output) {
  std::string target = depfileTarget.empty() ? output.str() : depfileTarget.getValue();
  std::string path = depfilePath;
  if (path.empty()) { // compile() made sure there is an output file.
    SmallString<256> derived(output);
    sys::path::replace_extension(derived, ".d");
    path = std::string(derived);
  }
  std::string text = depfileEscape(target) + ":";
  for (const std::string &dependency : result.dependencies)
    text += " \\\n  " + depfileEscape(dependency);
  return {path, text + "\n"};
}

/// Whether the output is a module the runtime loads, with its metadata
/// beside it.
bool emitsModule() { return emit == Emit::PTX || emit == Emit::Cubin; }

/// Checks the output paths before anything is compiled: never the input
/// itself, and for a module a name the runtime finds the metadata beside.
bool checkOutputPaths() {
  StringRef extension = emit == Emit::Cubin ? ".cubin" : ".ptx";
  if (emitsModule() && !outputPath.empty() && outputPath != "-" &&
      sys::path::extension(outputPath) != extension) {
    SmallString<256> suggestion(outputPath);
    sys::path::replace_extension(suggestion, extension);
    errs() << "tilec: error: -o '" << outputPath << "': the "
           << (emit == Emit::Cubin ? "cubin" : "PTX") << " output must end in "
           << extension
           << " (its metadata is written beside it with .json, where the "
              "runtime looks for it); use -o '"
           << suggestion << "'\n";
    return false;
  }
  SmallVector<std::string, 2> outputs;
  if (!outputPath.empty() && outputPath != "-") {
    outputs.push_back(outputPath);
    if (emitsModule()) {
      SmallString<256> metadata(outputPath);
      sys::path::replace_extension(metadata, ".json");
      outputs.push_back(std::string(metadata));
    }
  }
  for (const std::string &output : outputs) {
    bool same = false;
    if (output == inputPath ||
        (!sys::fs::equivalent(inputPath, output, same) && same)) {
      errs() << "tilec: error: the output '" << output
             << "' would overwrite the input '" << inputPath << "'\n";
      return false;
    }
  }
  return true;
}

int compile() {
  if (!dumpStages.empty()) {
    std::error_code ec = sys::fs::create_directories(dumpStages);
    if (!ec && !sys::fs::is_directory(dumpStages))
      ec = std::make_error_code(std::errc::not_a_directory);
    if (ec) {
      errs() << "tilec: error: cannot create '" << dumpStages
             << "': " << ec.message() << "\n";
      return 1;
    }
  }
  if (cubin)
    emit = Emit::Cubin;
  bool fromStdin = inputPath == "-";
  if (fromStdin && outputPath.empty() && emitsModule())
    outputPath = "-";
  if (fromStdin && outputPath.empty() && emit == Emit::Header) {
    errs() << "tilec: error: --emit=header from stdin needs -o\n";
    return 1;
  }
  if (writeDepfile && depfilePath.empty() &&
      (outputPath == "-" || (outputPath.empty() && !emitsModule() && emit != Emit::Header))) {
    errs() << "tilec: error: -MD with the output on stdout needs -MF to name the depfile\n";
    return 1;
  }
  if (optLevel > 3) {
    errs() << "tilec: error: -O" << optLevel << ": the levels are -O0 to -O3\n";
    return 1;
  }
  if ((emitsModule() || emit == Emit::Header) && outputPath.empty()) {
    SmallString<256> path(sys::path::filename(inputPath));
    sys::path::replace_extension(path, emit == Emit::PTX     ? ".ptx"
                                       : emit == Emit::Cubin ? ".cubin"
                                                             : ".h");
    outputPath = std::string(path);
  }
  if (!checkOutputPaths())
    return 1;
  std::string ptxas;
  if (emit == Emit::Cubin && (ptxas = tilec::findPtxas()).empty()) {
    errs() << "tilec: error: --emit=cubin needs NVIDIA's ptxas (the CUDA toolkit): "
              "set TILEC_PTXAS or CUDA_HOME, or put ptxas on PATH\n";
    return 1;
  }

  tilec::CompileOptions options;
  options.arch = arch;
  options.kernel = kernelName;
  options.defines.assign(defines.begin(), defines.end());
  options.includePaths.assign(includePaths.begin(), includePaths.end());
  options.signature.assign(signature.begin(), signature.end());
  options.specializations.assign(specialize.begin(), specialize.end());
  if (numWarps.getNumOccurrences())
    options.numWarps = numWarps;
  if (numStages.getNumOccurrences())
    options.numStages = numStages;
  options.autotuneConfig = autotuneConfig;
  options.fpFusion = fpFusion;
  options.tmaStores = tmaStores;
  options.optLevel = optLevel;
  options.lineInfo = lineInfo && !noLineInfo;
  options.libdevicePath = libdevice;
  options.stopAfter = emit == Emit::Header || emit == Emit::Cubin
                          ? Stage::PTX
                          : static_cast<Stage>(emit.getValue());
  if (emit == Emit::Cubin)
    options.assemble = [&](std::string_view ptx, std::string &error) {
      return tilec::assembleCubin(ptxas, ptx, arch, optLevel, options.lineInfo, error);
    };
  options.dumpIRAfterAll = dumpAfterAll;
  bool saved = true;
  if (!dumpStages.empty())
    options.onStage = [&](Stage stage, std::string_view text) {
      saved &= saveStage(stage, text);
    };
  compilingWhat = "'" + inputPath + "' for " + arch;
  tilec::CompileResult result;
  if (fromStdin) {
    std::optional<std::string> source = readStdin();
    if (!source)
      return 1;
    result = tilec::compileSource(*source, "<stdin>", options);
  } else {
    result = tilec::compileFile(inputPath, options);
  }
  errs() << result.irDump << result.diagnosticText;
  if (!result.succeeded() || !saved)
    return 1;
  if (warningsAsErrors) {
    size_t warnings = llvm::count_if(result.diagnostics, [](const tilec::Diagnostic &d) {
      return d.severity == tilec::Diagnostic::Severity::Warning;
    });
    if (warnings) {
      errs() << "tilec: error: " << warnings << " warning" << (warnings == 1 ? "" : "s")
             << " treated as errors (-Werror)\n";
      return 1;
    }
  }

  std::vector<tilec::OutputFile> outputs;
  if (emit == Emit::Header) {
    std::string cppNamespace = headerNamespace;
    if (cppNamespace.empty()) {
      std::string stem;
      for (char c : sys::path::stem(inputPath))
        stem += isAlnum(c) ? c : '_';
      if (stem.empty() || isDigit(stem[0]))
        stem = "k" + stem;
      cppNamespace = "tilec_kernels::" + stem;
    }
    outputs.push_back({outputPath, tilec::emitLauncherHeader(result, cppNamespace)});
  } else if (!emitsModule()) {
    outputs.push_back({outputPath.empty() ? std::string("-") : outputPath.getValue(),
                       result.output});
  } else {
    outputs.push_back({outputPath, emit == Emit::Cubin ? result.cubin : result.ptx});
    if (outputPath != "-") {
      SmallString<256> metadataPath(outputPath);
      sys::path::replace_extension(metadataPath, ".json");
      outputs.push_back({std::string(metadataPath), result.metadata});
    }
  }
  if (writeDepfile)
    outputs.push_back(depfile(result, outputs.front().path));
  if (!writeFiles(outputs))
    return 1;
  return !emitsModule() || !report || printPtxasReport(result.ptx) ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  install_fatal_error_handler(reportFatalError);
  tilec::registerCommandLineOptions();
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tilec " << tilec::version() << " (LLVM " << LLVM_VERSION_STRING
       << ", targets sm_80 sm_90 sm_90a)\n";
  });
  // The MLIR options a user of tilec needs (pass timing, IR printing) stay
  // in --help beside tilec's own.
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (name.starts_with("mlir-print-ir") || name == "mlir-timing" ||
        name == "mlir-timing-display" || name == "mlir-pass-statistics")
      option->addCategory(category);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tilec: compile .tile kernels to PTX\n\n"
                              "  tilec kernel.tile -o kernel.ptx   writes "
                              "kernel.ptx and kernel.json\n");
  return compile();
}
