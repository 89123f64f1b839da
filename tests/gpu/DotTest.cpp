//===- DotTest.cpp - tl.dot on fp16, bf16 and fp32 inputs -----------------===//
//
// kernels/dot.tile: out = a @ b (+ c) with fp32 results, on M, N, K that are
// not multiples of the tiles (masked loads pad with zeros), against a double
// reference over the same rounded inputs. Tolerance: 1e-2 relative, with a
// floor of 1e-3 of the sum of the products' magnitudes for entries near 0
// (fp32 inputs may run as tf32 on the tensor cores, as in Triton).
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <tuple>

namespace {

/// Random values in [-1, 1) rounded to H (tile::Half, tile::BFloat16), or
/// kept as float.
template <class H>
std::vector<H> randomValues(std::size_t N, std::uint64_t Seed) {
  std::vector<float> F = examples::randomFloats(N, -1, 1, Seed);
  if constexpr (std::is_same_v<H, float>) {
    return F;
  } else {
    std::vector<H> Out(N);
    for (std::size_t I = 0; I < N; ++I)
      Out[I] = H::fromFloat(F[I]);
    return Out;
  }
}

template <class H> double value(H V) {
  if constexpr (std::is_same_v<H, float>)
    return V;
  else
    return V.toFloat();
}

using DotTest =
    gputest::GpuTest<::testing::TestWithParam<std::tuple<const char *, bool>>>;

template <class H>
void runDot(DotTest &T, tile::Kernel K, bool Acc, const std::string &What) {
  const std::size_t M = 100, N = 70, Kd = 30;
  std::vector<H> A = randomValues<H>(M * Kd, 81);
  std::vector<H> B = randomValues<H>(Kd * N, 82);
  std::vector<float> C = examples::randomFloats(M * N, -1, 1, 83);
  tile::Context &Ctx = *T.context();
  tile::DeviceBuffer<H> DA(Ctx, A.size()), DB(Ctx, B.size());
  tile::DeviceBuffer<float> DC(Ctx, C.size()), DOut(Ctx, M * N + 64);
  DA.copyFromHost(A);
  DB.copyFromHost(B);
  DC.copyFromHost(C);
  DOut.fillBytes(0xFF);
  K.launch(tile::Grid{gputest::blocks(M, K.info().constexprInt("BM")),
                      gputest::blocks(N, K.info().constexprInt("BN"))},
           tile::Stream(), DA, DB, DC, DOut, static_cast<std::int32_t>(M),
           static_cast<std::int32_t>(N), static_cast<std::int32_t>(Kd));
  Ctx.synchronize();
  std::vector<double> Ref(M * N), Scale(M * N);
  for (std::size_t I = 0; I < M; ++I)
    for (std::size_t J = 0; J < N; ++J) {
      double Sum = Acc ? C[I * N + J] : 0, Abs = std::fabs(Sum);
      for (std::size_t L = 0; L < Kd; ++L) {
        double P = value(A[I * Kd + L]) * value(B[L * N + J]);
        Sum += P;
        Abs += std::fabs(P);
      }
      Ref[I * N + J] = Sum;
      Scale[I * N + J] = Abs;
    }
  std::vector<float> Out = DOut.toHost();
  gputest::expectPoisoned(Out, M * N, What);
  Out.resize(M * N);
  gputest::expectClose(
      Out, [&](std::size_t I) { return Ref[I]; },
      [&](std::size_t I, double R) {
        return 1e-2 * std::fabs(R) + 1e-3 * Scale[I];
      },
      What);
}

std::string
dotName(const ::testing::TestParamInfo<std::tuple<const char *, bool>> &Info) {
  return std::string(std::get<0>(Info.param)) +
         (std::get<1>(Info.param) ? "_acc" : "");
}

TEST_P(DotTest, MatchesDoubleReference) {
  std::string Type = std::get<0>(GetParam());
  bool Acc = std::get<1>(GetParam());
  std::string Name = dotName({GetParam(), 0});
  tile::Kernel K = kernel("dot_" + Name, "k_dot_" + Type);
  if (Type == "fp16")
    runDot<tile::Half>(*this, K, Acc, Name);
  else if (Type == "bf16")
    runDot<tile::BFloat16>(*this, K, Acc, Name);
  else
    runDot<float>(*this, K, Acc, Name);
}

INSTANTIATE_TEST_SUITE_P(Dot, DotTest,
                         ::testing::Combine(::testing::Values("fp16", "bf16",
                                                              "fp32"),
                                            ::testing::Bool()),
                         dotName);

} // namespace
