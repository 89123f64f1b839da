//===- Compiler.cpp - libtilec: one compilation, source to PTX ------------===//
//
// .tile -> AST -> tile dialect -> tilegpu -> LLVM dialect -> LLVM IR -> PTX
// and the metadata JSON, every stage handed to CompileOptions::onStage, every
// diagnostic (the frontend's and MLIR's) collected as a value and rendered
// as tilec prints it.
//
//===----------------------------------------------------------------------===//
#include "tilec/Compiler.h"

#include "Metadata.h"
#include "SourceFile.h"
#include "Version.h"

#include "tilec/Conversion/TileGPUToLLVM/Utility.h"
#include "tilec/Frontend/ASTPrinter.h"
#include "tilec/Frontend/Autotune.h"
#include "tilec/Frontend/Heuristics.h"
#include "tilec/Frontend/Imports.h"
#include "tilec/Frontend/MLIRGen.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Target/PTX.h"
#include "tilec/Target/Pipeline.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

#include <atomic>

using namespace tilec;

const char *tilec::stageName(Stage stage) {
  switch (stage) {
  case Stage::AST:
    return "ast";
  case Stage::Tile:
    return "tile";
  case Stage::TileGPU:
    return "tilegpu";
  case Stage::LLVMMLIR:
    return "llvm-mlir";
  case Stage::LLVMIR:
    return "llvm";
  case Stage::PTX:
    return "ptx";
  }
  return "?";
}

/// True when `diagnostics` holds an error.
static bool hasError(llvm::ArrayRef<Diagnostic> diagnostics) {
  return llvm::any_of(diagnostics, [](const Diagnostic &d) {
    return d.severity == Diagnostic::Severity::Error;
  });
}

bool CompileResult::succeeded() const { return !hasError(diagnostics); }

bool SourceSignature::succeeded() const { return !hasError(diagnostics); }

/// Set once a tool registered MLIR's command-line options: applying them
/// fails before that.
static std::atomic<bool> commandLineOptionsRegistered{false};

void tilec::registerCommandLineOptions() {
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  commandLineOptionsRegistered = true;
}

std::string tilec::version() { return TILEC_VERSION; }

std::string tilec::llvmVersion() { return LLVM_VERSION_STRING; }

std::string tilec::supportedArchList() { return mlir::tilec::kSupportedArchs.str(); }

bool tilec::isSupportedArch(std::string_view arch) {
  return mlir::tilec::isSupportedArch(llvm::StringRef(arch.data(), arch.size()));
}

namespace {

/// The source buffer and the frontend's diagnostics of one call, collected
/// into a diagnostics list and its rendered text.
class Session {
public:
  Session(std::string_view source, std::string_view name,
          std::vector<Diagnostic> &diagnostics, std::string &text)
      : diagnostics(diagnostics), os(text), diag(sourceMgr, os) {
    bufferId = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(
            llvm::StringRef(source.data(), source.size()),
            llvm::StringRef(name.data(), name.size())),
        llvm::SMLoc());
    diag.setObserver([this](llvm::SourceMgr::DiagKind kind, SourceLoc loc,
                            llvm::StringRef message) {
      LineColumn where = diag.resolve(loc);
      record(kind == llvm::SourceMgr::DK_Error     ? Diagnostic::Severity::Error
             : kind == llvm::SourceMgr::DK_Warning ? Diagnostic::Severity::Warning
                                                   : Diagnostic::Severity::Note,
             where.file, where.line, where.column, message);
    });
  }

  /// An error about the options rather than the source: "tilec: error: ...".
  void optionError(const llvm::Twine &message) {
    os << "tilec: error: " << message << "\n";
    record(Diagnostic::Severity::Error, "", 0, 0, message.str());
  }

  void record(Diagnostic::Severity severity, llvm::StringRef file, unsigned line,
              unsigned column, llvm::StringRef message) {
    diagnostics.push_back(
        {severity, file.str(), line, column, message.str()});
  }

  bool hasErrors() const { return hasError(diagnostics); }

  llvm::SourceMgr sourceMgr;
  std::vector<Diagnostic> &diagnostics;
  llvm::raw_string_ostream os;
  DiagnosticEngine diag;
  unsigned bufferId = 0;
};

/// Renders `write` into a string.
std::string render(llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::string text;
  llvm::raw_string_ostream os(text);
  write(os);
  return text;
}

/// The options' text forms as SemaOptions; option errors go to `session`.
SemaOptions readSemaOptions(const CompileOptions &options, Session &session) {
  SemaOptions sema;
  sema.kernelName = options.kernel;
  sema.numWarps = options.numWarps;
  sema.numStages = options.numStages;
  sema.autotuneConfig = options.autotuneConfig;
  sema.tensorMaps = mlir::tilegpu::getComputeCapability(options.arch) >= 90;
  sema.deviceTensorMaps = llvm::StringRef(options.arch).ends_with("a") && sema.tensorMaps;
  for (const std::string &text : options.defines) {
    std::pair<std::string, ConstValue> define;
    std::string error;
    if (!parseDefine(text, define, error)) {
      session.optionError("bad -D '" + text + "': " + error);
      continue;
    }
    if (llvm::any_of(sema.defines, [&](const auto &d) { return d.first == define.first; }))
      session.optionError("-D " + define.first + " is given twice");
    else
      sema.defines.push_back(std::move(define));
  }
  for (const std::string &text : options.argumentValues) {
    std::pair<std::string, ConstValue> value;
    std::string error;
    if (!parseDefine(text, value, error) || !value.second.isNumber())
      session.optionError("bad argument value '" + text + "': " +
                          (error.empty() ? "expected NAME=NUMBER" : error));
    else
      sema.argumentValues.push_back(std::move(value));
  }
  for (const std::string &text : options.specializations) {
    std::string error;
    if (!parseSpecializations(text, sema.specializations, error))
      session.optionError("bad --specialize '" + text + "': " + error);
  }
  for (const std::string &text : options.signature) {
    std::string error;
    if (!parseSignature(text, sema.signature, sema.specializations, error))
      session.optionError("bad --signature '" + text + "': " + error);
  }
  return sema;
}

/// Checks the options that need no source.
void checkOptions(const CompileOptions &options, Session &session) {
  if (!isSupportedArch(options.arch))
    session.optionError("unsupported --arch '" + options.arch +
                        "' (expected one of " + mlir::tilec::kSupportedArchs.str() + ")");
  if (options.numWarps && (*options.numWarps == 0 || *options.numWarps > 32 ||
                           !llvm::isPowerOf2_32(*options.numWarps)))
    session.optionError("--num-warps must be a power of two from 1 to 32");
  if (options.numStages && (*options.numStages == 0 || *options.numStages > 1024))
    session.optionError("--num-stages must be between 1 and 1024");
}

/// The file, line and column of `loc`, if it has any.
void locate(mlir::Location loc, std::string &file, unsigned &line, unsigned &column) {
  loc->walk([&](mlir::Location inner) {
    if (auto fileLoc = llvm::dyn_cast<mlir::FileLineColLoc>(inner)) {
      file = fileLoc.getFilename().str();
      line = fileLoc.getLine();
      column = fileLoc.getColumn();
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
}

/// Records MLIR's diagnostics as values; the SourceMgr handler registered
/// before it renders them.
void collectMLIRDiagnostics(mlir::MLIRContext &context, Session &session) {
  context.getDiagEngine().registerHandler([&session](mlir::Diagnostic &d) {
    auto record = [&](mlir::Diagnostic &one, Diagnostic::Severity severity) {
      std::string file;
      unsigned line = 0, column = 0;
      locate(one.getLocation(), file, line, column);
      session.record(severity, file, line, column, one.str());
    };
    Diagnostic::Severity severity =
        d.getSeverity() == mlir::DiagnosticSeverity::Error ? Diagnostic::Severity::Error
        : d.getSeverity() == mlir::DiagnosticSeverity::Warning
            ? Diagnostic::Severity::Warning
            : Diagnostic::Severity::Note;
    record(d, severity);
    for (mlir::Diagnostic &note : d.getNotes())
      record(note, Diagnostic::Severity::Note);
    return mlir::failure(); // Let the SourceMgr handler print it too.
  });
}

/// Hands stage `stage`'s text to the caller; true when compilation stops.
bool reachStage(Stage stage, const CompileOptions &options, CompileResult &result,
                llvm::function_ref<void(llvm::raw_ostream &)> print) {
  bool last = options.stopAfter == stage;
  if (!options.onStage && !last)
    return false;
  std::string text = render(print);
  if (options.onStage)
    options.onStage(stage, text);
  if (last)
    result.output = std::move(text);
  return last;
}

/// The compilation proper, after the options were read.
void compileKernels(Session &session, const CompileOptions &options,
                    const SemaOptions &semaOptions, CompileResult &result) {
  std::unique_ptr<Module> ast = parseFile(session.bufferId, session.diag);
  if (!ast)
    return;
  std::string sourceName(
      session.sourceMgr.getMemoryBuffer(session.bufferId)->getBufferIdentifier());
  if (!resolveImports(*ast, sourceName, options.includePaths, session.diag,
                      result.dependencies, result.importMisses))
    return;
  std::vector<std::unique_ptr<KernelInstance>> kernels =
      analyze(*ast, semaOptions, session.diag);
  if (session.hasErrors())
    return;
  for (const auto &kernel : kernels)
    result.kernels.push_back(kernel->name);
  if (reachStage(Stage::AST, options, result, [&](llvm::raw_ostream &os) {
        for (const auto &kernel : kernels)
          printKernel(*kernel, os);
      }))
    return;

  mlir::DialectRegistry registry;
  mlir::tilec::registerTilecDialects(registry);
  // No thread pool per compilation: a kernel's passes run on one thread, and
  // the JIT may compile on several threads at once.
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false); // Users read their source line instead.
  mlir::SourceMgrDiagnosticHandler renderer(session.sourceMgr, &context, session.os);
  collectMLIRDiagnostics(context, session);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      generateMLIR(context, kernels, session.diag);
  if (!module)
    return;
  llvm::raw_string_ostream irDump(result.irDump);
  // --mlir-timing: one report for every pipeline, on stderr, at the end.
  mlir::DefaultTimingManager timing;
  if (commandLineOptionsRegistered)
    mlir::applyDefaultTimingManagerCLOptions(timing);
  mlir::TimingScope timingRoot = timing.getRootScope();
  auto runPipeline = [&](llvm::function_ref<void(mlir::PassManager &)> build) {
    mlir::PassManager pm(&context);
    if (commandLineOptionsRegistered && failed(mlir::applyPassManagerCLOptions(pm)))
      return false;
    if (timing.isEnabled())
      pm.enableTiming(timingRoot);
    if (options.dumpIRAfterAll)
      pm.enableIRPrinting([](mlir::Pass *, mlir::Operation *) { return false; },
                          [](mlir::Pass *, mlir::Operation *) { return true; },
                          /*printModuleScope=*/true,
                          /*printAfterOnlyOnChange=*/false,
                          /*printAfterOnlyOnFailure=*/false, irDump);
    build(pm);
    return succeeded(pm.run(*module));
  };
  if (!runPipeline([&](mlir::PassManager &pm) {
        mlir::tilec::buildTileLegalizationPipeline(pm, options.arch);
      }))
    return;
  auto printModule = [&](llvm::raw_ostream &os) { module->print(os); };
  if (reachStage(Stage::Tile, options, result, printModule))
    return;
  // The interpreter's copy of the kernels, with the locations its errors
  // point at.
  std::string tileIR = render([&](llvm::raw_ostream &os) {
    module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  });

  unsigned defaultWarps = options.numWarps.value_or(4);
  if (!runPipeline([&](mlir::PassManager &pm) {
        mlir::tilec::buildTileToTileGPUPipeline(pm, defaultWarps, options.arch,
                                                options.tmaStores);
      }))
    return;
  if (reachStage(Stage::TileGPU, options, result, printModule))
    return;
  if (!runPipeline([&](mlir::PassManager &pm) {
        mlir::tilec::buildTileGPUToLLVMPipeline(pm, options.arch);
      }))
    return;
  if (reachStage(Stage::LLVMMLIR, options, result, printModule))
    return;

  mlir::tilec::TargetOptions target;
  target.arch = options.arch;
  // PTX 8.0 has every instruction tilec emits except fp8's cvt on sm_89,
  // which needs 8.1, and what the lowering recorded on the kernels it put
  // newer instructions in (kMinPtxFnAttr: vector atomics, tensormap.replace).
  target.ptxVersion = std::max<unsigned>(options.arch == "sm_89" ? 81 : 80,
                                         mlir::tilec::getRequiredPtxVersion(*module));
  target.libdevicePath = options.libdevicePath;
  target.fpFusion = options.fpFusion;
  target.optLevel = options.optLevel;
  target.lineInfo = options.lineInfo;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::tilec::translateToLLVMIR(*module, llvmContext, target);
  if (!llvmModule)
    return;
  if (reachStage(Stage::LLVMIR, options, result,
                 [&](llvm::raw_ostream &os) { llvmModule->print(os, nullptr); }))
    return;
  std::optional<std::string> ptx =
      mlir::tilec::compileToPTX(*llvmModule, target, module->getLoc());
  if (!ptx)
    return;
  result.ptx = *ptx;
  if (options.assemble) {
    std::string error;
    std::optional<std::string> cubin = options.assemble(*ptx, error);
    if (!cubin) {
      session.optionError(error);
      return;
    }
    result.cubin = std::move(*cubin);
  }
  ModuleFacts facts{TILEC_VERSION,
                    session.sourceMgr.getMemoryBuffer(session.bufferId)
                        ->getBufferIdentifier()
                        .str(),
                    session.sourceMgr.getMemoryBuffer(session.bufferId)->getBuffer().str(),
                    options.arch, std::move(tileIR)};
  result.metadata = render([&](llvm::raw_ostream &os) {
    writeMetadata(os, facts, kernels, *llvmModule, *ptx, result.cubin);
  });
  reachStage(Stage::PTX, options, result, [&](llvm::raw_ostream &os) { os << *ptx; });
}

/// Python's repr-like source text of a constant, as -D parses it back.
std::string defineText(const ConstValue &value) {
  if (value.isString())
    return "'" + value.getString().str() + "'";
  return value.str();
}

} // namespace

CompileResult tilec::compileSource(std::string_view source, std::string_view sourceName,
                                   const CompileOptions &options) {
  CompileResult result;
  Session session(source, sourceName, result.diagnostics, result.diagnosticText);
  checkOptions(options, session);
  SemaOptions semaOptions = readSemaOptions(options, session);
  if (!session.hasErrors())
    compileKernels(session, options, semaOptions, result);
  // Every way out of compileKernels before its stage reports an error; a
  // silent one would be an empty output that looks like success.
  if (!session.hasErrors() && result.output.empty())
    session.optionError("internal error: the compilation of '" + std::string(sourceName) +
                        "' stopped before " + stageName(options.stopAfter) +
                        " without a diagnostic; please report it");
  if (!result.succeeded()) {
    result.output.clear();
    result.ptx.clear();
    result.cubin.clear();
    result.metadata.clear();
  }
  return result;
}

CompileResult tilec::compileFile(const std::string &path, const CompileOptions &options) {
  std::string error;
  std::optional<std::string> source = readSourceFile(path, error);
  if (source) {
    CompileResult result = compileSource(*source, path, options);
    result.dependencies.insert(result.dependencies.begin(), path);
    return result;
  }
  CompileResult result;
  result.diagnostics.push_back({Diagnostic::Severity::Error, "", 0, 0, error});
  result.diagnosticText = "tilec: error: " + error + "\n";
  return result;
}

std::string AutotuneConfig::describe() const {
  std::string text;
  for (const std::string &define : defines)
    text += (text.empty() ? "" : ", ") + define;
  if (numWarps)
    text += (text.empty() ? "" : ", ") + ("num_warps=" + std::to_string(*numWarps));
  if (numStages)
    text += (text.empty() ? "" : ", ") + ("num_stages=" + std::to_string(*numStages));
  return text;
}

SourceSignature tilec::inspectSource(std::string_view source, std::string_view sourceName) {
  SourceSignature result;
  Session session(source, sourceName, result.diagnostics, result.diagnosticText);
  std::unique_ptr<Module> ast = parseFile(session.bufferId, session.diag);
  if (!ast)
    return result;
  for (const auto &function : ast->functions) {
    if (!function->isKernel())
      continue;
    KernelSignature kernel;
    kernel.name = function->getName().str();
    for (const Param &param : function->params) {
      ParamSignature sig;
      sig.name = param.name;
      sig.isConstexpr = param.annotation == ParamAnnotation::Constexpr;
      if (param.annotation == ParamAnnotation::Type)
        sig.type = param.type.str();
      if (const auto *constant =
              llvm::dyn_cast_or_null<ConstantExpr>(param.defaultValue.get()))
        sig.defaultValue = defineText(constant->getValue());
      kernel.params.push_back(std::move(sig));
    }
    if (std::optional<AutotuneSpec> spec = readAutotune(*ast, *function, session.diag)) {
      for (const TuneConfig &config : spec->configs) {
        AutotuneConfig out;
        for (const auto &[name, value] : config.values)
          out.defines.push_back(name + "=" + defineText(value));
        out.numWarps = config.numWarps;
        out.numStages = config.numStages;
        kernel.configs.push_back(std::move(out));
      }
      kernel.key = spec->key;
      kernel.resetToZero = spec->resetToZero;
      kernel.restoreValue = spec->restoreValue;
      kernel.warmupMs = spec->warmupMs;
      kernel.repMs = spec->repMs;
    }
    for (const Heuristic &heuristic : readHeuristics(*ast, *function, session.diag))
      for (const std::string &input : getHeuristicInputs(heuristic))
        if (llvm::any_of(function->params, [&](const Param &p) {
              return p.name == input && p.annotation != ParamAnnotation::Constexpr;
            }) && !llvm::is_contained(kernel.heuristicInputs, input))
          kernel.heuristicInputs.push_back(input);
    result.kernels.push_back(std::move(kernel));
  }
  return result;
}
