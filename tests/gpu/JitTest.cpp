//===- JitTest.cpp - The JIT on the GPU -----------------------------------===//
//
// Triton-style kernels (unannotated parameters, host tensor descriptors,
// @triton.autotune) launched
// through tile::JitModule: results against CPU references, one compilation
// per specialization, autotuning that leaves reset_to_zero / restore_value
// arguments as one launch would, and launches captured into a CUDA graph
// and replayed.
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include "tile/Jit.h"

#include <dlfcn.h>
#include <filesystem>
#include <unistd.h>

namespace {

constexpr const char *kSource = R"(
import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)

@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4),
                          triton.Config({'BLOCK': 512}, num_warps=4),
                          triton.Config({'BLOCK': 1024}, num_warps=8)],
                 key=['n'], reset_to_zero=['out_ptr'])
@triton.jit
def accumulate(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

@triton.jit
def scale_desc(x_desc, out_desc, N, BN: tl.constexpr):
    row = tl.program_id(0) * x_desc.block_shape[0]
    for j in range(0, tl.cdiv(N, BN)):
        out_desc.store([row, j * BN], x_desc.load([row, j * BN]) * 3.0)

@autotune(configs=[config(BLOCK=256), config(BLOCK=2048, num_warps=8)], key=['n'],
          restore_value=['x_ptr'])
@jit
def double_in_place(x_ptr, n, BLOCK: constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
)";

class JitTest : public gputest::GpuTest<> {
protected:
  void SetUp() override {
    gputest::GpuTest<>::SetUp();
    if (IsSkipped())
      return;
    Options.CacheDir = testing::TempDir() + "/tilec-jit-gpu-" + std::to_string(::getpid());
    std::filesystem::remove_all(Options.CacheDir);
    Jit = std::make_unique<tile::JitModule>(
        tile::JitModule::fromSource(*Ctx, kSource, "jit_test.tile", Options));
  }

  /// A grid of cdiv(N, the kernel's Name constexpr) programs.
  static tile::LaunchGrid gridOver(std::size_t N, const char *Name) {
    return [N, Name](const tile::KernelInfo &K) {
      return tile::Grid{gputest::blocks(N, K.constexprInt(Name))};
    };
  }

  tile::JitOptions Options;
  std::unique_ptr<tile::JitModule> Jit;
};

TEST_F(JitTest, LaunchesTritonsAddKernelOncePerSpecialization) {
  tile::JitKernel Add = Jit->kernel("add_kernel");
  for (std::size_t N : {std::size_t(4096), std::size_t(10001), std::size_t(4096)}) {
    std::vector<float> X = examples::randomFloats(N, -1, 1, N);
    std::vector<float> Y = examples::randomFloats(N, -1, 1, N + 1);
    tile::DeviceBuffer<float> DX(*Ctx, N), DY(*Ctx, N), Out(*Ctx, N);
    DX.copyFromHost(X);
    DY.copyFromHost(Y);
    Out.fillBytes(0xFF);
    Add.launch(gridOver(N, "BLOCK_SIZE"), tile::Stream(),
               tile::LaunchOptions{{{"BLOCK_SIZE", 1024}}, {}, {}}, DX, DY, Out,
               static_cast<std::int32_t>(N));
    Ctx->synchronize();
    gputest::expectEqual(Out.toHost(), [&](std::size_t I) { return X[I] + Y[I]; },
                         "n = " + std::to_string(N));
  }
  EXPECT_EQ(Add.specializations(), 2u) << "n = 4096 (divisible by 16) and 10001";
  EXPECT_EQ(Add.specialize({{{"BLOCK_SIZE", 1024}}, {}, {}},
                           {tile::DevicePtr(0, "fp16"), tile::DevicePtr(0, "fp16"),
                            tile::DevicePtr(0, "fp16"), 64})
                .info()
                .Params[0]
                .Type.str(),
            "*fp16");
}

TEST_F(JitTest, MisalignedPointersGetTheirOwnSpecialization) {
  tile::JitKernel Add = Jit->kernel("add_kernel");
  constexpr std::size_t N = 4096;
  std::vector<float> X = examples::randomFloats(N + 1, -1, 1, 7);
  tile::DeviceBuffer<float> DX(*Ctx, N + 1), Out(*Ctx, N);
  DX.copyFromHost(X);
  tile::DevicePtr Shifted(DX.devicePtr() + 4, "fp32"); // x[1:]
  Add.launch(gridOver(N, "BLOCK_SIZE"), tile::Stream(),
             tile::LaunchOptions{{{"BLOCK_SIZE", 256}}, {}, {}}, Shifted, Shifted, Out,
             static_cast<std::int32_t>(N));
  Ctx->synchronize();
  gputest::expectEqual(Out.toHost(), [&](std::size_t I) { return X[I + 1] * 2; },
                       "x[1:] + x[1:]");
}

TEST_F(JitTest, HostTensorDescriptorsTypeTheirParameters) {
  tile::JitKernel Scale = Jit->kernel("scale_desc");
  // 48 x 96: every dimension a multiple of 16 (specialized :16); then 37 x 100.
  for (auto [M, N] : {std::pair<std::int64_t, std::int64_t>{48, 96}, {37, 100}}) {
    std::vector<float> X = examples::randomFloats(M * N, -1, 1, M);
    tile::DeviceBuffer<float> DX(*Ctx, M * N), Out(*Ctx, M * N);
    DX.copyFromHost(X);
    Out.fillBytes(0xFF);
    Scale.launch(
        [M](const tile::KernelInfo &) { return tile::Grid{gputest::blocks(M, 16)}; },
        tile::Stream(), tile::LaunchOptions{{{"BN", 32}}, {}, {}},
        tile::TensorDescriptor(DX, {M, N}, {N, 1}, {16, 32}),
        tile::TensorDescriptor(Out, {M, N}, {N, 1}, {16, 32}), static_cast<std::int32_t>(N));
    Ctx->synchronize();
    gputest::expectEqual(Out.toHost(), [&](std::size_t I) { return X[I] * 3.0f; },
                         "3 x through host descriptors, " + std::to_string(M) + " x " +
                             std::to_string(N));
  }
  EXPECT_EQ(Scale.specializations(), 2u) << "divisible by 16, and not";
  tile::Kernel K = Scale.specialize(
      {{{"BN", 32}}, {}, {}},
      {tile::TensorDescriptor(tile::DevicePtr(0, "fp32"), {48, 96}, {96, 1}, {16, 32}),
       tile::TensorDescriptor(tile::DevicePtr(0, "fp32"), {48, 96}, {96, 1}, {16, 32}), 96});
  EXPECT_EQ(K.info().paramList(), "x_desc: tensordesc<fp32[16, 32]>, out_desc: "
                                  "tensordesc<fp32[16, 32]>, N: i32");
  EXPECT_EQ(K.info().Params[1].Divisibility, 16u) << "x_desc.shape0, specialized";
}

TEST_F(JitTest, AutotuningZeroesResetToZeroArguments) {
  tile::JitKernel Acc = Jit->kernel("accumulate");
  constexpr std::size_t N = 100000;
  std::vector<float> X = examples::randomFloats(N, -1, 1, 3);
  tile::DeviceBuffer<float> DX(*Ctx, N), Out(*Ctx, N);
  DX.copyFromHost(X);
  Out.fillBytes(0);
  for (int Launch = 1; Launch <= 2; ++Launch) {
    Acc.launch(gridOver(N, "BLOCK"), tile::Stream(), DX, Out, static_cast<std::int32_t>(N));
    Ctx->synchronize();
    // Tuning ran the kernel many times; out was zeroed before each run and
    // after tuning, so the first launch leaves x and the second 2x.
    gputest::expectEqual(Out.toHost(), [&](std::size_t I) { return X[I] * Launch; },
                         "after launch " + std::to_string(Launch));
  }
  EXPECT_EQ(Acc.specializations(), 3u) << "every config compiled once";
}

TEST_F(JitTest, AutotuningRestoresRestoreValueArguments) {
  tile::JitKernel Double = Jit->kernel("double_in_place");
  constexpr std::size_t N = 50000;
  std::vector<float> X = examples::randomFloats(N, -1, 1, 5);
  tile::DeviceBuffer<float> DX(*Ctx, N);
  DX.copyFromHost(X);
  Double.launch(gridOver(N, "BLOCK"), tile::Stream(), DX, static_cast<std::int32_t>(N));
  Ctx->synchronize();
  gputest::expectEqual(DX.toHost(), [&](std::size_t I) { return X[I] * 2; },
                       "one doubling despite the timed runs");
  EXPECT_THROW(Double.launch(gridOver(N, "BLOCK"), tile::Stream(),
                             tile::LaunchOptions{{{"BLOCK", 64}}, {}, {}}, DX,
                             static_cast<std::int32_t>(N)),
               tile::Error)
      << "BLOCK is tuned";
}

TEST_F(JitTest, AutotunesOverConfigsGivenFromCpp) {
  tile::JitKernel Add = Jit->kernel("add_kernel");
  tile::AutotuneSpec Spec;
  Spec.Configs = {{{{"BLOCK_SIZE", 256}}, {}, {}}, {{{"BLOCK_SIZE", 2048}}, 8u, {}}};
  Spec.Key = {"n_elements"};
  Add.setAutotune(Spec);
  constexpr std::size_t N = 300007;
  std::vector<float> X = examples::randomFloats(N, -1, 1, 13);
  tile::DeviceBuffer<float> DX(*Ctx, N), Out(*Ctx, N);
  DX.copyFromHost(X);
  Out.fillBytes(0xFF);
  Add.launch(gridOver(N, "BLOCK_SIZE"), tile::Stream(), DX, DX, Out,
             static_cast<std::int32_t>(N));
  Ctx->synchronize();
  gputest::expectEqual(Out.toHost(), [&](std::size_t I) { return X[I] + X[I]; },
                       "tuned from C++");
  EXPECT_EQ(Add.specializations(), 2u);
}

/// The driver's graph entry points, looked up for this test.
struct GraphApi {
  int (*BeginCapture)(void *, int) = nullptr;
  int (*EndCapture)(void *, void **) = nullptr;
  int (*Instantiate)(void **, void *, unsigned long long) = nullptr;
  int (*Launch)(void *, void *) = nullptr;
  int (*ExecDestroy)(void *) = nullptr;
  int (*Destroy)(void *) = nullptr;

  GraphApi() {
    void *Lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!Lib)
      return;
    BeginCapture = reinterpret_cast<decltype(BeginCapture)>(
        ::dlsym(Lib, "cuStreamBeginCapture_v2"));
    EndCapture = reinterpret_cast<decltype(EndCapture)>(::dlsym(Lib, "cuStreamEndCapture"));
    Instantiate = reinterpret_cast<decltype(Instantiate)>(
        ::dlsym(Lib, "cuGraphInstantiateWithFlags"));
    Launch = reinterpret_cast<decltype(Launch)>(::dlsym(Lib, "cuGraphLaunch"));
    ExecDestroy = reinterpret_cast<decltype(ExecDestroy)>(::dlsym(Lib, "cuGraphExecDestroy"));
    Destroy = reinterpret_cast<decltype(Destroy)>(::dlsym(Lib, "cuGraphDestroy"));
  }
  bool ok() const {
    return BeginCapture && EndCapture && Instantiate && Launch && ExecDestroy && Destroy;
  }
};

TEST_F(JitTest, LaunchesAreCapturedIntoACudaGraph) {
  GraphApi Graphs;
  ASSERT_TRUE(Graphs.ok()) << "the driver lacks the graph entry points";
  tile::JitKernel Add = Jit->kernel("add_kernel");
  constexpr std::size_t N = 8192;
  std::vector<float> X = examples::randomFloats(N, -1, 1, 11);
  tile::DeviceBuffer<float> DX(*Ctx, N), Acc(*Ctx, N);
  DX.copyFromHost(X);
  Acc.fillBytes(0);
  tile::Stream S(*Ctx);
  tile::LaunchOptions Block{{{"BLOCK_SIZE", 512}}, {}, {}};
  auto Step = [&] {
    Add.launch(gridOver(N, "BLOCK_SIZE"), S, Block, Acc, DX, Acc, static_cast<std::int32_t>(N));
  };
  Step(); // Compiles and loads outside the capture.
  S.synchronize();
  constexpr int Relaxed = 2; // CU_STREAM_CAPTURE_MODE_RELAXED
  ASSERT_EQ(Graphs.BeginCapture(S.handle(), Relaxed), 0);
  for (int I = 0; I < 3; ++I)
    Step();
  void *Graph = nullptr, *Exec = nullptr;
  ASSERT_EQ(Graphs.EndCapture(S.handle(), &Graph), 0);
  ASSERT_EQ(Graphs.Instantiate(&Exec, Graph, 0), 0);
  for (int Replay = 0; Replay < 2; ++Replay)
    ASSERT_EQ(Graphs.Launch(Exec, S.handle()), 0);
  S.synchronize();
  Graphs.ExecDestroy(Exec);
  Graphs.Destroy(Graph);
  // One launch before the capture and 3 in each of 2 replays: acc = 7 x.
  gputest::expectEqual(Acc.toHost(), [&](std::size_t I) {
    float V = 0;
    for (int K = 0; K < 7; ++K)
      V += X[I];
    return V;
  }, "7 additions");
  EXPECT_EQ(Add.specializations(), 1u);
}

} // namespace
