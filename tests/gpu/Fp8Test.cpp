//===- Fp8Test.cpp - fp8 conversions, arithmetic and dot on the GPU -------===//
//
// The kernels of kernels/fp8.tile against the host's own fp8 rounding
// (tile::Float8E4M3 / Float8E5M2: nearest even, saturating at the largest
// finite value, as cvt.rn.satfinite), written apart from the compiler's.
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"

#include <cmath>
#include <limits>

namespace {

using Fp8Test = gputest::GpuTest<>;

constexpr std::size_t N = 3001; // Not a multiple of BLOCK (256).
constexpr std::size_t Guard = 300;

/// Inputs: random values over both formats' ranges, and the edges.
std::vector<float> fp8Inputs() {
  std::vector<float> X = examples::randomFloats(N, -600, 600, 81);
  std::vector<float> Small = examples::randomFloats(N, -0.02f, 0.02f, 82);
  for (std::size_t I = 0; I < N; I += 3)
    X[I] = Small[I];
  const float Inf = std::numeric_limits<float>::infinity();
  const std::vector<float> Edges{0.0f,    -0.0f,   448.0f,  -448.0f, 449.0f,  464.0f,
                                 480.0f,  1e6f,    -1e6f,   Inf,     -Inf,    57344.0f,
                                 61440.0f, 0x1p-9f, 0x1p-10f, 0x1.8p-10f, 0x1p-16f,
                                 0x1p-17f, 0.1f,    -3.3f,   1.0625f, 1.1875f};
  std::copy(Edges.begin(), Edges.end(), X.begin());
  X[Edges.size()] = std::numeric_limits<float>::quiet_NaN();
  return X;
}

TEST_F(Fp8Test, ConvertBothWaysAndComputeInFp32) {
  std::vector<float> X = fp8Inputs();
  auto DX = upload(X);
  auto DE4 = poisoned<tile::Float8E4M3>(N + Guard);
  auto DE5 = poisoned<tile::Float8E5M2>(N + Guard);
  auto DBack4 = poisoned<float>(N + Guard);
  auto DHalf5 = poisoned<tile::Half>(N + Guard);
  auto DTwice4 = poisoned<tile::Float8E4M3>(N + Guard);
  tile::Kernel K = kernel("fp8_convert", "k_fp8_convert");
  K.launch(tile::Grid{gputest::blocks(N, K.info().constexprInt("BLOCK"))}, tile::Stream(),
           DX, DE4, DE5, DBack4, DHalf5, DTwice4, static_cast<std::int32_t>(N));
  tile::Stream().synchronize();
  std::vector<tile::Float8E4M3> E4 = DE4.toHost(), Twice4 = DTwice4.toHost();
  std::vector<tile::Float8E5M2> E5 = DE5.toHost();
  std::vector<float> Back4 = DBack4.toHost();
  std::vector<tile::Half> Half5 = DHalf5.toHost();
  gputest::expectPoisoned(E4, N, "fp32 -> e4m3");
  gputest::expectPoisoned(E5, N, "fp32 -> e5m2");
  gputest::expectPoisoned(Back4, N, "e4m3 -> fp32");
  gputest::expectPoisoned(Half5, N, "e5m2 -> fp16");
  gputest::expectPoisoned(Twice4, N, "e4m3 + e4m3");
  for (std::size_t I = 0; I < N; ++I) {
    tile::Float8E4M3 A = tile::Float8E4M3::fromFloat(X[I]);
    tile::Float8E5M2 B = tile::Float8E5M2::fromFloat(X[I]);
    if (std::isnan(X[I])) { // The NaN's sign and payload are the GPU's.
      ASSERT_TRUE(std::isnan(E4[I].toFloat())) << I;
      ASSERT_TRUE(std::isnan(E5[I].toFloat())) << I;
      ASSERT_TRUE(std::isnan(Back4[I])) << I;
      ASSERT_TRUE(std::isnan(Half5[I].toFloat())) << I;
      continue;
    }
    ASSERT_EQ(E4[I].Bits, A.Bits) << I << ": " << X[I] << " to e4m3";
    ASSERT_EQ(E5[I].Bits, B.Bits) << I << ": " << X[I] << " to e5m2";
    ASSERT_EQ(Back4[I], A.toFloat()) << I << ": e4m3 " << A.toFloat() << " to fp32";
    ASSERT_EQ(Half5[I].Bits, tile::Half::fromFloat(B.toFloat()).Bits)
        << I << ": e5m2 " << B.toFloat() << " to fp16";
    ASSERT_EQ(Twice4[I].Bits, tile::Float8E4M3::fromFloat(2 * A.toFloat()).Bits)
        << I << ": " << A.toFloat() << " + itself in e4m3";
  }
}

TEST_F(Fp8Test, DotOfE4m3AndE5m2) {
  constexpr std::size_t B = 32;
  std::vector<float> AValues = examples::randomFloats(B * B, -8, 8, 83);
  std::vector<float> BValues = examples::randomFloats(B * B, -8, 8, 84);
  std::vector<tile::Float8E4M3> A(B * B);
  std::vector<tile::Float8E5M2> Bm(B * B);
  for (std::size_t I = 0; I < B * B; ++I) {
    A[I] = tile::Float8E4M3::fromFloat(AValues[I]);
    Bm[I] = tile::Float8E5M2::fromFloat(BValues[I]);
  }
  auto DA = upload(A);
  auto DB = upload(Bm);
  auto DC = poisoned<float>(B * B);
  tile::Kernel K = kernel("fp8_dot", "k_fp8_dot");
  K.launch(tile::Grid{1}, tile::Stream(), DA, DB, DC);
  tile::Stream().synchronize();
  std::vector<float> C = DC.toHost();
  for (std::size_t I = 0; I < B; ++I)
    for (std::size_t J = 0; J < B; ++J) {
      double Ref = 0;
      for (std::size_t K2 = 0; K2 < B; ++K2)
        Ref += double(A[I * B + K2].toFloat()) * Bm[K2 * B + J].toFloat();
      // fp8 products are exact in fp32 and the sums of 32 of them nearly so.
      ASSERT_NEAR(C[I * B + J], Ref, 1e-5 * (1 + std::fabs(Ref))) << I << ", " << J;
    }
}

/// The e4m3 byte nearest to the double `x` (ties to the even code,
/// saturating), by search over every code: a reference apart from both the
/// host encoder (which starts from a float) and the compiler's.
std::uint8_t nearestE4M3(double X) {
  if (std::isnan(X))
    return 0x7F;
  std::uint8_t Sign = std::signbit(X) ? 0x80 : 0;
  double A = std::fabs(X);
  std::uint8_t Best = 0;
  for (std::uint8_t Code = 1; Code <= 0x7E; ++Code) {
    double V = tile::Float8E4M3{Code}.toFloat(), B = tile::Float8E4M3{Best}.toFloat();
    if (std::fabs(A - V) < std::fabs(A - B) ||
        (std::fabs(A - V) == std::fabs(A - B) && Code % 2 == 0))
      Best = Code;
  }
  return Sign | Best;
}

TEST_F(Fp8Test, ConvertsIntegersF64Bf16AndConstants) {
  constexpr std::size_t M = 1000;
  std::vector<std::int32_t> I = gputest::randomInts<std::int32_t>(M, -600, 600, 85);
  std::vector<float> DValues = examples::randomFloats(M, -500, 500, 86);
  std::vector<double> D(DValues.begin(), DValues.end());
  // Values an f32 rounded to nearest would round the wrong way (just above a
  // tie between two e4m3 values).
  D[0] = 1.0625000001, D[1] = -1.0625000001, D[2] = 3.0 * (1 + 1e-12), D[3] = 1e300;
  std::vector<tile::BFloat16> B(M);
  std::vector<float> BValues = examples::randomFloats(M, -60000, 60000, 87);
  for (std::size_t K = 0; K < M; ++K)
    B[K] = tile::BFloat16::fromFloat(BValues[K]);
  std::vector<tile::Float8E4M3> E4(M);
  std::vector<float> EValues = examples::randomFloats(M, -440, 440, 88);
  for (std::size_t K = 0; K < M; ++K)
    E4[K] = tile::Float8E4M3::fromFloat(EValues[K]);
  auto DI = upload(I);
  auto DD = upload(D);
  auto DB = upload(B);
  auto DE4 = upload(E4);
  auto FromInt = poisoned<tile::Float8E4M3>(M), FromF64 = poisoned<tile::Float8E4M3>(M);
  auto FromBf16 = poisoned<tile::Float8E5M2>(M);
  auto ToInt = poisoned<std::int32_t>(M);
  auto ToF64 = poisoned<double>(M);
  auto ToBf16 = poisoned<tile::BFloat16>(M);
  auto Padded = poisoned<tile::Float8E4M3>(M);
  tile::Kernel K = kernel("fp8_mixed", "k_fp8_mixed");
  K.launch(tile::Grid{gputest::blocks(M, 256)}, tile::Stream(), DI, DD, DB, DE4, FromInt,
           FromF64, FromBf16, ToInt, ToF64, ToBf16, Padded, static_cast<std::int32_t>(M));
  tile::Stream().synchronize();
  auto FI = FromInt.toHost();
  auto FD = FromF64.toHost();
  auto FB = FromBf16.toHost();
  auto TI = ToInt.toHost();
  auto TD = ToF64.toHost();
  auto TB = ToBf16.toHost();
  auto P = Padded.toHost();
  for (std::size_t K2 = 0; K2 < M; ++K2) {
    float A = E4[K2].toFloat();
    ASSERT_EQ(FI[K2].Bits, tile::Float8E4M3::fromFloat(static_cast<float>(I[K2])).Bits)
        << K2 << ": i32 " << I[K2];
    ASSERT_EQ(FD[K2].Bits, nearestE4M3(D[K2])) << K2 << ": f64 " << D[K2];
    ASSERT_EQ(FB[K2].Bits, tile::Float8E5M2::fromFloat(B[K2].toFloat()).Bits)
        << K2 << ": bf16 " << B[K2].toFloat();
    ASSERT_EQ(TI[K2], static_cast<std::int32_t>(std::trunc(A))) << K2 << ": e4m3 " << A;
    ASSERT_EQ(TD[K2], static_cast<double>(A)) << K2;
    ASSERT_EQ(TB[K2].Bits, tile::BFloat16::fromFloat(A).Bits) << K2;
    float Loaded = K2 % 2 == 0 ? A : 1.5f;
    ASSERT_EQ(P[K2].toFloat(), Loaded > 0 ? Loaded : -2.0f) << K2;
  }
}

} // namespace
