//===- KernelDiff.cpp - Random kernels on the GPU and the interpreter -----===//
//
// Usage: kernel_diff [--grid N] [--seed S] [--arch sm_90] [--interpreter-only]
//                    [--no-fp-fusion] FILE.tile...
//
// Compiles each file (kernels written by tests/fuzz/kernelgen.py, or any
// kernel whose parameters are pointers and scalars), gives every pointer
// parameter a 512 KiB buffer of random values of its type and every scalar
// a small random value, and launches each kernel with TILE_DIFFERENTIAL=1:
// the runtime runs it on the interpreter from the same inputs and compares
// every buffer (runtime/lib/Differential.cpp). The comparisons go to
// $TILE_DIFFERENTIAL_LOG or stderr; stdout gets one line per kernel:
//   FILE KERNEL: launching, then launched or launch error: MESSAGE
//   FILE: compile error: MESSAGE
// Exit status 0 unless the GPU is missing. --interpreter-only runs the
// kernels on the interpreter alone (no GPU needed): a smoke test of the
// interpreter on generated kernels. --no-fp-fusion compiles with
// --fp-fusion=false (no a * b + c contracted into an fma), which the
// interpreter never does either.
//
//===----------------------------------------------------------------------===//
#include "tile/Runtime.h"
#include "tilec/Compiler.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr std::size_t BufferBytes = 512 * 1024;

/// Random bytes holding values of \p Kind: floats in [-4, 4], integers in
/// [-100, 100] (unsigned: [0, 200]), i1 0 or 1.
std::vector<unsigned char> randomValues(tile::ScalarKind Kind, std::mt19937_64 &Rng) {
  std::vector<unsigned char> Bytes(BufferBytes);
  std::size_t Size = tile::scalarSize(Kind);
  std::uniform_real_distribution<float> Real(-4.0f, 4.0f);
  std::uniform_int_distribution<int> Int(-100, 100);
  for (std::size_t At = 0; At + Size <= Bytes.size(); At += Size) {
    unsigned char *P = Bytes.data() + At;
    switch (Kind) {
    case tile::ScalarKind::FP32: {
      float F = Real(Rng);
      std::memcpy(P, &F, 4);
      break;
    }
    case tile::ScalarKind::FP64: {
      double D = Real(Rng);
      std::memcpy(P, &D, 8);
      break;
    }
    case tile::ScalarKind::FP16: {
      tile::Half H = tile::Half::fromFloat(Real(Rng));
      std::memcpy(P, &H.Bits, 2);
      break;
    }
    case tile::ScalarKind::BF16: {
      tile::BFloat16 B = tile::BFloat16::fromFloat(Real(Rng));
      std::memcpy(P, &B.Bits, 2);
      break;
    }
    case tile::ScalarKind::I1: *P = Rng() & 1; break;
    default: {
      bool Unsigned = tile::scalarName(Kind)[0] == 'u';
      std::int64_t V = Unsigned ? Int(Rng) + 100 : Int(Rng);
      std::memcpy(P, &V, Size); // little-endian: the low bytes
    }
    }
  }
  return Bytes;
}

/// A scalar argument of \p Kind: `n`-like integers in [1, 64], floats in
/// [0, 1].
tile::Arg randomScalar(tile::ScalarKind Kind, std::mt19937_64 &Rng) {
  std::uniform_int_distribution<int> Small(1, 64);
  std::uniform_real_distribution<float> Unit(0.0f, 1.0f);
  switch (Kind) {
  case tile::ScalarKind::FP32: return tile::Arg(Unit(Rng));
  case tile::ScalarKind::FP64: return tile::Arg(static_cast<double>(Unit(Rng)));
  case tile::ScalarKind::FP16: return tile::Arg(tile::Half::fromFloat(Unit(Rng)));
  case tile::ScalarKind::BF16: return tile::Arg(tile::BFloat16::fromFloat(Unit(Rng)));
  case tile::ScalarKind::I1: return tile::Arg(static_cast<bool>(Rng() & 1));
  case tile::ScalarKind::I8: return tile::Arg(static_cast<std::int8_t>(Small(Rng)));
  case tile::ScalarKind::U8: return tile::Arg(static_cast<std::uint8_t>(Small(Rng)));
  case tile::ScalarKind::I16: return tile::Arg(static_cast<std::int16_t>(Small(Rng)));
  case tile::ScalarKind::U16: return tile::Arg(static_cast<std::uint16_t>(Small(Rng)));
  case tile::ScalarKind::U32: return tile::Arg(static_cast<std::uint32_t>(Small(Rng)));
  case tile::ScalarKind::I64: return tile::Arg(static_cast<std::int64_t>(Small(Rng)));
  case tile::ScalarKind::U64: return tile::Arg(static_cast<std::uint64_t>(Small(Rng)));
  default: return tile::Arg(static_cast<std::int32_t>(Small(Rng)));
  }
}

/// \p Text on one line: its line breaks become " | ".
std::string oneLine(std::string Text) {
  for (std::size_t At = Text.find('\n'); At != std::string::npos; At = Text.find('\n', At))
    Text.replace(At, 1, " | ");
  return Text;
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned GridX = 1;
  std::uint64_t Seed = 1;
  std::string Arch = "sm_90";
  bool InterpreterOnly = false, FpFusion = true;
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--grid" && I + 1 < Argc)
      GridX = static_cast<unsigned>(std::stoul(Argv[++I]));
    else if (A == "--seed" && I + 1 < Argc)
      Seed = std::stoull(Argv[++I]);
    else if (A == "--arch" && I + 1 < Argc)
      Arch = Argv[++I];
    else if (A == "--interpreter-only")
      InterpreterOnly = true;
    else if (A == "--no-fp-fusion")
      FpFusion = false;
    else
      Files.push_back(A);
  }
  tile::Backend Backend = InterpreterOnly ? tile::Backend::Interpreter : tile::Backend::Gpu;
  if (!InterpreterOnly && !tile::gpuAvailable()) {
    std::printf("SKIPPED: no GPU (%s)\n", tile::gpuUnavailableReason().c_str());
    return 77;
  }
  if (!InterpreterOnly)
    setenv("TILE_DIFFERENTIAL", "1", 1);
  tile::Context Ctx(Backend);
  std::mt19937_64 Rng(Seed);
  for (const std::string &File : Files) {
    tilec::CompileOptions Options;
    Options.arch = Arch;
    Options.fpFusion = FpFusion;
    tilec::CompileResult Result = tilec::compileFile(File, Options);
    if (!Result.succeeded()) {
      std::printf("%s: compile error: %s\n", File.c_str(),
                  oneLine(Result.diagnosticText).c_str());
      continue;
    }
    try {
      tile::Module M = tile::Module::load(
          Ctx, Result.ptx, tile::ModuleMetadata::parse(Result.metadata, File + ".json"), File);
      for (const tile::KernelInfo &Info : M.metadata().Kernels) {
        std::vector<tile::DeviceBuffer<unsigned char>> Buffers;
        std::vector<tile::Arg> Args;
        for (const tile::ParamInfo &P : Info.Params) {
          if (!P.Type.IsPointer) {
            Args.push_back(randomScalar(P.Type.Elem, Rng));
            continue;
          }
          Buffers.emplace_back(Ctx, BufferBytes);
          Buffers.back().copyFromHost(randomValues(P.Type.Elem, Rng));
          Args.push_back(tile::DevicePtr(Buffers.back().devicePtr(), P.Type.Elem));
        }
        // Named before the launch, so that a crash names its kernel.
        std::printf("%s %s: launching\n", File.c_str(), Info.Name.c_str());
        std::fflush(stdout);
        try {
          M.kernel(Info.Name).launch(tile::Grid{GridX}, tile::Stream(), Args);
          std::printf("%s %s: launched\n", File.c_str(), Info.Name.c_str());
        } catch (const tile::Error &E) {
          std::printf("%s %s: launch error: %s\n", File.c_str(), Info.Name.c_str(),
                      oneLine(E.what()).c_str());
          Ctx = tile::Context(Backend); // a failed launch may poison the context
        }
      }
    } catch (const tile::Error &E) {
      std::printf("%s: load error: %s\n", File.c_str(), oneLine(E.what()).c_str());
    }
    std::fflush(stdout);
  }
  return 0;
}
