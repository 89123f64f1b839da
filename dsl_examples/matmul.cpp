//===- matmul.cpp - Runs matmul_kernel and checks it on the CPU -----------===//
//
// Usage: matmul [--ptx PATH] [--seed S] [--shape MxNxK]...
// Multiplies random fp16 matrices A [M, K] and B [K, N] on the GPU (fp32
// accumulation, fp16 result) and compares with a CPU reference in double
// over the same fp16 inputs, twice:
//   1. matmul_kernel of matmul.tile, from the launcher header that
//      `tilec --emit=header` wrote at build time (the PTX is embedded: no
//      file is read), or from --ptx PATH;
//   2. without --ptx, Triton's tutorial kernel as written there
//      (matmul_autotune.tile: unannotated parameters, @triton.autotune over
//      the tutorial's configs), compiled and tuned at run time by the JIT.
// The default shapes include sizes that are not multiples of the blocks.
// Prints "SKIPPED:" and exits with 77 when there is no GPU; exits 1 on a
// wrong result.
//
//===----------------------------------------------------------------------===//
#include "ExampleMain.h"
#include "matmul_launcher.h"
#include "tile/Jit.h"

namespace {

/// A [M, K] @ B [K, N] in double, row-major.
std::vector<double> matmulReference(const std::vector<tile::Half> &A,
                                    const std::vector<tile::Half> &B,
                                    std::size_t M, std::size_t N,
                                    std::size_t K) {
  std::vector<double> BT(N * K); // B transposed: rows are B's columns.
  for (std::size_t Kk = 0; Kk < K; ++Kk)
    for (std::size_t J = 0; J < N; ++J)
      BT[J * K + Kk] = B[Kk * N + J].toFloat();
  std::vector<double> C(M * N);
  examples::parallelFor(M, [&](std::size_t I0, std::size_t I1) {
    std::vector<double> Row(K);
    for (std::size_t I = I0; I < I1; ++I) {
      for (std::size_t Kk = 0; Kk < K; ++Kk)
        Row[Kk] = A[I * K + Kk].toFloat();
      for (std::size_t J = 0; J < N; ++J) {
        double Sum = 0;
        for (std::size_t Kk = 0; Kk < K; ++Kk)
          Sum += Row[Kk] * BT[J * K + Kk];
        C[I * N + J] = Sum;
      }
    }
  });
  return C;
}

/// Checks C [M, N] against the reference of A and B.
examples::Comparison checkProduct(const std::vector<tile::Half> &A,
                                  const std::vector<tile::Half> &B,
                                  const tile::DeviceBuffer<tile::Half> &DC,
                                  std::size_t M, std::size_t N, std::size_t K) {
  std::vector<double> Ref = matmulReference(A, B, M, N, K);
  std::vector<tile::Half> C = DC.toHost();
  std::vector<float> Out(C.size());
  for (std::size_t I = 0; I < C.size(); ++I)
    Out[I] = C[I].toFloat();
  // Entries have a standard deviation of sqrt(K)/3; the fp16 result is
  // within 2^-11 of the fp32 sum. 1% of that spread bounds the error of
  // entries near 0, where a relative bound means nothing.
  double Atol = 1e-2 * std::sqrt(double(K)) / 3;
  return examples::compare(
      Out, [&](std::size_t I) { return Ref[I]; }, Atol, 1e-2);
}

/// Runs \p Launch(A, B, C, M, N, K) over the shapes and checks each product.
template <class LaunchFn>
int runProducts(const tile::Context &Ctx, const examples::Options &Opts,
                const std::vector<examples::Shape> &Defaults, LaunchFn Launch) {
  auto Check = [&](const examples::Shape &S, std::uint64_t Seed) {
    std::size_t M = S[0], N = S[1], K = S[2];
    std::vector<tile::Half> A = examples::randomValues<tile::Half>(M * K, Seed);
    std::vector<tile::Half> B =
        examples::randomValues<tile::Half>(K * N, Seed + 1);
    tile::DeviceBuffer<tile::Half> DA(Ctx, A.size()), DB(Ctx, B.size()),
        DC(Ctx, M * N);
    DA.copyFromHost(A);
    DB.copyFromHost(B);
    DC.fillBytes(0xFF); // fp16 NaN everywhere: unwritten elements show up.
    Launch(DA, DB, DC, static_cast<std::int32_t>(M), static_cast<std::int32_t>(N),
           static_cast<std::int32_t>(K));
    Ctx.synchronize();
    return checkProduct(A, B, DC, M, N, K);
  };
  return examples::runShapes(Opts, Defaults, 3, Check);
}

int run(const tile::Context &Ctx, const examples::Options &Opts) {
  tile::Kernel Kern =
      Opts.Ptx.empty()
          ? tilec_kernels::matmul::matmul_kernel(Ctx).kernel()
          : examples::loadKernel(Ctx, Opts, "matmul.ptx", "matmul_kernel");
  if (Opts.Ptx.empty())
    std::printf("matmul_kernel: from the launcher header (embedded PTX)\n");
  std::int64_t BlockM = Kern.info().constexprInt("BLOCK_M");
  std::int64_t BlockN = Kern.info().constexprInt("BLOCK_N");
  int Status = runProducts(
      Ctx, Opts,
      {{300, 200, 150}, {1, 1, 1}, {129, 257, 1000}, {33, 17, 8}, {512, 512, 512},
       {1024, 1024, 1024}},
      [&](auto &A, auto &B, auto &C, std::int32_t M, std::int32_t N, std::int32_t K) {
        tile::Grid G{static_cast<unsigned>(tile::cdiv<std::int64_t>(M, BlockM)),
                     static_cast<unsigned>(tile::cdiv<std::int64_t>(N, BlockN))};
        Kern.launch(G, tile::Stream(), A, B, C, M, N, K, K, N, N);
      });
  if (!Opts.Ptx.empty())
    return Status;

  // Triton's tutorial kernel, tuned by the JIT on the first launch of each
  // (M, N, K).
  std::string Source = examples::findExamplePtx("matmul_autotune.tile");
  std::printf("matmul_kernel of %s: JIT-compiled and autotuned\n", Source.c_str());
  tile::JitKernel Tuned = tile::JitModule::fromFile(Ctx, Source).kernel("matmul_kernel");
  auto Grid = [](std::int32_t M, std::int32_t N) {
    return [M, N](const tile::KernelInfo &K) {
      return tile::Grid{static_cast<unsigned>(
          tile::cdiv<std::int64_t>(M, K.constexprInt("BLOCK_SIZE_M")) *
          tile::cdiv<std::int64_t>(N, K.constexprInt("BLOCK_SIZE_N")))};
    };
  };
  examples::Options TunedOpts = Opts;
  if (TunedOpts.Shapes.empty())
    TunedOpts.Shapes = {{1024, 1024, 1024}, {300, 200, 150}};
  int TunedStatus = runProducts(
      Ctx, TunedOpts, {},
      [&](auto &A, auto &B, auto &C, std::int32_t M, std::int32_t N, std::int32_t K) {
        Tuned.launch(Grid(M, N), tile::Stream(), A, B, C, M, N, K, K, std::int32_t(1), N,
                     std::int32_t(1), N, std::int32_t(1));
      });
  return Status != 0 ? Status : TunedStatus;
}

} // namespace

int main(int Argc, char **Argv) {
  return examples::exampleMain(Argc, Argv, run);
}
