//===- ControlFlowTest.cpp - Loops, branches and device functions ---------===//
//
// kernels/control_flow.tile: for over range/tl.range with runtime bounds and
// negative steps carrying tiles and scalars, static_range, while loops on
// scalars and carrying tiles, if/elif/else on runtime scalars, conditional
// expressions, min/max on scalars, and (inlined) device functions.
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

namespace {

using ControlFlowTest = gputest::GpuTest<>;
using I32 = std::int32_t;

TEST_F(ControlFlowTest, ForLoopsWithRuntimeBounds) {
  tile::Kernel K = kernel("column_sums", "k_column_sums");
  const std::size_t Rows = 50, Cols = 300;
  const I32 Start = 3, Step = 4;
  std::size_t Block = K.info().constexprInt("BLOCK");
  unsigned Programs = gputest::blocks(Cols, Block);
  std::vector<float> X = examples::randomFloats(Rows * Cols, -1, 1, 131);
  auto DX = upload(X);
  auto DSums = poisoned<float>(2 * Cols + 64);
  auto DCounts = poisoned<I32>(Programs);
  K.launch(tile::Grid{Programs}, tile::Stream(), DX, DSums, DCounts, I32(Rows),
           I32(Cols), Start, Step);
  Ctx->synchronize();
  std::vector<double> Ref(2 * Cols), Abs(2 * Cols);
  I32 Count = 0;
  for (std::size_t R = Start; R < Rows; R += Step, ++Count)
    for (std::size_t C = 0; C < Cols; ++C) {
      double V = X[R * Cols + C];
      Ref[C] += V;
      Ref[Cols + C] += R % 2 == 0 ? V : -V;
      Abs[C] += std::fabs(V);
      Abs[Cols + C] += std::fabs(V);
    }
  std::vector<float> Sums = result(DSums, 2 * Cols, "column sums");
  gputest::expectClose(
      Sums, [&](std::size_t I) { return Ref[I]; },
      [&](std::size_t I, double) { return 1e-5 * Abs[I]; },
      "loop-carried tiles (forward range, backward tl.range with an if)");
  gputest::expectEqual(
      DCounts.toHost(), [&](std::size_t) { return Count; },
      "loop-carried scalar trip count");
}

TEST_F(ControlFlowTest, StaticRange) {
  tile::Kernel K = kernel("static_range", "k_static_range");
  const std::size_t N = 1000;
  std::vector<float> X = examples::randomFloats(4 * N, -1, 1, 132);
  std::vector<float> Out = runOnFloats(K, X, N, "static_range");
  gputest::expectNear(
      Out,
      [&](std::size_t I) {
        double Sum = 0;
        for (int Kx = 0; Kx < 4; ++Kx)
          Sum += (Kx + 1) * double(X[Kx * N + I]);
        return Sum;
      },
      1e-6, 1e-5, "unrolled sum");
}

TEST_F(ControlFlowTest, WhileOnScalars) {
  tile::Kernel K = kernel("collatz", "k_collatz");
  const unsigned Programs = 1000;
  auto DSteps = poisoned<I32>(Programs), DPeak = poisoned<I32>(Programs);
  K.launch(tile::Grid{Programs}, tile::Stream(), DSteps, DPeak);
  Ctx->synchronize();
  std::vector<I32> Steps(Programs), Peak(Programs);
  for (unsigned P = 0; P < Programs; ++P) {
    std::int64_t V = P + 1, Max = V;
    I32 Count = 0;
    while (V != 1) {
      V = V % 2 == 0 ? V / 2 : 3 * V + 1;
      Max = std::max(Max, V);
      ++Count;
    }
    Steps[P] = Count;
    Peak[P] = static_cast<I32>(Max);
  }
  gputest::expectEqual(
      DSteps.toHost(), [&](std::size_t I) { return Steps[I]; },
      "Collatz steps");
  gputest::expectEqual(
      DPeak.toHost(), [&](std::size_t I) { return Peak[I]; }, "Collatz peaks");
}

TEST_F(ControlFlowTest, WhileCarryingATile) {
  tile::Kernel K = kernel("while_tile", "k_while_tile");
  const std::size_t N = 1000;
  const I32 Iters = 7;
  std::vector<float> X = examples::randomFloats(N, -1, 1, 133);
  std::vector<float> Out = runOnFloats(K, X, N, "while", Iters);
  gputest::expectNear(
      Out,
      [&](std::size_t I) {
        double Acc = 0;
        for (I32 It = 0; It < Iters; ++It)
          Acc = Acc * 0.5 + X[I];
        return Acc;
      },
      1e-6, 1e-5, "acc = acc * 0.5 + x, 7 times");
}

TEST_F(ControlFlowTest, BranchesOnRuntimeScalars) {
  tile::Kernel K = kernel("branches", "k_branches");
  const std::size_t N = 2000;
  std::size_t Block = K.info().constexprInt("BLOCK");
  std::vector<float> X = examples::randomFloats(N, -1, 1, 134);
  auto DX = upload(X);
  for (I32 Mode : {0, 1, 2}) {
    auto DOut = poisoned<float>(N + 64);
    K.launch(tile::Grid{gputest::blocks(N, Block)}, tile::Stream(), DX, DOut,
             I32(N), Mode);
    Ctx->synchronize();
    std::vector<float> Out = result(DOut, N, "branches");
    gputest::expectEqual(
        Out,
        [&](std::size_t I) {
          int Pid = static_cast<int>(I / Block);
          float Y = Pid % 3 == 0   ? X[I] * 2.0f
                    : Pid % 3 == 1 ? X[I] + 1.0f
                                   : -X[I];
          float Bias = Mode > 0 && Pid < 1000 ? 10.0f : 0.0f;
          if (Mode == 2 || Pid == 0)
            Bias += 0.5f;
          return Y + Bias + float(std::max(Pid, 4) - std::min(Pid, 4));
        },
        "if/elif/else, conditional expression, and/or, min/max (mode " +
            std::to_string(Mode) + ")");
  }
}

TEST_F(ControlFlowTest, DeviceFunctions) {
  tile::Kernel K = kernel("device_fn", "k_device_fn");
  const std::size_t N = 1000;
  const float A = 0.7f;
  std::vector<float> X = examples::randomFloats(N, -2, 2, 135);
  std::vector<float> Out = runOnFloats(K, X, N, "device functions", A);
  gputest::expectNear(
      Out,
      [&](std::size_t I) {
        return std::min(std::max(double(X[I]) * A + 0.25, 0.0), 1.0);
      },
      1e-6, 1e-5, "clamp01(x * a + 0.25)");
}

TEST_F(ControlFlowTest, DeviceFunctionReturnsInBranches) {
  tile::Kernel K = kernel("device_fn_return", "k_device_fn_return");
  const unsigned Programs = 10;
  auto DSign = poisoned<I32>(Programs);
  K.launch(tile::Grid{Programs}, tile::Stream(), DSign);
  Ctx->synchronize();
  gputest::expectEqual(
      DSign.toHost(), [](std::size_t I) { return I32(I > 2) - I32(I < 2); },
      "sign(pid - 2)");
}

} // namespace
