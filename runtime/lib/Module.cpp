//===- Module.cpp - Loading PTX or a cubin and its metadata ---------------===//
#include "tile/Module.h"

#include "Files.h"
#include "Internal.h"
#include "tile/Error.h"
#include "tile/Kernel.h"

#include <cstdint>
#include <vector>

namespace tile {

namespace detail {

ModuleState::~ModuleState() {
  if (!Handle)
    return;
  if (const cu::DriverApi *D = cu::tryDriver(nullptr)) {
    D->cuCtxSetCurrent(Ctx->Ctx);
    D->cuModuleUnload(Handle);
  }
}

} // namespace detail

namespace {

constexpr std::size_t LogBytes = 64 * 1024;

std::string trimmedLog(const std::vector<char> &Log) {
  std::string S(Log.data()); // The driver NUL-terminates the log.
  while (!S.empty() && (S.back() == '\n' || S.back() == ' '))
    S.pop_back();
  return S;
}

/// JIT-compiles \p Ptx (or loads a cubin) into \p State, putting the JIT
/// error log into the exception when the driver rejects it.
void jitCompile(detail::ModuleState &State, const std::string &Ptx) {
  std::vector<char> ErrorLog(LogBytes, '\0');
  std::vector<char> InfoLog(LogBytes, '\0');
  cu::CUjit_option Options[] = {
      cu::CU_JIT_ERROR_LOG_BUFFER, cu::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      cu::CU_JIT_INFO_LOG_BUFFER, cu::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {ErrorLog.data(),
                    reinterpret_cast<void *>(
                        static_cast<std::uintptr_t>(ErrorLog.size() - 1)),
                    InfoLog.data(),
                    reinterpret_cast<void *>(
                        static_cast<std::uintptr_t>(InfoLog.size() - 1))};
  cu::CUresult R = cu::driver().cuModuleLoadDataEx(&State.Handle, Ptx.c_str(),
                                                   4, Options, Values);
  if (R == cu::CUDA_SUCCESS)
    return;
  State.Handle = nullptr;
  std::string Log = trimmedLog(ErrorLog);
  if (Log.empty())
    Log = trimmedLog(InfoLog);
  cu::fail(R, "cuModuleLoadDataEx",
           "while loading " + State.Origin +
               (Log.empty() ? std::string(" (the JIT log is empty)")
                            : "; JIT log:\n" + Log));
}

/// For a cubin, whose metadata no PTX check has compared with the code:
/// throws when kernel \p F has other parameters than \p K lists (their
/// count and sizes, where the driver tells: cuFuncGetParamInfo; and the
/// global scratch's pointer last when K has one) or more static shared
/// memory than K's shared_bytes.
void checkCubinKernel(const detail::ModuleState &State, const KernelInfo &K,
                      cu::CUfunction F) {
  const cu::DriverApi &D = cu::driver();
  std::string Prefix = State.Origin + " does not match its metadata " + State.Meta.Origin +
                       ": kernel " + K.Name + " ";
  if (D.cuFuncGetParamInfo) {
    std::size_t Offset = 0, Size = 0;
    for (std::size_t I = 0; I < K.Params.size(); ++I) {
      if (D.cuFuncGetParamInfo(F, I, &Offset, &Size) != cu::CUDA_SUCCESS)
        throw Error(Prefix + "has " + std::to_string(I) + " parameters in the cubin, " +
                    std::to_string(K.Params.size()) + " in the metadata");
      if (Size != K.Params[I].paramBytes())
        throw Error(Prefix + "parameter " + std::to_string(I + 1) + " is " +
                    std::to_string(Size) + " bytes in the cubin, but " + K.Params[I].Name +
                    " is " + K.Params[I].typeName() + " in the metadata");
    }
    // A kernel that builds tensor maps takes its global scratch last.
    std::size_t Count = K.Params.size();
    if (K.GlobalScratchBytes) {
      if (D.cuFuncGetParamInfo(F, Count, &Offset, &Size) != cu::CUDA_SUCCESS || Size != 8)
        throw Error(Prefix + "has no 8-byte parameter after its " + std::to_string(Count) +
                    " in the cubin for the global scratch of the metadata");
      ++Count;
    }
    if (D.cuFuncGetParamInfo(F, Count, &Offset, &Size) == cu::CUDA_SUCCESS)
      throw Error(Prefix + "has more parameters in the cubin than the " +
                  std::to_string(K.Params.size()) + " of the metadata" +
                  (K.GlobalScratchBytes ? " and its global scratch" : ""));
  }
  int Static = 0;
  cu::check(D.cuFuncGetAttribute(&Static, cu::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, F),
            "cuFuncGetAttribute");
  if (static_cast<std::size_t>(Static) > K.SharedBytes)
    throw Error(Prefix + "uses " + std::to_string(Static) +
                " bytes of static shared memory, but its shared_bytes is " +
                std::to_string(K.SharedBytes));
}

/// Looks up every kernel the metadata lists and raises its shared-memory
/// limit when it needs more than the default 48 KiB.
void bindKernels(detail::ModuleState &State, bool Cubin) {
  const cu::DriverApi &D = cu::driver();
  for (const KernelInfo &K : State.Meta.Kernels) {
    cu::CUfunction F = nullptr;
    cu::CUresult R = D.cuModuleGetFunction(&F, State.Handle, K.Name.c_str());
    if (R != cu::CUDA_SUCCESS)
      cu::fail(R, "cuModuleGetFunction",
               State.Origin + " has no kernel '" + K.Name +
                   "' although its metadata lists it");
    if (Cubin)
      checkCubinKernel(State, K, F);
    if (K.needsSharedOptIn()) {
      // Before any launch: a clear error rather than a failed launch.
      K.checkSharedBytes(State.Ctx->MaxSharedOptin, State.Ctx->Name);
      cu::check(D.cuFuncSetAttribute(
                    F, cu::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    static_cast<int>(K.SharedBytes)),
                "cuFuncSetAttribute");
    }
    State.Functions.push_back(F);
  }
}

} // namespace

Module Module::load(const Context &Ctx, const std::string &Ptx,
                    ModuleMetadata Meta, const std::string &Origin) {
  bool Cubin = isCubin(Ptx);
  if (Cubin)
    Meta.checkCubin(Ptx, Origin);
  else
    Meta.checkPtx(Ptx, Origin);
  if (Ctx.backend() == Backend::Interpreter) {
    auto State = std::make_shared<detail::ModuleState>();
    State->Ctx = Ctx.state();
    State->Program = detail::requireInterpreter().load(Meta, Origin);
    State->Meta = std::move(Meta);
    State->Origin = Origin;
    State->Functions.assign(State->Meta.Kernels.size(), nullptr);
    return Module(std::move(State));
  }
  int Needed = Meta.targetArch();
  ComputeCapability Have = Ctx.computeCapability();
  if (Needed > Have.arch())
    throw Error(Origin + " was compiled for " + Meta.Target + ", but " +
                Ctx.deviceName() + " is sm_" + std::to_string(Have.arch()));
  if (Cubin && !Meta.cubinRunsOn(Have.arch()))
    throw Error(Origin + " is a cubin assembled for " + Meta.Target + ", which " +
                Ctx.deviceName() + " (sm_" + std::to_string(Have.arch()) +
                ") cannot run: a cubin runs only on GPUs of its own major "
                "version (an sm_XXa cubin only on its own); load the PTX, "
                "which the driver compiles for this GPU");
  auto State = std::make_shared<detail::ModuleState>();
  State->Ctx = Ctx.state();
  State->Meta = std::move(Meta);
  State->Origin = Origin;
  State->Ctx->makeCurrent();
  jitCompile(*State, Ptx);
  bindKernels(*State, Cubin);
  return Module(std::move(State));
}

Module Module::loadFile(const Context &Ctx, const std::string &PtxPath) {
  bool CubinPath = PtxPath.size() > 6 && PtxPath.compare(PtxPath.size() - 6, 6, ".cubin") == 0;
  std::string Ptx = readFile(PtxPath, CubinPath ? "cubin" : "PTX file");
  if (CubinPath && !isCubin(Ptx))
    throw Error(PtxPath + " is not a cubin (an ELF file, as tilec --emit=cubin writes): "
                          "it is " +
                std::to_string(Ptx.size()) + " bytes that do not begin with ELF's magic");
  std::string JsonPath = metadataPathFor(PtxPath);
  std::string Json = readFile(JsonPath, "metadata file");
  return load(Ctx, Ptx, ModuleMetadata::parse(Json, JsonPath), PtxPath);
}

Kernel Module::kernel(std::string_view Name) const {
  const std::vector<KernelInfo> &Kernels = State->Meta.Kernels;
  for (std::size_t I = 0; I < Kernels.size(); ++I)
    if (Kernels[I].Name == Name)
      return Kernel(State, Kernels[I], State->Functions[I]);
  throw Error(State->Origin + " has no kernel '" + std::string(Name) +
              "'; it has: " + State->Meta.kernelNames());
}

const ModuleMetadata &Module::metadata() const noexcept { return State->Meta; }

std::string metadataPathFor(const std::string &PtxPath) {
  std::size_t Slash = PtxPath.rfind('/');
  std::size_t Base = Slash == std::string::npos ? 0 : Slash + 1;
  for (const std::string Ext : {".ptx", ".cubin"})
    if (PtxPath.size() >= Base + Ext.size() + 1 &&
        PtxPath.compare(PtxPath.size() - Ext.size(), Ext.size(), Ext) == 0)
      return PtxPath.substr(0, PtxPath.size() - Ext.size()) + ".json";
  return PtxPath + ".json";
}

} // namespace tile
