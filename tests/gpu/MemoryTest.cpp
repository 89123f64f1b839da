//===- MemoryTest.cpp - load/store with masks, element types, block ptrs --===//
//
// kernels/memory.tile: masked loads with `other` and masked stores on 1-D,
// 2-D (strided rows) and 3-D tiles; fp16/i8/i64/u8/fp64 memory; block
// pointers with boundary_check, both padding options, and advance; tensor
// descriptors made in the kernel and passed from the host
// (kernels/host_desc.tile).
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <cmath>
#include <type_traits>

namespace {

using MemoryTest = gputest::GpuTest<>;
using I32 = std::int32_t;

TEST_F(MemoryTest, Masked1D) {
  tile::Kernel K = kernel("load1d", "k_load1d");
  const std::size_t N = 1001;
  std::size_t Block = K.info().constexprInt("BLOCK");
  unsigned Programs = gputest::blocks(N, Block);
  std::vector<float> X = examples::randomFloats(N, -1, 1, 91);
  auto DX = upload(X);
  auto DPadded = poisoned<float>(Programs * Block + 64);
  auto DOut = poisoned<float>(N + 64);
  K.launch(tile::Grid{Programs}, tile::Stream(), DX, DPadded, DOut, I32(N));
  Ctx->synchronize();
  std::vector<float> Padded = DPadded.toHost(), Out = DOut.toHost();
  gputest::expectPoisoned(Padded, Programs * Block, "unmasked store");
  gputest::expectPoisoned(Out, N, "masked store");
  Padded.resize(Programs * Block);
  Out.resize(N);
  gputest::expectEqual(
      Padded, [&](std::size_t I) { return I < N ? X[I] : -7.0f; },
      "load with other=-7");
  gputest::expectEqual(
      Out, [&](std::size_t I) { return 2 * X[I]; }, "masked store");
}

TEST_F(MemoryTest, Masked2DStridedRows) {
  tile::Kernel K = kernel("load2d", "k_load2d");
  const std::size_t M = 37, N = 45, Stride = 50;
  std::size_t R = K.info().constexprInt("R"), C = K.info().constexprInt("C");
  unsigned GR = gputest::blocks(M, R), GC = gputest::blocks(N, C);
  std::vector<float> X = examples::randomFloats(M * Stride, -1, 1, 92);
  auto DX = upload(X);
  auto DPadded = poisoned<float>(GR * R * GC * C);
  auto DOut = poisoned<float>(M * N + 64);
  K.launch(tile::Grid{GR, GC}, tile::Stream(), DX, DPadded, DOut, I32(M),
           I32(N), I32(Stride));
  Ctx->synchronize();
  std::vector<float> Out = result(DOut, M * N, "masked 2-D store");
  std::size_t PaddedCols = GC * C;
  gputest::expectEqual(
      DPadded.toHost(),
      [&](std::size_t I) {
        std::size_t Row = I / PaddedCols, Col = I % PaddedCols;
        return Row < M && Col < N ? X[Row * Stride + Col] : 3.0f;
      },
      "2-D load with other=3");
  gputest::expectEqual(
      Out, [&](std::size_t I) { return X[I / N * Stride + I % N] - 1.0f; },
      "masked 2-D store");
}

TEST_F(MemoryTest, Masked3D) {
  tile::Kernel K = kernel("load3d", "k_load3d");
  const std::size_t P = 6, Q = 7, S = 13; // Boxes of [4, 8, 16].
  std::size_t BP = K.info().constexprInt("BP"),
              BQ = K.info().constexprInt("BQ"),
              BS = K.info().constexprInt("BS");
  unsigned Programs = gputest::blocks(P, BP);
  std::vector<float> X = examples::randomFloats(P * Q * S, -1, 1, 93);
  auto DX = upload(X);
  auto DPadded = poisoned<float>(Programs * BP * BQ * BS);
  auto DOut = poisoned<float>(P * Q * S + 64);
  K.launch(tile::Grid{Programs}, tile::Stream(), DX, DPadded, DOut, I32(P),
           I32(Q), I32(S));
  Ctx->synchronize();
  std::vector<float> Out = result(DOut, P * Q * S, "masked 3-D store");
  gputest::expectEqual(
      DPadded.toHost(),
      [&](std::size_t I) {
        std::size_t Px = I / (BQ * BS), Qx = I / BS % BQ, Sx = I % BS;
        return Px < P && Qx < Q && Sx < S ? X[(Px * Q + Qx) * S + Sx] : -1.0f;
      },
      "3-D load with other=-1");
  gputest::expectEqual(
      Out, [&](std::size_t I) { return X[I] * X[I]; }, "masked 3-D store");
}

TEST_F(MemoryTest, OtherElementTypes) {
  tile::Kernel K = kernel("types", "k_types");
  const std::size_t N = 777;
  std::vector<float> F = examples::randomFloats(N, -100, 100, 94);
  std::vector<tile::Half> H(N);
  std::vector<double> D(N);
  for (std::size_t I = 0; I < N; ++I) {
    H[I] = tile::Half::fromFloat(F[I]);
    D[I] = F[I] * 1e-3;
  }
  std::vector<std::int8_t> B =
      gputest::randomInts<std::int8_t>(N, -128, 127, 95);
  std::vector<std::int64_t> W = gputest::randomInts<std::int64_t>(
      N, -(1ll << 60) / 3, (1ll << 60) / 3, 96);
  std::vector<std::uint8_t> U =
      gputest::randomInts<std::uint8_t>(N, 0, 255, 97);
  auto DH = upload(H);
  auto DB = upload(B);
  auto DW = upload(W);
  auto DU = upload(U);
  auto DD = upload(D);
  auto OH = poisoned<tile::Half>(N + 64);
  auto OB = poisoned<std::int8_t>(N + 64);
  auto OW = poisoned<std::int64_t>(N + 64);
  auto OU = poisoned<std::uint8_t>(N + 64);
  auto OD = poisoned<double>(N + 64);
  launch1D(K, N, DH, DB, DW, DU, DD, OH, OB, OW, OU, OD, I32(N));
  std::vector<tile::Half> RH = OH.toHost();
  std::vector<std::int8_t> RB = OB.toHost();
  std::vector<std::int64_t> RW = OW.toHost();
  std::vector<std::uint8_t> RU = OU.toHost();
  std::vector<double> RD = OD.toHost();
  gputest::expectPoisoned(RH, N, "fp16");
  gputest::expectPoisoned(RB, N, "i8");
  gputest::expectPoisoned(RW, N, "i64");
  gputest::expectPoisoned(RU, N, "u8");
  gputest::expectPoisoned(RD, N, "fp64");
  RH.resize(N);
  RB.resize(N);
  RW.resize(N);
  RU.resize(N);
  RD.resize(N);
  gputest::expectEqual(
      gputest::toFloats(RH), [&](std::size_t I) { return 2 * H[I].toFloat(); },
      "fp16 * 2");
  gputest::expectEqual(
      RB, [&](std::size_t I) { return std::int8_t(std::uint8_t(B[I] + 1)); },
      "i8 + 1 (wraps)");
  gputest::expectEqual(
      RW, [&](std::size_t I) { return W[I] * 3; }, "i64 * 3");
  gputest::expectEqual(
      RU, [&](std::size_t I) { return std::uint8_t(U[I] >> 1); },
      "u8 >> 1 (logical)");
  gputest::expectEqual(
      RD, [&](std::size_t I) { return D[I] * 0.5; }, "fp64 * 0.5");
}

TEST_F(MemoryTest, BoolPointersReadAndWriteBytes) {
  tile::Kernel K = kernel("bool_memory", "k_bool");
  const std::size_t N = 1000;
  std::vector<std::uint8_t> Mask(N);
  for (std::size_t I = 0; I < N; ++I)
    Mask[I] = I % 3 == 0 ? 0 : I % 3 == 1 ? 1 : 2; // 2 reads as true too
  std::vector<float> X = examples::randomFloats(N, -1, 1, 102);
  // torch.bool's storage: one byte per element (bool is i1 to the runtime).
  tile::DeviceBuffer<bool> DMask(*Ctx, N), DPos(*Ctx, N + 64);
  DMask.copyFromHost(reinterpret_cast<const bool *>(Mask.data()), N);
  DPos.fillBytes(0x55);
  auto DX = upload(X);
  auto DOut = poisoned<float>(N + 64);
  K.launch(tile::Grid{gputest::blocks(N, K.info().constexprInt("BLOCK"))}, tile::Stream(),
           DMask, DX, DOut, DPos, I32(N));
  Ctx->synchronize();
  gputest::expectEqual(
      result(DOut, N, "where(mask)"),
      [&](std::size_t I) { return Mask[I] != 0 ? X[I] : -1.0f; }, "where of a *i1 load");
  std::vector<std::uint8_t> Pos(N + 64);
  DPos.copyToHost(reinterpret_cast<bool *>(Pos.data()), N + 64);
  for (std::size_t I = 0; I < N + 64; ++I)
    ASSERT_EQ(Pos[I], I < N ? (X[I] > 0 ? 1 : 0) : 0x55)
        << "x > 0 stored through *i1 as a byte 0 / 1 at " << I;
}

class BlockPointerTest : public gputest::GpuTest<> {
protected:
  /// \p Count random fp16 values in [-1, 1].
  static std::vector<tile::Half> randomHalves(std::size_t Count, unsigned Seed) {
    std::vector<float> F = examples::randomFloats(Count, -1, 1, Seed);
    std::vector<tile::Half> H(Count);
    for (std::size_t I = 0; I < Count; ++I)
      H[I] = tile::Half::fromFloat(F[I]);
    return H;
  }

  /// Expects C [M, N] = A [M, K] @ B [K, N] (row-major) against a double
  /// reference.
  static void expectProduct(const std::vector<tile::Half> &A,
                            const std::vector<tile::Half> &B, const float *C, std::int64_t M,
                            std::int64_t N, std::int64_t Kd, const std::string &What) {
    std::size_t Wrong = 0, First = 0;
    for (std::int64_t I = 0; I < M; ++I)
      for (std::int64_t J = 0; J < N; ++J) {
        double Ref = 0;
        for (std::int64_t L = 0; L < Kd; ++L)
          Ref += double(A[I * Kd + L].toFloat()) * double(B[L * N + J].toFloat());
        if (!(std::abs(C[I * N + J] - Ref) <= 1e-3 + 1e-3 * std::abs(Ref)) && Wrong++ == 0)
          First = I * N + J;
      }
    EXPECT_EQ(Wrong, 0u) << What << ": first wrong c[" << First << "] = " << C[First];
  }

  /// The first \p N values of \p DC (fp32 or fp16: \p T), as floats,
  /// after checking that the guard past them still holds the poison.
  template <class T>
  std::vector<float> resultAsFloats(const tile::DeviceBuffer<T> &DC, std::size_t N,
                                    const std::string &What) {
    std::vector<float> C;
    for (const T &Value : result(DC, N, What)) {
      if constexpr (std::is_same_v<T, tile::Half>)
        C.push_back(Value.toFloat());
      else
        C.push_back(Value);
    }
    return C;
  }

  /// c = a @ b through the host descriptors of \p K (blocks of BM x
  /// BK, BK x BN and BM x BN), with every edge ragged, against a double
  /// reference; c holds \p T (fp32 or fp16). On sm_90 the tensor memory
  /// accelerator copies a and b (the loads of the descriptors are
  /// pipelined with tensor maps, which zero what lies past the edges), and
  /// stores an fp16 c (clipped at the edges).
  template <class T = float>
  void checkHostDescriptorMatmul(tile::Kernel K, std::int64_t BM, std::int64_t BN,
                                 std::int64_t BK) {
    const std::int64_t M = 300, N = 136, Kd = 200; // Every edge ragged.
    std::vector<tile::Half> A = randomHalves(M * Kd, 104), B = randomHalves(Kd * N, 105);
    auto DA = upload(A);
    auto DB = upload(B);
    auto DC = poisoned<T>(M * N + 256);
    K.launch(tile::Grid{gputest::blocks(M, BM), gputest::blocks(N, BN)}, tile::Stream(),
             tile::TensorDescriptor(DA, {M, Kd}, {Kd, 1}, {BM, BK}),
             tile::TensorDescriptor(DB, {Kd, N}, {N, 1}, {BK, BN}),
             tile::TensorDescriptor(DC, {M, N}, {N, 1}, {BM, BN}), I32(Kd));
    Ctx->synchronize();
    std::vector<float> C = resultAsFloats(DC, M * N, "host-descriptor matmul");
    expectProduct(A, B, C.data(), M, N, Kd, "host-descriptor matmul");
  }

  /// c = a @ b (300 x 144 x 208: every edge ragged, N and K multiples of
  /// 16 as the signatures say) by \p Name, whose a and b blocks the tensor
  /// memory accelerator copies through the two maps the kernel builds
  /// (their 256 bytes of global scratch per program say that they stayed;
  /// 384 with the map of an fp16 c, \p T, which the accelerator stores
  /// through), with \p Strides after M, N and K for the block-pointer
  /// kernel. With \p TransposedB, the kernel takes b as bt [N, K].
  /// \p Maps, when given, is the number of maps the kernel builds (0 on
  /// sm_80).
  template <class T = float>
  void checkDeviceMapMatmul(const std::string &Name, const std::string &Kernel,
                            std::int64_t BM, std::int64_t BN, bool Strides,
                            bool TransposedB = false, int Maps = -1) {
    tile::Kernel K = kernel(Name, Kernel);
    if (Maps < 0)
      Maps = std::is_same_v<T, tile::Half> ? 3 : 2;
    EXPECT_EQ(K.info().GlobalScratchBytes, 128u * Maps) << Name;
    const std::int64_t M = 300, N = 144, Kd = 208;
    std::vector<tile::Half> A = randomHalves(M * Kd, 106), B = randomHalves(Kd * N, 107);
    std::vector<tile::Half> Given = B;
    if (TransposedB)
      for (std::int64_t L = 0; L < Kd; ++L)
        for (std::int64_t J = 0; J < N; ++J)
          Given[J * Kd + L] = B[L * N + J];
    auto DA = upload(A);
    auto DB = upload(Given);
    auto DC = poisoned<T>(M * N + 256);
    tile::Grid Grid{gputest::blocks(M, BM), gputest::blocks(N, BN)};
    if (Strides)
      K.launch(Grid, tile::Stream(), DA, DB, DC, I32(M), I32(N), I32(Kd), I32(Kd),
               I32(TransposedB ? Kd : N), I32(N));
    else
      K.launch(Grid, tile::Stream(), DA, DB, DC, I32(M), I32(N), I32(Kd));
    Ctx->synchronize();
    std::vector<float> C = resultAsFloats(DC, M * N, Name);
    expectProduct(A, B, C.data(), M, N, Kd, Name);
  }

  /// Runs Name (k_bptr_load or k_desc_load) from Module on x [M, N];
  /// expects Pad past the edges.
  void checkPadding(const std::string &Module, bool NanPadding,
                    const std::string &Name = "k_bptr_load") {
    tile::Kernel K = kernel(Module, Name);
    const std::size_t M = 37, N = 45;
    std::size_t R = K.info().constexprInt("R"), C = K.info().constexprInt("C");
    unsigned GR = gputest::blocks(M, R), GC = gputest::blocks(N, C);
    std::vector<float> X = examples::randomFloats(M * N, -1, 1, 98);
    auto DX = upload(X);
    tile::DeviceBuffer<float> DPadded(*Ctx, GR * R * GC * C);
    DPadded.fillBytes(0x11); // Neither 0 nor NaN.
    K.launch(tile::Grid{GR, GC}, tile::Stream(), DX, DPadded, I32(M), I32(N));
    Ctx->synchronize();
    std::vector<float> Padded = DPadded.toHost();
    std::size_t Cols = GC * C, Wrong = 0;
    for (std::size_t I = 0; I < Padded.size(); ++I) {
      std::size_t Row = I / Cols, Col = I % Cols;
      bool Inside = Row < M && Col < N;
      bool Ok = Inside
                    ? Padded[I] == X[Row * N + Col]
                    : (NanPadding ? std::isnan(Padded[I]) : Padded[I] == 0.0f);
      if (!Ok && Wrong++ == 0)
        ADD_FAILURE() << Module << ": element (" << Row << ", " << Col
                      << ") is " << Padded[I];
    }
    EXPECT_EQ(Wrong, 0u) << Module;
  }
};

TEST_F(BlockPointerTest, BoundaryCheckPadsWithZero) {
  checkPadding("bptr_load_zero", false);
}

TEST_F(BlockPointerTest, BoundaryCheckPadsWithNan) {
  checkPadding("bptr_load_nan", true);
}

TEST_F(BlockPointerTest, AdvanceAndCheckedStores) {
  tile::Kernel K = kernel("bptr_copy", "k_bptr_copy");
  const std::size_t M = 37, N = 200; // Tiles [16, 64]: both edges ragged.
  std::vector<float> X = examples::randomFloats(M * N, -1, 1, 99);
  auto DX = upload(X);
  auto DOut = poisoned<float>(M * N + 256);
  K.launch(tile::Grid{gputest::blocks(M, K.info().constexprInt("R"))},
           tile::Stream(), DX, DOut, I32(M), I32(N));
  Ctx->synchronize();
  std::vector<float> Out = result(DOut, M * N, "block-pointer store");
  gputest::expectEqual(
      Out, [&](std::size_t I) { return X[I] + 1.0f; },
      "x + 1 through advancing block pointers");
}

TEST_F(BlockPointerTest, TensorDescriptorPadsWithZero) {
  checkPadding("desc_load_zero", false, "k_desc_load");
}

TEST_F(BlockPointerTest, TensorDescriptorPadsWithNan) {
  checkPadding("desc_load_nan", true, "k_desc_load");
}

TEST_F(BlockPointerTest, PointersFromIntegersAndNullPointers) {
  tile::Kernel K = kernel("ptr_table", "k_ptr_table");
  const std::size_t Groups = 3, N = 100;
  std::vector<tile::DeviceBuffer<float>> Sources;
  std::vector<std::vector<float>> X;
  std::vector<std::int64_t> Table;
  for (std::size_t G = 0; G < Groups; ++G) {
    X.push_back(examples::randomFloats(N, -1, 1, 200 + G));
    Sources.push_back(upload(X.back()));
    Table.push_back(static_cast<std::int64_t>(Sources.back().devicePtr()));
  }
  std::vector<float> Bias = examples::randomFloats(N, -1, 1, 210);
  auto DTable = upload(Table);
  auto DBias = upload(Bias);
  for (bool WithBias : {true, false}) {
    auto DOut = poisoned<float>(Groups * N + 256);
    tile::DevicePtr BiasPtr(WithBias ? DBias.devicePtr() : 0, "fp32");
    K.launch(tile::Grid{static_cast<unsigned>(Groups)}, tile::Stream(), DTable, DOut, BiasPtr,
             I32(N));
    Ctx->synchronize();
    gputest::expectEqual(
        result(DOut, Groups * N, "rows through integer addresses"),
        [&](std::size_t I) { return X[I / N][I % N] + (WithBias ? Bias[I % N] : 0.0f); },
        WithBias ? "sources through a table, plus the bias" : "a null bias is skipped");
  }
}

/// Checks that \p Out ([M, N]) is 1 + \p X (rows \p LD apart) moved down a
/// row, row 0 reading zeros.
void expectShiftedRows(const std::vector<float> &Out, const std::vector<float> &X,
                       std::size_t N, std::size_t LD, const std::string &What) {
  gputest::expectEqual(
      Out,
      [&](std::size_t I) {
        std::size_t Row = I / N, Col = I % N;
        return (Row == 0 ? 0.0f : X[(Row - 1) * LD + Col]) + 1.0f;
      },
      What);
}

TEST_F(BlockPointerTest, TensorDescriptorNegativeOffsetsAndStrides) {
  tile::Kernel K = kernel("desc_shift", "k_desc_shift");
  const std::size_t M = 37, N = 200, LD = 213; // Tiles [16, 64]: both edges ragged.
  std::vector<float> X = examples::randomFloats(M * LD, -1, 1, 101);
  auto DX = upload(X);
  auto DOut = poisoned<float>(M * N + 256);
  K.launch(tile::Grid{gputest::blocks(M, K.info().constexprInt("R"))}, tile::Stream(),
           DX, DOut, I32(M), I32(N), I32(LD));
  Ctx->synchronize();
  expectShiftedRows(result(DOut, M * N, "tensor-descriptor store"), X, N, LD,
                    "1 + x moved down a row through tensor descriptors");
}

TEST_F(BlockPointerTest, HostTensorDescriptors) {
  tile::Kernel K = kernel("host_desc_shift", "k_host_desc_shift");
  const std::int64_t M = 37, N = 200, LD = 212; // Tiles [16, 64]: both edges ragged.
  std::vector<float> X = examples::randomFloats(M * LD, -1, 1, 103);
  auto DX = upload(X);
  auto DOut = poisoned<float>(M * N + 256);
  tile::TensorDescriptor XD(DX, {M, N}, {LD, 1}, {16, 64});
  tile::TensorDescriptor OutD(DOut, {M, N}, {N, 1}, {16, 64});
  tile::Grid Grid{gputest::blocks(M, 16)};
  K.launch(Grid, tile::Stream(), XD, OutD);
  Ctx->synchronize();
  expectShiftedRows(result(DOut, M * N, "host tensor-descriptor store"), X, N, LD,
                    "1 + x moved down a row through host tensor descriptors");

  // A descriptor that does not fit its parameter is refused before launch.
  using gputest::errorOf;
  EXPECT_EQ(errorOf([&] {
              K.launch(Grid, tile::Stream(),
                       tile::TensorDescriptor(DX, {M, N}, {LD, 1}, {32, 64}), OutD);
            }),
            "argument 1 'x_desc' of k_host_desc_shift: the kernel was compiled for "
            "blocks of [16, 64], the descriptor has [32, 64]");
  EXPECT_EQ(errorOf([&] {
              K.launch(Grid, tile::Stream(),
                       tile::TensorDescriptor(DX, {M, N}, {LD + 1, 1}, {16, 64}), OutD);
            }),
            "argument 1 'x_desc' of k_host_desc_shift: strides [213, 1]: stride 0 must "
            "be a positive multiple of 16 bytes (4 elements)");
  EXPECT_EQ(errorOf([&] { K.launch(Grid, tile::Stream(), DX, OutD); }),
            "argument 1 'x_desc' of k_host_desc_shift: expected a tensor descriptor "
            "(tensordesc<fp32[16, 64]>), got *fp32");
  EXPECT_EQ(errorOf([&] { K.launch(Grid, tile::Stream(), XD); }),
            "k_host_desc_shift expects 2 arguments (x_desc: tensordesc<fp32[16, 64]>, "
            "out_desc: tensordesc<fp32[16, 64]>), got 1");
}

TEST_F(BlockPointerTest, HostTensorDescriptorMatmul) {
  checkHostDescriptorMatmul(kernel("host_desc_matmul", "k_host_desc_matmul"), 64, 64, 32);
}

TEST_F(BlockPointerTest, HostTensorDescriptorMatmulWgmma) {
  checkHostDescriptorMatmul(kernel("host_desc_matmul_wgmma", "k_host_desc_matmul"), 128,
                            128, 64);
}

// fp16 products stored through the tensor memory accelerator: the host
// descriptor's own map (sm_90; wgmma on sm_90a), maps the kernels build for
// a descriptor and a block pointer (sm_90a), every edge clipped.
TEST_F(BlockPointerTest, HostTensorDescriptorStoreThroughTensorMap) {
  checkHostDescriptorMatmul<tile::Half>(kernel("host_desc_matmul_tma_store", "k_host_desc_matmul"),
                                        64, 64, 32);
}

TEST_F(BlockPointerTest, HostTensorDescriptorStoreThroughTensorMapWgmma) {
  checkHostDescriptorMatmul<tile::Half>(
      kernel("host_desc_matmul_wgmma_tma_store", "k_host_desc_matmul"), 128, 128, 64);
}

TEST_F(BlockPointerTest, DeviceTensorDescriptorStoreThroughTensorMap) {
  checkDeviceMapMatmul<tile::Half>("device_desc_matmul_tma_store", "k_device_desc_matmul", 64,
                                   64, false);
}

TEST_F(BlockPointerTest, DeviceTensorDescriptorStoreThroughTensorMapWgmma) {
  checkDeviceMapMatmul<tile::Half>("device_desc_matmul_wgmma_tma_store", "k_device_desc_matmul",
                                   128, 128, false);
}

TEST_F(BlockPointerTest, BlockPointerStoreThroughTensorMap) {
  checkDeviceMapMatmul<tile::Half>("block_ptr_matmul_tma_store", "k_block_ptr_matmul", 64, 64,
                                   true);
}

// b given as bt [N, K], its blocks transposed in the kernel (bt.T): the
// slots hold them as loaded, copied by the tensor memory accelerator
// (mma.sync and wgmma) or by cp.async (sm_80). The fp32 c is stored through
// pointers: two maps on sm_90a, none on sm_80.
TEST_F(BlockPointerTest, TransposedOperandThroughTensorMaps) {
  checkDeviceMapMatmul("desc_matmul_trans", "k_desc_matmul_trans", 64, 64, false,
                       /*TransposedB=*/true);
}

TEST_F(BlockPointerTest, TransposedOperandThroughTensorMapsWgmma) {
  checkDeviceMapMatmul("desc_matmul_trans_wgmma", "k_desc_matmul_trans", 128, 128, false,
                       /*TransposedB=*/true);
}

TEST_F(BlockPointerTest, TransposedOperandThroughCpAsync) {
  checkDeviceMapMatmul("desc_matmul_trans_cp_async", "k_desc_matmul_trans", 64, 64, false,
                       /*TransposedB=*/true, /*Maps=*/0);
}

TEST_F(BlockPointerTest, DeviceTensorDescriptorMatmul) {
  checkDeviceMapMatmul("device_desc_matmul", "k_device_desc_matmul", 64, 64, false);
}

TEST_F(BlockPointerTest, DeviceTensorDescriptorMatmulWgmma) {
  checkDeviceMapMatmul("device_desc_matmul_wgmma", "k_device_desc_matmul", 128, 128, false);
}

TEST_F(BlockPointerTest, BlockPointerMatmulThroughTensorMaps) {
  checkDeviceMapMatmul("block_ptr_matmul_tma", "k_block_ptr_matmul", 64, 64, true);
}

TEST_F(BlockPointerTest, TransposedBlockPointerThroughTensorMaps) {
  checkDeviceMapMatmul("block_ptr_matmul_bt_tma", "k_block_ptr_matmul_bt", 64, 64, true,
                       /*TransposedB=*/true);
}

TEST_F(BlockPointerTest, TransposedBlockPointerThroughTensorMapsWgmma) {
  checkDeviceMapMatmul("block_ptr_matmul_bt_wgmma", "k_block_ptr_matmul_bt", 128, 128, true,
                       /*TransposedB=*/true);
}

// Four persistent programs walk 3 batches of 5 x 3 tiles, rebuilding both
// maps for each tile in their scratch.
TEST_F(BlockPointerTest, TensorMapsRebuiltInPersistentLoop) {
  tile::Kernel K = kernel("batched_desc_matmul", "k_batched_desc_matmul");
  EXPECT_EQ(K.info().GlobalScratchBytes, 256u);
  const std::int64_t G = 3, M = 300, N = 144, Kd = 208;
  std::vector<tile::Half> A = randomHalves(G * M * Kd, 108), B = randomHalves(G * Kd * N, 109);
  auto DA = upload(A);
  auto DB = upload(B);
  auto DC = poisoned<float>(G * M * N + 256);
  K.launch(tile::Grid{4}, tile::Stream(), DA, DB, DC, I32(G), I32(M), I32(N), I32(Kd));
  Ctx->synchronize();
  std::vector<float> C = result(DC, G * M * N, "batched descriptor matmul");
  for (std::int64_t Batch = 0; Batch < G; ++Batch)
    expectProduct(std::vector<tile::Half>(A.begin() + Batch * M * Kd,
                                          A.begin() + (Batch + 1) * M * Kd),
                  std::vector<tile::Half>(B.begin() + Batch * Kd * N,
                                          B.begin() + (Batch + 1) * Kd * N),
                  C.data() + Batch * M * N, M, N, Kd,
                  "batch " + std::to_string(Batch));
}

TEST_F(BlockPointerTest, OneDimensional) {
  tile::Kernel K = kernel("bptr_1d", "k_bptr_1d");
  const std::size_t N = 1001;
  std::vector<float> X = examples::randomFloats(N, -1, 1, 100);
  std::vector<float> Out = runOnFloats(K, X, N, "1-D block-pointer store");
  gputest::expectEqual(
      Out, [&](std::size_t I) { return X[I] * 3.0f; },
      "3 x through 1-D block pointers");
}

} // namespace
