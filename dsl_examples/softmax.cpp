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

/// Softmax of each row of X [Rows, Cols] in double.
std::vector<double> softmaxReference(const std::vector<float> &X,
                                     std::size_t Rows, std::size_t Cols) {
  std::vector<double> Ref(Rows * Cols);
  examples::parallelFor(Rows, [&](std::size_t R0, std::size_t R1) {
    for (std::size_t R = R0; R < R1; ++R) {
      const float *Row = &X[R * Cols];
      double Max = *std::max_element(Row, Row + Cols);
      double Sum = 0;
      for (std::size_t C = 0; C < Cols; ++C)
        Sum += std::exp(Row[C] - Max);
      for (std::size_t C = 0; C < Cols; ++C)
        Ref[R * Cols + C] = std::exp(Row[C] - Max) / Sum;
    }
  });
  return Ref;
}

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
    std::vector<double> Ref = softmaxReference(X, Rows, Cols);
    return examples::compare(
        DOut.toHost(), [&](std::size_t I) { return Ref[I]; }, SoftmaxAtol,
        SoftmaxRtol);
  };
  return examples::runShapes(
      Opts, {{1, 1}, {1823, 781}, {4097, 1000}, {3, 1024}, {1000, 17}}, 2,
      Check);
}

} // namespace

int main(int Argc, char **Argv) {
  return examples::exampleMain(Argc, Argv, run);
}
