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

namespace examples {

/// Command-line options of a host program.
struct Options {
  std::string Ptx;               ///< --ptx PATH; empty: findExamplePtx.
  std::size_t N = 98432;         ///< --n N: number of elements.
  std::uint64_t Seed = 20240601; ///< --seed S: input seed.
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
    } else {
      std::fprintf(stderr,
                   "%s: bad argument '%s'\nusage: %s [--ptx PATH] [--n N "
                   "(1..2^31-1)] [--seed S]\n",
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

/// Parses options, skips without a GPU (exit 77), runs Run on device 0 and
/// turns exceptions into exit code 1.
template <class RunFn> int exampleMain(int Argc, char **Argv, RunFn Run) {
  Options Opts;
  if (!parseOptions(Argc, Argv, Opts))
    return 2;
  if (!tile::gpuAvailable()) {
    std::printf("SKIPPED: no GPU (%s)\n", tile::gpuUnavailableReason().c_str());
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
