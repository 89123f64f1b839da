//===- ExampleSupport.h - Shared helpers for example host code ---*- C++
//-*-===//
//
// Used by the host programs in dsl_examples/ and by tests/gpu: finding the
// example PTX, random inputs, CPU references, and comparing results.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DSL_EXAMPLES_EXAMPLESUPPORT_H
#define TILEC_DSL_EXAMPLES_EXAMPLESUPPORT_H

#include "tile/Paths.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#ifndef TILEC_EXAMPLES_PTX_DIR
#error "TILEC_EXAMPLES_PTX_DIR must name the build's dsl_examples directory"
#endif

namespace examples {

/// Exit code of a host program that had no GPU to run on (CTest: skipped).
constexpr int SkipExitCode = 77;

/// Finds FileName ("vector_add.ptx"): in the build's dsl_examples directory,
/// else in ../dsl_examples and . relative to the executable (for a build
/// tree copied to another machine). Throws tile::Error listing the paths.
inline std::string findExamplePtx(const std::string &FileName) {
  std::string ExeDir = tile::executableDir();
  return tile::findFile(
      FileName, {TILEC_EXAMPLES_PTX_DIR,
                 ExeDir.empty() ? "" : ExeDir + "/../dsl_examples", ExeDir});
}

/// Runs Body(Begin, End) over [0, N) in chunks on all hardware threads.
template <class F> void parallelFor(std::size_t N, F Body) {
  std::size_t Threads = std::max(1u, std::thread::hardware_concurrency());
  std::size_t Chunk =
      std::max<std::size_t>(1 << 16, (N + Threads - 1) / Threads);
  std::vector<std::thread> Pool;
  for (std::size_t Begin = Chunk; Begin < N; Begin += Chunk)
    Pool.emplace_back(Body, Begin, std::min(N, Begin + Chunk));
  Body(std::size_t(0), std::min(N, Chunk));
  for (std::thread &T : Pool)
    T.join();
}

/// N floats uniform in [Lo, Hi), reproducible from Seed (independent of the
/// number of threads).
inline std::vector<float> randomFloats(std::size_t N, float Lo, float Hi,
                                       std::uint64_t Seed) {
  constexpr std::size_t Block = 1 << 16;
  std::vector<float> Out(N);
  std::size_t Blocks = (N + Block - 1) / Block;
  parallelFor(Blocks, [&](std::size_t B0, std::size_t B1) {
    for (std::size_t B = B0; B < B1; ++B) {
      std::mt19937_64 Gen(Seed * 0x9E3779B97F4A7C15ull + B);
      std::uniform_real_distribution<float> Dist(Lo, Hi);
      for (std::size_t I = B * Block; I < std::min(N, (B + 1) * Block); ++I)
        Out[I] = Dist(Gen);
    }
  });
  return Out;
}

/// Count random values uniform in [-1, 1) (drawn in fp32, then rounded to
/// T: tile::Half or tile::BFloat16), reproducible from Seed.
template <class T>
std::vector<T> randomValues(std::size_t Count, std::uint64_t Seed) {
  std::vector<float> F = randomFloats(Count, -1, 1, Seed);
  std::vector<T> V(Count);
  parallelFor(Count, [&](std::size_t I0, std::size_t I1) {
    for (std::size_t I = I0; I < I1; ++I)
      V[I] = T::fromFloat(F[I]);
  });
  return V;
}

/// Tolerances, |out - ref| <= Atol + Rtol * |ref|. fp32 addition is
/// correctly rounded (relative error <= 2^-24).
constexpr double AddAtol = 0.0, AddRtol = 1e-6;
/// GELU computes tanh through exp and a division in fp32; on [-5, 5] its
/// error stays within a few ulp of max(1, |ref|).
constexpr double GeluAtol = 1e-6, GeluRtol = 2e-6;

/// The GELU (tanh form) the gelu kernel computes, in double.
inline double geluReference(double X) {
  return 0.5 * X *
         (1.0 + std::tanh(0.7978845608028654 * (X + 0.044715 * X * X * X)));
}

/// Row r of x [Rows, D] dotted with w [D], in double (Ref), and the sum of
/// the terms' magnitudes (Scale), which bounds fp32 rounding errors.
inline void weightedSumReference(const std::vector<float> &X,
                                 const std::vector<float> &W, std::size_t Rows,
                                 std::size_t D, std::vector<double> &Ref,
                                 std::vector<double> &Scale) {
  Ref.assign(Rows, 0.0);
  Scale.assign(Rows, 0.0);
  parallelFor(Rows, [&](std::size_t R0, std::size_t R1) {
    for (std::size_t R = R0; R < R1; ++R)
      for (std::size_t J = 0; J < D; ++J) {
        double Term = double(X[R * D + J]) * W[J];
        Ref[R] += Term;
        Scale[R] += std::fabs(Term);
      }
  });
}

/// Row `Row` (head Row / Seq, query Row % Seq) of flash attention's output,
/// softmax(Q K^T * Scale) V over [heads, Seq, D] tiles of T (tile::Half), in
/// double, into Out[0, D); a causal row sees keys 0..query. Scores is
/// scratch of at least Seq entries.
template <class T>
void attentionRowReference(const std::vector<T> &Q, const std::vector<T> &K,
                           const std::vector<T> &V, std::size_t Row,
                           std::size_t Seq, std::size_t D, double Scale,
                           bool Causal, std::vector<double> &Scores,
                           double *Out) {
  std::size_t I = Row % Seq, Base = (Row / Seq) * Seq * D;
  std::size_t Keys = Causal ? I + 1 : Seq;
  double Max = -INFINITY;
  for (std::size_t J = 0; J < Keys; ++J) {
    double Dot = 0;
    for (std::size_t C = 0; C < D; ++C)
      Dot += double(Q[Row * D + C].toFloat()) * K[Base + J * D + C].toFloat();
    Scores[J] = Dot * Scale;
    Max = std::max(Max, Scores[J]);
  }
  double Sum = 0;
  for (std::size_t J = 0; J < Keys; ++J)
    Sum += Scores[J] = std::exp(Scores[J] - Max);
  for (std::size_t C = 0; C < D; ++C) {
    double Acc = 0;
    for (std::size_t J = 0; J < Keys; ++J)
      Acc += Scores[J] * V[Base + J * D + C].toFloat();
    Out[C] = Acc / Sum;
  }
}

/// Per row of x [Rows, Cols]: its maximum and sum of exp(x - max), in
/// double; softmax(x)[r, c] = exp(x[r, c] - Max[r]) / Sum[r].
inline void softmaxRowStats(const std::vector<float> &X, std::size_t Rows,
                            std::size_t Cols, std::vector<double> &Max,
                            std::vector<double> &Sum) {
  Max.assign(Rows, 0.0);
  Sum.assign(Rows, 0.0);
  parallelFor(Rows, [&](std::size_t R0, std::size_t R1) {
    for (std::size_t R = R0; R < R1; ++R) {
      const float *Row = &X[R * Cols];
      Max[R] = *std::max_element(Row, Row + Cols);
      for (std::size_t C = 0; C < Cols; ++C)
        Sum[R] += std::exp(Row[C] - Max[R]);
    }
  });
}

/// How far a result is from its reference.
struct Comparison {
  double MaxAbsError = 0;   ///< max |out - ref|
  double MaxRelError = 0;   ///< max |out - ref| / |ref| (where ref != 0)
  std::size_t Failures = 0; ///< Elements with |out - ref| > Atol + Rtol*|ref|,
                            ///< NaN included.
  std::size_t NaNs = 0;     ///< NaN elements (e.g. left poisoned).
  std::size_t FirstFailure = 0; ///< Index of the first failure.

  bool passed() const { return Failures == 0; }
};

/// Compares Out[i] against Ref(i) for every i, in parallel: element i fails
/// when |Out[i] - Ref(i)| > Tol(i, Ref(i)) or Out[i] is NaN.
template <class RefFn, class TolFn>
Comparison compareWith(const std::vector<float> &Out, RefFn Ref, TolFn Tol) {
  std::size_t N = Out.size();
  Comparison Total;
  Total.FirstFailure = N;
  std::mutex Lock;
  parallelFor(N, [&](std::size_t Begin, std::size_t End) {
    Comparison C;
    C.FirstFailure = N;
    for (std::size_t I = Begin; I < End; ++I) {
      double R = Ref(I);
      double Err = std::fabs(static_cast<double>(Out[I]) - R);
      bool IsNaN = std::isnan(Out[I]);
      if (!IsNaN) {
        C.MaxAbsError = std::max(C.MaxAbsError, Err);
        if (R != 0)
          C.MaxRelError = std::max(C.MaxRelError, Err / std::fabs(R));
      }
      if (IsNaN || !(Err <= Tol(I, R))) {
        C.NaNs += IsNaN;
        if (C.Failures++ == 0)
          C.FirstFailure = I;
      }
    }
    std::lock_guard<std::mutex> Guard(Lock);
    Total.MaxAbsError = std::max(Total.MaxAbsError, C.MaxAbsError);
    Total.MaxRelError = std::max(Total.MaxRelError, C.MaxRelError);
    Total.Failures += C.Failures;
    Total.NaNs += C.NaNs;
    Total.FirstFailure = std::min(Total.FirstFailure, C.FirstFailure);
  });
  return Total;
}

/// Compares Out[i] against Ref(i) for every i, in parallel, with the
/// tolerance Atol + Rtol * |Ref(i)|.
template <class RefFn>
Comparison compare(const std::vector<float> &Out, RefFn Ref, double Atol,
                   double Rtol) {
  return compareWith(Out, Ref, [&](std::size_t, double R) {
    return Atol + Rtol * std::fabs(R);
  });
}

/// Adds the failures and errors of \p Other into \p Into (for a program
/// that checks several outputs); FirstFailure stays the first one's.
inline void merge(Comparison &Into, const Comparison &Other) {
  Into.MaxAbsError = std::max(Into.MaxAbsError, Other.MaxAbsError);
  Into.MaxRelError = std::max(Into.MaxRelError, Other.MaxRelError);
  if (Into.Failures == 0 && Other.Failures != 0)
    Into.FirstFailure = Other.FirstFailure;
  Into.Failures += Other.Failures;
  Into.NaNs += Other.NaNs;
}

} // namespace examples

#endif // TILEC_DSL_EXAMPLES_EXAMPLESUPPORT_H
