//===- ReductionTest.cpp - sum/max/min/argmax/argmin and cumsum -----------===//
//
// kernels/reductions.tile: every reduction, as a function and as a method,
// and max/min with return_indices=True, over 1-D tiles and over each axis of
// 2-D tiles, with masked-off elements
// (sizes below the tile); inclusive prefix sums over 1-D and 2-D tiles;
// tl.reduce and tl.associative_scan with combine functions, cumprod and
// xor_sum; row minima and maxima of negated integers (NegatedMinMaxTest);
// argmax/argmin of tiles with NaNs (ArgNaNTest).
// Sums are compared with double references relative to the sum of the
// magnitudes (1e-5); max/min/argmax/argmin must be exact.
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace {

constexpr double SumRtol = 1e-5;

/// What a reduction computes over Values[Begin + k * Step] for k < Count.
struct Reduction {
  double Sum = 0, AbsSum = 0, Max = -INFINITY, Min = INFINITY;
  std::int32_t ArgMax = 0, ArgMin = 0;
};

Reduction reduce(const std::vector<float> &Values, std::size_t Begin,
                 std::size_t Step, std::size_t Count) {
  Reduction R;
  for (std::size_t K = 0; K < Count; ++K) {
    double V = Values[Begin + K * Step];
    R.Sum += V;
    R.AbsSum += std::fabs(V);
    if (V > R.Max) { // The first of equal maxima, as Triton's argmax.
      R.Max = V;
      R.ArgMax = static_cast<std::int32_t>(K);
    }
    if (V < R.Min) {
      R.Min = V;
      R.ArgMin = static_cast<std::int32_t>(K);
    }
  }
  return R;
}

/// The base name of FN ("argmax_method" -> "argmax").
std::string baseFn(const std::string &Fn) {
  return Fn.substr(0, Fn.find("_method"));
}

/// Whether FN stores indices (argmax/argmin, max/min with return_indices).
bool writesIndices(const std::string &Fn) {
  return Fn.rfind("arg", 0) == 0 || Fn.find("_indices") != std::string::npos;
}

/// Whether FN stores values (all but argmax/argmin).
bool writesValues(const std::string &Fn) { return Fn.rfind("arg", 0) != 0; }

/// Checks the float results Out and/or the indices Idx of reduction Fn
/// against Refs.
void checkReduction(const std::string &Fn, const std::vector<Reduction> &Refs,
                    const std::vector<float> &Out,
                    const std::vector<std::int32_t> &Idx,
                    const std::string &What) {
  std::string Base = baseFn(Fn);
  if (Base == "sum")
    gputest::expectClose(
        Out, [&](std::size_t I) { return Refs[I].Sum; },
        [&](std::size_t I, double) { return SumRtol * Refs[I].AbsSum + 1e-30; },
        What);
  bool IsMax = Base.rfind("max", 0) == 0 || Base == "argmax";
  if (writesValues(Fn) && Base != "sum")
    gputest::expectEqual(
        Out, [&](std::size_t I) { return float(IsMax ? Refs[I].Max : Refs[I].Min); },
        What);
  if (writesIndices(Fn))
    gputest::expectEqual(
        Idx, [&](std::size_t I) { return IsMax ? Refs[I].ArgMax : Refs[I].ArgMin; },
        What);
}

const char *const Fns[] = {"sum",    "sum_method",    "max",         "max_method",
                           "min",    "min_method",    "argmax",      "argmax_method",
                           "argmin", "argmin_method", "max_indices", "min_indices"};

using Reduce1DTest = gputest::GpuTest<::testing::TestWithParam<const char *>>;

TEST_P(Reduce1DTest, MatchesReference) {
  std::string Fn = GetParam();
  tile::Kernel K = kernel("reduce1d_" + Fn, "k_reduce1d");
  const std::size_t N = 1000, Programs = 37; // BLOCK 1024.
  std::vector<float> X = examples::randomFloats(N * Programs, -1, 1, 71);
  auto DX = upload(X);
  auto DOut = poisoned<float>(Programs + 8);
  auto DIdx = poisoned<std::int32_t>(Programs + 8);
  K.launch(tile::Grid{static_cast<unsigned>(Programs)}, tile::Stream(), DX,
           DOut, DIdx, static_cast<std::int32_t>(N));
  Ctx->synchronize();
  std::vector<Reduction> Refs;
  for (std::size_t P = 0; P < Programs; ++P)
    Refs.push_back(reduce(X, P * N, 1, N));
  std::vector<float> Out = DOut.toHost();
  std::vector<std::int32_t> Idx = DIdx.toHost();
  gputest::expectPoisoned(Out, writesValues(Fn) ? Programs : 0, Fn + " out");
  gputest::expectPoisoned(Idx, writesIndices(Fn) ? Programs : 0, Fn + " indices");
  Out.resize(Programs);
  Idx.resize(Programs);
  checkReduction(Fn, Refs, Out, Idx, Fn);
}

INSTANTIATE_TEST_SUITE_P(Reductions, Reduce1DTest, ::testing::ValuesIn(Fns));

using Reduce2DTest =
    gputest::GpuTest<::testing::TestWithParam<std::tuple<const char *, int>>>;

std::string reduce2dName(
    const ::testing::TestParamInfo<std::tuple<const char *, int>> &Info) {
  return std::string(std::get<0>(Info.param)) + "_axis" +
         std::to_string(std::get<1>(Info.param));
}

TEST_P(Reduce2DTest, MatchesReference) {
  std::string Fn = std::get<0>(GetParam());
  int Axis = std::get<1>(GetParam());
  std::string Name = reduce2dName({GetParam(), 0});
  tile::Kernel K = kernel("reduce2d_" + Name, "k_reduce2d");
  const std::size_t M = 50, N = 45, Programs = 5; // R = C = 64.
  const std::size_t Stride = 64;                  // Output slots per program.
  std::vector<float> X = examples::randomFloats(M * N * Programs, -1, 1, 72);
  auto DX = upload(X);
  auto DOut = poisoned<float>(Programs * Stride);
  auto DIdx = poisoned<std::int32_t>(Programs * Stride);
  K.launch(tile::Grid{static_cast<unsigned>(Programs)}, tile::Stream(), DX,
           DOut, DIdx, static_cast<std::int32_t>(M),
           static_cast<std::int32_t>(N));
  Ctx->synchronize();
  std::size_t Len = Axis == 0 ? N : M;
  std::vector<Reduction> Refs;
  for (std::size_t P = 0; P < Programs; ++P)
    for (std::size_t J = 0; J < Len; ++J)
      Refs.push_back(Axis == 0 ? reduce(X, P * M * N + J, N, M)
                               : reduce(X, P * M * N + J * N, 1, N));
  std::vector<float> AllOut = DOut.toHost();
  std::vector<std::int32_t> AllIdx = DIdx.toHost();
  std::vector<float> Out;
  std::vector<std::int32_t> Idx;
  for (std::size_t P = 0; P < Programs; ++P) {
    std::vector<float> SlotOut(AllOut.begin() + P * Stride,
                               AllOut.begin() + (P + 1) * Stride);
    std::vector<std::int32_t> SlotIdx(AllIdx.begin() + P * Stride,
                                      AllIdx.begin() + (P + 1) * Stride);
    gputest::expectPoisoned(SlotOut, writesValues(Fn) ? Len : 0, Name + " out");
    gputest::expectPoisoned(SlotIdx, writesIndices(Fn) ? Len : 0, Name + " indices");
    Out.insert(Out.end(), SlotOut.begin(), SlotOut.begin() + Len);
    Idx.insert(Idx.end(), SlotIdx.begin(), SlotIdx.begin() + Len);
  }
  checkReduction(Fn, Refs, Out, Idx, Name);
}

INSTANTIATE_TEST_SUITE_P(Reductions, Reduce2DTest,
                         ::testing::Combine(::testing::ValuesIn(Fns),
                                            ::testing::Values(0, 1)),
                         reduce2dName);


/// Expects Out to be the inclusive prefix sums of X along runs of Count
/// elements Step apart starting at each of Starts (fp32, relative to the
/// prefix sums of magnitudes).
void expectPrefixSums(const std::vector<float> &Out,
                      const std::vector<float> &X,
                      const std::vector<std::size_t> &Starts, std::size_t Step,
                      std::size_t Count, const std::string &What) {
  std::vector<double> Ref(X.size()), Scale(X.size());
  for (std::size_t Start : Starts) {
    double Sum = 0, Abs = 0;
    for (std::size_t K = 0; K < Count && Start + K * Step < X.size(); ++K) {
      std::size_t I = Start + K * Step;
      Sum += X[I];
      Abs += std::fabs(X[I]);
      Ref[I] = Sum;
      Scale[I] = Abs;
    }
  }
  gputest::expectClose(
      Out, [&](std::size_t I) { return Ref[I]; },
      [&](std::size_t I, double) { return SumRtol * Scale[I] + 1e-30; }, What);
}

class CumsumTest : public gputest::GpuTest<> {
protected:
  /// Runs the k_cumsum1d module Ptx over N elements and checks each
  /// BLOCK-long chunk's prefix sums (suffix sums when Reverse).
  void checkCumsum1D(const std::string &Ptx, std::size_t N, bool Reverse) {
    tile::Kernel K = kernel(Ptx, "k_cumsum1d");
    std::size_t Block = K.info().constexprInt("BLOCK");
    std::vector<float> X = examples::randomFloats(N, -1, 1, 73);
    auto DX = upload(X);
    auto DOut = poisoned<float>(N + 64);
    K.launch(tile::Grid{gputest::blocks(N, Block)}, tile::Stream(), DX, DOut,
             static_cast<std::int32_t>(N));
    Ctx->synchronize();
    std::vector<float> Out = result(DOut, N, "cumsum");
    // Suffix sums are the prefix sums of the reversed chunks.
    std::vector<std::size_t> Order(N);
    for (std::size_t I = 0; I < N; ++I) {
      std::size_t Start = I / Block * Block;
      std::size_t End = std::min(N, Start + Block);
      Order[I] = Reverse ? Start + End - 1 - I : I;
    }
    std::vector<float> XInOrder(N), OutInOrder(N);
    for (std::size_t I = 0; I < N; ++I) {
      XInOrder[I] = X[Order[I]];
      OutInOrder[I] = Out[Order[I]];
    }
    std::vector<std::size_t> Starts;
    for (std::size_t S = 0; S < N; S += Block)
      Starts.push_back(S);
    expectPrefixSums(OutInOrder, XInOrder, Starts, 1, Block,
                     Reverse ? "reversed cumsum of " + Ptx
                             : "cumsum of " + Ptx);
  }
};

TEST_F(CumsumTest, OneDimensional) { checkCumsum1D("cumsum1d", 2000, false); }

// 4096-element chunks on 8 warps, 4 elements per thread: 4 repetitions of
// the warps' tile along the axis, forward and reversed, the last chunk
// partial.
TEST_F(CumsumTest, OneDimensionalSegments) {
  checkCumsum1D("cumsum1d_4096_w8", 3 * 4096 + 1040, false);
  checkCumsum1D("cumsum1d_reverse_4096_w8", 3 * 4096 + 1040, true);
}

TEST_F(CumsumTest, TwoDimensionalEachAxis) {
  const std::size_t M = 20, N = 50;
  std::vector<float> X = examples::randomFloats(M * N, -1, 1, 74);
  auto DX = upload(X);
  for (int Axis : {0, 1}) {
    tile::Kernel K =
        kernel("cumsum2d_axis" + std::to_string(Axis), "k_cumsum2d");
    auto DOut = poisoned<float>(M * N + 64);
    K.launch(tile::Grid{1}, tile::Stream(), DX, DOut,
             static_cast<std::int32_t>(M), static_cast<std::int32_t>(N));
    Ctx->synchronize();
    std::vector<float> Out = result(DOut, M * N, "cumsum 2-D");
    std::vector<std::size_t> Starts;
    for (std::size_t I = 0; I < (Axis == 0 ? N : M); ++I)
      Starts.push_back(Axis == 0 ? I : I * N);
    expectPrefixSums(Out, X, Starts, Axis == 0 ? N : 1, Axis == 0 ? M : N,
                     "cumsum axis " + std::to_string(Axis));
  }
}

TEST_F(CumsumTest, Integers) {
  tile::Kernel K = kernel("cumsum_int", "k_cumsum_int");
  const std::size_t N = 1000;
  std::size_t Block = K.info().constexprInt("BLOCK");
  std::vector<std::int32_t> X =
      gputest::randomInts<std::int32_t>(N, -100, 100, 75);
  auto DX = upload(X);
  auto DOut = poisoned<std::int32_t>(N + 64);
  K.launch(tile::Grid{gputest::blocks(N, Block)}, tile::Stream(), DX, DOut,
           static_cast<std::int32_t>(N));
  Ctx->synchronize();
  std::vector<std::int32_t> Out = result(DOut, N, "integer cumsum");
  std::vector<std::int32_t> Ref(N);
  for (std::size_t I = 0; I < N; ++I)
    Ref[I] = X[I] + (I % Block == 0 ? 0 : Ref[I - 1]);
  gputest::expectEqual(
      Out, [&](std::size_t I) { return Ref[I]; }, "integer cumsum");
}

/// Row minima and maxima of -x.to(int32), x.to(int32) * -1 and
/// -x.to(int16) widened to int64 over [64, 32] blocks (k_negated_minmax):
/// ptxas 12.8 and 13.0 fold such negations into VIMNMX3 on sm_90 and lose
/// one, and about one row in 40 came out wrong (in Triton 3.6 as well)
/// until tilec hid them from it (PtxasWorkarounds.cpp).
using NegatedMinMaxTest = gputest::GpuTest<>;

TEST_F(NegatedMinMaxTest, RowMinimaAndMaximaOfNegatedIntegers) {
  tile::Kernel K = kernel("negated_minmax", "k_negated_minmax");
  const std::size_t Rows = 1000, Cols = K.info().constexprInt("BN");
  std::vector<float> X = examples::randomFloats(Rows * Cols, -4, 4, 76);
  auto DX = upload(X);
  auto DOut = poisoned<std::int32_t>(2 * Rows + 64);
  auto DWide = poisoned<std::int64_t>(Rows + 64);
  K.launch(tile::Grid{gputest::blocks(Rows, K.info().constexprInt("BM"))},
           tile::Stream(), DX, DOut, DWide, static_cast<std::int32_t>(Rows));
  Ctx->synchronize();
  std::vector<std::int32_t> Out = result(DOut, 2 * Rows, "negated min/max");
  std::vector<std::int64_t> Wide = result(DWide, Rows, "negated int64 min");
  std::size_t Wrong = 0;
  for (std::size_t R = 0; R < Rows; ++R) {
    std::int32_t Min = INT32_MAX, Max = INT32_MIN;
    for (std::size_t C = 0; C < Cols; ++C) {
      auto T = -static_cast<std::int32_t>(X[R * Cols + C]);
      Min = std::min(Min, T);
      Max = std::max(Max, T);
    }
    Wrong += Out[2 * R] != Min || Out[2 * R + 1] != Max || Wide[R] != Min;
  }
  EXPECT_EQ(Wrong, 0u) << "rows with a wrong minimum or maximum of " << Rows;
}

/// argmax and argmin along both axes of a [32, 64] tile where some rows and
/// columns hold NaNs (k_arg_nan): a NaN is beyond every number, so the index
/// is the first NaN's, in whatever order the warps combine (the differential
/// run found the GPU and the interpreter disagreeing when NaN lost every
/// comparison).
using ArgNaNTest = gputest::GpuTest<>;

TEST_F(ArgNaNTest, FirstNaNWins) {
  tile::Kernel K = kernel("arg_nan", "k_arg_nan");
  const std::size_t M = 32, N = 64;
  std::vector<float> X = examples::randomFloats(M * N, -4, 4, 77);
  for (std::size_t R = 0; R < M; R += 3) // NaNs in every third row, at varying columns
    for (std::size_t C = (R * 7) % N; C < N; C += 11 + R % 5)
      X[R * N + C] = std::nanf("");
  auto DX = upload(X);
  auto DIdx = poisoned<std::int32_t>(2 * M + 2 * N + 64);
  K.launch(tile::Grid{1}, tile::Stream(), DX, DIdx);
  Ctx->synchronize();
  std::vector<std::int32_t> Idx = result(DIdx, 2 * M + 2 * N, "argmax/argmin with NaNs");
  // The first NaN along the line, else the first maximum (minimum).
  auto reference = [&](std::size_t Start, std::size_t Stride, std::size_t Count, bool Max) {
    std::size_t Best = 0;
    for (std::size_t I = 0; I < Count; ++I) {
      float V = X[Start + I * Stride], B = X[Start + Best * Stride];
      if (std::isnan(B))
        break;
      if (std::isnan(V) || (Max ? V > B : V < B))
        Best = I;
    }
    return static_cast<std::int32_t>(Best);
  };
  for (std::size_t R = 0; R < M; ++R) {
    EXPECT_EQ(Idx[R], reference(R * N, 1, N, true)) << "argmax of row " << R;
    EXPECT_EQ(Idx[M + R], reference(R * N, 1, N, false)) << "argmin of row " << R;
  }
  for (std::size_t C = 0; C < N; ++C) {
    EXPECT_EQ(Idx[2 * M + C], reference(C, N, M, true)) << "argmax of column " << C;
    EXPECT_EQ(Idx[2 * M + N + C], reference(C, N, M, false)) << "argmin of column " << C;
  }
}

using CombineTest = gputest::GpuTest<>;

TEST_F(CombineTest, UserCombineFunctions) {
  tile::Kernel K = kernel("combine", "k_combine");
  const std::size_t M = 29, N = 53; // Below the [32, 64] tile.
  std::vector<float> X = examples::randomFloats(M * N, 0.9f, 1.1f, 81);
  for (std::size_t I = 0; I < M * N; I += 7) // Ties for the argmax.
    X[I] = 1.1f;
  std::vector<std::int32_t> Bits = gputest::randomInts<std::int32_t>(M * N, -1000000, 1000000, 82);
  auto DX = upload(X);
  auto DBits = upload(Bits);
  auto Mean = poisoned<float>(M + 8), Var = poisoned<float>(M + 8);
  auto Argmax = poisoned<std::int32_t>(M + 8);
  auto Cumprod = poisoned<float>(M * N + 8), Runmax = poisoned<float>(M * N + 8);
  auto Nearest = poisoned<float>(M * N + 8);
  auto Xor = poisoned<std::int32_t>(1);
  K.launch(tile::Grid{1}, tile::Stream(), DX, DBits, Mean, Var, Argmax, Cumprod, Runmax,
           Nearest, Xor, static_cast<std::int32_t>(M), static_cast<std::int32_t>(N));
  Ctx->synchronize();
  std::vector<float> MeanOut = result(Mean, M, "welford mean");
  std::vector<float> VarOut = result(Var, M, "welford variance");
  std::vector<std::int32_t> ArgOut = result(Argmax, M, "argmax by combine");
  std::vector<float> ProdOut = result(Cumprod, M * N, "cumprod");
  std::vector<float> MaxOut = result(Runmax, M * N, "reversed running max");
  std::vector<float> NearOut = result(Nearest, M * N, "reversed scan, not commutative");
  auto x = [&](std::size_t R, std::size_t C) { return static_cast<double>(X[R * N + C]); };
  gputest::expectNear(
      MeanOut,
      [&](std::size_t R) {
        double Sum = 0;
        for (std::size_t C = 0; C < N; ++C)
          Sum += x(R, C);
        return Sum / N;
      },
      1e-6, 1e-5, "welford mean");
  gputest::expectNear(
      VarOut,
      [&](std::size_t R) {
        double Sum = 0, Sq = 0;
        for (std::size_t C = 0; C < N; ++C)
          Sum += x(R, C);
        for (std::size_t C = 0; C < N; ++C)
          Sq += (x(R, C) - Sum / N) * (x(R, C) - Sum / N);
        return Sq / N;
      },
      1e-6, 1e-4, "welford variance");
  gputest::expectEqual(
      ArgOut,
      [&](std::size_t R) {
        std::size_t Best = 0;
        for (std::size_t C = 1; C < N; ++C)
          if (X[R * N + C] > X[R * N + Best])
            Best = C;
        return static_cast<std::int32_t>(Best);
      },
      "argmax by combine (first of equal maxima)");
  gputest::expectNear(
      ProdOut,
      [&](std::size_t I) {
        double Product = 1;
        for (std::size_t C = 0; C <= I % N; ++C)
          Product *= x(I / N, C);
        return Product;
      },
      1e-6, 1e-5, "cumprod");
  gputest::expectEqual(
      MaxOut,
      [&](std::size_t I) {
        float Max = X[I];
        for (std::size_t R = I / N; R < M; ++R)
          Max = std::max(Max, X[R * N + I % N]);
        return Max;
      },
      "reversed running max along axis 0");
  gputest::expectEqual(
      NearOut,
      [&](std::size_t I) {
        for (std::size_t C = I % N; C < N; ++C)
          if (X[I / N * N + C] > 1.0f)
            return X[I / N * N + C];
        return 0.0f;
      },
      "reversed scan: nearest value above 1.0 at or after each column");
  std::int32_t Expected = 0;
  for (std::int32_t B : Bits)
    Expected ^= B;
  EXPECT_EQ(Xor.toHost()[0], Expected) << "xor_sum";
}

} // namespace
