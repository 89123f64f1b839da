//===- matmul.cpp - Runs matmul_kernel and checks it on the CPU -----------===//
//
// Usage: matmul [--ptx PATH] [--seed S] [--shape MxNxK]...
// Loads matmul.ptx, multiplies random fp16 matrices A [M, K] and B [K, N] on
// the GPU (fp32 accumulation, fp16 result) and compares with a CPU reference
// in double over the same fp16 inputs. The default shapes include sizes that
// are not multiples of the blocks. Prints "SKIPPED:" and exits with 77 when
// there is no GPU; exits 1 on a wrong result.
//
//===----------------------------------------------------------------------===//
#include "ExampleMain.h"

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

int run(const tile::Context &Ctx, const examples::Options &Opts) {
  tile::Kernel Kern =
      examples::loadKernel(Ctx, Opts, "matmul.ptx", "matmul_kernel");
  std::int64_t BlockM = Kern.info().constexprInt("BLOCK_M");
  std::int64_t BlockN = Kern.info().constexprInt("BLOCK_N");

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
    tile::Grid G{static_cast<unsigned>(tile::cdiv<std::int64_t>(M, BlockM)),
                 static_cast<unsigned>(tile::cdiv<std::int64_t>(N, BlockN))};
    auto I32 = [](std::size_t V) { return static_cast<std::int32_t>(V); };
    Kern.launch(G, tile::Stream(), DA, DB, DC, I32(M), I32(N), I32(K), I32(K),
                I32(N), I32(N));
    Ctx.synchronize();
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
  };
  return examples::runShapes(Opts,
                             {{300, 200, 150},
                              {1, 1, 1},
                              {129, 257, 1000},
                              {33, 17, 8},
                              {512, 512, 512},
                              {1024, 1024, 1024}},
                             3, Check);
}

} // namespace

int main(int Argc, char **Argv) {
  return examples::exampleMain(Argc, Argv, run);
}
