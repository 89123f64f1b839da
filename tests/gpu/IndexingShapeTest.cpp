//===- IndexingShapeTest.cpp - Program ids, creation and shape ops --------===//
//
// kernels/indexing.tile and kernels/shape.tile: program_id/num_programs on a
// 3-D grid; zeros/full/zeros_like/arange/cdiv; trans, permute, reshape,
// expand_dims, broadcast_to and [:, None] on sizes that are not multiples of
// the tiles.
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <algorithm>
#include <cmath>

namespace {

using IndexingTest = gputest::GpuTest<>;
class ShapeTest : public gputest::GpuTest<> {
protected:
  /// Transposes an M x N matrix with `Module`'s k_trans (one [R, C] tile per
  /// program) and checks every element.
  void checkTranspose(const char *Module, std::size_t M, std::size_t N) {
    tile::Kernel K = kernel(Module, "k_trans");
    std::vector<float> X = examples::randomFloats(M * N, -1, 1, 61);
    auto DX = upload(X);
    auto DOut = poisoned<float>(M * N + 64);
    K.launch(tile::Grid{gputest::blocks(M, K.info().constexprInt("R")),
                        gputest::blocks(N, K.info().constexprInt("C"))},
             tile::Stream(), DX, DOut, static_cast<std::int32_t>(M),
             static_cast<std::int32_t>(N));
    Ctx->synchronize();
    std::vector<float> Out = result(DOut, M * N, Module);
    gputest::expectEqual(
        Out, [&](std::size_t I) { return X[(I % M) * N + I / M]; }, Module);
  }
};

TEST_F(IndexingTest, ProgramIdsOnA3DGrid) {
  tile::Kernel K = kernel("grid3d", "k_grid3d");
  const unsigned N0 = 5, N1 = 3, N2 = 7, Programs = N0 * N1 * N2;
  auto DIds = poisoned<std::int32_t>(Programs);
  auto DNums = poisoned<std::int32_t>(3 * Programs);
  K.launch(tile::Grid{N0, N1, N2}, tile::Stream(), DIds, DNums);
  Ctx->synchronize();
  std::vector<std::int32_t> Ids = DIds.toHost(), Nums = DNums.toHost();
  gputest::expectEqual(
      Ids,
      [&](std::size_t S) {
        return int(S % N0) + 1000 * int(S / N0 % N1) +
               1000000 * int(S / N0 / N1);
      },
      "program_id");
  const unsigned Dims[3] = {N0, N1, N2};
  gputest::expectEqual(
      Nums, [&](std::size_t I) { return Dims[I % 3]; }, "num_programs");
}

TEST_F(IndexingTest, CreationOps) {
  tile::Kernel K = kernel("creation", "k_creation");
  const std::size_t N = 1000; // BLOCK 128: 8 programs, the last partial.
  std::int64_t Block = K.info().constexprInt("BLOCK");
  auto DOut = poisoned<float>(N + 100);
  auto DInt = poisoned<std::int32_t>(N + 100);
  const float V = 1.75f;
  K.launch(tile::Grid{gputest::blocks(N, Block)}, tile::Stream(), DOut, DInt,
           static_cast<std::int32_t>(N), V);
  Ctx->synchronize();
  std::vector<float> Out = DOut.toHost();
  std::vector<std::int32_t> Int = DInt.toHost();
  gputest::expectPoisoned(Out, N, "zeros/full");
  gputest::expectPoisoned(Int, N, "arange/cdiv");
  Out.resize(N);
  Int.resize(N);
  gputest::expectEqual(
      Out, [&](std::size_t I) { return 2.5f * V + float(I % Block); },
      "zeros + full * full(v) + zeros_like + arange");
  const std::int32_t Programs =
      static_cast<std::int32_t>(gputest::blocks(N, Block));
  gputest::expectEqual(
      Int,
      [&](std::size_t I) {
        return static_cast<std::int32_t>((16 + I % Block) * 3) + Programs + 7;
      },
      "arange(16, 16 + BLOCK) * 3 + cdiv(n, BLOCK) + full(7)");
}

TEST_F(IndexingTest, Creation2D) {
  tile::Kernel K = kernel("zeros2d", "k_zeros2d");
  const std::size_t M = 45, N = 70;
  auto DOut = poisoned<std::int32_t>(M * N + 64);
  K.launch(tile::Grid{gputest::blocks(M, K.info().constexprInt("R")),
                      gputest::blocks(N, K.info().constexprInt("C"))},
           tile::Stream(), DOut, static_cast<std::int32_t>(M),
           static_cast<std::int32_t>(N));
  Ctx->synchronize();
  std::vector<std::int32_t> Out = result(DOut, M * N, "2-D zeros/full");
  gputest::expectEqual(
      Out, [](std::size_t I) { return std::int32_t(I); }, "r * N + c");
}

TEST_F(ShapeTest, Trans) { checkTranspose("trans", 37, 45); }

// A 128x128 fp32 transpose stages 64 KB through shared memory: more than a
// launch gets without the opt-in, which the runtime sets from the metadata.
TEST_F(ShapeTest, TransNeedingMoreThan48KBOfSharedMemory) {
  EXPECT_GT(kernel("trans_big", "k_trans").info().SharedBytes,
            std::size_t(48 * 1024));
  checkTranspose("trans_big", 300, 259);
}

TEST_F(ShapeTest, Permute) {
  tile::Kernel K = kernel("permute", "k_permute");
  const std::size_t P = 3, Q = 5, S = 13;
  std::vector<float> X = examples::randomFloats(P * Q * S, -1, 1, 62);
  auto DX = upload(X);
  auto DOut = poisoned<float>(P * Q * S + 64);
  K.launch(tile::Grid{1}, tile::Stream(), DX, DOut,
           static_cast<std::int32_t>(P), static_cast<std::int32_t>(Q),
           static_cast<std::int32_t>(S));
  Ctx->synchronize();
  std::vector<float> Out = result(DOut, P * Q * S, "permute");
  // out[s, p, q] = x[p, q, s].
  gputest::expectEqual(
      Out,
      [&](std::size_t I) {
        std::size_t Sx = I / (P * Q), Px = I / Q % P, Qx = I % Q;
        return X[(Px * Q + Qx) * S + Sx];
      },
      "permute (2, 0, 1)");
}

TEST_F(ShapeTest, Reshape) {
  tile::Kernel K = kernel("reshape", "k_reshape");
  const std::size_t N = 1000; // Tiles of 256: the last is partial.
  std::int64_t C = K.info().constexprInt("C");
  std::int64_t Tile = K.info().constexprInt("R") * C;
  std::vector<float> X = examples::randomFloats(N, -1, 1, 63);
  auto DX = upload(X);
  auto DOut = poisoned<float>(2 * N + 64);
  K.launch(tile::Grid{gputest::blocks(N, Tile)}, tile::Stream(), DX, DOut,
           static_cast<std::int32_t>(N));
  Ctx->synchronize();
  std::vector<float> Out = result(DOut, 2 * N, "reshape");
  auto Ref = [&](std::size_t I) {
    std::size_t J = I % N;
    return X[J] + 1000.0f * float(J % Tile / C) + (I >= N ? 0.5f : 0.0f);
  };
  gputest::expectEqual(Out, Ref, "reshape to 2-D and back");
}

TEST_F(ShapeTest, ExpandDimsAndBroadcast) {
  tile::Kernel K = kernel("broadcast", "k_broadcast");
  const std::size_t M = 70, N = 100;
  std::vector<float> A = examples::randomFloats(N, -1, 1, 64);
  std::vector<float> B = examples::randomFloats(M, -1, 1, 65);
  auto DA = upload(A), DB = upload(B);
  auto DOut = poisoned<float>(M * N + 64);
  K.launch(tile::Grid{gputest::blocks(M, K.info().constexprInt("R")),
                      gputest::blocks(N, K.info().constexprInt("C"))},
           tile::Stream(), DA, DB, DOut, static_cast<std::int32_t>(M),
           static_cast<std::int32_t>(N));
  Ctx->synchronize();
  std::vector<float> Out = result(DOut, M * N, "broadcast");
  gputest::expectNear(
      Out,
      [&](std::size_t I) {
        double a = A[I % N], b = B[I / N];
        return 10 * a + b + 100 * (b * a);
      },
      1e-5, 1e-6, "10 a[c] + b[r] + 100 b[r] a[c]");
}

TEST_F(ShapeTest, SortFlipTopkHistogramGather) {
  tile::Kernel K = kernel("sort", "k_sort");
  const std::size_t M = 4, N = 32, Top = 8, Bins = 16;
  std::vector<float> X = examples::randomFloats(M * N, -10, 10, 93);
  X[5] = -0.0f;
  X[6] = 0.0f;
  X[40] = X[41]; // a tie
  std::vector<std::int32_t> Idx(M * N);
  for (std::size_t I = 0; I < M * N; ++I)
    Idx[I] = static_cast<std::int32_t>((I * 37 + 11) % 36) - 2; // -2 .. 33
  auto DX = upload(X);
  auto DIdx = upload(Idx);
  auto Asc = poisoned<float>(M * N), Desc = poisoned<float>(M * N);
  auto Flip = poisoned<float>(M * N), TopK = poisoned<float>(M * Top);
  auto ISort = poisoned<std::int32_t>(M * N);
  auto Hist = poisoned<std::int32_t>(Bins);
  auto Gather = poisoned<float>(M * N);
  K.launch(tile::Grid{1}, tile::Stream(), DX, DIdx, Asc, Desc, Flip, TopK, ISort, Hist,
           Gather);
  Ctx->synchronize();
  std::vector<float> A = result(Asc, M * N, "sort"), D = result(Desc, M * N, "sort desc");
  std::vector<float> F = result(Flip, M * N, "flip"), T = result(TopK, M * Top, "topk");
  std::vector<std::int32_t> IS = result(ISort, M * N, "int sort");
  std::vector<std::int32_t> H = result(Hist, Bins, "histogram");
  std::vector<float> G = result(Gather, M * N, "gather");
  for (std::size_t Row = 0; Row < M; ++Row) {
    auto First = X.begin() + Row * N;
    std::vector<float> Sorted(First, First + N);
    std::sort(Sorted.begin(), Sorted.end());
    std::vector<std::int32_t> IntSorted(Idx.begin() + Row * N, Idx.begin() + Row * N + N);
    std::sort(IntSorted.rbegin(), IntSorted.rend());
    for (std::size_t Col = 0; Col < N; ++Col) {
      std::size_t I = Row * N + Col;
      // -0.0 and 0.0 compare equal: either order is sorted.
      EXPECT_EQ(A[I], Sorted[Col]) << "sort row " << Row << " col " << Col;
      EXPECT_EQ(D[I], Sorted[N - 1 - Col]) << "sort descending row " << Row;
      EXPECT_EQ(IS[I], IntSorted[Col]) << "int sort descending row " << Row;
      // flip moves bits: the sign of a zero survives.
      EXPECT_EQ(std::signbit(F[I]), std::signbit(X[Row * N + N - 1 - Col]))
          << "flip row " << Row << " col " << Col;
      EXPECT_EQ(F[I], X[Row * N + N - 1 - Col]) << "flip row " << Row << " col " << Col;
      std::int32_t At = Idx[I];
      float Want = At >= 0 && At < static_cast<std::int32_t>(N) ? X[Row * N + At] : 0.0f;
      EXPECT_EQ(G[I], Want) << "gather row " << Row << " col " << Col << " index " << At;
    }
    for (std::size_t J = 0; J < Top; ++J)
      EXPECT_EQ(T[Row * Top + J], Sorted[N - 1 - J]) << "topk row " << Row;
  }
  for (std::size_t Bin = 0; Bin < Bins; ++Bin) {
    std::int32_t Count = 0;
    for (std::int32_t V : Idx)
      Count += V >= 2 && V == static_cast<std::int32_t>(Bin);
    EXPECT_EQ(H[Bin], Count) << "histogram bin " << Bin;
  }
}

TEST_F(ShapeTest, HistogramsOfAnySize) {
  tile::Kernel K = kernel("histogram_wide", "k_histogram_wide");
  const std::size_t N = 4096, Small = 64;
  std::vector<std::uint8_t> X(N);
  std::vector<std::int32_t> Y(N);
  for (std::size_t I = 0; I < N; ++I) {
    X[I] = static_cast<std::uint8_t>((I * 97 + 13) % 256);
    Y[I] = static_cast<std::int32_t>((I * 131 + 7) % 620) - 40; // -40 .. 579
  }
  auto DX = upload(X);
  auto DY = upload(Y);
  auto Hist = poisoned<std::int32_t>(800);
  K.launch(tile::Grid{1}, tile::Stream(), DX, DY, Hist);
  Ctx->synchronize();
  std::vector<std::int32_t> H = result(Hist, 800, "histograms");
  std::vector<std::int32_t> Want(800, 0);
  for (std::size_t I = 0; I < N; ++I) {
    ++Want[X[I]];
    if (I % 2 == 0 && Y[I] >= 0 && Y[I] < 512)
      ++Want[256 + Y[I]];
    if (I < Small && Y[I] >= 0 && Y[I] < 32)
      ++Want[768 + Y[I]];
  }
  for (std::size_t Bin = 0; Bin < 800; ++Bin)
    EXPECT_EQ(H[Bin], Want[Bin]) << "histogram entry " << Bin;
}

TEST_F(ShapeTest, JoinSplitInterleaveCatSwizzle) {
  tile::Kernel K = kernel("join", "k_join");
  const std::size_t N = 64;
  std::vector<float> X = examples::randomFloats(N, -10, 10, 91);
  std::vector<float> Y = examples::randomFloats(N, -10, 10, 92);
  Y[3] = -0.0f; // join selects, so the sign of a zero survives.
  auto DX = upload(X), DY = upload(Y);
  auto Joined = poisoned<float>(2 * N + 8), Diff = poisoned<float>(N + 8);
  auto Inter = poisoned<float>(2 * N + 8), Cat = poisoned<float>(2 * N + 8);
  auto Swz = poisoned<std::int32_t>(60 + 8);
  K.launch(tile::Grid{1}, tile::Stream(), DX, DY, Joined, Diff, Inter, Cat, Swz);
  Ctx->synchronize();
  std::vector<float> J = result(Joined, 2 * N, "join");
  gputest::expectEqual(
      J, [&](std::size_t I) { return I % 2 ? Y[I / 2] : X[I / 2]; }, "join");
  std::vector<float> D = result(Diff, N, "split");
  gputest::expectEqual(
      D, [&](std::size_t I) { return X[I] - 2.0f * Y[I]; }, "split");
  std::vector<float> In = result(Inter, 2 * N, "interleave");
  gputest::expectEqual(
      In, [&](std::size_t I) { return I % 2 ? Y[I / 2] : X[I / 2]; }, "interleave");
  // cat may reorder: the same multiset of values.
  std::vector<float> C = result(Cat, 2 * N, "cat");
  std::vector<float> Expected(X);
  Expected.insert(Expected.end(), Y.begin(), Y.end());
  std::sort(C.begin(), C.end());
  std::sort(Expected.begin(), Expected.end());
  EXPECT_EQ(C, Expected) << "cat";
  // swizzle2d of a 6 x 5 grid in groups of 4 rows: the k-th cell in row-major
  // order becomes the k-th cell of a walk that takes each group of rows
  // column by column.
  std::vector<std::pair<int, int>> Walk;
  for (int First = 0; First < 6; First += 4)
    for (int Col = 0; Col < 5; ++Col)
      for (int Row = First; Row < std::min(First + 4, 6); ++Row)
        Walk.push_back({Row, Col});
  std::vector<std::int32_t> S = result(Swz, 60, "swizzle2d");
  for (int Cell = 0; Cell < 30; ++Cell) {
    EXPECT_EQ(S[2 * Cell], Walk[Cell].first) << "swizzle2d row of cell " << Cell;
    EXPECT_EQ(S[2 * Cell + 1], Walk[Cell].second) << "swizzle2d column of cell " << Cell;
  }
  EXPECT_TRUE(std::signbit(J[7])) << "join keeps -0.0";
}

} // namespace
