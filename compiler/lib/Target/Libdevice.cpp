//===- Libdevice.cpp - Linking NVIDIA's libdevice math library ------------===//
//
// Finds libdevice.10.bc, links only the functions the module calls, and
// makes them internal so that O3 inlines them and drops the rest.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/Libdevice.h"

#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>

using namespace mlir;

/// The file name of libdevice in every CUDA toolkit since 9.0.
static constexpr const char *kLibdeviceFile = "libdevice.10.bc";

std::string tilec::findLibdevice(llvm::StringRef explicitPath) {
  if (!explicitPath.empty())
    return explicitPath.str();
  if (const char *env = std::getenv(kLibdeviceEnvVar))
    if (*env)
      return env;
  llvm::SmallVector<std::string> directories;
  if (const char *cudaHome = std::getenv("CUDA_HOME"))
    if (*cudaHome)
      directories.push_back((llvm::Twine(cudaHome) + "/nvvm/libdevice").str());
  directories.push_back("/usr/local/cuda/nvvm/libdevice");
  directories.push_back("/usr/lib/nvidia-cuda-toolkit/libdevice");
  for (const std::string &directory : directories) {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, kLibdeviceFile);
    if (llvm::sys::fs::exists(path))
      return std::string(path);
  }
  return "";
}

std::string tilec::firstLibdeviceCall(const llvm::Module &module) {
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_") &&
        !function.use_empty())
      return function.getName().str();
  return "";
}

std::string tilec::linkLibdevice(llvm::Module &module, llvm::StringRef path) {
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> libdevice =
      llvm::parseIRFile(path, diagnostic, module.getContext());
  if (!libdevice)
    return ("cannot read libdevice '" + path + "': " + diagnostic.getMessage())
        .str();
  // libdevice carries an older triple and data layout; ours win.
  libdevice->setTargetTriple(module.getTargetTriple());
  libdevice->setDataLayout(module.getDataLayout());
  bool failed = llvm::Linker::linkModules(
      module, std::move(libdevice), llvm::Linker::Flags::LinkOnlyNeeded,
      [](llvm::Module &linked, const llvm::StringSet<> &names) {
        for (llvm::GlobalValue &value : linked.global_values())
          if (!value.isDeclaration() && names.contains(value.getName()))
            value.setLinkage(llvm::GlobalValue::InternalLinkage);
      });
  if (failed)
    return ("cannot link libdevice '" + path + "'").str();
  // libdevice asks __nvvm_reflect("__CUDA_FTZ"); NVVMReflect answers from
  // this flag: keep denormals, as Triton does by default.
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                       static_cast<uint32_t>(0));
  return "";
}
