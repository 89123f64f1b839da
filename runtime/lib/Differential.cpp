//===- Differential.cpp - GPU launches checked against the interpreter ----===//
//
// Each allocation a pointer argument points into (found with
// cuMemGetAddressRange) is copied into the interpreter's memory before the
// launch; the interpreter runs the kernel on the copies with the pointers
// moved by the same offsets; the GPU runs it on the originals; then both
// are read back and compared element by element in the type of the first
// argument that points into them. Launches that touch more than 1 GiB are
// not mirrored (logged as skipped).
//
//===----------------------------------------------------------------------===//
#include "Differential.h"

#include "tile/Error.h"
#include "tile/Half.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>

namespace tile::detail {
namespace {

constexpr std::size_t MaxMirroredBytes = std::size_t(1) << 30;

/// One allocation an argument points into, on both sides.
struct Mirror {
  std::uint64_t GpuBase = 0, HostBase = 0;
  std::size_t Bytes = 0;
  ScalarKind Elem = ScalarKind::U8;
  std::string Name; ///< The first parameter pointing into it.
};

double decode(const unsigned char *P, ScalarKind Kind) {
  switch (Kind) {
  case ScalarKind::FP16: {
    Half H;
    std::memcpy(&H.Bits, P, 2);
    return H.toFloat();
  }
  case ScalarKind::BF16: {
    BFloat16 B;
    std::memcpy(&B.Bits, P, 2);
    return B.toFloat();
  }
  case ScalarKind::FP8E4M3:
    return Float8E4M3{*P}.toFloat();
  case ScalarKind::FP8E5M2:
    return Float8E5M2{*P}.toFloat();
  case ScalarKind::FP32: {
    float F;
    std::memcpy(&F, P, 4);
    return F;
  }
  default: {
    double D;
    std::memcpy(&D, P, 8);
    return D;
  }
  }
}

bool isFloat(ScalarKind Kind) {
  return Kind == ScalarKind::FP8E4M3 || Kind == ScalarKind::FP8E5M2 ||
         Kind == ScalarKind::FP16 || Kind == ScalarKind::BF16 || Kind == ScalarKind::FP32 ||
         Kind == ScalarKind::FP64;
}

/// The norm-wise tolerance (max |difference| / max |value|) of a type.
/// fp64 gets fp32's: its values often went through fp32 (a cast, a
/// transcendental) on the way.
double tolerance(ScalarKind Kind) {
  if (Kind == ScalarKind::FP8E4M3 || Kind == ScalarKind::FP8E5M2)
    return 0.13; // One step of e4m3 at the largest value.
  return Kind == ScalarKind::FP16 || Kind == ScalarKind::BF16 ? 1e-2 : 2e-3;
}

/// Compares one buffer; returns the line to log and sets \p Ok.
std::string compare(const Mirror &M, const std::vector<unsigned char> &Gpu,
                    const std::vector<unsigned char> &Host, bool &Ok) {
  std::ostringstream Line;
  std::size_t Size = scalarSize(M.Elem);
  std::size_t N = M.Bytes / Size;
  Line << "'" << M.Name << "' (*" << scalarName(M.Elem) << ", " << N << " elements): ";
  if (std::memcmp(Gpu.data(), Host.data(), M.Bytes) == 0) {
    Ok = true;
    Line << "bit-identical";
    return Line.str();
  }
  std::size_t Differ = 0, NaNMismatch = 0, First = N;
  double MaxDiff = 0, MaxValue = 0;
  std::ostringstream Samples; // the first few differences, both values
  for (std::size_t I = 0; I < N; ++I) {
    const unsigned char *G = Gpu.data() + I * Size, *H = Host.data() + I * Size;
    if (std::memcmp(G, H, Size) == 0) {
      if (isFloat(M.Elem) && std::isfinite(decode(H, M.Elem)))
        MaxValue = std::max(MaxValue, std::fabs(decode(H, M.Elem)));
      continue;
    }
    if (First == N)
      First = I;
    if (Differ < 3) {
      Samples << "; [" << I << "] GPU ";
      if (isFloat(M.Elem))
        Samples << decode(G, M.Elem) << " interpreter " << decode(H, M.Elem);
      else {
        std::uint64_t A = 0, B = 0;
        std::memcpy(&A, G, Size);
        std::memcpy(&B, H, Size);
        Samples << "0x" << std::hex << A << " interpreter 0x" << B << std::dec;
      }
    }
    ++Differ;
    if (!isFloat(M.Elem))
      continue;
    double A = decode(G, M.Elem), B = decode(H, M.Elem);
    if (std::isnan(A) != std::isnan(B) || std::isinf(A) || std::isinf(B)) {
      NaNMismatch += !(std::isnan(A) && std::isnan(B)) && A != B;
      continue;
    }
    MaxDiff = std::max(MaxDiff, std::fabs(A - B));
    MaxValue = std::max(MaxValue, std::fabs(B));
  }
  // Bytes past the last whole element (a buffer whose size is no multiple
  // of the element) are compared as bytes.
  if (std::memcmp(Gpu.data() + N * Size, Host.data() + N * Size, M.Bytes - N * Size) != 0) {
    ++Differ;
    NaNMismatch += isFloat(M.Elem); // no tolerance for them
  }
  double NormRel = MaxValue > 0 ? MaxDiff / MaxValue : MaxDiff;
  Ok = isFloat(M.Elem) ? NaNMismatch == 0 && NormRel <= tolerance(M.Elem) : Differ == 0;
  Line << Differ << " differ (first at " << First << ")";
  if (isFloat(M.Elem))
    Line << ", max abs difference " << MaxDiff << ", norm-wise " << NormRel
         << (NaNMismatch ? ", " + std::to_string(NaNMismatch) + " NaN/inf mismatches" : "");
  Line << Samples.str();
  return Line.str();
}

void writeLog(const std::string &Text) {
  static std::mutex Lock;
  std::lock_guard<std::mutex> Guard(Lock);
  const char *Path = std::getenv("TILE_DIFFERENTIAL_LOG");
  FILE *Out = Path && *Path ? std::fopen(Path, "a") : nullptr;
  std::fputs(Text.c_str(), Out ? Out : stderr);
  if (Out)
    std::fclose(Out);
}

} // namespace

bool differentialEnabled() noexcept {
  const char *Value = std::getenv("TILE_DIFFERENTIAL");
  return Value && std::string(Value) == "1";
}

void launchDifferential(ModuleState &Owner, const KernelInfo &Kernel, const Grid &G,
                        const Arg *Args, std::size_t Count,
                        const std::function<void()> &LaunchOnGpu) {
  InterpreterBackend &Interpreter = requireInterpreter();
  const cu::DriverApi &D = cu::driver();
  std::ostringstream Head;
  Head << "differential: " << Kernel.Name << " grid (" << G.X << ", " << G.Y << ", " << G.Z
       << ")";
  Owner.Ctx->makeCurrent();
  cu::check(D.cuCtxSynchronize(), "cuCtxSynchronize");

  // The allocations, once each, in the order the arguments name them.
  std::map<std::uint64_t, Mirror> ByBase;
  std::vector<std::uint64_t> Order;
  std::size_t Total = 0;
  for (std::size_t I = 0; I < Count; ++I) {
    if (!Args[I].type().IsPointer)
      continue;
    cu::CUdeviceptr Base = 0;
    std::size_t Bytes = 0;
    if (D.cuMemGetAddressRange(&Base, &Bytes, Args[I].address()) != cu::CUDA_SUCCESS)
      continue; // Not device memory of this context: the interpreter reports it.
    if (ByBase.count(Base))
      continue;
    Mirror M;
    M.GpuBase = Base;
    M.Bytes = Bytes;
    M.Elem = Args[I].type().Elem;
    M.Name = I < Kernel.Params.size() ? Kernel.Params[I].Name : "";
    ByBase[Base] = M;
    Order.push_back(Base);
    Total += Bytes;
  }
  if (Total > MaxMirroredBytes) {
    writeLog(Head.str() + ": skipped (" + std::to_string(Total >> 20) + " MiB of buffers)\n");
    return LaunchOnGpu();
  }

  {
    std::lock_guard<std::mutex> Guard(Owner.ShadowLock);
    if (!Owner.Shadow)
      Owner.Shadow = Interpreter.load(Owner.Meta, Owner.Origin);
  }
  auto ReleaseAll = [&] {
    for (auto &[Base, M] : ByBase)
      if (M.HostBase)
        Interpreter.release(M.HostBase);
  };
  std::vector<unsigned char> Bytes;
  try {
    for (std::uint64_t Base : Order) {
      Mirror &M = ByBase[Base];
      Bytes.resize(M.Bytes);
      cu::check(D.cuMemcpyDtoH(Bytes.data(), M.GpuBase, M.Bytes), "cuMemcpyDtoH");
      M.HostBase = Interpreter.allocate(M.Bytes);
      Interpreter.upload(M.HostBase, Bytes.data(), M.Bytes);
    }
  } catch (...) {
    ReleaseAll();
    throw;
  }
  std::vector<Arg> Moved(Args, Args + Count);
  for (Arg &A : Moved) {
    if (!A.type().IsPointer)
      continue;
    auto It = ByBase.upper_bound(A.address());
    if (It == ByBase.begin())
      continue;
    --It;
    if (A.address() < It->second.GpuBase + It->second.Bytes)
      A = Arg(DevicePtr(It->second.HostBase + (A.address() - It->second.GpuBase), A.type().Elem));
  }
  std::string InterpreterError;
  try {
    Owner.Shadow->launch(Kernel, G, Moved.data(), Moved.size());
  } catch (const Error &E) {
    InterpreterError = E.what();
  }

  try {
    LaunchOnGpu();
    cu::check(D.cuCtxSynchronize(), "cuCtxSynchronize");
  } catch (...) {
    ReleaseAll();
    writeLog(Head.str() + ": the GPU launch failed" +
             (InterpreterError.empty() ? std::string(" (the interpreter's did not)")
                                       : "; the interpreter's too: " + InterpreterError) +
             "\n");
    throw;
  }
  std::string Log = Head.str();
  if (!InterpreterError.empty()) {
    Log += ": DIFFERENT: the interpreter failed where the GPU did not: " + InterpreterError + "\n";
  } else {
    bool AllOk = true;
    std::vector<unsigned char> Host;
    for (std::uint64_t Base : Order) {
      const Mirror &M = ByBase[Base];
      Bytes.resize(M.Bytes);
      Host.resize(M.Bytes);
      cu::CUresult R = D.cuMemcpyDtoH(Bytes.data(), M.GpuBase, M.Bytes);
      if (R != cu::CUDA_SUCCESS) {
        ReleaseAll();
        cu::fail(R, "cuMemcpyDtoH");
      }
      Interpreter.download(Host.data(), M.HostBase, M.Bytes);
      bool Ok = true;
      std::string Line = compare(M, Bytes, Host, Ok);
      AllOk = AllOk && Ok;
      Log += "\n  " + Line + (Ok ? "" : "  <- DIFFERENT");
    }
    Log = Log.substr(0, Head.str().size()) + (AllOk ? ": ok" : ": DIFFERENT") +
          Log.substr(Head.str().size()) + "\n";
  }
  ReleaseAll();
  writeLog(Log);
}

} // namespace tile::detail
