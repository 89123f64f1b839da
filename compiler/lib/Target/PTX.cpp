//===- PTX.cpp - LLVM IR and PTX from the LLVM dialect --------------------===//
//
// Translation to LLVM IR, libdevice linking, the O3 pipeline with the NVPTX
// target's analyses, the rewrites that avoid known ptxas bugs, and PTX
// printing through the NVPTX TargetMachine.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX.h"
#include "tilec/Conversion/TileGPUToLLVM/ExternalFunctions.h"
#include "tilec/Target/Libdevice.h"
#include "tilec/Target/PtxasWorkarounds.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace mlir;

static constexpr const char *kTriple = "nvptx64-nvidia-cuda";

/// Links libdevice into `llvmModule` when it calls libdevice functions.
/// Errors are reported at the first call of such a function in `module`.
static LogicalResult
linkLibdeviceIfNeeded(ModuleOp module, llvm::Module &llvmModule,
                      const tilec::TargetOptions &options) {
  std::string function = tilec::firstLibdeviceCall(llvmModule);
  if (function.empty())
    return success();
  Location loc = module.getLoc();
  module.walk([&](LLVM::CallOp call) {
    if (call.getCallee() == function) {
      loc = call.getLoc();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  std::string path = tilec::findLibdevice(options.libdevicePath);
  if (path.empty())
    return emitError(loc) << "'" << function
                          << "' comes from NVIDIA's libdevice, which was not "
                             "found: pass --libdevice PATH/libdevice.10.bc or "
                             "set "
                          << tilec::kLibdeviceEnvVar
                          << " (it ships with the CUDA toolkit in "
                             "nvvm/libdevice/)";
  std::string error = tilec::linkLibdevice(llvmModule, path);
  if (!error.empty())
    return emitError(loc) << error << " (needed for '" << function << "')";
  return success();
}

/// Gives kernels renamed by the lowering (kRenamedKernelSuffix) their names
/// back. A libdevice function of that name, linked in and internal by now,
/// moves aside; an external the PTX must call by that name is an error.
static LogicalResult restoreKernelNames(ModuleOp module,
                                        llvm::Module &llvmModule) {
  for (llvm::Function &function : llvmModule) {
    llvm::StringRef name = function.getName();
    if (!name.consume_back(tilec::kRenamedKernelSuffix))
      continue;
    std::string kernelName = name.str();
    if (llvm::Function *other = llvmModule.getFunction(kernelName)) {
      if (other->isDeclaration()) {
        Operation *kernel = module.lookupSymbol(function.getName());
        return emitError(kernel ? kernel->getLoc() : module.getLoc())
               << "kernel '" << kernelName
               << "' has the name of the external function "
               << "the generated code calls for device_print/device_assert; "
                  "rename the kernel";
      }
      other->setName(kernelName + "$libdevice");
    }
    function.setName(kernelName);
  }
  return success();
}

bool mlir::tilec::isSupportedArch(llvm::StringRef arch) {
  return llvm::is_contained(llvm::split(kSupportedArchs, ", "), arch);
}

/// The NVPTX TargetMachine for `options`, or null with `error` set.
static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const tilec::TargetOptions &options, std::string &error) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  llvm::Triple triple(kTriple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  std::string features = "+ptx" + std::to_string(options.ptxVersion);
  llvm::TargetOptions machineOptions;
  machineOptions.AllowFPOpFusion =
      options.fpFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, options.arch, features, machineOptions, std::nullopt,
      std::nullopt,
      llvm::CodeGenOpt::getLevel(std::min(options.optLevel, 3u)).value_or(
          llvm::CodeGenOptLevel::Aggressive)));
}

std::unique_ptr<llvm::Module>
mlir::tilec::translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                               const TargetOptions &options) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "tilec");
  if (!llvmModule)
    return nullptr;
  std::string error;
  auto machine = createTargetMachine(options, error);
  if (!machine) {
    module.emitError("cannot create the NVPTX target: ") << error;
    return nullptr;
  }
  if (!options.lineInfo)
    llvm::StripDebugInfo(*llvmModule);
  llvmModule->setTargetTriple(llvm::Triple(kTriple));
  llvmModule->setDataLayout(machine->createDataLayout());
  if (failed(linkLibdeviceIfNeeded(module, *llvmModule, options)) ||
      failed(restoreKernelNames(module, *llvmModule)))
    return nullptr;

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(machine.get());
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::OptimizationLevel level = levels[std::min(options.optLevel, 3u)];
  (level == llvm::OptimizationLevel::O0 ? builder.buildO0DefaultPipeline(level)
                                        : builder.buildPerModuleDefaultPipeline(level))
      .run(*llvmModule, modules);
  hideNegationsFromIntegerMinMax(*llvmModule);
  return llvmModule;
}

std::optional<std::string>
mlir::tilec::compileToPTX(llvm::Module &module, const TargetOptions &options,
                          Location loc) {
  std::string error;
  auto machine = createTargetMachine(options, error);
  if (!machine) {
    emitError(loc, "cannot create the NVPTX target: ") << error;
    return std::nullopt;
  }
  std::string ptx;
  {
    llvm::raw_string_ostream stream(ptx);
    llvm::buffer_ostream buffer(stream);
    llvm::legacy::PassManager pm;
    if (machine->addPassesToEmitFile(pm, buffer, nullptr,
                                     llvm::CodeGenFileType::AssemblyFile)) {
      emitError(loc, "the NVPTX backend cannot emit PTX for ") << options.arch;
      return std::nullopt;
    }
    pm.run(module);
  }
  return ptx;
}
