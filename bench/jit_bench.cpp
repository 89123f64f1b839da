//===- jit_bench.cpp - Launch cost, compile time and the autotuned matmul -===//
//
// The C++ half of issue 10's measurements (bench/jit_bench.py runs Triton's
// and PyTorch's half in the same device run and joins them). Prints one
// JSON object:
//   "launch_us": host microseconds per launch of an empty kernel with two
//     pointers and an integer, for raw cuLaunchKernel, the launcher header
//     (tilec --emit=header), tile::Kernel::launch and a cached
//     tile::JitKernel::launch (median of batches of back-to-back launches);
//   "compile_ms": per example kernel, the JIT's cold compilation (no cache:
//     libtilec, then the driver's PTX to SASS) and warm one (disk cache hit
//     and module load), each to a loaded module;
//   "matmul": Triton's tutorial matmul (dsl_examples/matmul_autotune.tile)
//     autotuned by the JIT at 4096 and 8192 fp16: the winning config and
//     its TFLOP/s (median of timed runs with L2 flushed between them), with
//     sampled entries checked against a double reference first.
//
//===----------------------------------------------------------------------===//
#include "DriverApi.h"
#include "ExampleSupport.h"
#include "empty_launcher.h"
#include "tile/Jit.h"
#include "tile/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

/// Host microseconds per call of \p Launch: the median over batches of
/// back-to-back launches, the GPU drained between batches.
template <class F> double launchMicros(const tile::Context &Ctx, F Launch) {
  constexpr int Batches = 60, PerBatch = 200;
  for (int I = 0; I < 1000; ++I) // Warm-up.
    Launch();
  Ctx.synchronize();
  std::vector<double> Us;
  for (int B = 0; B < Batches; ++B) {
    auto T0 = Clock::now();
    for (int I = 0; I < PerBatch; ++I)
      Launch();
    auto T1 = Clock::now();
    Ctx.synchronize();
    Us.push_back(std::chrono::duration<double, std::micro>(T1 - T0).count() / PerBatch);
  }
  std::nth_element(Us.begin(), Us.begin() + Us.size() / 2, Us.end());
  return Us[Us.size() / 2];
}

void measureLaunches(const tile::Context &Ctx, const std::string &Dir) {
  tile::DeviceBuffer<float> X(Ctx, 1024), Y(Ctx, 1024);
  std::int32_t N = 1024;
  tile::Grid G{1};
  tile::Stream S;

  // Raw: the embedded PTX loaded by hand, one cuLaunchKernel per launch.
  const tile::cu::DriverApi &D = tile::cu::driver();
  tile::cu::CUmodule Mod = nullptr;
  tile::cu::CUfunction Fn = nullptr;
  tile::cu::check(D.cuModuleLoadDataEx(&Mod, tilec_kernels::empty::Ptx, 0, nullptr, nullptr),
                  "cuModuleLoadDataEx");
  tile::cu::check(D.cuModuleGetFunction(&Fn, Mod, "empty_kernel"), "cuModuleGetFunction");
  std::uint64_t PX = X.devicePtr(), PY = Y.devicePtr();
  void *Params[] = {&PX, &PY, &N};
  double Raw = launchMicros(Ctx, [&] {
    D.cuLaunchKernel(Fn, 1, 1, 1, 128, 1, 1, 0, nullptr, Params, nullptr);
  });

  tilec_kernels::empty::empty_kernel Aot(Ctx);
  double Header = launchMicros(Ctx, [&] { Aot(G, S, X, Y, N); });
  const tile::Kernel &K = Aot.kernel();
  double Checked = launchMicros(Ctx, [&] { K.launch(G, S, X, Y, N); });

  tile::JitOptions Options;
  Options.CacheDir = Dir;
  tile::JitKernel Jit = tile::JitModule::fromFile(Ctx, examples::findExamplePtx("empty.tile"),
                                                  Options)
                            .kernel("empty_kernel");
  const tile::LaunchOptions Block{{{"BLOCK", 128}}, {}, {}};
  double JitCached = launchMicros(Ctx, [&] { Jit.launch(G, S, Block, X, Y, N); });
  std::printf("  \"launch_us\": {\"raw_cuLaunchKernel\": %.3f, \"aot_header\": %.3f, "
              "\"runtime_checked\": %.3f, \"jit_cached\": %.3f},\n",
              Raw, Header, Checked, JitCached);
  D.cuModuleUnload(Mod);
}

/// An example kernel and its parameter types, for compile times.
struct CompileCase {
  const char *File, *Kernel;
  std::vector<const char *> Types;
};

/// The example source \p Name: in the source tree this program was built
/// from, or beside the build directory it runs in.
std::string findSource(const std::string &Name) {
  std::string ExeDir = tile::executableDir();
  return tile::findFile(Name, {TILEC_SOURCE_DIR "/dsl_examples",
                               ExeDir.empty() ? "" : ExeDir + "/../../dsl_examples"});
}

/// Arguments of the given types (addresses 0, integers 4096, floats 1).
std::vector<tile::Arg> argsOf(const std::vector<const char *> &Types) {
  std::vector<tile::Arg> Args;
  for (std::string T : Types) {
    if (T[0] == '*')
      Args.push_back(tile::DevicePtr(0, T.substr(1)));
    else if (T == "i32")
      Args.push_back(std::int32_t(4096));
    else
      Args.push_back(1.0f);
  }
  return Args;
}

void measureCompiles(const tile::Context &Ctx, const std::string &Dir) {
  std::vector<CompileCase> Cases = {
      {"vector_add.tile", "add_kernel", {"*fp32", "*fp32", "*fp32", "i32"}},
      {"softmax.tile", "softmax_kernel", {"*fp32", "*fp32", "i32", "i32", "i32", "i32"}},
      {"layernorm.tile", "layer_norm_fwd_fused",
       {"*fp32", "*fp32", "*fp32", "*fp32", "*fp32", "*fp32", "i32", "i32", "fp32"}},
      {"matmul.tile", "matmul_kernel",
       {"*fp16", "*fp16", "*fp16", "i32", "i32", "i32", "i32", "i32", "i32"}},
      {"attention.tile", "attention_fwd", {"*fp16", "*fp16", "*fp16", "*fp16", "i32", "fp32"}},
  };
  std::printf("  \"compile_ms\": {");
  bool First = true;
  for (const CompileCase &C : Cases) {
    std::string Path = findSource(C.File);
    std::string CaseDir = Dir + "/" + C.File;
    std::vector<tile::Arg> Args = argsOf(C.Types);
    double Ms[2];
    for (int Round = 0; Round < 2; ++Round) { // Cold, then warm.
      tile::JitOptions Options;
      Options.CacheDir = CaseDir;
      auto T0 = Clock::now();
      tile::JitKernel K = tile::JitModule::fromFile(Ctx, Path, Options).kernel(C.Kernel);
      K.specialize({}, Args);
      Ms[Round] = std::chrono::duration<double, std::milli>(Clock::now() - T0).count();
    }
    std::printf("%s\"%s\": {\"cold\": %.1f, \"warm\": %.1f}", First ? "" : ", ", C.File,
                Ms[0], Ms[1]);
    First = false;
  }
  std::printf("},\n");
}

void measureMatmul(const tile::Context &Ctx, const std::string &Dir) {
  tile::JitOptions Options;
  Options.CacheDir = Dir;
  tile::JitKernel K =
      tile::JitModule::fromFile(Ctx, examples::findExamplePtx("matmul_autotune.tile"), Options)
          .kernel("matmul_kernel");
  tile::DeviceBuffer<unsigned char> Flush(Ctx, 256u << 20);
  std::printf("  \"matmul\": [");
  bool First = true;
  for (std::int32_t Size : {4096, 8192}) {
    std::size_t Elems = std::size_t(Size) * Size;
    std::vector<tile::Half> A = examples::randomValues<tile::Half>(Elems, Size);
    std::vector<tile::Half> B = examples::randomValues<tile::Half>(Elems, Size + 1);
    tile::DeviceBuffer<tile::Half> DA(Ctx, Elems), DB(Ctx, Elems), DC(Ctx, Elems);
    DA.copyFromHost(A);
    DB.copyFromHost(B);
    auto Grid = [Size](const tile::KernelInfo &I) {
      return tile::Grid{static_cast<unsigned>(
          tile::cdiv<std::int64_t>(Size, I.constexprInt("BLOCK_SIZE_M")) *
          tile::cdiv<std::int64_t>(Size, I.constexprInt("BLOCK_SIZE_N")))};
    };
    auto Launch = [&] {
      K.launch(Grid, tile::Stream(), DA, DB, DC, Size, Size, Size, Size, std::int32_t(1),
               Size, std::int32_t(1), Size, std::int32_t(1));
    };
    auto T0 = Clock::now();
    Launch(); // Tunes.
    Ctx.synchronize();
    double TuneS = std::chrono::duration<double>(Clock::now() - T0).count();
    // Sampled entries against a double reference.
    std::vector<tile::Half> C = DC.toHost();
    std::mt19937 Gen(7);
    double MaxErr = 0;
    for (int S = 0; S < 256; ++S) {
      std::size_t I = Gen() % Size, J = Gen() % Size;
      double Ref = 0;
      for (std::int32_t Kk = 0; Kk < Size; ++Kk)
        Ref += double(A[I * Size + Kk].toFloat()) * B[std::size_t(Kk) * Size + J].toFloat();
      MaxErr = std::max(MaxErr, std::fabs(C[I * Size + J].toFloat() - Ref) /
                                    (1e-2 * std::sqrt(double(Size)) / 3 + 1e-2 * std::fabs(Ref)));
    }
    tile::Timer T(Ctx);
    std::vector<double> Times;
    for (int R = 0; R < 20; ++R) {
      Flush.fillBytes(R);
      T.start();
      Launch();
      T.stop();
      Times.push_back(T.elapsedMs());
    }
    std::nth_element(Times.begin(), Times.begin() + Times.size() / 2, Times.end());
    double Ms = Times[Times.size() / 2];
    tile::Kernel Chosen = K.specialize({}, {tile::Arg(DA), tile::Arg(DB), tile::Arg(DC), Size,
                                            Size, Size, Size, std::int32_t(1), Size,
                                            std::int32_t(1), Size, std::int32_t(1)});
    std::string Config;
    for (const auto &[Name, Value] : Chosen.info().Constexprs)
      Config += Name + "=" + std::to_string(std::get<std::int64_t>(Value)) + " ";
    Config += "num_warps=" + std::to_string(Chosen.info().NumWarps);
    std::printf("%s{\"size\": %d, \"ms\": %.4f, \"tflops\": %.1f, \"config\": \"%s\", "
                "\"tune_s\": %.2f, \"checked\": %s, \"max_err_over_tol\": %.3f}",
                First ? "" : ", ", Size, Ms, 2.0 * Size * Size * double(Size) / Ms / 1e9,
                Config.c_str(), TuneS, MaxErr <= 1 ? "true" : "false", MaxErr);
    First = false;
  }
  std::printf("]\n");
}

} // namespace

int main() {
  if (!tile::gpuAvailable()) {
    std::printf("SKIPPED: no GPU (%s)\n", tile::gpuUnavailableReason().c_str());
    return 77;
  }
  tile::Context Ctx(0);
  std::string Dir = "/tmp/tilec-jit-bench-" + std::to_string(::getpid());
  std::filesystem::remove_all(Dir);
  std::printf("{\n  \"device\": \"%s\",\n", Ctx.deviceName().c_str());
  measureLaunches(Ctx, Dir + "/launch");
  measureCompiles(Ctx, Dir + "/compile");
  measureMatmul(Ctx, Dir + "/matmul");
  std::printf("}\n");
  std::filesystem::remove_all(Dir);
  return 0;
}
