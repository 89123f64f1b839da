//===- AtomicTest.cpp - atomic_add/max/min/xchg/cas on the GPU ------------===//
//
// kernels/atomics.tile: a histogram (masked atomic_add on a pointer tile),
// fp32 atomic sums, i32 and fp32 max/min, exchange and compare-and-swap on
// pointer tiles with masks, and scalar atomics once per program (counters,
// tickets, a CAS increment loop).
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <algorithm>
#include <numeric>

namespace {

using AtomicTest = gputest::GpuTest<>;
using I32 = std::int32_t;

TEST_F(AtomicTest, Histogram) {
  tile::Kernel K = kernel("atomic_histogram", "k_histogram");
  const std::size_t N = 100003, Bins = 37;
  std::vector<I32> V = gputest::randomInts<I32>(N, 0, Bins - 1, 111);
  auto DV = upload(V);
  tile::DeviceBuffer<I32> DHist(*Ctx, Bins + 8);
  DHist.fillBytes(0);
  launch1D(K, N, DV, DHist, I32(N));
  std::vector<I32> Ref(Bins + 8, 0);
  for (I32 X : V)
    ++Ref[X];
  gputest::expectEqual(
      DHist.toHost(), [&](std::size_t I) { return Ref[I]; }, "histogram");
}

TEST_F(AtomicTest, FloatAdd) {
  tile::Kernel K = kernel("atomic_float_add", "k_float_add");
  const std::size_t N = 50001;
  std::size_t Bins = K.info().constexprInt("BINS");
  std::vector<float> X = examples::randomFloats(N, -1, 1, 112);
  auto DX = upload(X);
  tile::DeviceBuffer<float> DSums(*Ctx, Bins);
  DSums.fillBytes(0);
  launch1D(K, N, DX, DSums, I32(N));
  std::vector<double> Ref(Bins), Abs(Bins);
  for (std::size_t I = 0; I < N; ++I) {
    Ref[I % Bins] += X[I];
    Abs[I % Bins] += std::fabs(X[I]);
  }
  // Atomics add in any order: each of the ~3000 fp32 additions rounds.
  gputest::expectClose(
      DSums.toHost(), [&](std::size_t I) { return Ref[I]; },
      [&](std::size_t I, double) { return 1e-5 * Abs[I]; }, "fp32 atomic_add");
}

TEST_F(AtomicTest, MaxAndMin) {
  tile::Kernel K = kernel("atomic_minmax", "k_minmax");
  const std::size_t N = 20011;
  std::size_t Bins = K.info().constexprInt("BINS");
  std::vector<I32> V = gputest::randomInts<I32>(N, -1000000, 1000000, 113);
  auto DV = upload(V);
  std::vector<I32> Lowest(Bins, INT32_MIN), Highest(Bins, INT32_MAX);
  std::vector<float> FLowest(Bins, -INFINITY), FHighest(Bins, INFINITY);
  auto DMax = upload(Lowest), DMin = upload(Highest);
  auto DFMax = upload(FLowest), DFMin = upload(FHighest);
  launch1D(K, N, DV, DMax, DMin, DFMax, DFMin, I32(N));
  std::vector<I32> RefMax(Bins, INT32_MIN), RefMin(Bins, INT32_MAX);
  for (std::size_t I = 0; I < N; ++I) {
    RefMax[I % Bins] = std::max(RefMax[I % Bins], V[I]);
    RefMin[I % Bins] = std::min(RefMin[I % Bins], V[I]);
  }
  gputest::expectEqual(
      DMax.toHost(), [&](std::size_t I) { return RefMax[I]; },
      "i32 atomic_max");
  gputest::expectEqual(
      DMin.toHost(), [&](std::size_t I) { return RefMin[I]; },
      "i32 atomic_min");
  gputest::expectEqual(
      DFMax.toHost(), [&](std::size_t I) { return RefMax[I] * 0.25f; },
      "fp32 atomic_max");
  gputest::expectEqual(
      DFMin.toHost(), [&](std::size_t I) { return RefMin[I] * 0.25f; },
      "fp32 atomic_min");
}

TEST_F(AtomicTest, Exchange) {
  tile::Kernel K = kernel("atomic_xchg", "k_xchg");
  const std::size_t N = 3001;
  std::vector<I32> Slots = gputest::randomInts<I32>(N + 64, -100, 100, 114);
  auto DSlots = upload(Slots);
  auto DOld = poisoned<I32>(N + 64);
  launch1D(K, N, DSlots, DOld, I32(N));
  std::vector<I32> NewSlots = DSlots.toHost(), Old = DOld.toHost();
  gputest::expectPoisoned(Old, N, "xchg old values");
  Old.resize(N);
  gputest::expectEqual(
      NewSlots,
      [&](std::size_t I) { return I < N ? I32(I * 7 + 1) : Slots[I]; },
      "slots after xchg (masked past n)");
  gputest::expectEqual(
      Old, [&](std::size_t I) { return Slots[I]; },
      "xchg returns the old values");
}

TEST_F(AtomicTest, CompareAndSwap) {
  tile::Kernel K = kernel("atomic_cas", "k_cas");
  const std::size_t N = 3001;
  // atomic_cas has no mask: the last program touches slots up to its block end.
  std::vector<I32> Slots = gputest::randomInts<I32>(N + 256, 0, 3, 115);
  std::vector<I32> Cmp = gputest::randomInts<I32>(N, 0, 3, 116);
  auto DSlots = upload(Slots), DCmp = upload(Cmp);
  auto DOld = poisoned<I32>(N + 64);
  launch1D(K, N, DSlots, DCmp, DOld, I32(N));
  std::vector<I32> NewSlots = DSlots.toHost(), Old = DOld.toHost();
  gputest::expectPoisoned(Old, N, "cas old values");
  Old.resize(N);
  gputest::expectEqual(
      NewSlots,
      [&](std::size_t I) {
        return I < N && Slots[I] == Cmp[I] ? I32(-5) : Slots[I];
      },
      "slots after cas");
  gputest::expectEqual(
      Old, [&](std::size_t I) { return Slots[I]; },
      "cas returns the old values");
}

TEST_F(AtomicTest, ScalarCountersOncePerProgram) {
  tile::Kernel K = kernel("atomic_counters", "k_counters");
  const unsigned Programs = 1000;
  auto DCounter = upload(std::vector<I32>{0, -1, 1 << 30, 0});
  auto DTickets = poisoned<I32>(Programs);
  auto DCas = upload(std::vector<I32>{0});
  auto DXchg = poisoned<I32>(Programs);
  K.launch(tile::Grid{Programs}, tile::Stream(), DCounter, DTickets, DCas,
           DXchg);
  Ctx->synchronize();
  std::vector<I32> Counter = DCounter.toHost();
  EXPECT_EQ(Counter[0], I32(Programs)) << "atomic_add once per program";
  EXPECT_EQ(Counter[1], I32(Programs - 1)) << "scalar atomic_max";
  EXPECT_EQ(Counter[2], 0) << "scalar atomic_min";
  EXPECT_EQ(Counter[3], I32(Programs / 2)) << "masked scalar atomic_add";
  EXPECT_EQ(DCas.toHost()[0], I32(Programs)) << "CAS increment loop";
  std::vector<I32> Tickets = DTickets.toHost();
  std::sort(Tickets.begin(), Tickets.end());
  std::vector<I32> All(Programs);
  std::iota(All.begin(), All.end(), 0);
  EXPECT_EQ(Tickets, All) << "tickets: each old counter value exactly once";
  gputest::expectEqual(
      DXchg.toHost(), [](std::size_t I) { return I32(I + 100); },
      "scalar atomic_xchg");
}

TEST_F(AtomicTest, AcquireReleaseLockAndRelaxedCounters) {
  tile::Kernel K = kernel("atomic_lock", "k_lock");
  const unsigned Programs = 300;
  const std::size_t Block = K.info().constexprInt("BLOCK");
  auto DLock = upload(std::vector<I32>{0});
  auto DData = upload(std::vector<float>(Block, 0.0f));
  auto DCounts = upload(std::vector<I32>{0, 0, 0});
  K.launch(tile::Grid{Programs}, tile::Stream(), DLock, DData, DCounts);
  Ctx->synchronize();
  EXPECT_EQ(DLock.toHost()[0], 0) << "the lock is released";
  // Every value is an integer below 2^24: the sums are exact in any order.
  gputest::expectEqual(
      DData.toHost(),
      [&](std::size_t I) {
        double Sum = 0;
        for (unsigned P = 0; P < Programs; ++P)
          Sum += double(P * Block + I);
        return float(Sum);
      },
      "the rows of every program added under the lock");
  std::vector<I32> Counts = DCounts.toHost();
  EXPECT_EQ(Counts[0], I32(Programs)) << "relaxed gpu-scope add";
  EXPECT_EQ(Counts[1], I32(Programs * Block / 2)) << "relaxed cta-scope add, even lanes";
  EXPECT_EQ(Counts[2], I32(Programs * Block / 2)) << "relaxed cta-scope add, odd lanes";
}

// Rows of fp32 adds (vector atomics on sm_90): first onto distinct rows,
// whose old values are the rows' starting values, then onto repeated rows,
// with integer-valued floats so that the sums are exact in any order.
TEST_F(AtomicTest, ScatterAddOfRows) {
  tile::Kernel K = kernel("atomic_scatter_rows", "k_scatter_add_rows");
  const std::size_t Vocab = 37, D = 144; // Two column blocks, the second ragged.
  auto run = [&](const std::vector<I32> &Ids, const std::vector<float> &Start,
                 const std::string &What) {
    std::size_t Rows = Ids.size();
    std::vector<float> Src(Rows * D);
    for (std::size_t I = 0; I < Src.size(); ++I)
      Src[I] = float(int(I % 7) - 3);
    auto DIds = upload(Ids);
    auto DSrc = upload(Src);
    auto DDst = upload(Start);
    auto DOld = poisoned<float>(Rows * D + 256);
    K.launch(tile::Grid{gputest::blocks(Rows, 16), gputest::blocks(D, 128)}, tile::Stream(),
             DIds, DSrc, DDst, DOld, I32(Rows), I32(D));
    Ctx->synchronize();
    std::vector<float> Ref = Start;
    for (std::size_t T = 0; T < Rows; ++T)
      for (std::size_t J = 0; J < D; ++J)
        Ref[Ids[T] * D + J] += Src[T * D + J];
    gputest::expectEqual(
        DDst.toHost(), [&](std::size_t I) { return Ref[I]; }, What + " sums");
    return result(DOld, Rows * D, What + " old values");
  };
  std::vector<float> Start(Vocab * D);
  for (std::size_t I = 0; I < Start.size(); ++I)
    Start[I] = float(I % 11);
  std::vector<I32> Distinct(Vocab);
  for (std::size_t T = 0; T < Vocab; ++T)
    Distinct[T] = I32((T * 5) % Vocab);
  std::vector<float> Old = run(Distinct, Start, "distinct rows");
  gputest::expectEqual(
      Old, [&](std::size_t I) { return Start[Distinct[I / D] * D + I % D]; },
      "old values of distinct rows");
  run(gputest::randomInts<I32>(300, 0, Vocab - 1, 113), Start, "repeated rows");
}

TEST_F(AtomicTest, OldValuesOfASmallTileReachEveryThread) {
  tile::Kernel K = kernel("atomic_small_tile_old", "k_small_tile_old");
  const std::size_t Programs = 7, Block = K.info().constexprInt("BLOCK");
  std::vector<I32> Slots =
      gputest::randomInts<I32>(Programs * Block, -1000, 1000, 171);
  auto DSlots = upload(Slots);
  auto DSums = poisoned<I32>(Programs);
  K.launch(tile::Grid{unsigned(Programs)}, tile::Stream(), DSlots, DSums);
  Ctx->synchronize();
  gputest::expectEqual(
      DSums.toHost(),
      [&](std::size_t P) {
        return std::accumulate(Slots.begin() + P * Block,
                               Slots.begin() + (P + 1) * Block, I32(0));
      },
      "sum of the old values of a 16-element atomic_add");
  gputest::expectEqual(
      DSlots.toHost(), [&](std::size_t I) { return Slots[I] + 1; },
      "each slot incremented once");
}

} // namespace
