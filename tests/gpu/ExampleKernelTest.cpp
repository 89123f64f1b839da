//===- ExampleKernelTest.cpp - Example kernels against CPU references -----===//
//
// Runs vector_add and gelu for sizes from 1 to 2^28 elements on random
// inputs, with the output poisoned (NaN) beforehand and a poisoned guard
// region after it that must stay untouched; vector_add again from a cubin.
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace {

constexpr std::size_t GuardElems = 4096;
constexpr std::uint32_t PoisonBits = 0xFFFFFFFF;

using gputest::describe;

/// Returns the output without its guard region, checking that the guard
/// still holds the poison (the kernel wrote nothing past n).
std::vector<float> takeOutput(const tile::DeviceBuffer<float> &Buffer,
                              std::size_t N) {
  std::vector<float> All = Buffer.toHost();
  for (std::size_t I = N; I < All.size(); ++I) {
    std::uint32_t Bits;
    std::memcpy(&Bits, &All[I], sizeof(Bits));
    EXPECT_EQ(Bits, PoisonBits) << "written past n at index " << I;
    if (Bits != PoisonBits)
      break;
  }
  All.resize(N);
  return All;
}

std::string sizeName(const ::testing::TestParamInfo<std::size_t> &Info) {
  return "n" + std::to_string(Info.param);
}

const auto Sizes =
    ::testing::Values(std::size_t(1), std::size_t(98432),
                      std::size_t((1 << 20) + 3), std::size_t(1) << 28);

/// The sizes the interpreter runs in a test (2^28 elements take it minutes
/// and gigabytes).
constexpr std::size_t InterpreterMaxElems = std::size_t(1) << 24;

using ExampleKernelTest =
    gputest::GpuTest<::testing::TestWithParam<std::size_t>>;

TEST_P(ExampleKernelTest, VectorAdd) {
  std::size_t N = GetParam();
  if (onInterpreter() && N > InterpreterMaxElems)
    GTEST_SKIP() << N << " elements: too many for the interpreter in a test";
  tile::Kernel K = loadExample("vector_add.ptx").kernel("add_kernel");
  std::int64_t Block = K.info().constexprInt("BLOCK_SIZE");
  std::vector<float> X = examples::randomFloats(N, -1.0f, 1.0f, 2 * N);
  std::vector<float> Y = examples::randomFloats(N, -1.0f, 1.0f, 2 * N + 1);
  tile::DeviceBuffer<float> DX(*Ctx, N), DY(*Ctx, N),
      DOut(*Ctx, N + GuardElems);
  DX.copyFromHost(X);
  DY.copyFromHost(Y);
  DOut.fillBytes(0xFF);
  K.launch(
      tile::Grid{static_cast<unsigned>(tile::cdiv<std::int64_t>(N, Block))},
      tile::Stream(), DX, DY, DOut, static_cast<std::int32_t>(N));
  Ctx->synchronize();
  std::vector<float> Out = takeOutput(DOut, N);
  auto Ref = [&](std::size_t I) { return double(X[I]) + double(Y[I]); };
  examples::Comparison C =
      examples::compare(Out, Ref, examples::AddAtol, examples::AddRtol);
  EXPECT_TRUE(C.passed()) << describe(C, Out, Ref);
}

TEST_P(ExampleKernelTest, Gelu) {
  std::size_t N = GetParam();
  if (onInterpreter() && N > InterpreterMaxElems)
    GTEST_SKIP() << N << " elements: too many for the interpreter in a test";
  tile::Kernel K = loadExample("gelu.ptx").kernel("gelu_kernel");
  std::int64_t Block = K.info().constexprInt("BLOCK_SIZE");
  std::vector<float> X = examples::randomFloats(N, -5.0f, 5.0f, 3 * N);
  tile::DeviceBuffer<float> DX(*Ctx, N), DOut(*Ctx, N + GuardElems);
  DX.copyFromHost(X);
  DOut.fillBytes(0xFF);
  K.launch(
      tile::Grid{static_cast<unsigned>(tile::cdiv<std::int64_t>(N, Block))},
      tile::Stream(), DX, DOut, static_cast<std::int32_t>(N));
  Ctx->synchronize();
  std::vector<float> Out = takeOutput(DOut, N);
  auto Ref = [&](std::size_t I) { return examples::geluReference(X[I]); };
  examples::Comparison C =
      examples::compare(Out, Ref, examples::GeluAtol, examples::GeluRtol);
  EXPECT_TRUE(C.passed()) << describe(C, Out, Ref);
}

INSTANTIATE_TEST_SUITE_P(Sizes, ExampleKernelTest, Sizes, sizeName);

/// vector_add.tile assembled for sm_90 by tilec --emit=cubin (built only
/// where ptxas is).
class CubinTest : public gputest::GpuTest<> {
protected:
  void SetUp() override {
    gputest::GpuTest<>::SetUp();
    if (IsSkipped())
      return;
    if (!TILEC_GPU_HAS_CUBIN)
      GTEST_SKIP() << "no cubin was built (ptxas was not found at configure time)";
    std::string Dir = tile::executableDir();
    Path = tile::findFile("vector_add_sm90.cubin",
                          {TILEC_GPU_KERNELS_DIR,
                           Dir.empty() ? "" : Dir + "/../tests/gpu/kernels"});
  }
  std::string Path;
};

TEST_F(CubinTest, VectorAddFromACubin) {
  if (!onInterpreter() && Ctx->computeCapability().Major != 9)
    GTEST_SKIP() << "the cubin is for sm_90; " << Ctx->deviceName() << " is not";
  tile::Module M = tile::Module::loadFile(*Ctx, Path);
  EXPECT_FALSE(M.metadata().CubinHash.empty());
  tile::Kernel K = M.kernel("add_kernel");
  std::size_t N = (std::size_t(1) << 20) + 3;
  std::int64_t Block = K.info().constexprInt("BLOCK_SIZE");
  std::vector<float> X = examples::randomFloats(N, -1.0f, 1.0f, 11);
  std::vector<float> Y = examples::randomFloats(N, -1.0f, 1.0f, 12);
  tile::DeviceBuffer<float> DX(*Ctx, N), DY(*Ctx, N), DOut(*Ctx, N + GuardElems);
  DX.copyFromHost(X);
  DY.copyFromHost(Y);
  DOut.fillBytes(0xFF);
  K.launch(tile::Grid{static_cast<unsigned>(tile::cdiv<std::int64_t>(N, Block))},
           tile::Stream(), DX, DY, DOut, static_cast<std::int32_t>(N));
  Ctx->synchronize();
  std::vector<float> Out = takeOutput(DOut, N);
  std::size_t Wrong = 0;
  for (std::size_t I = 0; I < N; ++I)
    Wrong += Out[I] != X[I] + Y[I];
  EXPECT_EQ(Wrong, 0u) << "elements of x + y differ";
}

TEST_F(CubinTest, RefusesAChangedCubin) {
  std::ifstream In(Path, std::ios::binary);
  std::string Cubin{std::istreambuf_iterator<char>(In), {}};
  ASSERT_GT(Cubin.size(), 64u);
  tile::ModuleMetadata Meta =
      tile::ModuleMetadata::loadFile(tile::metadataPathFor(Path));
  Cubin[Cubin.size() / 2] ^= 1;
  try {
    tile::Module::load(*Ctx, Cubin, Meta, "changed.cubin");
    ADD_FAILURE() << "a changed cubin was loaded";
  } catch (const tile::Error &E) {
    EXPECT_NE(std::string(E.what()).find("changed.cubin does not match its metadata"),
              std::string::npos)
        << E.what();
  }
}

using KernelResourcesTest = gputest::GpuTest<>;

TEST_F(KernelResourcesTest, RegistersAndSpillsOfTheJittedKernels) {
  if (onInterpreter())
    GTEST_SKIP() << "registers and spills exist on the GPU only";
  // vector_add needs a handful of registers and spills nothing; matmul
  // (128x128 fp32 accumulators over 256 threads) needs many more; both
  // allow at least their block size, which .reqntid fixes.
  tile::Kernel Add = loadExample("vector_add.ptx").kernel("add_kernel");
  tile::KernelResources A = Add.resources();
  EXPECT_GT(A.Registers, 0);
  EXPECT_LT(A.Registers, 64);
  EXPECT_EQ(A.LocalBytes, 0u);
  EXPECT_EQ(A.StaticSharedBytes, 0u);
  EXPECT_GE(A.MaxThreadsPerBlock, static_cast<int>(Add.blockSize()));
  tile::Kernel Matmul = loadExample("matmul.ptx").kernel("matmul_kernel");
  tile::KernelResources M = Matmul.resources();
  EXPECT_GT(M.Registers, A.Registers);
  EXPECT_GE(M.MaxThreadsPerBlock, static_cast<int>(Matmul.blockSize()));
}

} // namespace
