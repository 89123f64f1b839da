//===- Autotune.h - The @autotune decorator ---------------------*- C++ -*-===//
//
// `@autotune(configs=[config(BLOCK=128, num_warps=8), ...], key=["n"])` and
// Triton's spelling `@triton.autotune(configs=[triton.Config({"BLOCK": 128},
// num_warps=8)], key=["n"], reset_to_zero=[...], restore_value=[...])`
// stand above a kernel's decorator. The compiler compiles one configuration
// at a time (its constexprs are -D values); the JIT reads the list here and
// times every configuration on the first launch of each key.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_AUTOTUNE_H
#define TILEC_FRONTEND_AUTOTUNE_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilec {

/// One configuration of an @autotune list.
struct TuneConfig {
  SourceLoc loc;
  /// Constexpr parameter values, in source order.
  std::vector<std::pair<std::string, ConstValue>> values;
  /// Launch options; unset ones come from the kernel's decorator.
  std::optional<unsigned> numWarps, numStages;
};

/// The contents of a kernel's @autotune decorator.
struct AutotuneSpec {
  SourceLoc loc;                  ///< Of the decorator.
  std::vector<TuneConfig> configs; ///< At least one.
  /// Parameters whose argument values select a tuning result.
  std::vector<std::string> key;
  /// Pointer parameters zeroed before each timed run (Triton's
  /// reset_to_zero) and restored after tuning (restore_value).
  std::vector<std::string> resetToZero, restoreValue;
  /// Milliseconds of warm-up and of measured runs per configuration, as
  /// Triton's warmup and rep.
  unsigned warmupMs = 25, repMs = 100;
};

/// True when `name` names the autotune decorator (`autotune`,
/// `triton.autotune`, `tilec.autotune`).
bool isAutotuneDecorator(llvm::StringRef name);

/// True for a project's own autotuner written like Triton's (TGI's
/// `@custom_autotune.autotune(configs=[...], key=[...])`, FlagGems'
/// `@libtuner(configs=..., key=...)`): a decorator tilec does not know,
/// called with `configs=`. Its configs and key are read as @autotune's; its
/// other arguments are ignored with a warning.
bool isProjectAutotuner(const Decorator &decorator);

/// Reads the @autotune decorator of `def` (module-level names of `module`
/// may hold the configs). Returns std::nullopt
/// when `def` has none; reports malformed lists, configurations that set
/// something other than a constexpr parameter, and names that are not
/// parameters of `def` through `diag` (and returns std::nullopt then too).
std::optional<AutotuneSpec> readAutotune(const Module &module, const FunctionDef &def,
                                         DiagnosticEngine &diag);

} // namespace tilec

#endif // TILEC_FRONTEND_AUTOTUNE_H
