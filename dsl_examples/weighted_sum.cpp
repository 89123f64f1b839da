//===- weighted_sum.cpp - Runs weighted_sum_fwd and checks it on the CPU --===//
//
// Usage: weighted_sum [--ptx PATH] [--seed S] [--shape ROWSxD]...
// Loads weighted_sum.ptx, computes out[r] = sum_d x[r, d] * weight[d] on the
// GPU with block pointers and compares with a CPU reference in double. The
// default shapes are not multiples of the tiles. Prints "SKIPPED:" and exits
// with 77 when there is no GPU; exits 1 on a wrong result.
//
//===----------------------------------------------------------------------===//
#include "ExampleMain.h"

namespace {

/// fp32 sums over tiles and then across tiles: the error stays within a few
/// dozen ulp of sum |x * w|, the scale the tolerance is relative to.
constexpr double WeightedSumRtol = 1e-5;

int run(const tile::Context &Ctx, const examples::Options &Opts) {
  tile::Kernel K =
      examples::loadKernel(Ctx, Opts, "weighted_sum.ptx", "weighted_sum_fwd");
  std::int64_t RowsTile = K.info().constexprInt("ROWS_TILE_SIZE");

  auto Check = [&](const examples::Shape &S, std::uint64_t Seed) {
    std::size_t Rows = S[0], D = S[1];
    std::vector<float> X = examples::randomFloats(Rows * D, -1.0f, 1.0f, Seed);
    std::vector<float> W = examples::randomFloats(D, -1.0f, 1.0f, Seed + 1);
    tile::DeviceBuffer<float> DX(Ctx, X.size()), DW(Ctx, D), DOut(Ctx, Rows);
    DX.copyFromHost(X);
    DW.copyFromHost(W);
    DOut.fillBytes(0xFF); // NaN everywhere: unwritten elements show up.
    tile::Grid G{static_cast<unsigned>(
        tile::cdiv<std::int64_t>(static_cast<std::int64_t>(Rows), RowsTile))};
    K.launch(G, tile::Stream(), DX, DW, DOut, static_cast<std::int32_t>(D),
             static_cast<std::int32_t>(Rows), static_cast<std::int32_t>(D));
    Ctx.synchronize();

    std::vector<double> Ref, Scale;
    examples::weightedSumReference(X, W, Rows, D, Ref, Scale);
    return examples::compareWith(
        DOut.toHost(), [&](std::size_t I) { return Ref[I]; },
        [&](std::size_t I, double) { return WeightedSumRtol * Scale[I]; });
  };
  return examples::runShapes(
      Opts,
      {{1, 1}, {1000, 300}, {17, 4097}, {4099, 256}, {2053, 1000}, {16, 4096}},
      2, Check);
}

} // namespace

int main(int Argc, char **Argv) {
  return examples::exampleMain(Argc, Argv, run);
}
