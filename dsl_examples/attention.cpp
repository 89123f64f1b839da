//===- attention.cpp - Runs attention_fwd and checks it on the CPU --------===//
//
// Usage: attention [--ptx PATH] [--seed S] [--shape BHxN_CTX]...
// Loads attention.ptx (or another specialization, e.g. attention_causal.ptx;
// HEAD_DIM and CAUSAL come from its metadata), runs flash-attention forward on
// random fp16 Q, K, V of [BH, N_CTX, HEAD_DIM] and compares the fp16 output
// with softmax(Q K^T * sm_scale) V computed in double over the same inputs.
// The default shapes include lengths that are not multiples of the blocks.
// Prints "SKIPPED:" and exits with 77 when there is no GPU; exits 1 on a
// wrong result.
//
//===----------------------------------------------------------------------===//
#include "ExampleMain.h"

#include <cmath>

namespace {

/// softmax(Q K^T * Scale) V per head, in double; causal rows see keys 0..i.
std::vector<double> attentionReference(const std::vector<tile::Half> &Q,
                                       const std::vector<tile::Half> &K,
                                       const std::vector<tile::Half> &V,
                                       std::size_t BH, std::size_t N,
                                       std::size_t D, double Scale,
                                       bool Causal) {
  std::vector<double> Out(BH * N * D);
  examples::parallelFor(BH * N, [&](std::size_t R0, std::size_t R1) {
    std::vector<double> Scores(N);
    for (std::size_t R = R0; R < R1; ++R)
      examples::attentionRowReference(Q, K, V, R, N, D, Scale, Causal, Scores,
                                      &Out[R * D]);
  });
  return Out;
}

int run(const tile::Context &Ctx, const examples::Options &Opts) {
  tile::Kernel Kern =
      examples::loadKernel(Ctx, Opts, "attention.ptx", "attention_fwd");
  std::int64_t BlockM = Kern.info().constexprInt("BLOCK_M");
  std::size_t D =
      static_cast<std::size_t>(Kern.info().constexprInt("HEAD_DIM"));
  const tile::ConstexprValue *CausalValue = Kern.info().findConstexpr("CAUSAL");
  bool Causal = CausalValue && std::get_if<bool>(CausalValue) &&
                *std::get_if<bool>(CausalValue);
  std::printf("attention_fwd: HEAD_DIM = %zu, %s\n", D,
              Causal ? "causal" : "not causal");

  auto Check = [&](const examples::Shape &S, std::uint64_t Seed) {
    std::size_t BH = S[0], N = S[1], Count = BH * N * D;
    std::vector<tile::Half> Q = examples::randomValues<tile::Half>(Count, Seed);
    std::vector<tile::Half> K =
        examples::randomValues<tile::Half>(Count, Seed + 1);
    std::vector<tile::Half> V =
        examples::randomValues<tile::Half>(Count, Seed + 2);
    tile::DeviceBuffer<tile::Half> DQ(Ctx, Count), DK(Ctx, Count),
        DV(Ctx, Count), DOut(Ctx, Count);
    DQ.copyFromHost(Q);
    DK.copyFromHost(K);
    DV.copyFromHost(V);
    DOut.fillBytes(0xFF); // fp16 NaN everywhere: unwritten elements show up.
    float Scale = 1.0f / std::sqrt(float(D));
    tile::Grid G{static_cast<unsigned>(tile::cdiv<std::int64_t>(N, BlockM)),
                 static_cast<unsigned>(BH)};
    Kern.launch(G, tile::Stream(), DQ, DK, DV, DOut,
                static_cast<std::int32_t>(N), Scale);
    Ctx.synchronize();
    std::vector<double> Ref =
        attentionReference(Q, K, V, BH, N, D, Scale, Causal);
    std::vector<tile::Half> O = DOut.toHost();
    std::vector<float> Out(O.size());
    for (std::size_t I = 0; I < O.size(); ++I)
      Out[I] = O[I].toFloat();
    // Outputs are averages of values in [-1, 1); P is rounded to fp16 before
    // P V and the output to fp16: a few fp16 ulps of 1.
    return examples::compare(
        Out, [&](std::size_t I) { return Ref[I]; }, 4e-3, 1e-2);
  };
  return examples::runShapes(Opts, {{1, 1}, {2, 100}, {3, 257}, {4, 1024}}, 2,
                             Check);
}

} // namespace

int main(int Argc, char **Argv) {
  return examples::exampleMain(Argc, Argv, run);
}
