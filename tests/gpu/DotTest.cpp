//===- DotTest.cpp - tl.dot: types, results, K loops, transposes, chains --===//
//
// Every test compares with a double reference over the same rounded inputs:
// - kernels/dot.tile: out = a @ b (+ c) in one block (K <= BK) on M, N, K
//   that are not multiples of the tiles (masked loads pad with zeros): fp16,
//   bf16 and fp32 inputs with fp32 results (DotTest), b stored [N, K] and
//   loaded along K (DotBStoredNKTest), fp16/bf16 results through out_dtype
//   or an accumulator of the input type (DotOutDTypeTest), and i8 inputs
//   with exact i32 results (DotInt8Test);
// - kernels/dot_loops.tile: k_matmul_* accumulates over a K loop (MatmulTest)
//   in five block shapes and warp counts, with a and b stored transposed and
//   read through swapped strides or loaded the other way round and passed
//   through tl.trans, from zeros or from c, and fp32 in the default, "ieee"
//   and "tf32" precisions; k_attention_block chains two dots through a row
//   softmax (AttentionBlockTest), with the warps all along M and split;
// - kernels/dot.tile, k_dot_reduce: row sums and column maxima of a product
//   reduced in its MMA layout (DotReduceTest);
// - k_dot_fp32 on inputs whose 13 low mantissa bits are set: the default
//   precision truncates them to tf32 (DotTF32Test).
// Tolerances: fp16 and bf16 products are exact in fp32, and "ieee" ones
// round like fp32, so only fp32 sums round: 1e-5 relative with a floor of
// 3e-5 of the sum of the terms' magnitudes. fp32 inputs in the default
// precision may run as tf32 on the tensor cores (as in Triton), and fp16 or
// bf16 results round: 1e-2 relative with a floor of 1e-3 of that sum.
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
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

template <class H> std::vector<double> values(const std::vector<H> &V) {
  std::vector<double> Out(V.size());
  for (std::size_t I = 0; I < V.size(); ++I)
    Out[I] = value(V[I]);
  return Out;
}

/// Where an operand keeps its element (R, C): at R * Row + C * Col.
struct Strides {
  std::size_t Row, Col;
};

/// The strides of a [Rows, Cols] operand stored row-major, or transposed
/// (stored as [Cols, Rows]).
Strides strides(std::size_t Rows, std::size_t Cols, bool Transposed) {
  return Transposed ? Strides{1, Rows} : Strides{Cols, 1};
}

/// a [M, K] @ b [K, N] (+ c, when not empty) in double, and for each
/// element the sum of its terms' magnitudes (c's and the products').
struct Reference {
  std::vector<double> Out, Scale;
};

template <class H>
Reference matmulReference(const std::vector<H> &A, Strides SA,
                          const std::vector<H> &B, Strides SB,
                          const std::vector<double> &C, std::size_t M,
                          std::size_t N, std::size_t K) {
  Reference R{std::vector<double>(M * N), std::vector<double>(M * N)};
  for (std::size_t I = 0; I < M; ++I)
    for (std::size_t J = 0; J < N; ++J) {
      double Sum = C.empty() ? 0 : C[I * N + J], Abs = std::fabs(Sum);
      for (std::size_t L = 0; L < K; ++L) {
        double P = value(A[I * SA.Row + L * SA.Col]) *
                   value(B[L * SB.Row + J * SB.Col]);
        Sum += P;
        Abs += std::fabs(P);
      }
      R.Out[I * N + J] = Sum;
      R.Scale[I * N + J] = Abs;
    }
  return R;
}

/// |out - ref| <= Rel * |ref| + OfScale * (the sum of the terms' magnitudes).
struct Tolerance {
  double Rel, OfScale;
};
/// fp32 sums of exact products (fp16, bf16) or of fp32 ones ("ieee").
constexpr Tolerance Fp32Sums{1e-5, 3e-5};
/// tf32 products, or results rounded to fp16 or bf16.
constexpr Tolerance Rounded{1e-2, 1e-3};

void expectMatches(const std::vector<float> &Out, const Reference &Ref,
                   Tolerance Tol, const std::string &What) {
  gputest::expectClose(
      Out, [&](std::size_t I) { return Ref.Out[I]; },
      [&](std::size_t I, double R) {
        return Tol.Rel * std::fabs(R) + Tol.OfScale * Ref.Scale[I];
      },
      What);
}

/// The [BM, BN] programs of K (constexprs BM and BN) that cover [M, N].
tile::Grid tilesOf(const tile::Kernel &K, std::size_t M, std::size_t N) {
  return tile::Grid{gputest::blocks(M, K.info().constexprInt("BM")),
                    gputest::blocks(N, K.info().constexprInt("BN"))};
}

std::int32_t i32(std::size_t V) { return static_cast<std::int32_t>(V); }

//===----------------------------------------------------------------------===//
// One block: fp32 results (dot.tile, k_dot_<type>)
//===----------------------------------------------------------------------===//

using DotTest =
    gputest::GpuTest<::testing::TestWithParam<std::tuple<const char *, bool>>>;

/// out = a [100, Kd] @ b [Kd, 70] (+ c) with k_dot_<type> kernel K; b is
/// stored [70, Kd] when BStoredNK (the kernel's B_NK).
template <class H, class Test>
void runDot(Test &T, tile::Kernel K, bool Acc, const std::string &What,
            std::size_t Kd = 30, bool BStoredNK = false) {
  const std::size_t M = 100, N = 70;
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
  K.launch(tilesOf(K, M, N), tile::Stream(), DA, DB, DC, DOut, i32(M), i32(N),
           i32(Kd));
  Ctx.synchronize();
  Reference Ref =
      matmulReference(A, strides(M, Kd, false), B, strides(Kd, N, BStoredNK),
                      Acc ? values(C) : std::vector<double>(), M, N, Kd);
  std::vector<float> Out = DOut.toHost();
  gputest::expectPoisoned(Out, M * N, What);
  Out.resize(M * N);
  expectMatches(Out, Ref, Rounded, What);
}

std::string
dotName(const ::testing::TestParamInfo<std::tuple<const char *, bool>> &Info) {
  return std::string(std::get<0>(Info.param)) +
         (std::get<1>(Info.param) ? "_acc" : "");
}

/// A batched dot, [B, M, K] x [B, K, N] (+ 1 with ACC), in one program.
class DotBatchedTest : public gputest::GpuTest<> {};

TEST_F(DotBatchedTest, MatchesDoubleReference) {
  for (const char *Ptx : {"dot_batched", "dot_batched_acc"}) {
    tile::Kernel K = kernel(Ptx, "k_dot_batched");
    std::int64_t B = K.info().constexprInt("B"), M = K.info().constexprInt("M"),
                 N = K.info().constexprInt("N"), Kd = K.info().constexprInt("K");
    bool Acc = std::get<bool>(*K.info().findConstexpr("ACC"));
    std::vector<tile::Half> A = randomValues<tile::Half>(B * M * Kd, 201);
    std::vector<tile::Half> Bv = randomValues<tile::Half>(B * Kd * N, 202);
    auto DA = upload(A);
    auto DB = upload(Bv);
    auto DC = poisoned<float>(B * M * N + 64);
    K.launch(tile::Grid{1}, tile::Stream(), DA, DB, DC);
    Ctx->synchronize();
    std::vector<float> C = result(DC, B * M * N, Ptx);
    for (std::int64_t P = 0; P < B; ++P)
      for (std::int64_t I = 0; I < M; ++I)
        for (std::int64_t J = 0; J < N; ++J) {
          double Ref = Acc ? 1.0 : 0.0;
          for (std::int64_t L = 0; L < Kd; ++L)
            Ref += double(A[(P * M + I) * Kd + L].toFloat()) *
                   double(Bv[(P * Kd + L) * N + J].toFloat());
          ASSERT_NEAR(C[(P * M + I) * N + J], Ref, 1e-4 + 1e-4 * std::abs(Ref))
              << Ptx << " batch " << P << " c[" << I << "][" << J << "]";
        }
  }
}

/// The value of fp4 e2m1 code \p Code (4 bits).
double decodeE2M1(unsigned Code) {
  static const double Magnitudes[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  return (Code & 8 ? -1 : 1) * Magnitudes[Code & 7];
}

/// The value of fp8 byte \p Byte with \p ExpBits exponent bits (e4m3: 4,
/// bias 7; e5m2: 5, bias 15), finite bytes only.
double decodeFP8(std::uint8_t Byte, int ExpBits) {
  int MantBits = 7 - ExpBits, Bias = (1 << (ExpBits - 1)) - 1;
  int Exp = (Byte >> MantBits) & ((1 << ExpBits) - 1), Mant = Byte & ((1 << MantBits) - 1);
  double Value = Exp == 0 ? std::ldexp(Mant, 1 - Bias - MantBits)
                          : std::ldexp((1 << MantBits) + Mant, Exp - Bias - MantBits);
  return Byte & 0x80 ? -Value : Value;
}

/// tl.dot_scaled of fp4 and fp8 operands with e8m0 scales, both ways round
/// (k_dot_scaled without and with FP4_B, b packed along K or N), against a
/// double reference.
class DotScaledTest : public gputest::GpuTest<> {};

TEST_F(DotScaledTest, MatchesDoubleReference) {
  const std::int64_t M = 32, N = 32, K = 64;
  for (const char *Ptx : {"dot_scaled_fp4_fp8", "dot_scaled_fp8_fp4",
                          "dot_scaled_fp8_fp4_npacked"}) {
    tile::Kernel Kernel = kernel(Ptx, "k_dot_scaled");
    bool Fp4B = std::get<bool>(*Kernel.info().findConstexpr("FP4_B"));
    bool NPacked = std::get<bool>(*Kernel.info().findConstexpr("N_PACKED"));
    // fp8 bytes with neither an all-ones exponent nor e4m3's 0x7f (NaN).
    auto Fp8Bytes = [](std::size_t Count, int ExpBits, std::uint64_t Seed) {
      std::vector<std::uint8_t> Bytes =
          gputest::randomInts<std::uint8_t>(Count, 0, 255, Seed);
      for (std::uint8_t &B : Bytes)
        if (((B >> (7 - ExpBits)) & ((1 << ExpBits) - 1)) == (1 << ExpBits) - 1)
          B &= 0xBF; // Clears the exponent's top bit.
      return Bytes;
    };
    std::vector<std::uint8_t> A = Fp4B ? Fp8Bytes(M * K, 5, 301)
                                       : gputest::randomInts<std::uint8_t>(M * K / 2, 0, 255, 302);
    std::vector<std::uint8_t> B = Fp4B ? gputest::randomInts<std::uint8_t>(K / 2 * N, 0, 255, 303)
                                       : Fp8Bytes(K * N, 4, 304);
    std::vector<std::uint8_t> SA = gputest::randomInts<std::uint8_t>(M * K / 32, 120, 134, 305);
    std::vector<std::uint8_t> SB = gputest::randomInts<std::uint8_t>(N * K / 32, 120, 134, 306);
    auto DA = upload(A), DB = upload(B), DSA = upload(SA), DSB = upload(SB);
    auto DC = poisoned<float>(M * N + 64);
    Kernel.launch(tile::Grid{1}, tile::Stream(), DA, DSA, DB, DSB, DC);
    Ctx->synchronize();
    std::vector<float> C = result(DC, M * N, "dot_scaled");
    auto AValue = [&](std::int64_t I, std::int64_t L) {
      double V = Fp4B ? decodeFP8(A[I * K + L], 5)
                      : decodeE2M1(A[I * K / 2 + L / 2] >> (L % 2 ? 4 : 0) & 15);
      return std::ldexp(V, SA[I * K / 32 + L / 32] - 127);
    };
    auto BValue = [&](std::int64_t L, std::int64_t J) {
      double V = !Fp4B   ? decodeFP8(B[L * N + J], 4)
                 : NPacked ? decodeE2M1(B[L * N / 2 + J / 2] >> (J % 2 ? 4 : 0) & 15)
                           : decodeE2M1(B[L / 2 * N + J] >> (L % 2 ? 4 : 0) & 15);
      return std::ldexp(V, SB[J * K / 32 + L / 32] - 127);
    };
    for (std::int64_t I = 0; I < M; ++I)
      for (std::int64_t J = 0; J < N; ++J) {
        // Exact products, summed in fp32: off by a few ulps of the
        // magnitudes summed.
        double Ref = 0, Magnitude = 0;
        for (std::int64_t L = 0; L < K; ++L) {
          Ref += AValue(I, L) * BValue(L, J);
          Magnitude += std::abs(AValue(I, L) * BValue(L, J));
        }
        ASSERT_NEAR(C[I * N + J], Ref, 1e-6 * Magnitude + 1e-30)
            << Ptx << " c[" << I << "][" << J << "]";
      }
  }
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

/// fp32 inputs in the default precision ("tf32") lose their 13 low mantissa
/// bits on the tensor cores, toward zero (not rounded to nearest as
/// cvt.rna.tf32.f32 would): a and b hold 1 + 0x1FFF * 2^-23, so every product
/// is exactly 1 and out = K (rounding to nearest would give K * (1 + 2^-10)^2).
/// The interpreter truncates the same way.
using DotTF32Test = gputest::GpuTest<>;

TEST_F(DotTF32Test, DefaultPrecisionTruncatesInputs) {
  const std::size_t M = 100, N = 70, Kd = 30;
  float Low;
  const std::uint32_t LowBits = 0x3F801FFF;
  std::memcpy(&Low, &LowBits, 4);
  tile::Kernel K = kernel("dot_fp32", "k_dot_fp32");
  tile::Context &Ctx = *context();
  tile::DeviceBuffer<float> DA(Ctx, M * Kd), DB(Ctx, Kd * N), DC(Ctx, M * N),
      DOut(Ctx, M * N + 64);
  DA.copyFromHost(std::vector<float>(M * Kd, Low));
  DB.copyFromHost(std::vector<float>(Kd * N, Low));
  DOut.fillBytes(0xFF);
  K.launch(tilesOf(K, M, N), tile::Stream(), DA, DB, DC, DOut, i32(M), i32(N),
           i32(Kd));
  Ctx.synchronize();
  std::vector<float> Out = DOut.toHost();
  gputest::expectPoisoned(Out, M * N, "tf32");
  Out.resize(M * N);
  gputest::expectEqual(
      Out, [&](std::size_t) { return static_cast<double>(Kd); }, "tf32");
}

//===----------------------------------------------------------------------===//
// One block, b stored [N, K] (dot.tile, k_dot_<type> with B_NK)
//===----------------------------------------------------------------------===//

/// The module (dot_<Module> of kernels/KERNELS: "<type>_bnk[_k8][...]") and
/// K. When K is known to be a multiple of 8 (k8; K = 24 and 32), b's tile is
/// loaded along K in 16-byte vectors and staged transposed by mma.sync, with
/// 4 and 8 warps (two along N either way) and on a 16x16 block smaller than
/// the warps' tiles, and by wgmma (read K-major); when it is not (K = 30), one
/// element at a time, staged row-major.
using DotBStoredNKParam = std::tuple<const char *, int>;

class DotBStoredNKTest
    : public gputest::GpuTest<::testing::TestWithParam<DotBStoredNKParam>> {};

TEST_P(DotBStoredNKTest, MatchesDoubleReference) {
  auto [Module, Kd] = GetParam();
  std::string Name = std::string(Module) + "_k" + std::to_string(Kd);
  tile::Kernel K =
      kernel(std::string("dot_") + Module,
             std::string("k_dot_") + std::string(Module).substr(0, 4));
  bool Acc = std::string(Module).find("_acc") != std::string::npos;
  if (std::string(Module).rfind("fp16", 0) == 0)
    runDot<tile::Half>(*this, K, Acc, Name, Kd, true);
  else
    runDot<tile::BFloat16>(*this, K, Acc, Name, Kd, true);
}

INSTANTIATE_TEST_SUITE_P(
    DotBStoredNK, DotBStoredNKTest,
    ::testing::Values(DotBStoredNKParam{"fp16_bnk", 30},
                      DotBStoredNKParam{"bf16_bnk", 30},
                      DotBStoredNKParam{"fp16_bnk_k8", 24},
                      DotBStoredNKParam{"fp16_bnk_k8", 32},
                      DotBStoredNKParam{"fp16_bnk_k8_acc", 24},
                      DotBStoredNKParam{"bf16_bnk_k8", 24},
                      DotBStoredNKParam{"fp16_bnk_k8_w8", 24},
                      DotBStoredNKParam{"bf16_bnk_k8_w8", 32},
                      DotBStoredNKParam{"fp16_bnk_k8_wgmma", 24},
                      DotBStoredNKParam{"fp16_bnk_k8_wgmma", 32},
                      DotBStoredNKParam{"fp16_bnk_k8_16x16x16_w4", 8},
                      DotBStoredNKParam{"fp16_bnk_k8_16x16x16_w4", 16}),
    [](const ::testing::TestParamInfo<DotBStoredNKParam> &Info) {
      return std::string(std::get<0>(Info.param)) + "_k" +
             std::to_string(std::get<1>(Info.param));
    });

//===----------------------------------------------------------------------===//
// One block: results in the input type (dot.tile, k_dot_out_<type>)
//===----------------------------------------------------------------------===//

class DotOutDTypeTest : public DotTest {
protected:
  /// out (H) = a @ b with out_dtype=H, or c (H) + a @ b.
  template <class H>
  void run(const std::string &Type, bool Acc, const std::string &Module) {
    const std::size_t M = 100, N = 70, Kd = 30;
    tile::Kernel K = kernel(Module, "k_dot_out_" + Type);
    std::vector<H> A = randomValues<H>(M * Kd, 84);
    std::vector<H> B = randomValues<H>(Kd * N, 85);
    std::vector<H> C = randomValues<H>(M * N, 86);
    auto DA = upload(A), DB = upload(B);
    auto DC = upload(C);
    auto DOut = poisoned<H>(M * N + 64);
    K.launch(tilesOf(K, M, N), tile::Stream(), DA, DB, DC, DOut, i32(M), i32(N),
             i32(Kd));
    Ctx->synchronize();
    Reference Ref =
        matmulReference(A, strides(M, Kd, false), B, strides(Kd, N, false),
                        Acc ? values(C) : std::vector<double>(), M, N, Kd);
    expectMatches(gputest::toFloats(result(DOut, M * N, Module)), Ref, Rounded,
                  Module);
  }
};

TEST_P(DotOutDTypeTest, MatchesDoubleReference) {
  std::string Type = std::get<0>(GetParam());
  bool Acc = std::get<1>(GetParam());
  std::string Module = "dot_out_" + dotName({GetParam(), 0});
  if (Type == "fp16")
    run<tile::Half>(Type, Acc, Module);
  else
    run<tile::BFloat16>(Type, Acc, Module);
}

INSTANTIATE_TEST_SUITE_P(DotOut, DotOutDTypeTest,
                         ::testing::Combine(::testing::Values("fp16", "bf16"),
                                            ::testing::Bool()),
                         dotName);

//===----------------------------------------------------------------------===//
// i8 inputs, exact i32 results (dot.tile, k_dot_i8)
//===----------------------------------------------------------------------===//

/// The module (dot_i8<Module> of kernels/KERNELS), M, N, K.
using DotInt8Param = std::tuple<const char *, int, int, int>;

class DotInt8Test
    : public gputest::GpuTest<::testing::TestWithParam<DotInt8Param>> {};

TEST_P(DotInt8Test, MatchesExactly) {
  auto [Module, M, N, Kd] = GetParam();
  const std::string What = std::string("dot_i8") + Module + " " +
                           std::to_string(M) + "x" + std::to_string(N) + "x" +
                           std::to_string(Kd);
  tile::Kernel K = kernel(std::string("dot_i8") + Module, "k_dot_i8");
  ASSERT_LE(Kd, K.info().constexprInt("BK"));
  const bool Acc = std::string(Module).find("acc") != std::string::npos;
  // The whole i8 range, so that products and sums are large and negative.
  auto Bytes = [](std::size_t Count, std::uint64_t Seed) {
    std::vector<std::int8_t> Out(Count);
    std::vector<float> F = examples::randomFloats(Count, -128, 128, Seed);
    for (std::size_t I = 0; I < Count; ++I)
      Out[I] =
          static_cast<std::int8_t>(std::clamp(std::floor(F[I]), -128.f, 127.f));
    return Out;
  };
  std::vector<std::int8_t> A = Bytes(M * Kd, 121), B = Bytes(Kd * N, 122);
  std::vector<std::int32_t> C(M * N);
  for (std::size_t I = 0; I < C.size(); ++I)
    C[I] = static_cast<std::int32_t>(I * 7919 % 200001) - 100000;
  auto DA = upload(A), DB = upload(B);
  auto DC = upload(C);
  auto DOut = poisoned<std::int32_t>(M * N + 64);
  K.launch(tilesOf(K, M, N), tile::Stream(), DA, DB, DC, DOut, i32(M), i32(N),
           i32(Kd));
  Ctx->synchronize();
  std::vector<std::int32_t> Out = result(DOut, M * N, What);
  std::size_t Wrong = 0, First = 0;
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      std::int64_t Sum = Acc ? C[I * N + J] : 0;
      for (int L = 0; L < Kd; ++L)
        Sum += std::int64_t(A[I * Kd + L]) * B[L * N + J];
      if (Out[I * N + J] != Sum && Wrong++ == 0)
        First = I * N + J;
    }
  EXPECT_EQ(Wrong, 0u) << What << ": first wrong element " << First;
}

/// The tensor cores (K a multiple of 32 per block, with and without c, 4
/// and 8 warps) and the FMA units (BK 16), on sizes that are not multiples
/// of the blocks.
std::vector<DotInt8Param> dotInt8Cases() {
  return {{"", 100, 70, 30},
          {"", 64, 64, 32},
          {"_acc", 100, 70, 32},
          {"_bk16_acc", 100, 70, 13},
          {"_128x128_w8", 200, 150, 64},
          {"_128x128_w8", 128, 128, 50}};
}

INSTANTIATE_TEST_SUITE_P(
    DotInt8, DotInt8Test, ::testing::ValuesIn(dotInt8Cases()),
    [](const ::testing::TestParamInfo<DotInt8Param> &Info) {
      std::string Module = std::get<0>(Info.param);
      return (Module.empty() ? std::string("plain") : Module.substr(1)) + "_" +
             std::to_string(std::get<1>(Info.param)) + "x" +
             std::to_string(std::get<2>(Info.param)) + "x" +
             std::to_string(std::get<3>(Info.param));
    });

//===----------------------------------------------------------------------===//
// K loops (dot_loops.tile, k_matmul_<type>)
//===----------------------------------------------------------------------===//

/// One run of k_matmul_<Type>, compiled as the module
/// matmul_<Type>_<Block>[_<Variant>] of kernels/KERNELS.
struct MatmulCase {
  std::string Type;    ///< "fp16", "bf16" or "fp32".
  std::string Block;   ///< "<BM>x<BN>x<BK>_w<num_warps>".
  std::string Variant; ///< "", "acc", "trans_a", "trans_b", "trans_ab",
                       ///< "ieee" or "tf32" (fp32 only); "pipe",
                       ///< "pipe_acc", "pipe_s2", "pipe_s5": HINTS=True
                       ///< (software pipelined; sizes multiples of 16);
                       ///< "wgmma", "wgmma_acc" (sm_90a, operands staged)
                       ///< and "wgmma_pipe", "wgmma_pipe_acc",
                       ///< "wgmma_pipe_s2", "wgmma_pipe_s5" (pipelined);
                       ///< "pipe_rev", "wgmma_pipe_rev", "rev": K blocks in
                       ///< reverse order; "pipe_bnk", "pipe_bnk_acc",
                       ///< "pipe_bnk_s2", "pipe_bnk_rev", "wgmma_pipe_bnk":
                       ///< HINTS=True B_NK=True (b stored [N, K], loaded
                       ///< along K).
  std::size_t M, N, K;
  bool AStoredKM = false; ///< a is stored as [K, M].
  bool BStoredNK = false; ///< b is stored as [N, K].

  std::string module() const {
    return "matmul_" + Type + "_" + Block +
           (Variant.empty() ? "" : "_" + Variant);
  }
  bool transA() const { return Variant == "trans_a" || Variant == "trans_ab"; }
  bool transB() const { return Variant == "trans_b" || Variant == "trans_ab"; }
  /// fp16_64x64x32_w4_200x136x300_a_km_strides_b_nk_trans: the type, block
  /// and precision or accumulator, the sizes, then for each operand that is
  /// stored transposed or loaded the other way round, how it is stored
  /// (a_mk, a_km, b_kn, b_nk) and read (strides: swapped strides on a tile
  /// loaded as used; trans: loaded the other way round, then tl.trans).
  std::string name() const {
    std::string Name = Type + "_" + Block;
    if (!Variant.empty() && Variant.rfind("trans", 0) != 0)
      Name += "_" + Variant;
    Name += "_" + std::to_string(M) + "x" + std::to_string(N) + "x" +
            std::to_string(K);
    if (AStoredKM || transA())
      Name += std::string(AStoredKM ? "_a_km" : "_a_mk") +
              (transA() ? "_trans" : "_strides");
    if (BStoredNK || transB())
      Name += std::string(BStoredNK ? "_b_nk" : "_b_kn") +
              (transB() ? "_trans" : "_strides");
    return Name;
  }
};

/// For gtest's messages (instead of the bytes of the struct).
void PrintTo(const MatmulCase &Case, std::ostream *OS) {
  *OS << Case.module() << " on " << Case.name();
}

std::vector<MatmulCase> matmulCases() {
  std::vector<MatmulCase> Cases;
  const std::string Base = "64x64x32_w4";
  for (std::string T : {"fp16", "bf16", "fp32"}) {
    // Masked edges in M, N and K (200 = 3 * 64 + 8, 300 = 9 * 32 + 12), and
    // sizes that are multiples of the block.
    Cases.push_back({T, Base, "", 200, 136, 300});
    Cases.push_back({T, Base, "", 128, 192, 96});
    Cases.push_back({T, Base, "acc", 200, 136, 300});
    // Transposed storage read through swapped strides.
    Cases.push_back({T, Base, "", 200, 136, 300, true, false});
    Cases.push_back({T, Base, "", 200, 136, 300, false, true});
    Cases.push_back({T, Base, "", 200, 136, 300, true, true});
    // Tiles loaded the other way round and passed through tl.trans, over
    // transposed and over row-major storage.
    Cases.push_back({T, Base, "trans_a", 200, 136, 300, true, false});
    Cases.push_back({T, Base, "trans_a", 200, 136, 300, false, false});
    Cases.push_back({T, Base, "trans_b", 200, 136, 300, false, true});
    Cases.push_back({T, Base, "trans_b", 200, 136, 300, false, false});
    Cases.push_back({T, Base, "trans_ab", 200, 136, 300, true, true});
    // Other blocks and warp counts; 16x16 with 4 warps has more warps than
    // 16x8 instruction tiles; 5x12x9 is smaller than one block.
    Cases.push_back({T, "128x128x32_w8", "", 200, 136, 300});
    Cases.push_back({T, "64x32x16_w4", "", 200, 136, 300});
    Cases.push_back({T, "16x16x16_w1", "", 200, 136, 300});
    Cases.push_back({T, "16x16x16_w1", "", 5, 12, 9});
    Cases.push_back({T, "16x16x16_w4", "", 200, 136, 300});
    Cases.push_back({T, "16x16x16_w4", "", 5, 12, 9});
  }
  // Software pipelined (cp.async, num_stages slots): K ends inside a block
  // (304 = 9 * 32 + 16), fewer K blocks than stages (16), M and N not
  // multiples of the block, a long K loop (2048).
  for (std::string T : {"fp16", "bf16"}) {
    for (std::string V : {"pipe", "pipe_acc", "pipe_s2", "pipe_s5"}) {
      Cases.push_back({T, Base, V, 208, 144, 304});
      Cases.push_back({T, Base, V, 64, 80, 16});
    }
    Cases.push_back({T, "128x128x32_w8", "pipe", 272, 400, 528});
    Cases.push_back({T, "64x32x16_w4", "pipe", 208, 144, 304});
    Cases.push_back({T, "128x64x64_w4", "pipe", 208, 144, 304});
    Cases.push_back({T, "128x64x64_w4", "pipe", 128, 64, 2048});
    // wgmma (sm_90a): staged operands at any size, pipelined slots at
    // multiples of 16; N up to 256, K rows of 64 and 256 bytes (panels).
    Cases.push_back({T, Base, "wgmma", 200, 136, 300});
    Cases.push_back({T, Base, "wgmma", 5, 12, 9});
    Cases.push_back({T, Base, "wgmma_acc", 200, 136, 300});
    Cases.push_back({T, Base, "wgmma_pipe", 208, 144, 304});
    Cases.push_back({T, Base, "wgmma_pipe", 64, 80, 16});
    Cases.push_back({T, Base, "wgmma_pipe_acc", 208, 144, 304});
    Cases.push_back({T, "128x128x32_w8", "wgmma_pipe", 272, 400, 528});
    Cases.push_back({T, "128x64x64_w4", "wgmma_pipe", 208, 144, 304});
    Cases.push_back({T, "128x256x64_w8", "wgmma_pipe", 272, 528, 400});
    Cases.push_back({T, "64x32x128_w4", "wgmma_pipe", 208, 144, 304});
  }
  // K blocks walked in reverse, the index also used after the loads.
  for (std::string V : {"pipe_rev", "wgmma_pipe_rev"}) {
    Cases.push_back({"fp16", Base, V, 208, 144, 304});
    Cases.push_back({"fp16", Base, V, 64, 80, 16});
  }
  Cases.push_back({"fp32", Base, "rev", 200, 136, 300});
  // b stored [N, K] and loaded along K (B_NK with HINTS): mma.sync pipelines
  // it into slots that store it transposed, with warps split along N in
  // every block: 16-byte copies, 8-byte ones for 64x32x16, 4-byte ones for
  // 16x16x16 on 4 warps (a block smaller than the warps' tiles); wgmma
  // stages it.
  for (std::string T : {"fp16", "bf16"}) {
    Cases.push_back({T, Base, "pipe_bnk", 208, 144, 304, false, true});
    Cases.push_back({T, Base, "pipe_bnk", 64, 80, 16, false, true});
    Cases.push_back(
        {T, "128x128x32_w8", "pipe_bnk", 272, 400, 528, false, true});
    Cases.push_back({T, "64x32x16_w4", "pipe_bnk", 208, 144, 304, false, true});
    Cases.push_back({T, Base, "wgmma_pipe_bnk", 208, 144, 304, false, true});
  }
  // wgmma reads such a b K-major from its transposed slots: 256-byte rows
  // (panels) for BK=128, and 8 warps.
  Cases.push_back(
      {"fp16", "64x32x128_w4", "wgmma_pipe_bnk", 208, 144, 304, false, true});
  Cases.push_back(
      {"fp16", "128x128x32_w8", "wgmma_pipe_bnk", 272, 400, 528, false, true});
  for (std::string V : {"pipe_bnk_acc", "pipe_bnk_s2", "pipe_bnk_rev"}) {
    Cases.push_back({"fp16", Base, V, 208, 144, 304, false, true});
    Cases.push_back({"fp16", Base, V, 64, 80, 16, false, true});
  }
  Cases.push_back(
      {"fp16", "128x64x64_w4", "pipe_bnk", 208, 144, 304, false, true});
  Cases.push_back(
      {"fp16", "128x64x64_w4", "pipe_bnk", 128, 64, 2048, false, true});
  Cases.push_back(
      {"fp16", "16x16x16_w4", "pipe_bnk", 208, 144, 304, false, true});
  Cases.push_back({"fp16", "16x16x16_w4", "pipe_bnk", 16, 16, 16, false, true});
  // wgmma groups left in flight across iterations with 2 and 5 stages.
  for (std::string V : {"wgmma_pipe_s2", "wgmma_pipe_s5"}) {
    Cases.push_back({"fp16", Base, V, 208, 144, 304});
    Cases.push_back({"fp16", Base, V, 64, 80, 16});
  }
  Cases.push_back({"fp32", Base, "ieee", 200, 136, 300});
  Cases.push_back({"fp32", Base, "ieee", 200, 136, 300, true, true});
  Cases.push_back({"fp32", Base, "tf32", 200, 136, 300});
  return Cases;
}

class MatmulTest
    : public gputest::GpuTest<::testing::TestWithParam<MatmulCase>> {
protected:
  template <class H> void run(const MatmulCase &Case) {
    const std::size_t M = Case.M, N = Case.N, Kd = Case.K;
    const std::string What = Case.name();
    tile::Kernel K = kernel(Case.module(), "k_matmul_" + Case.Type);
    Strides SA = strides(M, Kd, Case.AStoredKM);
    Strides SB = strides(Kd, N, Case.BStoredNK);
    std::vector<H> A = randomValues<H>(M * Kd, 91);
    std::vector<H> B = randomValues<H>(Kd * N, 92);
    std::vector<float> C = examples::randomFloats(M * N, -1, 1, 93);
    auto DA = upload(A), DB = upload(B);
    auto DC = upload(C);
    auto DOut = poisoned<float>(M * N + 64);
    K.launch(tilesOf(K, M, N), tile::Stream(), DA, DB, DC, DOut, i32(M), i32(N),
             i32(Kd), i32(SA.Row), i32(SA.Col), i32(SB.Row), i32(SB.Col));
    Ctx->synchronize();
    bool Acc = Case.Variant == "acc" ||
               (Case.Variant.size() > 4 &&
                Case.Variant.compare(Case.Variant.size() - 4, 4, "_acc") == 0);
    Reference Ref = matmulReference(
        A, SA, B, SB, Acc ? values(C) : std::vector<double>(), M, N, Kd);
    bool Exact = Case.Type != "fp32" || Case.Variant == "ieee";
    expectMatches(result(DOut, M * N, What), Ref, Exact ? Fp32Sums : Rounded,
                  What);
  }
};

TEST_P(MatmulTest, MatchesDoubleReference) {
  const MatmulCase &Case = GetParam();
  if (Case.Type == "fp16")
    run<tile::Half>(Case);
  else if (Case.Type == "bf16")
    run<tile::BFloat16>(Case);
  else
    run<float>(Case);
}

INSTANTIATE_TEST_SUITE_P(DotLoop, MatmulTest,
                         ::testing::ValuesIn(matmulCases()),
                         [](const ::testing::TestParamInfo<MatmulCase> &Info) {
                           return Info.param.name();
                         });

//===----------------------------------------------------------------------===//
// Two dots chained through a softmax (dot_loops.tile, k_attention_block)
//===----------------------------------------------------------------------===//

/// The module (attention_block_<Module> of kernels/KERNELS: how k^T is
/// read, "trans" or "strides", and the block and warps), queries, keys.
using AttentionParam = std::tuple<const char *, int, int>;

class AttentionBlockTest
    : public gputest::GpuTest<::testing::TestWithParam<AttentionParam>> {};

TEST_P(AttentionBlockTest, MatchesDoubleReference) {
  auto [Module, NQ, NKv] = GetParam();
  const std::string What = std::string(Module) + " q" + std::to_string(NQ) +
                           " kv" + std::to_string(NKv);
  tile::Kernel K =
      kernel(std::string("attention_block_") + Module, "k_attention_block");
  const std::size_t Heads = 3, D = K.info().constexprInt("D");
  ASSERT_LE(NQ, K.info().constexprInt("BM"));
  ASSERT_LE(NKv, K.info().constexprInt("BN"));
  const float SmScale = 0.5f;
  std::vector<tile::Half> Q = randomValues<tile::Half>(Heads * NQ * D, 101);
  std::vector<tile::Half> Keys = randomValues<tile::Half>(Heads * NKv * D, 102);
  std::vector<tile::Half> V = randomValues<tile::Half>(Heads * NKv * D, 103);
  auto DQ = upload(Q), DK = upload(Keys), DV = upload(V);
  auto DOut = poisoned<float>(Heads * NQ * D + 64);
  K.launch(tile::Grid{static_cast<unsigned>(Heads)}, tile::Stream(), DQ, DK, DV,
           DOut, i32(NQ), i32(NKv), SmScale);
  Ctx->synchronize();

  // o = p @ v with p = softmax(q @ k^T * SmScale) in double; the scale of
  // an element is sum_j p_ij |v_jd| (the kernel rounds p to fp16).
  Reference Ref{std::vector<double>(Heads * NQ * D),
                std::vector<double>(Heads * NQ * D)};
  std::vector<double> P(NKv);
  for (std::size_t H = 0; H < Heads; ++H)
    for (int I = 0; I < NQ; ++I) {
      const tile::Half *QRow = &Q[(H * NQ + I) * D];
      const tile::Half *KHead = &Keys[H * NKv * D], *VHead = &V[H * NKv * D];
      double Max = -INFINITY, Sum = 0;
      for (int J = 0; J < NKv; ++J) {
        double S = 0;
        for (std::size_t L = 0; L < D; ++L)
          S += value(QRow[L]) * value(KHead[J * D + L]);
        P[J] = S * SmScale;
        Max = std::max(Max, P[J]);
      }
      for (double &X : P)
        Sum += X = std::exp(X - Max);
      for (std::size_t L = 0; L < D; ++L) {
        double O = 0, Abs = 0;
        for (int J = 0; J < NKv; ++J) {
          O += P[J] / Sum * value(VHead[J * D + L]);
          Abs += P[J] / Sum * std::fabs(value(VHead[J * D + L]));
        }
        Ref.Out[(H * NQ + I) * D + L] = O;
        Ref.Scale[(H * NQ + I) * D + L] = Abs;
      }
    }
  expectMatches(result(DOut, Heads * NQ * D, What), Ref, {1e-3, 2e-3}, What);
}

/// Full and partial blocks of each attention_block module: warps all along
/// M (the softmax and p stay in registers), warps split along N (w8 on 64
/// rows: reductions across warps, p through shared memory), a 128-wide head,
/// a block smaller than the warps' tile (replicated warps), and wgmma.
std::vector<AttentionParam> attentionCases() {
  std::vector<AttentionParam> Cases;
  for (const char *Module : {"trans", "strides", "trans_bm64_w8"})
    for (int NQ : {64, 50})
      for (int NKv : {64, 40})
        Cases.emplace_back(Module, NQ, NKv);
  for (int NQ : {128, 100})
    Cases.emplace_back("strides_bm128_w8", NQ, 40);
  for (int NKv : {32, 20})
    Cases.emplace_back("strides_d128_bn32", 60, NKv);
  for (int NQ : {16, 9})
    Cases.emplace_back("trans_bm16_w4", NQ, 13);
  // wgmma (sm_90a): q and p read from registers, k^T as a K-major b.
  for (const char *Module : {"trans_wgmma", "strides_wgmma"})
    for (int NKv : {64, 40})
      Cases.emplace_back(Module, 50, NKv);
  Cases.emplace_back("strides_bm128_w8_wgmma", 100, 40);
  // Two 64-row blocks per warpgroup: register a of the second M repetition.
  Cases.emplace_back("strides_bm128_w4_wgmma", 100, 40);
  Cases.emplace_back("strides_d128_bn32_wgmma", 60, 20);
  return Cases;
}

INSTANTIATE_TEST_SUITE_P(
    DotChain, AttentionBlockTest, ::testing::ValuesIn(attentionCases()),
    [](const ::testing::TestParamInfo<AttentionParam> &Info) {
      return std::string(std::get<0>(Info.param)) + "_q" +
             std::to_string(std::get<1>(Info.param)) + "_kv" +
             std::to_string(std::get<2>(Info.param));
    });

//===----------------------------------------------------------------------===//
// Reductions of a product in its MMA layout (dot.tile, k_dot_reduce)
//===----------------------------------------------------------------------===//

/// The module (dot_reduce_<Module> of kernels/KERNELS), M, N, K.
using DotReduceParam = std::tuple<const char *, int, int, int>;

class DotReduceTest
    : public gputest::GpuTest<::testing::TestWithParam<DotReduceParam>> {};

TEST_P(DotReduceTest, MatchesDoubleReference) {
  auto [Module, M, N, Kd] = GetParam();
  const std::string What = std::string(Module) + " " + std::to_string(M) + "x" +
                           std::to_string(N) + "x" + std::to_string(Kd);
  tile::Kernel K = kernel(std::string("dot_reduce_") + Module, "k_dot_reduce");
  ASSERT_LE(M, K.info().constexprInt("BM"));
  ASSERT_LE(N, K.info().constexprInt("BN"));
  ASSERT_LE(Kd, K.info().constexprInt("BK"));
  std::vector<tile::Half> A = randomValues<tile::Half>(M * Kd, 111);
  std::vector<tile::Half> B = randomValues<tile::Half>(Kd * N, 112);
  auto DA = upload(A), DB = upload(B);
  auto DRows = poisoned<float>(M + 64), DCols = poisoned<float>(N + 64);
  K.launch(tile::Grid{1}, tile::Stream(), DA, DB, DRows, DCols, i32(M), i32(N),
           i32(Kd));
  Ctx->synchronize();
  Reference Product = matmulReference(A, strides(M, Kd, false), B,
                                      strides(Kd, N, false), {}, M, N, Kd);
  // Row sums add the elements' errors; a column maximum is within the
  // largest error of the column's elements.
  Reference Rows{std::vector<double>(M), std::vector<double>(M)};
  Reference Cols{std::vector<double>(N, -INFINITY), std::vector<double>(N)};
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      double P = Product.Out[I * N + J], Scale = Product.Scale[I * N + J];
      Rows.Out[I] += P;
      Rows.Scale[I] += Scale;
      Cols.Out[J] = std::max(Cols.Out[J], P);
      Cols.Scale[J] = std::max(Cols.Scale[J], Scale);
    }
  expectMatches(result(DRows, M, What + " rows"), Rows, Fp32Sums,
                What + " rows");
  expectMatches(result(DCols, N, What + " cols"), Cols, Fp32Sums,
                What + " cols");
}

/// Whole and partial tiles: warps split along both dimensions (w4), along
/// N (w8 on 64 rows), all along M (w8 on 128 rows), and replicated warps on
/// a tile smaller than theirs (16x16 on 4 warps).
std::vector<DotReduceParam> dotReduceCases() {
  return {{"64x64_w4", 64, 64, 32},   {"64x64_w4", 50, 37, 20},
          {"64x64_w8", 64, 64, 32},   {"64x64_w8", 33, 60, 32},
          {"128x32_w8", 128, 32, 32}, {"128x32_w8", 100, 30, 17},
          {"16x16_w4", 16, 16, 16},   {"16x16_w4", 11, 7, 9}};
}

INSTANTIATE_TEST_SUITE_P(
    DotReduce, DotReduceTest, ::testing::ValuesIn(dotReduceCases()),
    [](const ::testing::TestParamInfo<DotReduceParam> &Info) {
      return std::string(std::get<0>(Info.param)) + "_" +
             std::to_string(std::get<1>(Info.param)) + "x" +
             std::to_string(std::get<2>(Info.param)) + "x" +
             std::to_string(std::get<3>(Info.param));
    });

} // namespace
