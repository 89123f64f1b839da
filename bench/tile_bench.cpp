//===- tile_bench.cpp - Time tilec's example kernels ----------------------===//
//
// Usage: tile_bench [n...]   (sizes of the elementwise cases; default 2^20,
//                             2^24, 2^28)
// Times, through the C++ runtime, vector_add and gelu at each n, softmax at
// 8192x1024 and 4096x16384, weighted_sum at 65536x4096 (weighted_sum_d16.ptx,
// D and the row stride specialized as multiples of 16), matmul in fp16
// (matmul_d16.ptx) and bf16 (matmul_bf16_d16.ptx) at 2048, 4096 and 8192
// square (specialized for sizes and row strides divisible by 16, as Triton
// specializes these launches), and
// flash-attention forward (attention_d64.ptx, attention_causal.ptx,
// attention_d128.ptx, attention_d128_causal.ptx) at batch 4, 32 heads,
// sequence 4096. Each case: random inputs, one checked run (every output
// against a CPU reference in double; matmul on sampled entries and attention
// on sampled rows, with every entry checked to be written), a warm-up, then
// launches timed one by one with CUDA events after flushing the L2 cache (as
// triton.testing.do_bench does), median reported.
// Prints, one line each:
//   config <ptx file> num_warps=W [num_stages=S] NAME=VALUE...
//       (integer constexprs; bools as 0 or 1)
//   case <kernel> <shape> <median_ms> <rate> <GB/s|TFLOP/s> ok|FAILED
//       <max rel err>
//   case <kernel> <shape> error <message>
//   launch_us <kernel> <host microseconds per launch call>
// Exits 1 when any case failed its check or could not run. With
// TILE_BENCH_ONLY set to a comma-separated list of kernels (or KERNEL:SHAPE
// for one case), only their cases run.
//
//===----------------------------------------------------------------------===//

#include "ExampleSupport.h"

#include "tile/Runtime.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>

namespace {

using I32 = std::int32_t;

/// Bytes cleared before every timed launch: more than any L2 cache.
constexpr std::size_t FlushBytes = std::size_t(256) << 20;

/// What one benchmark case reports.
struct Outcome {
  double Ms = 0;
  examples::Comparison Check;
};

/// Times Launch: one warm-up batch, then launches each after an L2 flush,
/// timed by events, until ~0.5 s or 100 launches (at least 10); median.
double timeMedianMs(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush,
                    const std::function<void()> &Launch) {
  tile::Stream S;
  tile::Timer T(Ctx);
  T.start(S);
  Launch();
  T.stop(S);
  double First = T.elapsedMs();
  int Iterations =
      static_cast<int>(std::clamp(500.0 / std::max(First, 1e-3), 10.0, 100.0));
  for (int I = 0; I < std::min(Iterations, 10); ++I)
    Launch();
  std::vector<float> Times;
  for (int I = 0; I < Iterations; ++I) {
    Flush.fillBytes(static_cast<std::uint8_t>(I));
    T.start(S);
    Launch();
    T.stop(S);
    Times.push_back(T.elapsedMs());
  }
  std::sort(Times.begin(), Times.end());
  return Times[Times.size() / 2];
}

/// num_stages of kernel Name in the metadata JSON beside Ptx (the runtime's
/// KernelInfo does not keep it: tilec does no software pipelining yet), or -1
/// when the file does not say.
int numStages(const std::string &Ptx, const std::string &Name) {
  std::ifstream In(tile::metadataPathFor(Ptx));
  std::string Json{std::istreambuf_iterator<char>(In),
                   std::istreambuf_iterator<char>()};
  std::size_t At = Json.find("\"name\": \"" + Name + "\"");
  if (At != std::string::npos)
    At = Json.find("\"num_stages\":", At);
  if (At == std::string::npos)
    return -1;
  return std::atoi(Json.c_str() + At + std::string("\"num_stages\":").size());
}

/// Loads Name from the example PTX File and prints its configuration.
tile::Kernel loadKernel(const tile::Context &Ctx, const std::string &File,
                        const std::string &Name) {
  std::string Ptx = examples::findExamplePtx(File);
  tile::Kernel K = tile::Module::loadFile(Ctx, Ptx).kernel(Name);
  const tile::KernelInfo &Info = K.info();
  std::printf("config %s num_warps=%u", File.c_str(), Info.NumWarps);
  if (int Stages = numStages(Ptx, Name); Stages > 0)
    std::printf(" num_stages=%d", Stages);
  for (const auto &[Key, Value] : Info.Constexprs) {
    if (const auto *Int = std::get_if<std::int64_t>(&Value))
      std::printf(" %s=%lld", Key.c_str(), static_cast<long long>(*Int));
    else if (const auto *Bool = std::get_if<bool>(&Value))
      std::printf(" %s=%d", Key.c_str(), *Bool ? 1 : 0);
  }
  std::printf("\n");
  return K;
}

/// How many of Values are NaN: elements the kernel left poisoned.
template <class T> std::size_t countNaNs(const std::vector<T> &Values) {
  std::atomic<std::size_t> Total{0};
  examples::parallelFor(Values.size(), [&](std::size_t I0, std::size_t I1) {
    std::size_t Count = 0;
    for (std::size_t I = I0; I < I1; ++I)
      Count += std::isnan(Values[I].toFloat());
    Total += Count;
  });
  return Total;
}

/// Host cost of one launch call (argument checking and the driver's
/// enqueue), over many launches of a one-program grid.
void timeLaunchCall(const tile::Context &Ctx, const tile::Kernel &K,
                    const std::vector<tile::Arg> &Args) {
  Ctx.synchronize();
  constexpr int Launches = 2000;
  auto Start = std::chrono::steady_clock::now();
  for (int I = 0; I < Launches; ++I)
    K.launch(tile::Grid{1}, tile::Stream(), Args);
  auto Stop = std::chrono::steady_clock::now();
  Ctx.synchronize();
  std::printf("launch_us %s %.3f\n", K.info().Name.c_str(),
              std::chrono::duration<double, std::micro>(Stop - Start).count() /
                  Launches);
}

Outcome elementwise(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush,
                    bool IsAdd, std::size_t N) {
  tile::Kernel K = IsAdd ? loadKernel(Ctx, "vector_add.ptx", "add_kernel")
                         : loadKernel(Ctx, "gelu.ptx", "gelu_kernel");
  std::vector<float> X = examples::randomFloats(N, -4, 4, 7);
  std::vector<float> Y = examples::randomFloats(IsAdd ? N : 0, -4, 4, 8);
  tile::DeviceBuffer<float> DX(Ctx, N), DY(Ctx, Y.size()), DOut(Ctx, N);
  DX.copyFromHost(X);
  if (IsAdd)
    DY.copyFromHost(Y);
  DOut.fillBytes(0xFF);
  std::vector<tile::Arg> Args{DX};
  if (IsAdd)
    Args.emplace_back(DY);
  Args.emplace_back(DOut);
  Args.emplace_back(static_cast<I32>(N));
  tile::Grid G{static_cast<unsigned>(
      tile::cdiv<std::int64_t>(N, K.info().constexprInt("BLOCK_SIZE")))};
  auto Launch = [&] { K.launch(G, tile::Stream(), Args); };
  Launch();
  Ctx.synchronize();
  Outcome O;
  O.Check =
      IsAdd ? examples::compare(
                  DOut.toHost(),
                  [&](std::size_t I) { return double(X[I]) + Y[I]; },
                  examples::AddAtol, examples::AddRtol)
            : examples::compare(
                  DOut.toHost(),
                  [&](std::size_t I) { return examples::geluReference(X[I]); },
                  examples::GeluAtol, examples::GeluRtol);
  O.Ms = timeMedianMs(Ctx, Flush, Launch);
  if (N == (std::size_t(1) << 20))
    timeLaunchCall(Ctx, K, Args);
  return O;
}

/// The power of two from Lo up to 16384 whose block holds a row of Cols.
std::size_t rowBlock(std::size_t Cols, std::size_t Lo) {
  std::size_t Block = Lo;
  while (Block < Cols && Block < 16384)
    Block *= 2;
  return Block;
}

/// The softmax PTX whose block holds a row of Cols: softmax.ptx (1024), or
/// softmax_<BLOCK_SIZE>.ptx for the other powers of two from 256 to 16384
/// (bench.py's softmax_ptx is the same rule).
std::string softmaxPtx(std::size_t Cols) {
  std::size_t Block = rowBlock(Cols, 256);
  return Block == 1024 ? "softmax.ptx"
                       : "softmax_" + std::to_string(Block) + ".ptx";
}

/// Launches once, checks what it wrote with Check, then times Launch.
Outcome checkAndTime(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush,
                     const std::function<void()> &Launch,
                     const std::function<examples::Comparison()> &Check) {
  Launch();
  Ctx.synchronize();
  Outcome O;
  O.Check = Check();
  O.Ms = timeMedianMs(Ctx, Flush, Launch);
  return O;
}

/// The float value of V (float, or tile::Half).
template <class T> float toFloat(T V) {
  if constexpr (std::is_same_v<T, tile::Half>)
    return V.toFloat();
  else
    return V;
}

/// F's values as T (float, or tile::Half), and F rounded to what T holds.
template <class T> std::vector<T> fromFloats(std::vector<float> &F) {
  std::vector<T> Out(F.size());
  for (std::size_t I = 0; I < F.size(); ++I) {
    if constexpr (std::is_same_v<T, tile::Half>)
      Out[I] = tile::Half::fromFloat(F[I]);
    else
      Out[I] = F[I];
    F[I] = toFloat(Out[I]);
  }
  return Out;
}

/// The float values of a device buffer of T.
template <class T>
std::vector<float> toFloats(const tile::DeviceBuffer<T> &Buffer) {
  std::vector<T> Got = Buffer.toHost();
  std::vector<float> Out(Got.size());
  for (std::size_t I = 0; I < Got.size(); ++I)
    Out[I] = toFloat(Got[I]);
  return Out;
}

/// Row softmax of Rows x Cols T: float rows (softmax*.ptx, softmax_kernel),
/// or tile::Half rows computed in fp32 (softmax_fp16_*.ptx, softmax_fp16 of
/// bench/kernels/memory_bound.tile), against the double softmax of the
/// inputs as T holds them.
template <class T>
Outcome softmax(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush,
                std::size_t Rows, std::size_t Cols) {
  constexpr bool IsHalf = std::is_same_v<T, tile::Half>;
  std::string File = softmaxPtx(Cols);
  if (IsHalf)
    File =
        "softmax_fp16_" + (File == "softmax.ptx"
                               ? std::string("1024.ptx")
                               : File.substr(std::string("softmax_").size()));
  tile::Kernel K =
      loadKernel(Ctx, File, IsHalf ? "softmax_fp16" : "softmax_kernel");
  if (K.info().constexprInt("BLOCK_SIZE") < static_cast<std::int64_t>(Cols))
    throw tile::Error("BLOCK_SIZE is smaller than the row");
  std::vector<float> X =
      examples::randomFloats(Rows * Cols, -8, 8, IsHalf ? 13 : 9);
  std::vector<T> In = fromFloats<T>(X);
  tile::DeviceBuffer<T> DX(Ctx, In.size()), DOut(Ctx, In.size());
  DX.copyFromHost(In);
  DOut.fillBytes(0xFF);
  auto Launch = [&] {
    K.launch(tile::Grid{static_cast<unsigned>(Rows)}, tile::Stream(), DOut, DX,
             I32(Cols), I32(Cols), I32(Rows), I32(Cols));
  };
  return checkAndTime(Ctx, Flush, Launch, [&] {
    std::vector<double> Max, Sum;
    examples::softmaxRowStats(X, Rows, Cols, Max, Sum);
    // fp16: one rounding of the result (2^-11 relative), plus exp's.
    return examples::compare(
        toFloats(DOut),
        [&](std::size_t I) {
          return std::exp(X[I] - Max[I / Cols]) / Sum[I / Cols];
        },
        IsHalf ? 1e-7 : 1e-9, IsHalf ? 2e-3 : 1e-5);
  });
}

Outcome weightedSum(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush,
                    std::size_t Rows, std::size_t D) {
  tile::Kernel K = loadKernel(Ctx, "weighted_sum_d16.ptx", "weighted_sum_fwd");
  std::vector<float> X = examples::randomFloats(Rows * D, -1, 1, 10);
  std::vector<float> W = examples::randomFloats(D, -1, 1, 11);
  tile::DeviceBuffer<float> DX(Ctx, X.size()), DW(Ctx, D), DOut(Ctx, Rows);
  DX.copyFromHost(X);
  DW.copyFromHost(W);
  DOut.fillBytes(0xFF);
  tile::Grid G{static_cast<unsigned>(
      tile::cdiv<std::int64_t>(Rows, K.info().constexprInt("ROWS_TILE_SIZE")))};
  auto Launch = [&] {
    K.launch(G, tile::Stream(), DX, DW, DOut, I32(D), I32(Rows), I32(D));
  };
  Launch();
  Ctx.synchronize();
  std::vector<double> Ref, Scale;
  examples::weightedSumReference(X, W, Rows, D, Ref, Scale);
  Outcome O;
  O.Check = examples::compareWith(
      DOut.toHost(), [&](std::size_t I) { return Ref[I]; },
      [&](std::size_t I, double) { return 1e-5 * Scale[I]; });
  O.Ms = timeMedianMs(Ctx, Flush, Launch);
  return O;
}

/// row_sum.ptx: the sum of each row of a Rows x Cols fp32 matrix.
Outcome rowSum(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush,
               std::size_t Rows, std::size_t Cols) {
  tile::Kernel K = loadKernel(Ctx, "row_sum.ptx", "row_sum_kernel");
  std::vector<float> X = examples::randomFloats(Rows * Cols, -1, 1, 14);
  tile::DeviceBuffer<float> DX(Ctx, X.size()), DOut(Ctx, Rows);
  DX.copyFromHost(X);
  DOut.fillBytes(0xFF);
  auto Launch = [&] {
    K.launch(tile::Grid{static_cast<unsigned>(Rows)}, tile::Stream(), DX, DOut,
             I32(Cols), I32(Cols));
  };
  return checkAndTime(Ctx, Flush, Launch, [&] {
    std::vector<double> Ref(Rows), Scale(Rows);
    examples::parallelFor(Rows, [&](std::size_t R0, std::size_t R1) {
      for (std::size_t R = R0; R < R1; ++R)
        for (std::size_t C = 0; C < Cols; ++C) {
          Ref[R] += X[R * Cols + C];
          Scale[R] += std::fabs(X[R * Cols + C]);
        }
    });
    return examples::compareWith(
        DOut.toHost(), [&](std::size_t I) { return Ref[I]; },
        [&](std::size_t I, double) { return 1e-6 * Scale[I]; });
  });
}

/// layer_norm_fp16_<BLOCK_SIZE>.ptx (Triton's tutorial 05 forward on fp16
/// rows, its inputs: x = -2.3 + 0.5 randn, w and b uniform in [0, 1)): Y,
/// Mean and Rstd against a double reference over the fp16 inputs.
Outcome layerNorm(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush,
                  std::size_t Rows, std::size_t N) {
  tile::Kernel K = loadKernel(
      Ctx, "layer_norm_fp16_" + std::to_string(rowBlock(N, 1024)) + ".ptx",
      "layer_norm_fp16");
  if (K.info().constexprInt("BLOCK_SIZE") < static_cast<std::int64_t>(N))
    throw tile::Error("BLOCK_SIZE is smaller than the row");
  constexpr float Eps = 1e-5f;
  std::vector<float> XF(Rows * N);
  std::mt19937_64 Gen(16);
  std::normal_distribution<float> Normal(-2.3f, 0.5f);
  for (float &V : XF)
    V = Normal(Gen);
  std::vector<float> WF = examples::randomFloats(N, 0, 1, 17);
  std::vector<float> BF = examples::randomFloats(N, 0, 1, 18);
  std::vector<tile::Half> X = fromFloats<tile::Half>(XF),
                          W = fromFloats<tile::Half>(WF),
                          B = fromFloats<tile::Half>(BF);
  tile::DeviceBuffer<tile::Half> DX(Ctx, X.size()), DY(Ctx, X.size()),
      DW(Ctx, N), DB(Ctx, N);
  tile::DeviceBuffer<float> DMean(Ctx, Rows), DRstd(Ctx, Rows);
  DX.copyFromHost(X);
  DW.copyFromHost(W);
  DB.copyFromHost(B);
  DY.fillBytes(0xFF);
  DMean.fillBytes(0xFF);
  DRstd.fillBytes(0xFF);
  auto Launch = [&] {
    K.launch(tile::Grid{static_cast<unsigned>(Rows)}, tile::Stream(), DX, DY,
             DW, DB, DMean, DRstd, I32(N), I32(N), Eps);
  };
  return checkAndTime(Ctx, Flush, Launch, [&] {
    std::vector<double> Mean(Rows), Rstd(Rows);
    examples::parallelFor(Rows, [&](std::size_t R0, std::size_t R1) {
      for (std::size_t R = R0; R < R1; ++R) {
        double Sum = 0, Var = 0;
        for (std::size_t J = 0; J < N; ++J)
          Sum += XF[R * N + J];
        Mean[R] = Sum / N;
        for (std::size_t J = 0; J < N; ++J)
          Var += (XF[R * N + J] - Mean[R]) * (XF[R * N + J] - Mean[R]);
        Rstd[R] = 1.0 / std::sqrt(Var / N + Eps);
      }
    });
    // Y is rounded to fp16 (2^-11 relative); |y| stays below ~4.
    examples::Comparison C = examples::compare(
        toFloats(DY),
        [&](std::size_t I) {
          std::size_t R = I / N, J = I % N;
          return (XF[I] - Mean[R]) * Rstd[R] * WF[J] + BF[J];
        },
        2e-3, 2e-3);
    examples::merge(C, examples::compare(
                           DMean.toHost(),
                           [&](std::size_t I) { return Mean[I]; }, 0, 1e-5));
    examples::merge(C, examples::compare(
                           DRstd.toHost(),
                           [&](std::size_t I) { return Rstd[I]; }, 0, 1e-4));
    return C;
  });
}

/// row_cumsum_<BLOCK_SIZE>.ptx: the inclusive prefix sums of each row of a
/// Rows x Cols fp32 matrix.
Outcome rowCumsum(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush,
                  std::size_t Rows, std::size_t Cols) {
  tile::Kernel K = loadKernel(
      Ctx, "row_cumsum_" + std::to_string(rowBlock(Cols, 256)) + ".ptx",
      "row_cumsum");
  if (K.info().constexprInt("BLOCK_SIZE") < static_cast<std::int64_t>(Cols))
    throw tile::Error("BLOCK_SIZE is smaller than the row");
  std::vector<float> X = examples::randomFloats(Rows * Cols, -1, 1, 19);
  tile::DeviceBuffer<float> DX(Ctx, X.size()), DY(Ctx, X.size());
  DX.copyFromHost(X);
  DY.fillBytes(0xFF);
  auto Launch = [&] {
    K.launch(tile::Grid{static_cast<unsigned>(Rows)}, tile::Stream(), DX, DY,
             I32(Cols), I32(Cols));
  };
  return checkAndTime(Ctx, Flush, Launch, [&] {
    std::vector<double> Ref(X.size()), Scale(X.size());
    examples::parallelFor(Rows, [&](std::size_t R0, std::size_t R1) {
      for (std::size_t R = R0; R < R1; ++R) {
        double Sum = 0, Abs = 0;
        for (std::size_t C = 0; C < Cols; ++C) {
          Sum += X[R * Cols + C];
          Abs += std::fabs(X[R * Cols + C]);
          Ref[R * Cols + C] = Sum;
          Scale[R * Cols + C] = Abs;
        }
      }
    });
    // fp32 scans of up to 16384 terms: a few ulps of the sum of magnitudes.
    return examples::compareWith(
        DY.toHost(), [&](std::size_t I) { return Ref[I]; },
        [&](std::size_t I, double) { return 1e-6 * Scale[I]; });
  });
}

/// transpose_fp32.ptx / transpose_fp16.ptx: Y = X^T for N x N X in T
/// (float or tile::Half); checked exactly.
template <class T>
Outcome transpose(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush,
                  std::size_t N) {
  constexpr bool IsHalf = std::is_same_v<T, tile::Half>;
  tile::Kernel K =
      loadKernel(Ctx, IsHalf ? "transpose_fp16.ptx" : "transpose_fp32.ptx",
                 IsHalf ? "transpose_fp16" : "transpose_fp32");
  std::vector<float> F = examples::randomFloats(N * N, -1, 1, 15);
  std::vector<T> X = fromFloats<T>(F);
  tile::DeviceBuffer<T> DX(Ctx, X.size()), DY(Ctx, X.size());
  DX.copyFromHost(X);
  DY.fillBytes(0xFF);
  const tile::KernelInfo &Info = K.info();
  tile::Grid G{static_cast<unsigned>(
                   tile::cdiv<std::int64_t>(N, Info.constexprInt("BLOCK_M"))),
               static_cast<unsigned>(
                   tile::cdiv<std::int64_t>(N, Info.constexprInt("BLOCK_N")))};
  auto Launch = [&] {
    K.launch(G, tile::Stream(), DX, DY, I32(N), I32(N), I32(N), I32(N));
  };
  return checkAndTime(Ctx, Flush, Launch, [&] {
    return examples::compare(
        toFloats(DY),
        [&](std::size_t I) { return toFloat(X[(I % N) * N + I / N]); }, 0, 0);
  });
}

/// C = A @ B, all Size x Size, in T (tile::Half: matmul_d16.ptx's
/// matmul_kernel; tile::BFloat16: matmul_bf16_d16.ptx's matmul_kernel_bf16).
template <class T>
Outcome matmul(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush,
               std::size_t Size) {
  constexpr bool IsBf16 = std::is_same_v<T, tile::BFloat16>;
  tile::Kernel K =
      IsBf16 ? loadKernel(Ctx, "matmul_bf16_d16.ptx", "matmul_kernel_bf16")
             : loadKernel(Ctx, "matmul_d16.ptx", "matmul_kernel");
  std::size_t M = Size, N = Size, Kd = Size;
  std::vector<T> A = examples::randomValues<T>(M * Kd, 12);
  std::vector<T> B = examples::randomValues<T>(Kd * N, 13);
  tile::DeviceBuffer<T> DA(Ctx, A.size()), DB(Ctx, B.size()), DC(Ctx, M * N);
  DA.copyFromHost(A);
  DB.copyFromHost(B);
  DC.fillBytes(0xFF); // NaN in fp16 and bf16: unwritten entries show up.
  tile::Grid G{static_cast<unsigned>(tile::cdiv<std::int64_t>(
                   M, K.info().constexprInt("BLOCK_M"))),
               static_cast<unsigned>(tile::cdiv<std::int64_t>(
                   N, K.info().constexprInt("BLOCK_N")))};
  auto Launch = [&] {
    K.launch(G, tile::Stream(), DA, DB, DC, I32(M), I32(N), I32(Kd), I32(Kd),
             I32(N), I32(N));
  };
  Launch();
  Ctx.synchronize();
  // Every entry written (no NaN left), and 4096 sampled entries against a
  // double reference over the same rounded inputs.
  std::vector<T> C = DC.toHost();
  std::vector<float> Sampled;
  std::vector<double> Ref;
  std::size_t Unwritten = countNaNs(C);
  std::mt19937_64 Gen(14);
  for (int S = 0; S < 4096; ++S) {
    std::size_t I = Gen() % M, J = Gen() % N;
    double Sum = 0;
    for (std::size_t L = 0; L < Kd; ++L)
      Sum += double(A[I * Kd + L].toFloat()) * B[L * N + J].toFloat();
    Ref.push_back(Sum);
    Sampled.push_back(C[I * N + J].toFloat());
  }
  Outcome O;
  // The sum of Kd products of values in [-1, 1) has a standard deviation of
  // sqrt(Kd) / 3; rtol covers the rounding of C to fp16 (2^-11) or bf16
  // (2^-8).
  double Atol = 1e-2 * std::sqrt(double(Kd)) / 3;
  O.Check = examples::compare(
      Sampled, [&](std::size_t I) { return Ref[I]; }, Atol, 1e-2);
  O.Check.Failures += Unwritten;
  O.Check.NaNs += Unwritten;
  O.Ms = timeMedianMs(Ctx, Flush, Launch);
  return O;
}

/// Flash-attention forward on [Batch * Heads, Seq, D] fp16 Q, K, V with the
/// kernel of File, whose HEAD_DIM and CAUSAL must be D and Causal: every
/// output entry checked to be written and 256 sampled rows against
/// softmax(Q K^T / sqrt(D)) V in double.
Outcome attention(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush,
                  const std::string &File, std::size_t Batch, std::size_t Heads,
                  std::size_t Seq, std::size_t D, bool Causal) {
  tile::Kernel K = loadKernel(Ctx, File, "attention_fwd");
  const tile::ConstexprValue *CausalValue = K.info().findConstexpr("CAUSAL");
  bool KernelCausal = CausalValue && std::get_if<bool>(CausalValue) &&
                      *std::get_if<bool>(CausalValue);
  if (K.info().constexprInt("HEAD_DIM") != static_cast<std::int64_t>(D) ||
      KernelCausal != Causal)
    throw tile::Error(File + " is not the " +
                      (Causal ? "causal" : "non-causal") +
                      " kernel for head dim " + std::to_string(D));
  std::size_t BH = Batch * Heads, Count = BH * Seq * D;
  std::vector<tile::Half> Q = examples::randomValues<tile::Half>(Count, 15);
  std::vector<tile::Half> Kx = examples::randomValues<tile::Half>(Count, 16);
  std::vector<tile::Half> V = examples::randomValues<tile::Half>(Count, 17);
  tile::DeviceBuffer<tile::Half> DQ(Ctx, Count), DK(Ctx, Count), DV(Ctx, Count),
      DOut(Ctx, Count);
  DQ.copyFromHost(Q);
  DK.copyFromHost(Kx);
  DV.copyFromHost(V);
  DOut.fillBytes(0xFF); // fp16 NaN everywhere: unwritten entries show up.
  float Scale = 1.0f / std::sqrt(float(D));
  tile::Grid G{static_cast<unsigned>(tile::cdiv<std::int64_t>(
                   Seq, K.info().constexprInt("BLOCK_M"))),
               static_cast<unsigned>(BH)};
  auto Launch = [&] {
    K.launch(G, tile::Stream(), DQ, DK, DV, DOut, I32(Seq), Scale);
  };
  Launch();
  Ctx.synchronize();
  std::vector<tile::Half> Out = DOut.toHost();
  std::size_t Unwritten = countNaNs(Out);
  constexpr std::size_t Rows = 256;
  std::vector<float> Sampled(Rows * D);
  std::vector<double> Ref(Rows * D);
  std::mt19937_64 Gen(18);
  std::vector<std::size_t> Picked(Rows);
  for (std::size_t &R : Picked)
    R = Gen() % (BH * Seq);
  // Sampled rows round-robin over the cores (parallelFor does not split
  // ranges this short).
  auto Reference = [&](std::size_t First, std::size_t Step) {
    std::vector<double> Scores(Seq);
    for (std::size_t S = First; S < Rows; S += Step) {
      std::size_t Row = Picked[S];
      examples::attentionRowReference(Q, Kx, V, Row, Seq, D, Scale, Causal,
                                      Scores, &Ref[S * D]);
      for (std::size_t C = 0; C < D; ++C)
        Sampled[S * D + C] = Out[Row * D + C].toFloat();
    }
  };
  std::size_t Threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> Pool;
  for (std::size_t T = 1; T < Threads; ++T)
    Pool.emplace_back(Reference, T, Threads);
  Reference(0, Threads);
  for (std::thread &T : Pool)
    T.join();
  Outcome O;
  // As the attention example: P is rounded to fp16 before P V and the output
  // to fp16, a few fp16 ulps of 1.
  O.Check = examples::compare(
      Sampled, [&](std::size_t I) { return Ref[I]; }, 4e-3, 1e-2);
  O.Check.Failures += Unwritten;
  O.Check.NaNs += Unwritten;
  O.Ms = timeMedianMs(Ctx, Flush, Launch);
  return O;
}

/// Runs one case, printing its line; returns false when it failed.
bool runCase(const char *Kernel, const std::string &Shape, double Work,
             bool Flops, const std::function<Outcome()> &Run) {
  // TILE_BENCH_ONLY=matmul,attention runs only the cases of those kernels;
  // an entry KERNEL:SHAPE only that case (for ncu).
  if (const char *Only = std::getenv("TILE_BENCH_ONLY")) {
    std::string List = std::string(",") + Only + ",";
    if (List.find("," + std::string(Kernel) + ",") == std::string::npos &&
        List.find("," + std::string(Kernel) + ":" + Shape + ",") ==
            std::string::npos)
      return true;
  }
  try {
    Outcome O = Run();
    double Rate = Flops ? Work / O.Ms / 1e9 : Work / O.Ms / 1e6;
    std::printf("case %s %s %.5f %.1f %s %s %.3g\n", Kernel, Shape.c_str(),
                O.Ms, Rate, Flops ? "TFLOP/s" : "GB/s",
                O.Check.passed() ? "ok" : "FAILED", O.Check.MaxRelError);
    if (!O.Check.passed())
      std::printf("check %s %s: %zu wrong (%zu NaN), first at %zu, max abs "
                  "error %.3g\n",
                  Kernel, Shape.c_str(), O.Check.Failures, O.Check.NaNs,
                  O.Check.FirstFailure, O.Check.MaxAbsError);
    std::fflush(stdout);
    return O.Check.passed();
  } catch (const std::exception &E) {
    std::printf("case %s %s error %s\n", Kernel, Shape.c_str(), E.what());
    std::fflush(stdout);
    return false;
  }
}

/// The sweep's sizes: vector add at 2^12 .. 2^28 elements, softmax (fp32 and
/// fp16) and the row cumsum over 4096 rows of 256 .. 16384 columns, the fp16
/// layer norm over 4096 rows of 1024 .. 15872 (tutorial 05), the weighted sum
/// over 65536 rows of 256 .. 8192, the row sum of 8192 x 8192 and the
/// transposes of 4096 x 4096 fp32 and fp16 (bench.py's SWEEP_* are the same).
bool runSweep(const tile::Context &Ctx, tile::DeviceBuffer<char> &Flush) {
  bool AllOk = true;
  for (int Log = 12; Log <= 28; Log += 2) {
    std::size_t N = std::size_t(1) << Log;
    AllOk &= runCase("add_kernel", std::to_string(N), 12.0 * N, false,
                     [&] { return elementwise(Ctx, Flush, true, N); });
  }
  for (std::size_t Cols = 256; Cols <= 16384; Cols *= 2) {
    AllOk &= runCase("softmax", "4096x" + std::to_string(Cols),
                     2.0 * 4096 * Cols * 4, false,
                     [&] { return softmax<float>(Ctx, Flush, 4096, Cols); });
    AllOk &= runCase(
        "softmax_fp16", "4096x" + std::to_string(Cols), 2.0 * 4096 * Cols * 2,
        false, [&] { return softmax<tile::Half>(Ctx, Flush, 4096, Cols); });
  }
  AllOk &= runCase("row_sum", "8192x8192", 4.0 * (8192 * 8192 + 8192), false,
                   [&] { return rowSum(Ctx, Flush, 8192, 8192); });
  AllOk &= runCase("transpose_fp32", "4096x4096", 2.0 * 4096 * 4096 * 4, false,
                   [&] { return transpose<float>(Ctx, Flush, 4096); });
  AllOk &= runCase("transpose_fp16", "4096x4096", 2.0 * 4096 * 4096 * 2, false,
                   [&] { return transpose<tile::Half>(Ctx, Flush, 4096); });
  // Triton's tutorial 05 sizes: 4096 rows of 512 * i columns, i = 2 .. 31.
  for (std::size_t N = 1024; N < 16384; N += 512)
    AllOk &= runCase("layer_norm_fp16", "4096x" + std::to_string(N),
                     2.0 * 4096 * N * 2, false,
                     [&] { return layerNorm(Ctx, Flush, 4096, N); });
  for (std::size_t Cols = 256; Cols <= 16384; Cols *= 2)
    AllOk &= runCase("row_cumsum", "4096x" + std::to_string(Cols),
                     2.0 * 4096 * Cols * 4, false,
                     [&] { return rowCumsum(Ctx, Flush, 4096, Cols); });
  for (std::size_t D : {256, 1024, 4096, 8192})
    AllOk &= runCase("weighted_sum", "65536x" + std::to_string(D),
                     4.0 * (65536 * D + D + 65536), false,
                     [&] { return weightedSum(Ctx, Flush, 65536, D); });
  return AllOk;
}

} // namespace

int main(int Argc, char **Argv) {
  if (!tile::gpuAvailable()) {
    std::printf("SKIPPED: no GPU (%s)\n", tile::gpuUnavailableReason().c_str());
    return examples::SkipExitCode;
  }
  bool AllOk = true;
  try {
    tile::Context Ctx(0);
    std::printf("device %s\n", Ctx.deviceName().c_str());
    tile::DeviceBuffer<char> Flush(Ctx, FlushBytes);
    // --sweep: the memory-bound kernels over many sizes, as Triton's
    // perf_report (bench.py --sweep plots them beside Triton and PyTorch).
    if (Argc > 1 && std::string(Argv[1]) == "--sweep")
      return runSweep(Ctx, Flush) ? 0 : 1;
    std::vector<std::size_t> Sizes;
    for (int I = 1; I < Argc; ++I)
      Sizes.push_back(std::strtoull(Argv[I], nullptr, 0));
    if (Sizes.empty())
      Sizes = {std::size_t(1) << 20, std::size_t(1) << 24,
               std::size_t(1) << 28};
    for (bool IsAdd : {true, false})
      for (std::size_t N : Sizes)
        AllOk &= runCase(IsAdd ? "add_kernel" : "gelu_kernel",
                         std::to_string(N), 4.0 * N * (IsAdd ? 3 : 2), false,
                         [&] { return elementwise(Ctx, Flush, IsAdd, N); });
    for (auto [Rows, Cols] :
         {std::pair<std::size_t, std::size_t>{8192, 1024}, {4096, 16384}})
      AllOk &=
          runCase("softmax", std::to_string(Rows) + "x" + std::to_string(Cols),
                  2.0 * Rows * Cols * 4, false, [&, Rows = Rows, Cols = Cols] {
                    return softmax<float>(Ctx, Flush, Rows, Cols);
                  });
    const std::size_t Rows = 65536, D = 4096;
    AllOk &= runCase("weighted_sum", "65536x4096", 4.0 * (Rows * D + D + Rows),
                     false, [&] { return weightedSum(Ctx, Flush, Rows, D); });
    for (bool Bf16 : {false, true})
      for (std::size_t Size : {2048, 4096, 8192})
        AllOk &= runCase(Bf16 ? "matmul_bf16" : "matmul",
                         std::to_string(Size) + "x" + std::to_string(Size) +
                             "x" + std::to_string(Size),
                         2.0 * Size * Size * Size, true, [&] {
                           return Bf16
                                      ? matmul<tile::BFloat16>(Ctx, Flush, Size)
                                      : matmul<tile::Half>(Ctx, Flush, Size);
                         });
    // Flash attention: 4 * B * H * S^2 * D FLOPs (Q K^T and P V), half of
    // them when causal. timeMedianMs launches a slow kernel 21 times (one
    // first launch, 10 warm-ups, 10 timed): with tl.dot on FMA units these
    // took up to ~0.1 s each, so the four cases stay within ~10 s of GPU time.
    const std::size_t Batch = 4, Heads = 32, Seq = 4096;
    for (auto [Name, HeadDim, Causal] :
         {std::tuple<const char *, std::size_t, bool>{"attention_d64", 64,
                                                      false},
          {"attention_causal", 64, true},
          {"attention_d128", 128, false},
          {"attention_d128_causal", 128, true}})
      AllOk &= runCase(
          Name,
          std::to_string(Batch) + "x" + std::to_string(Heads) + "x" +
              std::to_string(Seq) + "x" + std::to_string(HeadDim),
          4.0 * Batch * Heads * Seq * Seq * HeadDim * (Causal ? 0.5 : 1.0),
          true, [&, Name = Name, HeadDim = HeadDim, Causal = Causal] {
            return attention(Ctx, Flush, std::string(Name) + ".ptx", Batch,
                             Heads, Seq, HeadDim, Causal);
          });
  } catch (const std::exception &E) {
    std::fprintf(stderr, "tile_bench: %s\n", E.what());
    return 1;
  }
  return AllOk ? 0 : 1;
}
