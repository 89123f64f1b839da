//===- CompilerFuzzer.cpp - libFuzzer target over the whole compiler ------===//
//
// Source text in; the whole pipeline runs in-process as tilec runs it: parse,
// Sema, MLIRGen, the three pass pipelines of Compiler.cpp (fp8 legalization,
// tile -> tilegpu, tilegpu -> LLVM dialect), LLVM IR (O3, libdevice) and PTX
// for sm_90. Diagnostics are swallowed: an error is a normal outcome.
// Findings abort, so that libFuzzer saves the input:
//   - crashes, hangs and sanitizer reports (libFuzzer and the sanitizers);
//   - LLVM fatal errors and errors of the LLVM backend (which would exit);
//   - an MLIR error that does not point into the input, or that is an op
//     verifier's message ("'tile.load' op ...": internal, never the user's);
//   - a frontend "internal error", and any stage that fails without an error.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/MLIRGen.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Target/PTX.h"
#include "tilec/Target/Pipeline.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <cstdint>
#include <cstdlib>

using namespace llvm;

namespace {

/// The name the input has in locations and messages.
constexpr StringLiteral kBufferName = "fuzz.tile";
/// The fuzzer compiles for one target; the generator covers the others.
constexpr StringLiteral kArch = "sm_90";

/// Every dialect and translation tilec uses, registered once.
mlir::DialectRegistry &getRegistry() {
  static mlir::DialectRegistry registry;
  return registry;
}

/// Prints what was found and aborts: libFuzzer saves the input as a crash.
[[noreturn]] void reportFinding(const Twine &kind, const Twine &message) {
  errs() << "tilec-fuzz: FINDING: " << kind << ": " << message << "\n";
  errs().flush();
  std::abort();
}

void onFatalError(void *, const char *reason, bool) {
  reportFinding("LLVM fatal error", reason);
}

void onLLVMDiagnostic(const DiagnosticInfo *info, void *) {
  if (info->getSeverity() != DS_Error)
    return;
  std::string text;
  raw_string_ostream os(text);
  DiagnosticPrinterRawOStream printer(os);
  info->print(printer);
  reportFinding("LLVM backend error", text);
}

/// True when `loc` (or a location inside it) is a line of the input.
bool pointsIntoInput(mlir::Location loc) {
  return loc->walk([](mlir::Location inner) {
               auto fileLoc = dyn_cast<mlir::FileLineColLoc>(inner);
               return fileLoc && fileLoc.getFilename() == kBufferName
                          ? mlir::WalkResult::interrupt()
                          : mlir::WalkResult::advance();
             })
      .wasInterrupted();
}

/// Errors from MLIR must be the user's: located in the input and not an op
/// verifier's message.
void checkMLIRError(mlir::Diagnostic &diagnostic) {
  static const Regex opVerifierMessage("^'[A-Za-z0-9_]+\\.[A-Za-z0-9_.]+' op ");
  std::string message = diagnostic.str();
  if (!pointsIntoInput(diagnostic.getLocation()))
    reportFinding("MLIR error without a location in the input", message);
  if (opVerifierMessage.match(message))
    reportFinding("internal MLIR error (an op verifier's message)", message);
}

/// One compilation of `source`; findings abort, errors return.
void compile(StringRef source) {
  SourceMgr sourceMgr;
  // Located frontend messages are swallowed here; those without a location
  // go to `unlocated`.
  sourceMgr.setDiagHandler([](const SMDiagnostic &, void *) {});
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(source, kBufferName), SMLoc());
  std::string unlocated;
  raw_string_ostream unlocatedStream(unlocated);
  tilec::DiagnosticEngine diag(sourceMgr, unlocatedStream);
  unsigned mlirErrors = 0;
  // True when the stage succeeded; a failure must have reported an error.
  auto check = [&](bool failed, StringRef stage) {
    if (StringRef(unlocated).contains("internal error"))
      reportFinding("frontend internal error", unlocated);
    if (failed && !diag.hasErrors() && mlirErrors == 0)
      reportFinding(stage, "failed without reporting an error");
    return !failed;
  };

  std::unique_ptr<tilec::Module> ast = tilec::parseFile(bufferId, diag);
  if (!check(!ast, "parse"))
    return;
  std::vector<std::unique_ptr<tilec::KernelInstance>> kernels =
      tilec::analyze(*ast, tilec::SemaOptions(), diag);
  if (!check(kernels.empty(), "Sema"))
    return;

  mlir::MLIRContext context(getRegistry(),
                            mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  context.getDiagEngine().registerHandler([&](mlir::Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error) {
      ++mlirErrors;
      checkMLIRError(diagnostic);
    }
    return success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tilec::generateMLIR(context, kernels, diag);
  if (!check(!module, "MLIRGen"))
    return;
  auto runPipeline = [&](function_ref<void(mlir::PassManager &)> build) {
    mlir::PassManager pm(&context);
    build(pm);
    return failed(pm.run(*module));
  };
  if (!check(runPipeline([](mlir::PassManager &pm) {
               mlir::tilec::buildTileLegalizationPipeline(pm, kArch);
             }),
             "tile legalization") ||
      !check(runPipeline([](mlir::PassManager &pm) {
               mlir::tilec::buildTileToTileGPUPipeline(pm, 4, kArch);
             }),
             "tile -> tilegpu") ||
      !check(runPipeline([](mlir::PassManager &pm) {
               // A quarter of tilec's limit: sanitized code compiles a few
               // times slower, and each input must stay within -timeout.
               mlir::tilec::buildTileGPUToLLVMPipeline(
                   pm, kArch, mlir::tilec::kMaxWorkPerThread / 4);
             }),
             "tilegpu -> LLVM"))
    return;

  mlir::tilec::TargetOptions target;
  target.arch = kArch.str();
  LLVMContext llvmContext;
  llvmContext.setDiagnosticHandlerCallBack(onLLVMDiagnostic);
  std::unique_ptr<Module> llvmModule =
      mlir::tilec::translateToLLVMIR(*module, llvmContext, target);
  if (!check(!llvmModule, "translation to LLVM IR"))
    return;
  check(!mlir::tilec::compileToPTX(*llvmModule, target, module->getLoc()),
        "PTX generation");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  mlir::tilec::registerTilecDialects(getRegistry());
  install_fatal_error_handler(onFatalError);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  compile(StringRef(reinterpret_cast<const char *>(data), size));
  return 0;
}
