//===- InterpreterTest.cpp - Kernels on the CPU interpreter ---------------===//
//
// Kernels compiled by the JIT and run on Context(Backend::Interpreter): the
// reports of out-of-bounds, misaligned, uninitialized and stray accesses
// (each message checked whole, location and program id included), atomics
// from many programs at once, integer and fp32 results bit-exact against
// the same arithmetic on the host, and the speed the issue asks for. Then
// the interpreter's own API on IR it cannot run.
//
//===----------------------------------------------------------------------===//
#include "tile/Error.h"
#include "tile/Jit.h"
#include "tile/Runtime.h"
#include "tilec/Interpreter.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace {

// Line numbers matter: the messages below name them.
constexpr const char *kSource = R"(import triton
import triton.language as tl

@triton.jit
def copy_store_unmasked(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x)

@triton.jit
def copy_shifted(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs - 1, mask=mask), mask=mask)

@triton.jit
def histogram(x_ptr, bins_ptr, total_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(bins_ptr + (x % 16), 1, mask=mask)
    tl.atomic_add(total_ptr, tl.sum(mask.to(tl.int32), axis=0))

@triton.jit
def arith(x_ptr, y_ptr, z_ptr, a_ptr, b_ptr, f_out, i_out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    z = tl.load(z_ptr + offs, mask=mask)
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    f = (x * y) / (z + 1.5) - tl.sqrt(tl.abs(x))
    i = ((a * b) >> 3) ^ (a // 7) + (b % 5)
    tl.store(f_out + offs, f, mask=mask)
    tl.store(i_out + offs, i, mask=mask)

@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

@triton.jit
def softmax(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float('inf'))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)

@triton.jit
def narrow_floats(x_ptr, h_ptr, b_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(h_ptr + offs, tl.abs(x.to(tl.float16)))
    tl.store(b_ptr + offs, tl.abs(x.to(tl.bfloat16)))

@triton.jit
def remainder(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) % tl.load(y_ptr + offs))

@triton.jit
def bitcast_roundtrip(x_ptr, out_ptr, sum_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    f = tl.load(x_ptr + offs).to(tl.float32, bitcast=True)
    tl.store(out_ptr + offs, f.to(tl.int32, bitcast=True))
    tl.store(sum_ptr + offs, (f + 1.0).to(tl.int32, bitcast=True))

@triton.jit
def rem_bits(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.float32, bitcast=True)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, (x % y).to(tl.int32, bitcast=True))

@triton.jit
def div_rn_by_zero(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.div_rn(x, x - x).to(tl.int32, bitcast=True))

@triton.jit
def atomic_max_min(x_ptr, mx_ptr, mn_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.atomic_max(mx_ptr + offs, x)
    tl.atomic_min(mn_ptr + offs, x)

@triton.jit
def libdevice_tails(x_ptr, y_ptr, out_ptr):
    x = tl.load(x_ptr)
    y = tl.load(y_ptr)
    tl.store(out_ptr, tl.extra.cuda.libdevice.add_ru(x, y))
    tl.store(out_ptr + 1, tl.extra.cuda.libdevice.add_rd(x, -y))
    tl.store(out_ptr + 2, tl.extra.cuda.libdevice.erfcx(x * 30.0))
    tl.store(out_ptr + 3, tl.extra.cuda.libdevice.erfcinv(y * 1e10))
)";

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() : Ctx(tile::Backend::Interpreter) {
    tile::JitOptions O;
    O.Arch = "sm_90";
    O.DiskCache = false;
    Module = std::make_unique<tile::JitModule>(
        tile::JitModule::fromSource(Ctx, kSource, "interp.tile", O));
  }

  /// The message of the tile::Error that launching \p Fn throws.
  template <class Fn> static std::string errorOf(Fn &&Launch) {
    try {
      Launch();
    } catch (const tile::Error &E) {
      return E.what();
    }
    return "(no error)";
  }

  tile::Context Ctx;
  std::unique_ptr<tile::JitModule> Module;
  const tile::LaunchOptions Block128{{{"BLOCK", 128}}, {}, {}};
};

TEST_F(InterpreterTest, ContextDescribesTheInterpreter) {
  EXPECT_EQ(Ctx.backend(), tile::Backend::Interpreter);
  EXPECT_EQ(Ctx.deviceName().rfind("tilec interpreter", 0), 0u) << Ctx.deviceName();
}

TEST_F(InterpreterTest, OutOfBoundsStoreIsLocated) {
  const std::int32_t N = 1000;
  tile::DeviceBuffer<float> X(Ctx, N), Out(Ctx, N);
  X.copyFromHost(std::vector<float>(N, 1.0f));
  std::string Message = errorOf([&] {
    Module->kernel("copy_store_unmasked")
        .launch(tile::Grid{8}, tile::Stream(), Block128, X, Out, N);
  });
  EXPECT_EQ(Message, "launch of copy_store_unmasked on the interpreter failed:\n"
                     "interp.tile:8:5: error: out-of-bounds store of a 128 tile: element "
                     "(104) at byte offset 4000 is past the end of the 4000-byte buffer "
                     "'out_ptr' in program (7, 0, 0)");
}

TEST_F(InterpreterTest, LoadBeforeTheStartIsLocated) {
  const std::int32_t N = 300;
  tile::DeviceBuffer<float> X(Ctx, N), Out(Ctx, N);
  X.copyFromHost(std::vector<float>(N, 1.0f));
  std::string Message = errorOf([&] {
    Module->kernel("copy_shifted").launch(tile::Grid{3}, tile::Stream(), Block128, X, Out, N);
  });
  EXPECT_EQ(Message, "launch of copy_shifted on the interpreter failed:\n"
                     "interp.tile:14:30: error: out-of-bounds load of a 128 tile: element "
                     "(0) at byte offset -4 is before the start of the 1200-byte buffer "
                     "'x_ptr' in program (0, 0, 0)");
}

TEST_F(InterpreterTest, UninitializedReadIsReported) {
  const std::int32_t N = 256;
  tile::DeviceBuffer<float> X(Ctx, N), Out(Ctx, N);
  std::string Message = errorOf([&] {
    Module->kernel("copy_store_unmasked")
        .launch(tile::Grid{2}, tile::Stream(), Block128, X, Out, N);
  });
  EXPECT_NE(Message.find("interp.tile:7:9: error: load of a 128 tile: element (0) at byte "
                         "offset 0 of the 1024-byte buffer 'x_ptr' reads memory nothing "
                         "wrote (uninitialized) in program ("),
            std::string::npos)
      << Message;
}

TEST_F(InterpreterTest, StrayPointerIsReported) {
  // (A misaligned pointer argument never gets this far: the runtime refuses
  // it before the launch, as on the GPU.)
  const std::int32_t N = 128;
  tile::DeviceBuffer<float> Out(Ctx, N);
  std::string Stray = errorOf([&] {
    Module->kernel("copy_store_unmasked")
        .launch(tile::Grid{1}, tile::Stream(), Block128, tile::DevicePtr(0x1000, "fp32"), Out,
                N);
  });
  EXPECT_EQ(Stray, "launch of copy_store_unmasked on the interpreter failed:\n"
                   "interp.tile:7:9: error: load of a 128 tile: element (0) goes through "
                   "'x_ptr', which points into no buffer of this context in program (0, 0, 0)");
}

TEST_F(InterpreterTest, AtomicsFromManyProgramsAreExact) {
  const std::int32_t N = 100003;
  std::vector<std::int32_t> Values(N);
  std::vector<std::int32_t> Expected(16, 0);
  for (std::int32_t I = 0; I < N; ++I) {
    Values[I] = (I * 7919) % 1000;
    ++Expected[Values[I] % 16];
  }
  tile::DeviceBuffer<std::int32_t> X(Ctx, N), Bins(Ctx, 16), Total(Ctx, 1);
  X.copyFromHost(Values);
  Bins.fillBytes(0);
  Total.fillBytes(0);
  Module->kernel("histogram")
      .launch(tile::Grid{static_cast<unsigned>((N + 127) / 128)}, tile::Stream(), Block128, X,
              Bins, Total, N);
  EXPECT_EQ(Bins.toHost(), Expected);
  EXPECT_EQ(Total.toHost()[0], N);
}

TEST_F(InterpreterTest, IntegerAndFp32ArithmeticIsExact) {
  const std::int32_t N = 5000;
  std::vector<float> X(N), Y(N), Z(N);
  std::vector<std::int32_t> A(N), B(N);
  for (std::int32_t I = 0; I < N; ++I) {
    X[I] = std::sin(0.37f * I) * 100.0f;
    Y[I] = std::cos(0.11f * I) * 3.0f;
    Z[I] = 0.001f * I;
    A[I] = static_cast<std::int32_t>(static_cast<std::uint32_t>(I) * 2654435u - 1000000000u);
    B[I] = 77 - I * 31;
  }
  tile::DeviceBuffer<float> DX(Ctx, N), DY(Ctx, N), DZ(Ctx, N), F(Ctx, N);
  tile::DeviceBuffer<std::int32_t> DA(Ctx, N), DB(Ctx, N), IOut(Ctx, N);
  DX.copyFromHost(X);
  DY.copyFromHost(Y);
  DZ.copyFromHost(Z);
  DA.copyFromHost(A);
  DB.copyFromHost(B);
  Module->kernel("arith").launch(tile::Grid{static_cast<unsigned>((N + 127) / 128)},
                                 tile::Stream(), Block128, DX, DY, DZ, DA, DB, F, IOut, N);
  std::vector<float> FGot = F.toHost();
  std::vector<std::int32_t> IGot = IOut.toHost();
  for (std::int32_t I = 0; I < N; ++I) {
    volatile float Product = X[I] * Y[I]; // no contraction into an fma
    float Want = Product / (Z[I] + 1.5f) - std::sqrt(std::fabs(X[I]));
    std::uint32_t Prod = static_cast<std::uint32_t>(A[I]) * static_cast<std::uint32_t>(B[I]);
    // // and % on integers truncate, as C's (and Triton's); >> on a
    // negative i32 is arithmetic.
    std::int32_t Q = A[I] / 7, R = B[I] % 5;
    std::int32_t IWant = (static_cast<std::int32_t>(Prod) >> 3) ^ (Q + R);
    ASSERT_EQ(std::memcmp(&FGot[I], &Want, 4), 0) << "f at " << I << ": " << FGot[I] << " vs "
                                                  << Want;
    ASSERT_EQ(IGot[I], IWant) << "i at " << I;
  }
}

TEST_F(InterpreterTest, NarrowFloatsKeepInfinitiesAndCanonicalNaN) {
  // Found by the differential run: abs(-inf) in fp16 came out 0.5.
  const float Inf = INFINITY;
  std::vector<float> X = {Inf, -Inf, 1e6f, -1e6f, NAN, 65504.0f, 65520.0f, 65519.0f};
  std::vector<std::uint16_t> WantHalf = {0x7c00, 0x7c00, 0x7c00, 0x7c00,
                                         0x7fff, 0x7bff, 0x7c00, 0x7bff};
  std::vector<std::uint16_t> WantBf16 = {0x7f80, 0x7f80, 0x4974, 0x4974,
                                         0x7fff, 0x4780, 0x4780, 0x4780};
  tile::DeviceBuffer<float> DX(Ctx, X.size());
  tile::DeviceBuffer<std::uint16_t> H(Ctx, X.size()), B(Ctx, X.size());
  DX.copyFromHost(X);
  Module->kernel("narrow_floats")
      .launch(tile::Grid{1}, tile::Stream(), tile::LaunchOptions{{{"BLOCK", 8}}, {}, {}}, DX,
              tile::DevicePtr(H.devicePtr(), "fp16"), tile::DevicePtr(B.devicePtr(), "bf16"));
  EXPECT_EQ(H.toHost(), WantHalf);
  EXPECT_EQ(B.toHost(), WantBf16);
}

TEST_F(InterpreterTest, FloatRemainderIsTheGpus) {
  // Found by the differential run: the GPU's % is fma(-trunc(x / y), y, x)
  // (LLVM's NVPTX lowering of frem, as in Triton), not IEEE fmod.
  std::vector<float> X = {1e10f, -2.0f, 7.5f, -7.5f};
  std::vector<float> Y = {3.0f, 2.0f, 2.0f, INFINITY};
  std::vector<float> Want = {256.0f, 0.0f, 1.5f, -7.5f}; // fmod: 1, -0, 1.5, -7.5
  tile::DeviceBuffer<float> DX(Ctx, 4), DY(Ctx, 4), Out(Ctx, 4);
  DX.copyFromHost(X);
  DY.copyFromHost(Y);
  Module->kernel("remainder")
      .launch(tile::Grid{1}, tile::Stream(), tile::LaunchOptions{{{"BLOCK", 4}}, {}, {}}, DX,
              DY, Out);
  std::vector<float> Got = Out.toHost();
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(std::memcmp(&Got[I], &Want[I], 4), 0) << I << ": " << Got[I];
}

TEST_F(InterpreterTest, NarrowFloatRemainderIsComputedInFp32) {
  // Found by the differential run (bf16 %, seed 2031): LLVM promotes an fp16
  // or bf16 frem to f32 (div.rn.f32, cvt.rzi, fma.rn.f32) and rounds once;
  // rounding the quotient to bf16 first gave 10 % 0.1 = -0.0098.
  std::vector<std::uint16_t> X = {0x4120, 0x4108, 0x40f0, 0xc0f0}; // 10, 8.5, 7.5, -7.5
  std::vector<std::uint16_t> Y = {0x3dcd, 0x3dcd, 0x4000, 0x7f80}; // 0.1, 0.1, 2, inf
  std::vector<std::uint16_t> Want = {0x3db9, 0x3dbc, 0x3fc0, 0xc0f0}; // 0.0903, 0.0918, 1.5, -7.5
  tile::DeviceBuffer<std::uint16_t> DX(Ctx, 4), DY(Ctx, 4), Out(Ctx, 4);
  DX.copyFromHost(X);
  DY.copyFromHost(Y);
  Module->kernel("remainder")
      .launch(tile::Grid{1}, tile::Stream(), tile::LaunchOptions{{{"BLOCK", 4}}, {}, {}},
              tile::DevicePtr(DX.devicePtr(), "bf16"), tile::DevicePtr(DY.devicePtr(), "bf16"),
              tile::DevicePtr(Out.devicePtr(), "bf16"));
  EXPECT_EQ(Out.toHost(), Want);
}

TEST_F(InterpreterTest, BitcastKeepsNaNPayloadsArithmeticMakesTheCanonicalNaN) {
  // Found by the differential run: a NaN lost its bits through a bitcast.
  std::vector<std::int32_t> X = {static_cast<std::int32_t>(0xffc00001u), 0x7f800001,
                                 0x7fa5a5a5, 0x3f800000};
  std::vector<std::int32_t> Plus1 = {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x40000000};
  tile::DeviceBuffer<std::int32_t> DX(Ctx, 4), Out(Ctx, 4), Sum(Ctx, 4);
  DX.copyFromHost(X);
  Module->kernel("bitcast_roundtrip")
      .launch(tile::Grid{1}, tile::Stream(), tile::LaunchOptions{{{"BLOCK", 4}}, {}, {}}, DX,
              Out, Sum);
  EXPECT_EQ(Out.toHost(), X);
  EXPECT_EQ(Sum.toHost(), Plus1);
}

TEST_F(InterpreterTest, RemainderByInfinityKeepsTheDividendsBits) {
  // Review finding: tilec's lowering selects `a` for an infinite `b`, a NaN's
  // payload included; the interpreter made it the canonical NaN.
  std::vector<std::int32_t> X = {0x7fa5a5a5, static_cast<std::int32_t>(0xffc00001u),
                                 0x3fc00000, 0x40400000};
  std::vector<float> Y = {INFINITY, -INFINITY, INFINITY, 2.0f};
  std::vector<std::int32_t> Want = {0x7fa5a5a5, static_cast<std::int32_t>(0xffc00001u),
                                    0x3fc00000, 0x3f800000}; // 3 % 2 = 1
  tile::DeviceBuffer<std::int32_t> DX(Ctx, 4), Out(Ctx, 4);
  tile::DeviceBuffer<float> DY(Ctx, 4);
  DX.copyFromHost(X);
  DY.copyFromHost(Y);
  Module->kernel("rem_bits")
      .launch(tile::Grid{1}, tile::Stream(), tile::LaunchOptions{{{"BLOCK", 4}}, {}, {}}, DX,
              DY, Out);
  EXPECT_EQ(Out.toHost(), Want);
}

TEST_F(InterpreterTest, RoundingModeFunctionsGiveTheCanonicalNaN) {
  // Found by the differential run: tl.div_rn(0, 0) kept the host's NaN
  // (0xffc00000) where div.rn.f32 gives 0x7fffffff.
  std::vector<float> X = {0.0f, 1.0f, -2.0f, std::nanf("")};
  std::vector<std::int32_t> Want = {0x7fffffff, 0x7f800000,
                                    static_cast<std::int32_t>(0xff800000u), 0x7fffffff};
  tile::DeviceBuffer<float> DX(Ctx, 4);
  tile::DeviceBuffer<std::int32_t> Out(Ctx, 4);
  DX.copyFromHost(X);
  Module->kernel("div_rn_by_zero")
      .launch(tile::Grid{1}, tile::Stream(), tile::LaunchOptions{{{"BLOCK", 4}}, {}, {}}, DX,
              Out);
  EXPECT_EQ(Out.toHost(), Want);
}

TEST_F(InterpreterTest, FloatAtomicMaxAndMinAreTheGpus) {
  // Review finding: the GPU does fp32 max as a signed max of the bits for a
  // non-negative operand and an unsigned min for a negative one, so NaN and
  // -0 come out as below (IEEE max would keep 1.0, store 2.0, keep -0.0).
  const float NaN = std::nanf(""), Inf = INFINITY;
  std::vector<float> Old = {1.0f, NaN, -0.0f, -1.0f};
  std::vector<float> X = {NaN, 2.0f, 0.0f, -Inf};
  tile::DeviceBuffer<float> DX(Ctx, 4), Max(Ctx, 4), Min(Ctx, 4);
  DX.copyFromHost(X);
  Max.copyFromHost(Old);
  Min.copyFromHost(Old);
  Module->kernel("atomic_max_min")
      .launch(tile::Grid{1}, tile::Stream(), tile::LaunchOptions{{{"BLOCK", 4}}, {}, {}}, DX,
              Max, Min);
  std::vector<float> GotMax = Max.toHost(), GotMin = Min.toHost();
  EXPECT_TRUE(std::isnan(GotMax[0])); // NaN's bits are the larger signed int
  EXPECT_TRUE(std::isnan(GotMax[1]));
  EXPECT_EQ(GotMax[2], 0.0f);
  EXPECT_FALSE(std::signbit(GotMax[2]));
  EXPECT_EQ(GotMax[3], -1.0f);
  EXPECT_EQ(GotMin[0], 1.0f);
  EXPECT_EQ(GotMin[1], 2.0f);
  EXPECT_TRUE(std::signbit(GotMin[2]));
  EXPECT_EQ(GotMin[3], -Inf);
}

TEST_F(InterpreterTest, LibdeviceRoundingModesAndTails) {
  // Review findings: add_ru(1, 1e-30) must round up, and erfcx and erfcinv
  // must not overflow in their tails.
  tile::DeviceBuffer<float> DX(Ctx, 1), DY(Ctx, 1), Out(Ctx, 4);
  DX.copyFromHost(std::vector<float>{1.0f});
  DY.copyFromHost(std::vector<float>{1e-30f});
  Module->kernel("libdevice_tails").launch(tile::Grid{1}, tile::Stream(), DX, DY, Out);
  std::vector<float> Got = Out.toHost();
  EXPECT_EQ(Got[0], std::nextafter(1.0f, 2.0f));
  EXPECT_EQ(Got[1], std::nextafter(1.0f, 0.0f));
  EXPECT_NEAR(Got[2], 0.018795888, 1e-6); // erfcx(30)
  EXPECT_NEAR(Got[3], 6.60158, 1e-4);      // erfcinv(1e-20)
}

/// Seconds one call of \p Fn takes.
template <class Fn> double secondsOf(Fn &&F) {
  auto Start = std::chrono::steady_clock::now();
  F();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
}

TEST_F(InterpreterTest, VectorAddAndSoftmaxRunWithinASecond) {
  const std::int32_t N = 1 << 20;
  std::vector<float> X(N), Y(N);
  for (std::int32_t I = 0; I < N; ++I) {
    X[I] = 0.5f * I;
    Y[I] = 1.0f - I;
  }
  tile::DeviceBuffer<float> DX(Ctx, N), DY(Ctx, N), Out(Ctx, N);
  DX.copyFromHost(X);
  DY.copyFromHost(Y);
  tile::JitKernel Add = Module->kernel("add");
  const tile::LaunchOptions Block1024{{{"BLOCK", 1024}}, {}, {}};
  auto LaunchAdd = [&] {
    Add.launch(tile::Grid{N / 1024}, tile::Stream(), Block1024, DX, DY, Out, N);
  };
  LaunchAdd(); // compiles
  double AddSeconds = secondsOf(LaunchAdd);
  std::vector<float> Sum = Out.toHost();
  for (std::int32_t I = 0; I < N; I += 4099)
    ASSERT_EQ(Sum[I], X[I] + Y[I]) << I;

  const std::int32_t Rows = 1024, Cols = 1024;
  std::vector<float> In(static_cast<std::size_t>(Rows) * Cols);
  for (std::size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<float>(I % 97) * 0.01f;
  tile::DeviceBuffer<float> DIn(Ctx, In.size()), DOut(Ctx, In.size());
  DIn.copyFromHost(In);
  tile::JitKernel Softmax = Module->kernel("softmax");
  auto LaunchSoftmax = [&] {
    Softmax.launch(tile::Grid{Rows}, tile::Stream(), Block1024, DOut, DIn, Cols);
  };
  LaunchSoftmax();
  double SoftmaxSeconds = secondsOf(LaunchSoftmax);
  std::vector<float> P = DOut.toHost();
  double RowSum = 0;
  for (std::int32_t C = 0; C < Cols; ++C)
    RowSum += P[C];
  EXPECT_NEAR(RowSum, 1.0, 1e-5);
  std::printf("vector add 2^20: %.3f s; softmax 1024x1024: %.3f s\n", AddSeconds,
              SoftmaxSeconds);
  // The issue's bar is one second on one core; sanitizer builds are many
  // times slower, more so on a loaded machine.
#if defined(__SANITIZE_ADDRESS__) || defined(__has_feature)
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
  const double Bound = 60.0;
#else
  const double Bound = 5.0;
#endif
#else
  const double Bound = 5.0;
#endif
  EXPECT_LT(AddSeconds, Bound);
  EXPECT_LT(SoftmaxSeconds, Bound);
}

TEST(InterpreterApi, RejectsWhatItCannotRunWithItsLocation) {
  constexpr const char *Ir = R"(
module {
  func.func @k(%a: i32) {
    %lo, %hi = arith.mulsi_extended %a, %a : i32 loc("k.tile":3:7)
    return
  }
}
)";
  std::string Error;
  EXPECT_EQ(tilec::InterpretedModule::parse(Ir, "k.mlir", Error), nullptr);
  EXPECT_EQ(Error, "k.tile:3:7: error: the interpreter cannot run 'arith.mulsi_extended' yet");
  EXPECT_EQ(tilec::InterpretedModule::parse("not mlir", "junk.mlir", Error), nullptr);
  EXPECT_EQ(Error.rfind("junk.mlir:1:1: ", 0), 0u) << Error;
}

TEST(InterpreterApi, SelectOfAOneElementTileKeepsItsShape) {
  // Review finding: a scalar condition over tensor<1> values made the
  // result a scalar, and the broadcast after it read out of bounds.
  constexpr const char *Ir = R"(
module {
  func.func @k(%c: i1, %p: !tile.ptr<f32>) {
    %a = arith.constant dense<1.0> : tensor<1xf32>
    %b = arith.constant dense<2.0> : tensor<1xf32>
    %s = arith.select %c, %a, %b : tensor<1xf32>
    %e = tile.broadcast %s : tensor<1xf32> -> tensor<4xf32>
    %ps = tile.splat %p : tensor<4x!tile.ptr<f32>>
    %r = tile.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %q = tile.addptr %ps, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
    tile.store %q, %e : (tensor<4x!tile.ptr<f32>>, tensor<4xf32>) -> ()
    return
  }
}
)";
  std::string Error;
  auto Module = tilec::InterpretedModule::parse(Ir, "k.mlir", Error);
  ASSERT_NE(Module, nullptr) << Error;
  tilec::HostMemory Memory;
  std::uint64_t Out = Memory.allocate(16);
  bool C = false;
  void *Params[] = {&C, &Out};
  EXPECT_EQ(Module->launch("k", {1, 1, 1}, Params, 2, {"c", "p"}, Memory), "");
  float Got[4];
  ASSERT_TRUE(Memory.read(Out, Got, 16));
  for (float G : Got)
    EXPECT_EQ(G, 2.0f);
}

TEST(InterpreterApi, LaunchChecksTheKernelAndItsArguments) {
  constexpr const char *Ir = R"(
module {
  func.func @k(%a: i32) {
    return
  }
}
)";
  std::string Error;
  auto Module = tilec::InterpretedModule::parse(Ir, "k.mlir", Error);
  ASSERT_NE(Module, nullptr) << Error;
  EXPECT_EQ(Module->kernels(), std::vector<std::string>{"k"});
  tilec::HostMemory Memory;
  std::int32_t A = 1;
  void *Params[] = {&A};
  EXPECT_EQ(Module->launch("nope", {1, 1, 1}, Params, 1, {}, Memory),
            "error: the interpreted module has no kernel 'nope'");
  EXPECT_EQ(Module->launch("k", {1, 1, 1}, Params, 0, {}, Memory),
            "error: kernel 'k' takes 1 arguments; the launch passed 0");
  EXPECT_EQ(Module->launch("k", {4, 2, 1}, Params, 1, {}, Memory), "");
}

} // namespace
