//===- DebugTest.cpp - Hints, device_print, device_assert, debug_barrier --===//
//
// kernels/debug.tile: multiple_of/max_contiguous leave results unchanged;
// device_print runs; a passing device_assert runs; a failing one is checked
// in a child process (this executable re-run with a filter), since the
// assert leaves the CUDA context unusable; debug_barrier orders global
// memory between the threads of a program.
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using DebugTest = gputest::GpuTest<>;
using I32 = std::int32_t;

/// Set in the child process that runs the failing assert.
constexpr const char *AssertChildEnv = "TILEC_GPU_TEST_ASSERT_CHILD";

TEST_F(DebugTest, HintsLeaveResultsUnchanged) {
  tile::Kernel K = kernel("hints", "k_hints");
  const std::size_t N = 10007;
  std::vector<float> X = examples::randomFloats(N, -1, 1, 121);
  std::vector<float> Out = runOnFloats(K, X, N, "hints");
  gputest::expectEqual(
      Out, [&](std::size_t I) { return X[I] + 1.0f; },
      "x + 1 with multiple_of/max_contiguous");
}

TEST_F(DebugTest, DevicePrintRuns) {
  tile::Kernel K = kernel("print", "k_print");
  auto DX = upload(std::vector<float>{1.5f, -2.0f, 3.25f});
  K.launch(tile::Grid{2}, tile::Stream(), DX, I32(3));
  EXPECT_NO_THROW(Ctx->synchronize());
  std::fflush(stdout);
}

TEST_F(DebugTest, PassingAssertRuns) {
  tile::Kernel K = kernel("assert", "k_assert");
  const std::size_t N = 5000;
  std::vector<float> X = examples::randomFloats(N, 0, 1, 122);
  std::vector<float> Out = runOnFloats(K, X, N, "assert");
  gputest::expectEqual(
      Out, [&](std::size_t I) { return X[I]; },
      "copy under a passing device_assert");
}

// Runs only in the child that FailingAssertStopsTheKernel starts: launches
// k_assert on data with a negative element and expects the launch to fail.
TEST_F(DebugTest, FailingAssertChild) {
  if (!std::getenv(AssertChildEnv))
    GTEST_SKIP() << "runs as the child of FailingAssertStopsTheKernel";
  tile::Kernel K = kernel("assert", "k_assert");
  const std::size_t N = 1000;
  std::vector<float> X(N, 1.0f);
  X[777] = -1.0f;
  auto DX = upload(X);
  auto DOut = poisoned<float>(N);
  try {
    // The GPU reports the assert at the next synchronization, the
    // interpreter from the launch itself.
    K.launch(tile::Grid{gputest::blocks(N, K.info().constexprInt("BLOCK"))},
             tile::Stream(), DX, DOut, I32(N));
    Ctx->synchronize();
    ADD_FAILURE() << "the failing device_assert did not stop the kernel";
  } catch (const tile::Error &E) {
    std::printf("CHILD-ERROR: %s\n", E.what());
    // The interpreter names the element within its program's tile.
    std::int64_t Block = K.info().constexprInt("BLOCK");
    std::string Expected =
        Ctx->backend() == tile::Backend::Gpu
            ? "CUDA_ERROR_ASSERT"
            : "device_assert failed at element (" + std::to_string(777 % Block) +
                  "): x must be non-negative in program (" +
                  std::to_string(777 / Block) + ", 0, 0)";
    EXPECT_NE(std::string(E.what()).find(Expected), std::string::npos)
        << E.what();
  }
  std::fflush(stdout);
}

TEST_F(DebugTest, FailingAssertStopsTheKernel) {
  char Exe[4096];
  ssize_t Len = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
  ASSERT_GT(Len, 0);
  Exe[Len] = '\0';
  std::string Command = std::string(AssertChildEnv) + "=1 '" + Exe +
                        "' --gtest_filter=DebugTest.FailingAssertChild 2>&1";
  FILE *Pipe = popen(Command.c_str(), "r");
  ASSERT_NE(Pipe, nullptr);
  std::string Output;
  std::array<char, 4096> Buffer;
  while (std::size_t Got = std::fread(Buffer.data(), 1, Buffer.size(), Pipe))
    Output.append(Buffer.data(), Got);
  int Status = pclose(Pipe);
  EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
      << "the child failed:\n"
      << Output;
  EXPECT_NE(Output.find("CHILD-ERROR:"), std::string::npos) << Output;
  // The device prints the assert with its message and the source location.
  EXPECT_NE(Output.find("x must be non-negative"), std::string::npos) << Output;
  EXPECT_NE(Output.find("debug.tile"), std::string::npos) << Output;
}

TEST_F(DebugTest, BarrierOrdersGlobalMemoryInAProgram) {
  tile::Kernel K = kernel("barrier", "k_barrier");
  std::size_t Block = K.info().constexprInt("BLOCK");
  const unsigned Programs = 300;
  std::size_t N = Programs * Block;
  std::vector<float> X = examples::randomFloats(N, -1, 1, 123);
  auto DX = upload(X);
  auto DScratch = poisoned<float>(N);
  auto DOut = poisoned<float>(N);
  K.launch(tile::Grid{Programs}, tile::Stream(), DX, DScratch, DOut);
  Ctx->synchronize();
  gputest::expectEqual(
      DOut.toHost(),
      [&](std::size_t I) {
        return X[I / Block * Block + (Block - 1 - I % Block)];
      },
      "each block reversed through scratch memory");
}

} // namespace
