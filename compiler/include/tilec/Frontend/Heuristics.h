//===- Heuristics.h - The @triton.heuristics decorator ----------*- C++ -*-===//
//
// `@triton.heuristics(values={"EVEN_K": lambda args: args["K"] % args["BLOCK_K"]
// == 0})` (or a dict positionally, or a module-level `def f(args): return ...`
// as a value) computes constexpr parameters from the other arguments. Sema
// evaluates each value at compile time in the kernel's scope, in source order
// (stacked decorators top to bottom), after the -D values and defaults:
// `args["NAME"]` is that parameter's value.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_HEURISTICS_H
#define TILEC_FRONTEND_HEURISTICS_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// One entry of a heuristics dict.
struct Heuristic {
  std::string name;     ///< The constexpr parameter it sets, or num_warps /
                        ///< num_stages.
  SourceLoc loc;        ///< Of the value (the lambda).
  std::string argsName; ///< The function's parameter (usually `args`).
  const Expr *body;     ///< Its value, in terms of `argsName`; or null and:
  /// a function of the file with more than `return EXPR` (ifs, locals),
  /// inlined with its parameter standing for the arguments.
  const FunctionDef *function = nullptr;

  /// Sets a launch option rather than a parameter.
  bool isLaunchOption() const { return name == "num_warps" || name == "num_stages"; }
};

/// The value a named heuristic's parameter is bound to while it is inlined:
/// subscripting it reads the kernel's arguments.
inline constexpr const char *kHeuristicArgumentsMarker = "\x01heuristic arguments";

/// True when `name` names the heuristics decorator (`heuristics`,
/// `triton.heuristics`, `tilec.heuristics`).
bool isHeuristicsDecorator(llvm::StringRef name);

/// The heuristics of `def`'s decorators, in evaluation order; reports
/// malformed decorators and entries, and names that are not constexpr
/// parameters of `def`, through `diag` (the well-formed entries are still
/// returned, so that their parameters count as set).
std::vector<Heuristic> readHeuristics(const Module &module, const FunctionDef &def,
                                      DiagnosticEngine &diag);

/// The parameters `heuristic` reads (`args["K"]`), in order of appearance.
std::vector<std::string> getHeuristicInputs(const Heuristic &heuristic);

} // namespace tilec

#endif // TILEC_FRONTEND_HEURISTICS_H
