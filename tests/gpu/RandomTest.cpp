//===- RandomTest.cpp - tl.randint, rand, randn, randint4x on the GPU -----===//
//
// kernels/random.tile against a CPU Philox written from the algorithm
// (Philox 4x32-10 keyed by the seed; a 64-bit offset fills two counter
// words; philox on 64-bit counters is Philox 4x64-10): integers and uniform
// floats bit for bit, normals within float rounding of Box-Muller computed
// in double from the same uniforms. bench/triton_random_check.py holds
// Triton's numbers to the same reference.
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <array>
#include <cmath>

namespace {

constexpr std::size_t N = 5000; // Not a multiple of BLOCK (256).

/// The constants of Philox on 32- and 64-bit words.
template <class Word> struct PhiloxConstants;
template <> struct PhiloxConstants<std::uint32_t> {
  using Wide = std::uint64_t;
  static constexpr std::uint32_t MulA = 0xD2511F53u, MulB = 0xCD9E8D57u;
  static constexpr std::uint32_t KeyA = 0x9E3779B9u, KeyB = 0xBB67AE85u;
};
template <> struct PhiloxConstants<std::uint64_t> {
  using Wide = unsigned __int128;
  static constexpr std::uint64_t MulA = 0xD2E7470EE14C6C93ull, MulB = 0xCA5A826395121157ull;
  static constexpr std::uint64_t KeyA = 0x9E3779B97F4A7C15ull, KeyB = 0xBB67AE8584CAA73Bull;
};

/// Philox with 10 rounds: counter (C0, C1, 0, 0) and key (K0, K1).
template <class Word>
std::array<Word, 4> philox(Word K0, Word K1, Word C0, Word C1 = 0) {
  using P = PhiloxConstants<Word>;
  constexpr int Bits = 8 * sizeof(Word);
  Word C[4] = {C0, C1, 0, 0};
  for (int Round = 0; Round < 10; ++Round) {
    typename P::Wide P0 = static_cast<typename P::Wide>(P::MulA) * C[0];
    typename P::Wide P2 = static_cast<typename P::Wide>(P::MulB) * C[2];
    Word N0 = static_cast<Word>(P2 >> Bits) ^ C[1] ^ K0;
    Word N2 = static_cast<Word>(P0 >> Bits) ^ C[3] ^ K1;
    C[1] = static_cast<Word>(P2);
    C[3] = static_cast<Word>(P0);
    C[0] = N0;
    C[2] = N2;
    K0 += P::KeyA;
    K1 += P::KeyB;
  }
  return {C[0], C[1], C[2], C[3]};
}

/// 32-bit words: the key is the seed's two halves, the counter the
/// offset's.
std::array<std::uint32_t, 4> philox32(std::uint64_t Seed, std::uint64_t Offset) {
  return philox<std::uint32_t>(static_cast<std::uint32_t>(Seed),
                               static_cast<std::uint32_t>(Seed >> 32),
                               static_cast<std::uint32_t>(Offset),
                               static_cast<std::uint32_t>(Offset >> 32));
}

/// 64-bit counters: the key is (seed, 0).
std::array<std::uint64_t, 4> philox64(std::uint64_t Seed, std::uint64_t C0) {
  return philox<std::uint64_t>(Seed, 0, C0);
}

/// The uniform float of 32 random bits: the bits as i32, folded onto
/// [0, 2^31), times the largest float scale that keeps the result below 1.
float uniform(std::uint32_t Bits) {
  std::int32_t X = static_cast<std::int32_t>(Bits);
  X = X < 0 ? -(X + 1) : X;
  return static_cast<float>(X) * 4.6566127342e-10f;
}

using RandomTest = gputest::GpuTest<>;

TEST_F(RandomTest, MatchesPhilox) {
  tile::Kernel K = kernel("random", "k_random");
  for (std::int64_t Seed : {std::int64_t(0), std::int64_t(42), std::int64_t(0x123456789ABLL)}) {
    auto Ints = poisoned<std::uint32_t>(N + 64);
    auto Uniform = poisoned<float>(N + 64);
    auto Normal = poisoned<float>(N + 64);
    auto Split = poisoned<std::uint32_t>(N + 64);
    auto Wide = poisoned<std::uint64_t>(N + 64);
    launch1D(K, N, Seed, Ints, Uniform, Normal, Split, Wide, static_cast<std::int32_t>(N));
    std::string What = "seed " + std::to_string(Seed);
    std::vector<std::uint32_t> I = result(Ints, N, What + " randint");
    std::vector<float> U = result(Uniform, N, What + " rand");
    std::vector<float> G = result(Normal, N, What + " randn");
    std::vector<std::uint32_t> S = result(Split, N, What + " randint4x");
    std::vector<std::uint64_t> W = result(Wide, N, What + " philox");
    gputest::expectEqual(
        I, [&](std::size_t J) { return philox32(Seed, J)[0]; }, What + " randint");
    gputest::expectEqual(
        U, [&](std::size_t J) { return uniform(philox32(Seed, J)[0]); }, What + " rand");
    gputest::expectNear(
        G,
        [&](std::size_t J) {
          auto R = philox32(Seed, J);
          double U1 = std::max(1.0e-7f, uniform(R[0]));
          double Angle = static_cast<float>(6.283185307179586) * static_cast<double>(uniform(R[1]));
          return std::sqrt(-2.0 * std::log(U1)) * std::cos(Angle);
        },
        2e-5, 2e-5, What + " randn");
    gputest::expectEqual(
        S,
        [&](std::size_t J) {
          auto R = philox32(Seed, J + 6000000000ull);
          return R[0] ^ R[3];
        },
        What + " randint4x (64-bit offsets)");
    gputest::expectEqual(
        W,
        [&](std::size_t J) {
          auto R = philox64(Seed, J + 6000000000ull);
          return R[0] ^ R[3];
        },
        What + " philox (64-bit counters)");
    // Uniform floats lie in [0, 1).
    for (float V : U)
      ASSERT_TRUE(V >= 0.0f && V < 1.0f) << V;
  }
}

} // namespace
