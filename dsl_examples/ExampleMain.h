//===- ExampleMain.h - Command line and reporting of host programs -*- C++
//-*-===//
//
// The common frame of the example host programs: options, the no-GPU skip,
// error reporting and the final verdict.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DSL_EXAMPLES_EXAMPLEMAIN_H
#define TILEC_DSL_EXAMPLES_EXAMPLEMAIN_H

#include "ExampleSupport.h"
#include "tile/Runtime.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <string>
#include <variant>
#include <vector>

namespace examples {

/// A problem shape from --shape, e.g. "300x200x150" -> {300, 200, 150}.
using Shape = std::vector<std::size_t>;

/// Command-line options of a host program.
struct Options {
  std::string Ptx;               ///< --ptx PATH; empty: findExamplePtx.
  std::size_t N = 98432;         ///< --n N: number of elements.
  std::uint64_t Seed = 20240601; ///< --seed S: input seed.
  std::vector<Shape> Shapes;     ///< --shape AxB[xC] (repeatable); empty:
                                 ///< the program's own list of shapes.
};

/// Returns --ptx when given, else the found FileName.
inline std::string ptxPath(const Options &Opts, const std::string &FileName) {
  return Opts.Ptx.empty() ? findExamplePtx(FileName) : Opts.Ptx;
}

/// Parses an unsigned decimal number in [Min, Max]; false when malformed.
inline bool parseNumber(const char *Text, unsigned long long Min,
                        unsigned long long Max, unsigned long long &Out) {
  if (!*Text || *Text == '-')
    return false;
  char *End = nullptr;
  errno = 0;
  Out = std::strtoull(Text, &End, 10);
  return errno == 0 && *End == '\0' && Out >= Min && Out <= Max;
}

/// Parses "AxBxC" (each part in [1, 2^31-1]); false when malformed.
inline bool parseShape(const std::string &Text, Shape &Out) {
  Out.clear();
  std::size_t Begin = 0;
  while (Begin <= Text.size()) {
    std::size_t End = Text.find('x', Begin);
    if (End == std::string::npos)
      End = Text.size();
    unsigned long long Value = 0;
    if (!parseNumber(Text.substr(Begin, End - Begin).c_str(), 1,
                     std::numeric_limits<std::int32_t>::max(), Value))
      return false;
    Out.push_back(Value);
    Begin = End + 1;
  }
  return !Out.empty();
}

/// Parses the command line; prints the usage and returns false on an error.
inline bool parseOptions(int Argc, char **Argv, Options &Opts) {
  for (int I = 1; I < Argc; ++I) {
    std::string Flag = Argv[I];
    unsigned long long Value = 0;
    bool HasValue = I + 1 < Argc;
    if (Flag == "--ptx" && HasValue) {
      Opts.Ptx = Argv[++I];
    } else if (Flag == "--n" && HasValue &&
               parseNumber(Argv[I + 1], 1,
                           std::numeric_limits<std::int32_t>::max(), Value)) {
      Opts.N = Value;
      ++I;
    } else if (Flag == "--seed" && HasValue &&
               parseNumber(Argv[I + 1], 0,
                           std::numeric_limits<std::uint64_t>::max(), Value)) {
      Opts.Seed = Value;
      ++I;
    } else if (Flag == "--shape" && HasValue) {
      Shape S;
      if (!parseShape(Argv[I + 1], S)) {
        std::fprintf(stderr, "%s: bad shape '%s'\n", Argv[0], Argv[I + 1]);
        return false;
      }
      Opts.Shapes.push_back(S);
      ++I;
    } else {
      std::fprintf(stderr,
                   "%s: bad argument '%s'\nusage: %s [--ptx PATH] [--n N "
                   "(1..2^31-1)] [--seed S] [--shape AxB[xC]]...\n",
                   Argv[0], Argv[I], Argv[0]);
      return false;
    }
  }
  return true;
}

/// Prints what is about to run.
inline void printSetup(const tile::Context &Ctx, const std::string &Ptx,
                       const Options &Opts, std::int64_t Block, unsigned Grid) {
  std::printf("device: %s (sm_%d, %d SMs)\nptx: %s\n", Ctx.deviceName().c_str(),
              Ctx.computeCapability().arch(), Ctx.smCount(), Ptx.c_str());
  std::printf("n = %zu, BLOCK_SIZE = %lld, grid = %u, seed = %llu\n", Opts.N,
              static_cast<long long>(Block), Grid,
              static_cast<unsigned long long>(Opts.Seed));
}

/// Prints the errors and the verdict; returns the exit code.
inline int report(const Comparison &C) {
  std::printf("max abs error = %.3g, max rel error = %.3g\n", C.MaxAbsError,
              C.MaxRelError);
  if (C.passed()) {
    std::printf("PASSED\n");
    return 0;
  }
  std::printf("FAILED: %zu elements out of tolerance (%zu NaN), first at "
              "index %zu\n",
              C.Failures, C.NaNs, C.FirstFailure);
  return 1;
}

/// Prints the device and the PTX a multi-shape program runs.
inline void printDevice(const tile::Context &Ctx, const std::string &Ptx,
                        const Options &Opts) {
  std::printf("device: %s (sm_%d, %d SMs)\nptx: %s\nseed = %llu\n",
              Ctx.deviceName().c_str(), Ctx.computeCapability().arch(),
              Ctx.smCount(), Ptx.c_str(),
              static_cast<unsigned long long>(Opts.Seed));
}

/// Loads Name from FileName (or --ptx), prints the device, the PTX and the
/// kernel's constexprs, and returns the kernel (which keeps its module).
inline tile::Kernel loadKernel(const tile::Context &Ctx, const Options &Opts,
                               const std::string &FileName,
                               const std::string &Name) {
  std::string Ptx = ptxPath(Opts, FileName);
  tile::Kernel K = tile::Module::loadFile(Ctx, Ptx).kernel(Name);
  printDevice(Ctx, Ptx, Opts);
  std::printf("%s: num_warps = %u, shared bytes = %zu", Name.c_str(),
              K.info().NumWarps, K.info().SharedBytes);
  for (const auto &[Key, Value] : K.info().Constexprs)
    if (const auto *Int = std::get_if<std::int64_t>(&Value))
      std::printf(", %s = %lld", Key.c_str(), static_cast<long long>(*Int));
  tile::KernelResources R = K.resources();
  std::printf("\n%s: %d registers per thread, %zu bytes of local memory (spills)\n",
              Name.c_str(), R.Registers, R.LocalBytes);
  return K;
}

/// Returns "300x200x150".
inline std::string shapeName(const Shape &S) {
  std::string Name;
  for (std::size_t D : S)
    Name += (Name.empty() ? "" : "x") + std::to_string(D);
  return Name;
}

/// Runs Check(Shape, Seed) on every shape of --shape (or Defaults when none
/// was given), each with its own seed; prints one line per shape and the
/// verdict; returns the exit code (0 when every shape passed).
template <class CheckFn>
int runShapes(const Options &Opts, const std::vector<Shape> &Defaults,
              std::size_t Rank, CheckFn Check) {
  const std::vector<Shape> &Shapes =
      Opts.Shapes.empty() ? Defaults : Opts.Shapes;
  std::size_t Failed = 0;
  for (std::size_t I = 0; I < Shapes.size(); ++I) {
    if (Shapes[I].size() != Rank) {
      std::printf("%s: expected %zu sizes\n", shapeName(Shapes[I]).c_str(),
                  Rank);
      ++Failed;
      continue;
    }
    Comparison C = Check(Shapes[I], Opts.Seed + 1000 * I);
    std::printf("%-16s max abs error = %.3g, max rel error = %.3g%s\n",
                shapeName(Shapes[I]).c_str(), C.MaxAbsError, C.MaxRelError,
                C.passed() ? "" : "  <- FAILED");
    if (!C.passed()) {
      std::printf("  %zu elements out of tolerance (%zu NaN), first at "
                  "index %zu\n",
                  C.Failures, C.NaNs, C.FirstFailure);
      ++Failed;
    }
  }
  if (Failed == 0) {
    std::printf("PASSED\n");
    return 0;
  }
  std::printf("FAILED: %zu of %zu shapes\n", Failed, Shapes.size());
  return 1;
}

/// Parses options, skips without a GPU (exit 77; with TILE_BACKEND=interpreter
/// it runs on the interpreter instead), runs Run on device 0 and turns
/// exceptions into exit code 1.
template <class RunFn> int exampleMain(int Argc, char **Argv, RunFn Run) {
  Options Opts;
  if (!parseOptions(Argc, Argv, Opts))
    return 2;
  if (!tile::backendAvailable()) {
    std::printf("SKIPPED: no GPU (%s)\n", tile::backendUnavailableReason().c_str());
    return SkipExitCode;
  }
  try {
    tile::Context Ctx(0);
    return Run(Ctx, Opts);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "error: %s\n", E.what());
    return 1;
  }
}

} // namespace examples

#endif // TILEC_DSL_EXAMPLES_EXAMPLEMAIN_H
