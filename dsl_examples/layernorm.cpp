//===- layernorm.cpp - Runs layer_norm_fwd_fused and checks it on the CPU -===//
//
// Usage: layernorm [--ptx PATH] [--seed S] [--shape ROWSxN]...
// Loads layernorm.ptx, normalizes each row of a random matrix on the GPU
// (rows longer than one block), and compares Y, Mean and Rstd with a CPU
// reference in double. Prints "SKIPPED:" and exits with 77 when there is no
// GPU; exits 1 on a wrong result.
//
//===----------------------------------------------------------------------===//
#include "ExampleMain.h"

namespace {

/// fp32 sums of N terms in BLOCK_SIZE lanes then a tree: a few dozen ulp of
/// the sums of magnitudes, which is what each tolerance is relative to.
constexpr double LayerNormRtol = 1e-5;
constexpr float Eps = 1e-5f;

int run(const tile::Context &Ctx, const examples::Options &Opts) {
  tile::Kernel K =
      examples::loadKernel(Ctx, Opts, "layernorm.ptx", "layer_norm_fwd_fused");

  auto Check = [&](const examples::Shape &S, std::uint64_t Seed) {
    std::size_t Rows = S[0], N = S[1];
    // A mean far from 0 makes the variance pass matter.
    std::vector<float> X = examples::randomFloats(Rows * N, -3.0f, 1.0f, Seed);
    std::vector<float> W = examples::randomFloats(N, 0.5f, 1.5f, Seed + 1);
    std::vector<float> B = examples::randomFloats(N, -1.0f, 1.0f, Seed + 2);
    tile::DeviceBuffer<float> DX(Ctx, X.size()), DY(Ctx, X.size()), DW(Ctx, N),
        DB(Ctx, N), DMean(Ctx, Rows), DRstd(Ctx, Rows);
    DX.copyFromHost(X);
    DW.copyFromHost(W);
    DB.copyFromHost(B);
    DY.fillBytes(0xFF); // NaN everywhere: unwritten elements show up.
    DMean.fillBytes(0xFF);
    DRstd.fillBytes(0xFF);
    K.launch(tile::Grid{static_cast<unsigned>(Rows)}, tile::Stream(), DX, DY,
             DW, DB, DMean, DRstd, static_cast<std::int32_t>(N),
             static_cast<std::int32_t>(N), Eps);
    Ctx.synchronize();

    std::vector<double> Mean(Rows), Rstd(Rows), MeanAbs(Rows);
    std::vector<double> Y(Rows * N), YScale(Rows * N);
    examples::parallelFor(Rows, [&](std::size_t R0, std::size_t R1) {
      for (std::size_t R = R0; R < R1; ++R) {
        const float *Row = &X[R * N];
        double Sum = 0, AbsSum = 0, Var = 0;
        for (std::size_t J = 0; J < N; ++J) {
          Sum += Row[J];
          AbsSum += std::fabs(Row[J]);
        }
        Mean[R] = Sum / N;
        MeanAbs[R] = AbsSum / N;
        for (std::size_t J = 0; J < N; ++J)
          Var += (Row[J] - Mean[R]) * (Row[J] - Mean[R]);
        Rstd[R] = 1.0 / std::sqrt(Var / N + Eps);
        for (std::size_t J = 0; J < N; ++J) {
          double XHat = (Row[J] - Mean[R]) * Rstd[R];
          Y[R * N + J] = XHat * W[J] + B[J];
          // x - mean loses |mean|'s ulps; the rest is relative to the terms.
          YScale[R * N + J] =
              (std::fabs(XHat) + MeanAbs[R] * Rstd[R]) * std::fabs(W[J]) +
              std::fabs(B[J]);
        }
      }
    });
    examples::Comparison C = examples::compareWith(
        DY.toHost(), [&](std::size_t I) { return Y[I]; },
        [&](std::size_t I, double) { return LayerNormRtol * YScale[I]; });
    examples::merge(
        C,
        examples::compareWith(
            DMean.toHost(), [&](std::size_t I) { return Mean[I]; },
            [&](std::size_t I, double) { return LayerNormRtol * MeanAbs[I]; }));
    examples::merge(C,
                    examples::compare(
                        DRstd.toHost(), [&](std::size_t I) { return Rstd[I]; },
                        0.0, LayerNormRtol));
    return C;
  };
  return examples::runShapes(
      Opts, {{1, 1}, {1, 1000}, {777, 3000}, {64, 4097}, {1151, 8192}}, 2,
      Check);
}

} // namespace

int main(int Argc, char **Argv) {
  return examples::exampleMain(Argc, Argv, run);
}
