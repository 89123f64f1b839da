//===- ElementwiseTest.cpp - Math, casts and integer operators on the GPU -===//
//
// kernels/elementwise.tile, one module per function: random inputs of a size
// that is not a multiple of the block, outputs poisoned with a guard region
// past n that must stay untouched, CPU references in double.
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <cmath>
#include <functional>

namespace {

constexpr std::size_t N = 10007; // Not a multiple of BLOCK (256).
constexpr std::size_t Guard = 300;
constexpr double Pi = 3.14159265358979323846;

/// One unary function: its FN, input range, reference and tolerance.
struct UnaryCase {
  const char *Fn;
  float Lo, Hi;
  std::function<double(double)> Ref;
  double Atol, Rtol;
};

std::string unaryName(const ::testing::TestParamInfo<UnaryCase> &Info) {
  return Info.param.Fn;
}

using UnaryTest = gputest::GpuTest<::testing::TestWithParam<UnaryCase>>;

TEST_P(UnaryTest, MatchesDoubleReference) {
  const UnaryCase &C = GetParam();
  tile::Kernel K = kernel(std::string("unary_") + C.Fn, "k_unary");
  std::vector<float> X = examples::randomFloats(N, C.Lo, C.Hi, 11);
  std::vector<float> Y = runOnFloats(K, X, N, C.Fn);
  gputest::expectNear(
      Y, [&](std::size_t I) { return C.Ref(X[I]); }, C.Atol, C.Rtol, C.Fn);
}

// fp32 results within 1e-5 relative; an absolute floor where the function
// crosses 0 (log near 1, sin/cos/tanh/erf near their zeros).
INSTANTIATE_TEST_SUITE_P(
    Math, UnaryTest,
    ::testing::Values(
        UnaryCase{"exp", -10, 10, [](double X) { return std::exp(X); }, 0,
                  1e-5},
        UnaryCase{"exp2", -20, 20, [](double X) { return std::exp2(X); }, 0,
                  1e-5},
        UnaryCase{"log", 1e-3f, 100, [](double X) { return std::log(X); }, 1e-6,
                  1e-5},
        UnaryCase{"log2", 1e-3f, 100, [](double X) { return std::log2(X); },
                  1e-6, 1e-5},
        UnaryCase{"sqrt", 0, 100, [](double X) { return std::sqrt(X); }, 0,
                  1e-5},
        UnaryCase{"rsqrt", 1e-3f, 100,
                  [](double X) { return 1 / std::sqrt(X); }, 0, 1e-5},
        UnaryCase{"sin", -2 * Pi, 2 * Pi, [](double X) { return std::sin(X); },
                  2e-6, 1e-5},
        UnaryCase{"cos", -2 * Pi, 2 * Pi, [](double X) { return std::cos(X); },
                  2e-6, 1e-5},
        UnaryCase{"tanh", -5, 5, [](double X) { return std::tanh(X); }, 1e-6,
                  1e-5},
        UnaryCase{"abs", -100, 100, [](double X) { return std::fabs(X); }, 0,
                  0},
        UnaryCase{"floor", -100, 100, [](double X) { return std::floor(X); }, 0,
                  0},
        UnaryCase{"ceil", -100, 100, [](double X) { return std::ceil(X); }, 0,
                  0},
        UnaryCase{"sigmoid", -10, 10,
                  [](double X) { return 1 / (1 + std::exp(-X)); }, 1e-7, 1e-5},
        UnaryCase{"erf", -3, 3, [](double X) { return std::erf(X); }, 1e-6,
                  1e-5},
        UnaryCase{"neg", -100, 100, [](double X) { return -X; }, 0, 0},
        // libdevice functions (libdevice.NAME, tl.math.NAME).
        UnaryCase{"log1p", -0.9f, 100, [](double X) { return std::log1p(X); },
                  1e-7, 1e-5},
        UnaryCase{"expm1", -5, 5, [](double X) { return std::expm1(X); }, 1e-7,
                  1e-5},
        UnaryCase{"powi", -10, 10, [](double X) { return X * X * X; }, 1e-6,
                  1e-5},
        UnaryCase{"isnan", 0, 3,
                  [](double X) { return X - 1 < 0 ? -1.0 : 1.0; }, 0, 0},
        UnaryCase{"rint", -100, 100, [](double X) { return std::nearbyint(X); },
                  0, 0},
        // fp16 arguments compute in fp32 and round back to fp16.
        UnaryCase{"half_tanh", -3, 3, [](double X) { return std::tanh(X); },
                  2e-3, 2e-3}),
    unaryName);

/// One three-input function of k_ternary.
struct TernaryCase {
  const char *Fn;
  std::function<double(double, double, double)> Ref;
  double Atol, Rtol;
};

std::string ternaryName(const ::testing::TestParamInfo<TernaryCase> &Info) {
  return Info.param.Fn;
}

using TernaryTest = gputest::GpuTest<::testing::TestWithParam<TernaryCase>>;

TEST_P(TernaryTest, MatchesDoubleReference) {
  const TernaryCase &C = GetParam();
  tile::Kernel K = kernel(std::string("ternary_") + C.Fn, "k_ternary");
  std::vector<float> X = examples::randomFloats(N, -2, 2, 21);
  std::vector<float> Y = examples::randomFloats(N, -2, 2, 22);
  std::vector<float> Z = examples::randomFloats(N, -2, 2, 23);
  for (std::size_t I = 0; I < N; ++I) // clamp's bounds: y <= z.
    if (Y[I] > Z[I])
      std::swap(Y[I], Z[I]);
  auto DX = upload(X), DY = upload(Y), DZ = upload(Z);
  auto DOut = poisoned<float>(N + Guard);
  launch1D(K, N, DX, DY, DZ, DOut, static_cast<std::int32_t>(N));
  std::vector<float> Out = result(DOut, N, C.Fn);
  gputest::expectNear(
      Out, [&](std::size_t I) { return C.Ref(X[I], Y[I], Z[I]); }, C.Atol,
      C.Rtol, C.Fn);
}

INSTANTIATE_TEST_SUITE_P(
    Math, TernaryTest,
    ::testing::Values(
        TernaryCase{"maximum",
                    [](double X, double Y, double) { return std::max(X, Y); },
                    0, 0},
        TernaryCase{"minimum",
                    [](double X, double Y, double) { return std::min(X, Y); },
                    0, 0},
        TernaryCase{"where",
                    [](double X, double Y, double Z) { return X > Y ? X : Z; },
                    0, 0},
        TernaryCase{"clamp",
                    [](double X, double Y, double Z) {
                      return std::min(std::max(X, Y), Z);
                    },
                    0, 0},
        TernaryCase{"fma",
                    [](double X, double Y, double Z) { return X * Y + Z; },
                    1e-6, 1e-5},
        TernaryCase{"arith",
                    [](double X, double Y, double Z) {
                      return (X * Y - Z) / (std::fabs(Y) + 2) + 0.5 * X - 1;
                    },
                    5e-6, 1e-5},
        TernaryCase{"atan2",
                    [](double X, double Y, double) { return std::atan2(X, Y); },
                    1e-6, 1e-5},
        TernaryCase{"pow",
                    [](double X, double Y, double) {
                      return std::pow(std::fabs(X) + 0.5, Y);
                    },
                    1e-6, 1e-5},
        // Correctly rounded: the float quotient of the float operands.
        TernaryCase{"div_rn",
                    [](double X, double, double Z) {
                      return static_cast<float>(
                          X / static_cast<float>(std::fabs(Z) + 1.0f));
                    },
                    0, 0},
        TernaryCase{"hypot",
                    [](double X, double Y, double Z) {
                      return std::hypot(X, Y) + std::copysign(Z, X);
                    },
                    1e-6, 1e-5}),
    ternaryName);

using CastTest = gputest::GpuTest<>;

/// Runs k_cast_fp16 or k_cast_bf16: the fp16/bf16 values must be the
/// round-to-nearest-even ones, and doubling them in fp16/bf16 is exact.
template <class H>
void checkCast(tile::Kernel K, tile::DeviceBuffer<float> &DX,
               const std::vector<float> &X, tile::DeviceBuffer<H> &DH,
               tile::DeviceBuffer<float> &DBack, const char *What) {
  K.launch(tile::Grid{gputest::blocks(N, K.info().constexprInt("BLOCK"))},
           tile::Stream(), DX, DH, DBack, static_cast<std::int32_t>(N));
  tile::Stream().synchronize();
  std::vector<H> Halves = DH.toHost();
  std::vector<float> Back = DBack.toHost();
  gputest::expectPoisoned(Halves, N, What);
  gputest::expectPoisoned(Back, N, What);
  Halves.resize(N);
  Back.resize(N);
  gputest::expectEqual(
      gputest::toFloats(Halves),
      [&](std::size_t I) { return H::fromFloat(X[I]).toFloat(); }, What);
  gputest::expectEqual(
      Back, [&](std::size_t I) { return 2 * H::fromFloat(X[I]).toFloat(); },
      std::string(What) + " doubled");
}

TEST_F(CastTest, Fp32ToFp16AndBack) {
  std::vector<float> X = examples::randomFloats(N, -1000, 1000, 31);
  X[0] = 1e-6f; // fp16 subnormal.
  X[1] = 0.1f;
  auto DX = upload(X);
  auto DH = poisoned<tile::Half>(N + Guard);
  auto DBack = poisoned<float>(N + Guard);
  checkCast(kernel("cast_fp16", "k_cast_fp16"), DX, X, DH, DBack, "fp16");
}

TEST_F(CastTest, Fp32ToBf16AndBack) {
  std::vector<float> X = examples::randomFloats(N, -1e6f, 1e6f, 32);
  X[0] = 1e-30f;
  X[1] = 0.1f;
  auto DX = upload(X);
  auto DH = poisoned<tile::BFloat16>(N + Guard);
  auto DBack = poisoned<float>(N + Guard);
  checkCast(kernel("cast_bf16", "k_cast_bf16"), DX, X, DH, DBack, "bf16");
}

TEST_F(CastTest, Fp16AndBf16BothWaysAndAtomicAdd) {
  std::vector<float> X = examples::randomFloats(N, -1000, 1000, 33);
  std::vector<float> Y = examples::randomFloats(N, -1000, 1000, 34);
  std::vector<float> Z = examples::randomFloats(N, -100, 100, 35);
  X[0] = 1e-6f; // An fp16 subnormal.
  Y[1] = 0.0f;  // Reinterpreted as fp16: zero.
  Y[2] = -0.0f; // Also zero (une).
  Y[3] = 1e-30f; // Nonzero bits.
  std::vector<tile::Half> H(N), Acc(N);
  std::vector<tile::BFloat16> B(N);
  for (std::size_t I = 0; I < N; ++I) {
    H[I] = tile::Half::fromFloat(X[I]);
    B[I] = tile::BFloat16::fromFloat(Y[I]);
    Acc[I] = tile::Half::fromFloat(Z[I]);
  }
  auto DH = upload(H);
  auto DB = upload(B);
  auto DAcc = upload(Acc);
  auto DToB = poisoned<tile::BFloat16>(N + Guard);
  auto DToH = poisoned<tile::Half>(N + Guard);
  auto DNonzero = poisoned<std::int8_t>(N + Guard);
  tile::Kernel K = kernel("cast_half_bf16", "k_cast_half_bf16");
  K.launch(tile::Grid{gputest::blocks(N, K.info().constexprInt("BLOCK"))},
           tile::Stream(), DH, DB, DToB, DToH, DNonzero, DAcc,
           static_cast<std::int32_t>(N));
  tile::Stream().synchronize();
  std::vector<tile::BFloat16> ToB = DToB.toHost();
  std::vector<tile::Half> ToH = DToH.toHost();
  std::vector<std::int8_t> Nonzero = DNonzero.toHost();
  std::vector<tile::Half> Sum = DAcc.toHost();
  gputest::expectPoisoned(ToB, N, "fp16 -> bf16");
  gputest::expectPoisoned(ToH, N, "bf16 -> fp16");
  for (std::size_t I = 0; I < N; ++I) {
    ASSERT_EQ(ToB[I].Bits, tile::BFloat16::fromFloat(H[I].toFloat()).Bits) << I;
    ASSERT_EQ(ToH[I].Bits, tile::Half::fromFloat(B[I].toFloat()).Bits) << I;
    ASSERT_EQ(Nonzero[I], (B[I].Bits & 0x7fff) != 0 ? 1 : 0) << I;
    // fp16 + fp16 is exact in fp32, then rounded once to fp16.
    float Expected = Acc[I].toFloat() + tile::Half::fromFloat(B[I].toFloat()).toFloat();
    ASSERT_EQ(Sum[I].Bits, tile::Half::fromFloat(Expected).Bits) << I;
  }
}

/// bf16 and fp16 in one expression (k_mixed_16bit) compute in fp32 and
/// round once: LLVM 22's InstCombine had computed (b % h).to(bf16) as an fp16
/// remainder stored as bf16 bits (-28.375 % 2 came out -1.9e-6, not -0.375),
/// and (b + h).to(fp16) as an fp16 sum of a bf16 that fp16 cannot hold.
TEST_F(CastTest, MixedBf16AndFp16ComputeInFp32) {
  std::vector<float> BValues = examples::randomFloats(N, -100, 100, 37);
  std::vector<float> HValues = examples::randomFloats(N, -10, 10, 38);
  BValues[0] = -28.375f, HValues[0] = 2.0f;
  BValues[1] = 70000.0f, HValues[1] = -60000.0f; // the sum fits fp16, b does not
  BValues[2] = 1e-6f, HValues[2] = 0.5f;         // b is below fp16's normals
  std::vector<tile::BFloat16> B(N);
  std::vector<tile::Half> H(N);
  for (std::size_t I = 0; I < N; ++I) {
    B[I] = tile::BFloat16::fromFloat(BValues[I]);
    H[I] = tile::Half::fromFloat(HValues[I]);
  }
  auto DB = upload(B);
  auto DH = upload(H);
  auto DRem = poisoned<tile::BFloat16>(N + Guard);
  auto DSum = poisoned<tile::Half>(N + Guard);
  tile::Kernel K = kernel("mixed_16bit", "k_mixed_16bit");
  K.launch(tile::Grid{gputest::blocks(N, K.info().constexprInt("BLOCK"))},
           tile::Stream(), DB, DH, DRem, DSum, static_cast<std::int32_t>(N));
  tile::Stream().synchronize();
  std::vector<tile::BFloat16> Rem = DRem.toHost();
  std::vector<tile::Half> Sum = DSum.toHost();
  gputest::expectPoisoned(Rem, N, "bf16 % fp16");
  gputest::expectPoisoned(Sum, N, "bf16 + fp16");
  for (std::size_t I = 0; I < N; ++I) {
    float X = B[I].toFloat(), Y = H[I].toFloat();
    // % as the GPU computes it in fp32 (docs/language.md)
    float R = std::fma(-std::trunc(X / Y), Y, X);
    ASSERT_EQ(Rem[I].Bits, tile::BFloat16::fromFloat(R).Bits) << I << ": " << X << " % " << Y;
    ASSERT_EQ(Sum[I].Bits, tile::Half::fromFloat(X + Y).Bits) << I << ": " << X << " + " << Y;
  }
}

/// Every conversion between float types (k_nan_resize) of NaNs with
/// payloads, quiet and signaling, and of ordinary values, bit for bit as an
/// H200 gives them (the interpreter reproduces these bits, see its
/// convertNaN): a conversion from or to fp64 keeps the sign and the
/// payload's top bits and makes the NaN quiet; bf16 to fp32 moves the bits
/// unchanged; fp16 to fp32 and fp32 to fp16 or bf16 give the canonical NaN.
TEST_F(CastTest, NaNConversionsKeepTheGPUsBits) {
  const std::vector<std::uint32_t> XNaNs{0x7fffffff, 0xffc00001, 0x7fc00000,
                                         0x7fd00000, 0x7f800001};
  const std::vector<std::uint16_t> HNaNs{0x7fff, 0xfe01, 0x7e00, 0x7f00, 0x7c01};
  const std::vector<std::uint16_t> BNaNs{0x7fff, 0xffc1, 0x7fc0, 0x7fd0, 0x7f81};
  const std::vector<std::uint64_t> DNaNs{0x7fffffffffffffff, 0xfff8000000000001,
                                         0x7ff8000000000000, 0x7ffc0f0000000000,
                                         0x7ff0000000000001};
  std::vector<float> X = examples::randomFloats(N, -1000, 1000, 36);
  std::vector<tile::Half> H(N);
  std::vector<tile::BFloat16> B(N);
  std::vector<double> D(N);
  for (std::size_t I = 0; I < N; ++I) {
    H[I] = tile::Half::fromFloat(X[I]);
    B[I] = tile::BFloat16::fromFloat(X[I]);
    D[I] = X[I] * 2.0; // exact in fp32 too: one rounding or two agree
  }
  for (std::size_t I = 0; I < XNaNs.size(); ++I) {
    std::memcpy(&X[I], &XNaNs[I], 4);
    H[I].Bits = HNaNs[I];
    B[I].Bits = BNaNs[I];
    std::memcpy(&D[I], &DNaNs[I], 8);
  }
  auto DX = upload(X);
  auto DH = upload(H);
  auto DB = upload(B);
  auto DD = upload(D);
  auto D64 = poisoned<std::int64_t>(3 * N + Guard);
  auto D32 = poisoned<std::int32_t>(3 * N + Guard);
  auto D16 = poisoned<std::int16_t>(4 * N + Guard);
  tile::Kernel K = kernel("nan_resize", "k_nan_resize");
  K.launch(tile::Grid{gputest::blocks(N, K.info().constexprInt("BLOCK"))},
           tile::Stream(), DX, DH, DB, DD, D64, D32, D16, static_cast<std::int32_t>(N));
  tile::Stream().synchronize();
  std::vector<std::int64_t> O64 = D64.toHost();
  std::vector<std::int32_t> O32 = D32.toHost();
  std::vector<std::int16_t> O16 = D16.toHost();
  gputest::expectPoisoned(O64, 3 * N, "to 64 bits");
  gputest::expectPoisoned(O32, 3 * N, "to 32 bits");
  gputest::expectPoisoned(O16, 4 * N, "to 16 bits");
  auto bitsOf = [](auto Value) {
    std::uint64_t Bits = 0;
    std::memcpy(&Bits, &Value, sizeof Value);
    return Bits;
  };
  const std::uint64_t Quiet64 = std::uint64_t(1) << 51;
  for (std::size_t I = 0; I < N; ++I) {
    std::uint64_t XBits = bitsOf(X[I]), DBits = bitsOf(D[I]);
    std::uint64_t Want64[3], Want32[3], Want16[4];
    if (I < XNaNs.size()) {
      // fp32 -> fp64: sign, the payload at the top of the mantissa, quiet
      Want64[0] = ((XBits >> 31) << 63) | (std::uint64_t(0x7ff) << 52) |
                  ((XBits & 0x7fffff) << 29) | Quiet64;
      Want64[1] = ((std::uint64_t(H[I].Bits) >> 15) << 63) | (std::uint64_t(0x7ff) << 52) |
                  (std::uint64_t(H[I].Bits & 0x3ff) << 42) | Quiet64;
      Want64[2] = ((std::uint64_t(B[I].Bits) >> 15) << 63) | (std::uint64_t(0x7ff) << 52) |
                  (std::uint64_t(B[I].Bits & 0x7f) << 45) | Quiet64;
      Want32[0] = 0x7fffffff;
      Want32[1] = std::uint32_t(B[I].Bits) << 16;
      // fp64 -> fp32: sign, the payload's top 23 bits, quiet
      Want32[2] = static_cast<std::uint32_t>(((DBits >> 63) << 31) | (0xffu << 23) |
                                             ((DBits >> 29) & 0x7fffff) | (1u << 22));
      Want16[0] = Want16[1] = 0x7fff;
      // fp64 -> fp16 and bf16: sign, the payload's top 10 or 7 bits, quiet
      Want16[2] = static_cast<std::uint16_t>(((DBits >> 63) << 15) | (0x1fu << 10) |
                                             ((DBits >> 42) & 0x3ff) | (1u << 9));
      Want16[3] = static_cast<std::uint16_t>(((DBits >> 63) << 15) | (0xffu << 7) |
                                             ((DBits >> 45) & 0x7f) | (1u << 6));
    } else {
      Want64[0] = bitsOf(static_cast<double>(X[I]));
      Want64[1] = bitsOf(static_cast<double>(H[I].toFloat()));
      Want64[2] = bitsOf(static_cast<double>(B[I].toFloat()));
      Want32[0] = static_cast<std::uint32_t>(bitsOf(H[I].toFloat()));
      Want32[1] = static_cast<std::uint32_t>(bitsOf(B[I].toFloat()));
      Want32[2] = static_cast<std::uint32_t>(bitsOf(static_cast<float>(D[I])));
      Want16[0] = tile::Half::fromFloat(X[I]).Bits;
      Want16[1] = tile::BFloat16::fromFloat(X[I]).Bits;
      Want16[2] = tile::Half::fromFloat(static_cast<float>(D[I])).Bits;
      Want16[3] = tile::BFloat16::fromFloat(static_cast<float>(D[I])).Bits;
    }
    for (int J = 0; J < 3; ++J) {
      ASSERT_EQ(static_cast<std::uint64_t>(O64[3 * I + J]), Want64[J]) << "element " << I << ", to 64 bits from #" << J;
      ASSERT_EQ(static_cast<std::uint32_t>(O32[3 * I + J]), Want32[J]) << "element " << I << ", to 32 bits from #" << J;
    }
    for (int J = 0; J < 4; ++J)
      ASSERT_EQ(static_cast<std::uint16_t>(O16[4 * I + J]), Want16[J]) << "element " << I << ", to 16 bits #" << J;
  }
}

/// One FN of k_int and its reference with Triton's integer semantics (//
/// and % truncate toward zero as in C; >> is arithmetic on signed ints).
struct IntCase {
  const char *Fn;
  std::function<std::int32_t(std::int32_t, std::int32_t)> Ref;
};

std::string intName(const ::testing::TestParamInfo<IntCase> &Info) {
  return Info.param.Fn;
}

std::int32_t wrap(std::int64_t V) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(V));
}

using IntTest = gputest::GpuTest<::testing::TestWithParam<IntCase>>;

TEST_P(IntTest, MatchesReference) {
  const IntCase &C = GetParam();
  tile::Kernel K = kernel(std::string("int_") + C.Fn, "k_int");
  std::vector<std::int32_t> X =
      gputest::randomInts<std::int32_t>(N, -1000, 1000, 41);
  std::vector<std::int32_t> Y =
      gputest::randomInts<std::int32_t>(N, -50, 50, 42);
  for (std::size_t I = 0; I < N; ++I) {
    if (Y[I] == 0)
      Y[I] = 7;
    if (I % 97 == 0) // Some equal pairs for "compare".
      X[I] = Y[I];
  }
  X[1] = 2000000000; // Overflows in "mul" and "shl" wrap.
  auto DX = upload(X), DY = upload(Y);
  auto DOut = poisoned<std::int32_t>(N + Guard);
  launch1D(K, N, DX, DY, DOut, static_cast<std::int32_t>(N));
  std::vector<std::int32_t> Out = result(DOut, N, C.Fn);
  gputest::expectEqual(
      Out, [&](std::size_t I) { return C.Ref(X[I], Y[I]); }, C.Fn);
}

INSTANTIATE_TEST_SUITE_P(
    Operators, IntTest,
    ::testing::
        Values(IntCase{"add",
                       [](std::int32_t X, std::int32_t Y) {
                         return wrap(std::int64_t(X) + Y + 3);
                       }},
               IntCase{"sub",
                       [](std::int32_t X, std::int32_t Y) {
                         return wrap(std::int64_t(X) - Y);
                       }},
               IntCase{"mul",
                       [](std::int32_t X, std::int32_t Y) {
                         return wrap(std::int64_t(X) * Y);
                       }},
               IntCase{"floordiv",
                       [](std::int32_t X, std::int32_t Y) { return X / Y; }},
               IntCase{"mod",
                       [](std::int32_t X, std::int32_t Y) { return X % Y; }},
               IntCase{"shl",
                       [](std::int32_t X, std::int32_t Y) {
                         return wrap(std::uint64_t(std::uint32_t(X))
                                     << (Y & 15));
                       }},
               IntCase{"shr", [](std::int32_t X,
                                 std::int32_t Y) { return X >> (Y & 31); }},
               IntCase{"bitops",
                       [](std::int32_t X, std::int32_t Y) {
                         return (X & Y) |
                                (~X ^
                                 wrap(std::uint64_t(std::uint32_t(Y)) << 2));
                       }},
               IntCase{
                   "compare",
                   [](std::int32_t X, std::int32_t Y) {
                     bool M = ((X > 0) && (Y < 0)) || ((X == Y) != (X >= 100));
                     return M ? X : -Y;
                   }},
               IntCase{
                   "minmax",
                   [](std::int32_t X, std::int32_t Y) {
                     // Wraps as the kernel's i32 does (X[1] = 2e9 overflows).
                     return wrap(std::int64_t(std::max(X, Y)) * 2 + std::min(X, Y));
                   }}),
    intName);

using IntFloatTest = gputest::GpuTest<>;

TEST_F(IntFloatTest, TrueDivisionAndConversions) {
  tile::Kernel K = kernel("int_float", "k_int_float");
  std::vector<std::int32_t> X =
      gputest::randomInts<std::int32_t>(N, -1000, 1000, 51);
  std::vector<std::int32_t> Y = gputest::randomInts<std::int32_t>(N, 1, 60, 52);
  std::vector<float> F = examples::randomFloats(N, -100, 100, 53);
  for (std::size_t I = 0; I < N; I += 2)
    Y[I] = -Y[I];
  auto DX = upload(X), DY = upload(Y);
  auto DF = upload(F);
  auto DDiv = poisoned<float>(N + Guard);
  auto DTrunc = poisoned<std::int32_t>(N + Guard);
  launch1D(K, N, DX, DY, DF, DDiv, DTrunc, static_cast<std::int32_t>(N));
  std::vector<float> Div = DDiv.toHost();
  std::vector<std::int32_t> Trunc = DTrunc.toHost();
  gputest::expectPoisoned(Div, N, "x / y");
  gputest::expectPoisoned(Trunc, N, "to(int32)");
  Div.resize(N);
  Trunc.resize(N);
  gputest::expectNear(
      Div, [&](std::size_t I) { return double(X[I]) / Y[I] + X[I] * 0.5; },
      1e-6, 1e-5, "x / y + x * 0.5");
  gputest::expectEqual(
      Trunc,
      [&](std::size_t I) { return static_cast<std::int32_t>(F[I]) + X[I]; },
      "f.to(int32) + x.to(fp32).to(int32)");
}

using InlineAsmTest = gputest::GpuTest<>;

TEST_F(InlineAsmTest, ElementwisePtx) {
  if (onInterpreter())
    GTEST_SKIP() << "inline PTX runs on the GPU only";
  tile::Kernel K = kernel("inline_asm", "k_inline_asm");
  const std::size_t N = 1000;
  std::vector<float> X = examples::randomFloats(N, -10, 10, 103);
  std::vector<std::int32_t> I = gputest::randomInts<std::int32_t>(N, -100000, 100000, 104);
  auto DX = upload(X);
  auto DI = upload(I);
  auto DY = poisoned<float>(N + 64);
  auto DJ = poisoned<std::int32_t>(N + 64);
  K.launch(tile::Grid{gputest::blocks(N, K.info().constexprInt("BLOCK"))}, tile::Stream(), DX,
           DY, DI, DJ, static_cast<std::int32_t>(N));
  Ctx->synchronize();
  gputest::expectEqual(
      result(DY, N, "asm fp32"), [&](std::size_t E) { return X[E] + 0.5f; },
      "mov.b32 then add.rn.f32 0.5");
  gputest::expectEqual(
      result(DJ, N, "asm shf"),
      [&](std::size_t E) {
        std::uint32_t U = static_cast<std::uint32_t>(I[E]);
        return static_cast<std::int32_t>((U << 3) | (U >> 29));
      },
      "shf.l.wrap.b32 by 3 (a rotation)");
}

TEST_F(InlineAsmTest, PackedPtxAndSeveralResults) {
  if (onInterpreter())
    GTEST_SKIP() << "inline PTX runs on the GPU only";
  for (const char *Ptx : {"inline_asm_packed", "inline_asm_packed_small"}) {
    tile::Kernel K = kernel(Ptx, "k_inline_asm_packed");
    const std::size_t N = static_cast<std::size_t>(K.info().constexprInt("BLOCK"));
    std::vector<std::int8_t> B = gputest::randomInts<std::int8_t>(N, -100, 100, 105);
    for (std::int8_t &V : B)
      V = V == -1 ? 5 : V; // 0xFF + 1 would carry into the next byte.
    std::vector<float> XF = examples::randomFloats(N, -10, 10, 106);
    std::vector<tile::Half> X(N);
    for (std::size_t E = 0; E < N; ++E)
      X[E] = tile::Half::fromFloat(XF[E]);
    std::vector<std::int32_t> I = gputest::randomInts<std::int32_t>(N, -100000, 100000, 107);
    auto DB = upload(B);
    auto DX = upload(X);
    auto DI = upload(I);
    auto OB = poisoned<std::int8_t>(N + 64);
    auto OX = poisoned<tile::Half>(N + 64);
    auto Lo = poisoned<std::int32_t>(N + 64), Hi = poisoned<std::int32_t>(N + 64);
    // fp8 e4m3 bytes, NaN (0x7f, 0xff) left out, and the halves they are.
    std::vector<std::uint8_t> Bytes = gputest::randomInts<std::uint8_t>(N, 0, 254, 108);
    std::vector<tile::Float8E4M3> F(N);
    for (std::size_t E = 0; E < N; ++E)
      F[E].Bits = (Bytes[E] & 0x7f) == 0x7f ? 0x3c : Bytes[E];
    auto DF = upload(F);
    auto OF = poisoned<tile::Half>(N + 64), OG = poisoned<tile::Half>(N + 64);
    K.launch(tile::Grid{1}, tile::Stream(), DB, DX, DI, DF, OB, OX, Lo, Hi, OF, OG);
    Ctx->synchronize();
    std::vector<std::int8_t> GotB = result(OB, N, "packed bytes");
    std::vector<tile::Half> GotX = result(OX, N, "packed halves");
    std::vector<std::int32_t> GotLo = result(Lo, N, "first result"),
                              GotHi = result(Hi, N, "second result");
    std::vector<tile::Half> GotF = result(OF, N, "fp8 to halves"),
                            GotG = result(OG, N, "fp8x4 to two registers of halves");
    for (std::size_t E = 0; E < N; ++E) {
      EXPECT_EQ(GotB[E], static_cast<std::int8_t>(B[E] + 1)) << Ptx << " byte " << E;
      EXPECT_EQ(GotX[E].toFloat(), tile::Half::fromFloat(X[E].toFloat() * 2).toFloat())
          << Ptx << " half " << E;
      EXPECT_EQ(GotLo[E], I[E]) << Ptx << " first result " << E;
      EXPECT_EQ(GotHi[E], I[E] + 7) << Ptx << " second result " << E;
      EXPECT_EQ(GotF[E].toFloat(), F[E].toFloat()) << Ptx << " fp8 " << E;
      EXPECT_EQ(GotG[E].toFloat(), F[E].toFloat()) << Ptx << " fp8x4 " << E;
    }
  }
}

} // namespace
