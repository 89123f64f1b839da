//===- gelu.cpp - Runs gelu_kernel and checks it on the CPU ---------------===//
//
// Usage: gelu [--ptx PATH] [--n N] [--seed S]
// Loads gelu.ptx (see examples::findExamplePtx), applies GELU (tanh form) to
// a random vector on the GPU and compares with a CPU reference in double.
// Prints "SKIPPED:" and exits with 77 when there is no GPU; exits 1 on a
// wrong result.
//
//===----------------------------------------------------------------------===//
#include "ExampleMain.h"

namespace {

int run(const tile::Context &Ctx, const examples::Options &Opts) {
  std::string Ptx = examples::ptxPath(Opts, "gelu.ptx");
  tile::Module M = tile::Module::loadFile(Ctx, Ptx);
  tile::Kernel K = M.kernel("gelu_kernel");
  std::int64_t Block = K.info().constexprInt("BLOCK_SIZE");
  std::size_t N = Opts.N;

  std::vector<float> X = examples::randomFloats(N, -5.0f, 5.0f, Opts.Seed);
  tile::DeviceBuffer<float> DX(Ctx, N), DOut(Ctx, N);
  DX.copyFromHost(X);
  DOut.fillBytes(0xFF); // NaN everywhere: unwritten elements show up.

  tile::Grid G{static_cast<unsigned>(tile::cdiv<std::int64_t>(N, Block))};
  examples::printSetup(Ctx, Ptx, Opts, Block, G.X);
  K.launch(G, tile::Stream(), DX, DOut, static_cast<std::int32_t>(N));
  Ctx.synchronize();

  examples::Comparison C = examples::compare(
      DOut.toHost(),
      [&](std::size_t I) { return examples::geluReference(X[I]); },
      examples::GeluAtol, examples::GeluRtol);
  return examples::report(C);
}

} // namespace

int main(int Argc, char **Argv) {
  return examples::exampleMain(Argc, Argv, run);
}
