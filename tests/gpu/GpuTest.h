//===- GpuTest.h - Fixture and helpers of the GPU tests ----------*- C++
//-*-===//
//
// A GoogleTest fixture that skips without a GPU and loads the example PTX and
// the test kernels (tests/gpu/kernels, built into the build tree), plus the
// helpers the tests share: random inputs, poisoned outputs, comparisons.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TESTS_GPU_GPUTEST_H
#define TILEC_TESTS_GPU_GPUTEST_H

#include "ExampleSupport.h"
#include "tile/Runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>

#ifndef TILEC_GPU_KERNELS_DIR
#define TILEC_GPU_KERNELS_DIR ""
#endif

namespace gputest {

/// Describes a comparison: counts, errors and the first bad element.
template <class T, class RefFn>
std::string describe(const examples::Comparison &C, const std::vector<T> &Out,
                     RefFn Ref) {
  std::ostringstream S;
  S << C.Failures << " of " << Out.size() << " elements wrong (" << C.NaNs
    << " NaN), max abs error " << C.MaxAbsError << ", max rel error "
    << C.MaxRelError;
  if (!C.passed())
    S << "; first at " << C.FirstFailure << ": got " << +Out[C.FirstFailure]
      << ", expected " << Ref(C.FirstFailure);
  return S.str();
}

/// Expects |Out[i] - Ref(i)| <= Tol(i, Ref(i)) for every i (no NaN).
template <class RefFn, class TolFn>
void expectClose(const std::vector<float> &Out, RefFn Ref, TolFn Tol,
                 const std::string &What) {
  examples::Comparison C = examples::compareWith(Out, Ref, Tol);
  EXPECT_TRUE(C.passed()) << What << ": " << describe(C, Out, Ref);
}

/// Expects |Out[i] - Ref(i)| <= Atol + Rtol * |Ref(i)| for every i.
template <class RefFn>
void expectNear(const std::vector<float> &Out, RefFn Ref, double Atol,
                double Rtol, const std::string &What) {
  expectClose(
      Out, Ref,
      [&](std::size_t, double R) { return Atol + Rtol * std::fabs(R); }, What);
}

/// Expects Out[i] == Ref(i) for every i, reporting the first mismatch.
template <class T, class RefFn>
void expectEqual(const std::vector<T> &Out, RefFn Ref,
                 const std::string &What) {
  std::size_t Wrong = 0, First = 0;
  for (std::size_t I = 0; I < Out.size(); ++I)
    if (!(Out[I] == static_cast<T>(Ref(I))) && Wrong++ == 0)
      First = I;
  EXPECT_EQ(Wrong, 0u) << What << ": " << Wrong << " of " << Out.size()
                       << " wrong; first at " << First << ": got "
                       << +Out[First] << ", expected "
                       << +static_cast<T>(Ref(First));
}

/// Expects every byte of Values[From..] to be 0xFF (the poison): nothing was
/// written there.
template <class T>
void expectPoisoned(const std::vector<T> &Values, std::size_t From,
                    const std::string &What) {
  const auto *Bytes = reinterpret_cast<const unsigned char *>(Values.data());
  for (std::size_t I = From * sizeof(T); I < Values.size() * sizeof(T); ++I)
    if (Bytes[I] != 0xFF) {
      ADD_FAILURE() << What << ": written past the end, at element "
                    << I / sizeof(T);
      return;
    }
}

/// N integers uniform in [Lo, Hi], reproducible from Seed.
template <class T>
std::vector<T> randomInts(std::size_t N, long long Lo, long long Hi,
                          std::uint64_t Seed) {
  std::mt19937_64 Gen(Seed);
  std::uniform_int_distribution<long long> Dist(Lo, Hi);
  std::vector<T> Out(N);
  for (T &V : Out)
    V = static_cast<T>(Dist(Gen));
  return Out;
}

/// The message of the tile::Error that \p Fn throws, or "(no error)".
template <class F> std::string errorOf(F Fn) {
  try {
    Fn();
  } catch (const tile::Error &E) {
    return E.what();
  }
  return "(no error)";
}

/// Programs of Block elements that cover N.
inline unsigned blocks(std::size_t N, std::int64_t Block) {
  return static_cast<unsigned>(
      tile::cdiv<std::int64_t>(static_cast<std::int64_t>(N), Block));
}

/// Converts a vector of fp16/bf16 values to float.
template <class H> std::vector<float> toFloats(const std::vector<H> &Values) {
  std::vector<float> Out(Values.size());
  for (std::size_t I = 0; I < Values.size(); ++I)
    Out[I] = Values[I].toFloat();
  return Out;
}

/// Holds a context on device 0; skips the test when there is no GPU.
template <class Base = ::testing::Test> class GpuTest : public Base {
protected:
  void SetUp() override {
    if (!tile::backendAvailable())
      GTEST_SKIP() << "no GPU (" << tile::backendUnavailableReason() << ")";
    Ctx = std::make_unique<tile::Context>(0);
  }

  /// True when the kernels run on the interpreter (TILE_BACKEND=interpreter):
  /// tests of what only a GPU has (registers, the driver's PTX JIT) skip.
  bool onInterpreter() const {
    return Ctx->backend() == tile::Backend::Interpreter;
  }

  /// Loads the example module FileName ("vector_add.ptx").
  tile::Module loadExample(const std::string &FileName) {
    return tile::Module::loadFile(*Ctx, examples::findExamplePtx(FileName));
  }

  /// Loads kernel Name of the test module Module ("unary_exp", a line of
  /// tests/gpu/kernels/KERNELS), from the build tree or, for a build tree
  /// copied elsewhere, from ../tests/gpu/kernels beside the executable.
  tile::Kernel kernel(const std::string &Module, const std::string &Name) {
    std::string Dir = tile::executableDir();
    std::string Path;
    try {
      Path = tile::findFile(Module + ".ptx",
                            {TILEC_GPU_KERNELS_DIR,
                             Dir.empty() ? "" : Dir + "/../tests/gpu/kernels"});
    } catch (const tile::Error &E) {
      throw tile::Error(std::string(E.what()) +
                        " (is it listed in tests/gpu/kernels/PENDING, i.e. "
                        "not compiled yet?)");
    }
    return tile::Module::loadFile(*Ctx, Path).kernel(Name);
  }

  /// Launches K on the null stream over N elements, in programs of its
  /// constexpr BLOCK, and waits for it.
  template <class... Args>
  void launch1D(const tile::Kernel &K, std::size_t N, const Args &...A) {
    K.launch(tile::Grid{blocks(N, K.info().constexprInt("BLOCK"))},
             tile::Stream(), A...);
    Ctx->synchronize();
  }

  /// The first N values of B, after checking that the rest still holds the
  /// poison.
  template <class T>
  std::vector<T> result(const tile::DeviceBuffer<T> &B, std::size_t N,
                        const std::string &What) {
    std::vector<T> Values = B.toHost();
    expectPoisoned(Values, N, What);
    Values.resize(N);
    return Values;
  }

  /// Runs K(x, out, n, Extra...) over N elements with x = X and out
  /// poisoned (with a guard past N); returns out's first N values.
  template <class... Extra>
  std::vector<float> runOnFloats(const tile::Kernel &K,
                                 const std::vector<float> &X, std::size_t N,
                                 const std::string &What, const Extra &...E) {
    auto DX = upload(X);
    auto DOut = poisoned<float>(N + 256);
    launch1D(K, N, DX, DOut, static_cast<std::int32_t>(N), E...);
    return result(DOut, N, What);
  }

  /// A device copy of Values.
  template <class T>
  tile::DeviceBuffer<T> upload(const std::vector<T> &Values) {
    tile::DeviceBuffer<T> B(*Ctx, Values.size());
    B.copyFromHost(Values);
    return B;
  }

  /// N elements with every byte 0xFF (NaN for floats, -1 for ints).
  template <class T> tile::DeviceBuffer<T> poisoned(std::size_t N) {
    tile::DeviceBuffer<T> B(*Ctx, N);
    B.fillBytes(0xFF);
    return B;
  }

public:
  /// The context, for helpers outside the test body.
  tile::Context *context() { return Ctx.get(); }

protected:
  std::unique_ptr<tile::Context> Ctx;
};

} // namespace gputest

#endif // TILEC_TESTS_GPU_GPUTEST_H
