//===- tilec.cpp - The tile-language compiler driver ----------------------===//
//
// .tile -> AST -> tile dialect -> tilegpu -> LLVM dialect -> LLVM IR -> PTX,
// with every stage printable (--emit) or saved (--dump-stages), and the
// metadata JSON written beside the PTX.
//
//===----------------------------------------------------------------------===//

#include "Metadata.h"
#include "OutputFiles.h"
#include "PtxasReport.h"
#include "Version.h"

#include "tilec/Frontend/ASTPrinter.h"
#include "tilec/Frontend/MLIRGen.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Target/PTX.h"
#include "tilec/Target/Pipeline.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"

#include <unistd.h>

using namespace llvm;

namespace {

enum class Stage { AST, Tile, TileGPU, LLVMMLIR, LLVMIR, PTX };

cl::OptionCategory category("tilec options");

cl::opt<std::string> inputPath(cl::Positional, cl::desc("<input .tile file>"),
                               cl::Required, cl::cat(category));
cl::opt<std::string> outputPath("o",
                                cl::desc("Output file (default: the "
                                         "input's name with .ptx, or "
                                         "stdout for --emit other than ptx)"),
                                cl::value_desc("path"), cl::cat(category));
cl::opt<std::string> arch("arch",
                          cl::desc("Target GPU: sm_80, sm_90 or sm_90a"),
                          cl::init("sm_90"), cl::cat(category));
cl::opt<bool> fpFusion(
    "fp-fusion",
    cl::desc("Contract a multiply and an add into one fma, as Triton's "
             "enable_fp_fusion does (default on; --fp-fusion=false keeps "
             "them apart)"),
    cl::init(true), cl::cat(category));
cl::opt<std::string> libdevice(
    "libdevice",
    cl::desc("NVIDIA's libdevice.10.bc, linked when a kernel uses sin, cos, "
             "tanh, erf, log or f64 math (default: $TILEC_LIBDEVICE, "
             "$CUDA_HOME/nvvm/libdevice, /usr/local/cuda/nvvm/libdevice)"),
    cl::value_desc("path"), cl::cat(category));
cl::opt<Stage> emit(
    "emit", cl::desc("The stage to output"), cl::init(Stage::PTX),
    cl::values(clEnumValN(Stage::AST, "ast", "typed AST of each kernel"),
               clEnumValN(Stage::Tile, "tile", "tile dialect"),
               clEnumValN(Stage::TileGPU, "tilegpu",
                          "tilegpu dialect (layouts)"),
               clEnumValN(Stage::LLVMMLIR, "llvm-mlir", "LLVM + NVVM dialects"),
               clEnumValN(Stage::LLVMIR, "llvm", "LLVM IR (optimized)"),
               clEnumValN(Stage::PTX, "ptx", "PTX and its metadata JSON")),
    cl::cat(category));
cl::list<std::string>
    defines("D", cl::Prefix,
            cl::desc("Set a constexpr parameter: -D NAME=VALUE"),
            cl::value_desc("NAME=VALUE"), cl::cat(category));
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
cl::list<std::string> specialize(
    "specialize",
    cl::desc(
        "Specialize integer parameters as Triton does: NAME=16 assumes "
        "the argument divisible by 16, NAME=1 equal to 1 (comma-separated; "
        "the runtime refuses arguments that break it)"),
    cl::value_desc("NAME=16|1,..."), cl::cat(category));
cl::opt<bool>
    report("report",
           cl::desc("Assemble the PTX with ptxas -v and print each kernel's "
                    "registers, spills, stack and barriers to stderr"),
           cl::cat(category));
cl::opt<bool> dumpAfterAll("dump-ir-after-all",
                           cl::desc("Print the IR after every pass to stderr"),
                           cl::cat(category));
cl::opt<std::string> dumpStages(
    "dump-stages",
    cl::desc("Save every stage (ast, tile, tilegpu, llvm-mlir, llvm, ptx) "
             "into this directory"),
    cl::value_desc("dir"), cl::cat(category));

/// Everything one compilation holds on to.
struct Compilation {
  SourceMgr sourceMgr;
  std::unique_ptr<tilec::DiagnosticEngine> diag;
  std::vector<std::unique_ptr<tilec::KernelInstance>> kernels;
  std::string sourceText;
};

/// Renders `write` into a string (the whole output, before any file is
/// touched).
std::string render(function_ref<void(raw_ostream &)> write) {
  std::string text;
  raw_string_ostream os(text);
  write(os);
  return text;
}

/// Writes `files` as one group (OutputFiles.h); reports failure.
bool writeFiles(ArrayRef<tilec::OutputFile> files) {
  std::string error;
  if (tilec::writeOutputFiles(files, error))
    return true;
  errs() << "tilec: error: " << error << "\n";
  return false;
}

/// The file a stage is saved to under --dump-stages.
std::string stagePath(StringRef suffix) {
  SmallString<256> path(dumpStages);
  sys::path::append(path, sys::path::stem(inputPath) + suffix);
  return std::string(path);
}

/// Emits `stage` when it is the one asked for, and saves it under
/// --dump-stages. Returns true when the compilation should stop here.
bool handleStage(Stage stage, StringRef suffix, bool &ok,
                 function_ref<void(raw_ostream &)> print) {
  if (!dumpStages.empty()) {
    std::string path = stagePath(suffix);
    if (writeFiles({{path, render(print)}}))
      errs() << "tilec: " << suffix.drop_front() << " -> " << path << "\n";
    else
      ok = false;
  }
  if (emit != stage || stage == Stage::PTX)
    return false;
  std::string path =
      outputPath.empty() ? std::string("-") : outputPath.getValue();
  ok = ok && writeFiles({{path, render(print)}});
  return true;
}

/// What the fatal-error handler names: the kernels being compiled.
std::string compilingWhat;

/// LLVM's fatal errors (a backend that cannot select an instruction, an
/// output stream that fails) end tilec with a message naming the kernels,
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

/// Checks the output paths before anything is compiled: never the input
/// itself, and for PTX a name the runtime finds the metadata beside.
bool checkOutputPaths() {
  if (emit == Stage::PTX && !outputPath.empty() && outputPath != "-" &&
      sys::path::extension(outputPath) != ".ptx") {
    SmallString<256> suggestion(outputPath);
    sys::path::replace_extension(suggestion, ".ptx");
    errs() << "tilec: error: -o '" << outputPath
           << "': the PTX output must end in .ptx (its metadata is written "
              "beside it "
              "with .json, where the runtime looks for it); use -o '"
           << suggestion << "'\n";
    return false;
  }
  SmallVector<std::string, 2> outputs;
  if (!outputPath.empty() && outputPath != "-") {
    outputs.push_back(outputPath);
    if (emit == Stage::PTX) {
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
  if (!mlir::tilec::isSupportedArch(arch)) {
    errs() << "tilec: error: unsupported --arch '" << arch
           << "' (expected sm_80, sm_90 or sm_90a)\n";
    return 1;
  }
  if (numWarps.getNumOccurrences() &&
      (numWarps == 0 || numWarps > 32 || !isPowerOf2_32(numWarps))) {
    errs() << "tilec: error: --num-warps must be a power of two from 1 to 32\n";
    return 1;
  }
  if (numStages.getNumOccurrences() && (numStages == 0 || numStages > 1024)) {
    errs() << "tilec: error: --num-stages must be between 1 and 1024\n";
    return 1;
  }
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

  if (emit == Stage::PTX && outputPath.empty()) {
    SmallString<256> path(sys::path::filename(inputPath));
    sys::path::replace_extension(path, ".ptx");
    outputPath = std::string(path);
  }
  if (!checkOutputPaths())
    return 1;

  Compilation c;
  std::string readError;
  std::optional<std::string> text = tilec::readSourceFile(inputPath, readError);
  if (!text) {
    errs() << "tilec: error: " << readError << "\n";
    return 1;
  }
  c.sourceText = std::move(*text);
  unsigned bufferId = c.sourceMgr.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(c.sourceText, inputPath), SMLoc());
  c.diag = std::make_unique<tilec::DiagnosticEngine>(c.sourceMgr);

  // Frontend.
  std::unique_ptr<tilec::Module> ast = tilec::parseFile(bufferId, *c.diag);
  if (!ast)
    return 1;
  tilec::SemaOptions semaOptions;
  semaOptions.kernelName = kernelName;
  if (numWarps.getNumOccurrences())
    semaOptions.numWarps = numWarps;
  if (numStages.getNumOccurrences())
    semaOptions.numStages = numStages;
  for (const std::string &text : defines) {
    std::pair<std::string, tilec::ConstValue> define;
    std::string error;
    if (!tilec::parseDefine(text, define, error)) {
      errs() << "tilec: error: bad -D '" << text << "': " << error << "\n";
      return 1;
    }
    for (const auto &[name, value] : semaOptions.defines)
      if (name == define.first) {
        errs() << "tilec: error: -D " << name << " is given twice\n";
        return 1;
      }
    semaOptions.defines.push_back(std::move(define));
  }
  for (const std::string &text : specialize) {
    std::string error;
    if (!tilec::parseSpecializations(text, semaOptions.specializations,
                                     error)) {
      errs() << "tilec: error: bad --specialize '" << text << "': " << error
             << "\n";
      return 1;
    }
  }
  c.kernels = tilec::analyze(*ast, semaOptions, *c.diag);
  if (c.diag->hasErrors())
    return 1;
  if (c.kernels.empty()) {
    errs() << "tilec: error: " << inputPath
           << " has no kernel (a function decorated with @kernel)\n";
    return 1;
  }
  compilingWhat = "kernel";
  if (c.kernels.size() > 1)
    compilingWhat += "s";
  for (size_t i = 0; i < c.kernels.size(); ++i)
    compilingWhat += (i ? ", '" : " '") + c.kernels[i]->name + "'";
  compilingWhat += " of " + inputPath + " for " + arch;
  bool ok = true;
  if (handleStage(Stage::AST, ".ast.txt", ok, [&](raw_ostream &os) {
        for (const auto &kernel : c.kernels)
          tilec::printKernel(*kernel, os);
      }))
    return ok ? 0 : 1;

  // MLIR stages. Diagnostics print like the frontend's: file:line:col, the
  // line and a caret.
  mlir::DialectRegistry registry;
  mlir::tilec::registerTilecDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false); // Users read their source line instead.
  if (dumpAfterAll)
    context.disableMultithreading(); // IR printing needs one thread.
  mlir::SourceMgrDiagnosticHandler diagHandler(c.sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tilec::generateMLIR(context, c.kernels, *c.diag);
  if (!module)
    return 1;
  auto printModule = [&](raw_ostream &os) { module->print(os); };
  if (handleStage(Stage::Tile, ".tile.mlir", ok, printModule))
    return ok ? 0 : 1;

  auto runPipeline = [&](function_ref<void(mlir::PassManager &)> build) {
    mlir::PassManager pm(&context);
    if (failed(mlir::applyPassManagerCLOptions(pm)))
      return false;
    if (dumpAfterAll)
      pm.enableIRPrinting([](mlir::Pass *, mlir::Operation *) { return false; },
                          [](mlir::Pass *, mlir::Operation *) { return true; },
                          /*printModuleScope=*/true,
                          /*printAfterOnlyOnChange=*/false);
    build(pm);
    return succeeded(pm.run(*module));
  };
  unsigned defaultWarps = numWarps.getNumOccurrences() ? numWarps : 4;
  if (!runPipeline([&](mlir::PassManager &pm) {
        mlir::tilec::buildTileToTileGPUPipeline(pm, defaultWarps, arch);
      }))
    return 1;
  if (handleStage(Stage::TileGPU, ".tilegpu.mlir", ok, printModule))
    return ok ? 0 : 1;
  if (!runPipeline([&](mlir::PassManager &pm) {
        mlir::tilec::buildTileGPUToLLVMPipeline(pm, arch);
      }))
    return 1;
  if (handleStage(Stage::LLVMMLIR, ".llvm.mlir", ok, printModule))
    return ok ? 0 : 1;

  // LLVM and PTX.
  mlir::tilec::TargetOptions target;
  target.arch = arch;
  target.libdevicePath = libdevice;
  target.fpFusion = fpFusion;
  LLVMContext llvmContext;
  auto llvmModule =
      mlir::tilec::translateToLLVMIR(*module, llvmContext, target);
  if (!llvmModule)
    return 1;
  if (handleStage(Stage::LLVMIR, ".ll", ok,
                  [&](raw_ostream &os) { llvmModule->print(os, nullptr); }))
    return ok ? 0 : 1;
  std::optional<std::string> ptx =
      mlir::tilec::compileToPTX(*llvmModule, target, module->getLoc());
  if (!ptx)
    return 1;
  handleStage(Stage::PTX, ".ptx", ok, [&](raw_ostream &os) { os << *ptx; });
  if (!ok)
    return 1;
  std::vector<tilec::OutputFile> outputs{{outputPath, *ptx}};
  if (outputPath != "-") {
    SmallString<256> metadataPath(outputPath);
    sys::path::replace_extension(metadataPath, ".json");
    tilec::ModuleFacts facts{TILEC_VERSION, inputPath, c.sourceText, arch};
    outputs.push_back({std::string(metadataPath), render([&](raw_ostream &os) {
                         tilec::writeMetadata(os, facts, c.kernels, *llvmModule,
                                              *ptx);
                       })});
  }
  if (!writeFiles(outputs))
    return 1;
  return !report || printPtxasReport(*ptx) ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  install_fatal_error_handler(reportFatalError);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tilec " << TILEC_VERSION << " (LLVM " << LLVM_VERSION_STRING
       << ", targets sm_80 sm_90 sm_90a)\n";
  });
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tilec: compile .tile kernels to PTX\n\n"
                              "  tilec kernel.tile -o kernel.ptx   writes "
                              "kernel.ptx and kernel.json\n");
  return compile();
}
