//===- softmax.cpp - Runs softmax_kernel and checks it on the CPU ---------===//
//
// Usage: softmax [--ptx PATH] [--seed S] [--shape ROWSxCOLS]...
// Loads softmax.ptx, computes the softmax of each row of a random matrix on
// the GPU (one program per row) and compares with a CPU reference in double.
// The default shapes are not multiples of the block. Prints "SKIPPED:" and
// exits with 77 when there is no GPU; exits 1 on a wrong result.
//
//===----------------------------------------------------------------------===//
#include "ExampleMain.h"

namespace {

/// The kernel computes exp through ex2.approx and sums in fp32: a few ulp.
constexpr double SoftmaxAtol = 1e-9, SoftmaxRtol = 1e-5;

int run(const tile::Context &Ctx, const examples::Options &Opts) {
  tile::Kernel K =
      examples::loadKernel(Ctx, Opts, "softmax.ptx", "softmax_kernel");
  std::int64_t Block = K.info().constexprInt("BLOCK_SIZE");

  auto Check = [&](const examples::Shape &S, std::uint64_t Seed) {
    std::size_t Rows = S[0], Cols = S[1];
    if (static_cast<std::int64_t>(Cols) > Block)
      throw tile::Error("softmax.ptx holds rows of at most BLOCK_SIZE = " +
                        std::to_string(Block) + " columns, not " +
                        std::to_string(Cols));
    std::vector<float> X =
        examples::randomFloats(Rows * Cols, -8.0f, 8.0f, Seed);
    tile::DeviceBuffer<float> DX(Ctx, X.size()), DOut(Ctx, X.size());
    DX.copyFromHost(X);
    DOut.fillBytes(0xFF); // NaN everywhere: unwritten elements show up.
    std::int32_t Stride = static_cast<std::int32_t>(Cols);
    K.launch(tile::Grid{static_cast<unsigned>(Rows)}, tile::Stream(), DOut, DX,
             Stride, Stride, static_cast<std::int32_t>(Rows),
             static_cast<std::int32_t>(Cols));
    Ctx.synchronize();
    std::vector<double> Max, Sum;
    examples::softmaxRowStats(X, Rows, Cols, Max, Sum);
    return examples::compare(
        DOut.toHost(),
        [&](std::size_t I) {
          return std::exp(X[I] - Max[I / Cols]) / Sum[I / Cols];
        },
        SoftmaxAtol, SoftmaxRtol);
  };
  return examples::runShapes(
      Opts, {{1, 1}, {1823, 781}, {4097, 1000}, {3, 1024}, {1000, 17}}, 2,
      Check);
}

} // namespace

int main(int Argc, char **Argv) {
  return examples::exampleMain(Argc, Argv, run);
}
