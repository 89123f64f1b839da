//===- vector_add.cpp - Runs add_kernel and checks it on the CPU ----------===//
//
// Usage: vector_add [--ptx PATH] [--n N] [--seed S]
// Loads vector_add.ptx (see examples::findExamplePtx), adds two random
// vectors on the GPU and compares with a CPU reference. Prints "SKIPPED:"
// and exits with 77 when there is no GPU; exits 1 on a wrong result.
//
//===----------------------------------------------------------------------===//
#include "ExampleMain.h"

namespace {

int run(const tile::Context &Ctx, const examples::Options &Opts) {
  std::string Ptx = examples::ptxPath(Opts, "vector_add.ptx");
  tile::Module M = tile::Module::loadFile(Ctx, Ptx);
  tile::Kernel K = M.kernel("add_kernel");
  std::int64_t Block = K.info().constexprInt("BLOCK_SIZE");
  std::size_t N = Opts.N;

  std::vector<float> X = examples::randomFloats(N, -1.0f, 1.0f, Opts.Seed);
  std::vector<float> Y = examples::randomFloats(N, -1.0f, 1.0f, Opts.Seed + 1);
  tile::DeviceBuffer<float> DX(Ctx, N), DY(Ctx, N), DOut(Ctx, N);
  DX.copyFromHost(X);
  DY.copyFromHost(Y);
  DOut.fillBytes(0xFF); // NaN everywhere: unwritten elements show up.

  tile::Grid G{static_cast<unsigned>(tile::cdiv<std::int64_t>(N, Block))};
  examples::printSetup(Ctx, Ptx, Opts, Block, G.X);
  K.launch(G, tile::Stream(), DX, DY, DOut, static_cast<std::int32_t>(N));
  Ctx.synchronize();

  examples::Comparison C = examples::compare(
      DOut.toHost(), [&](std::size_t I) { return double(X[I]) + double(Y[I]); },
      examples::AddAtol, examples::AddRtol);
  return examples::report(C);
}

} // namespace

int main(int Argc, char **Argv) {
  return examples::exampleMain(Argc, Argv, run);
}
