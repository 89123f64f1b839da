//===- Builtins.h - The tile language's builtin functions ---------*- C++ -*-===//
//
// Every builtin (LANGUAGE.md's table plus Python's range/min/max/float/int)
// with its signature: parameter names in order, which are required, and the
// defaults Sema fills in. A BuiltinCallExpr's args follow this order.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_BUILTINS_H
#define TILEC_FRONTEND_BUILTINS_H

#include "tilec/Frontend/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// Builtin functions. Signatures (normalized argument order) are in
/// Builtins.cpp's table and printed by getBuiltinSignature; the ones Sema
/// types today:
///   ProgramId(axis)                 -> i32 scalar; axis: constexpr int 0..2
///   NumPrograms(axis)               -> i32 scalar
///   Arange(start, end)              -> [end-start] i32; both constexpr ints
///   Load(ptr, mask=None, other=None, boundary_check=(), padding_option="",
///        cache_modifier="", eviction_policy="", volatile=False)
///                                   -> tile (or scalar) of the pointee
///   Store(ptr, value, mask=None, boundary_check=(), cache_modifier="",
///         eviction_policy="")      -> void; value converted+broadcast to ptr
///   unary math (Exp ... Erf, Tanh)(x) -> same type as x (float)
///   Maximum/Minimum(x, y), Where(condition, x, y), Fma(x, y, z)
///   Zeros(shape, dtype), Full(shape, value, dtype), ZerosLike(input)
///   ExpandDims(input, axis), BroadcastTo(input, shape)
///   MultipleOf(input, values), MaxContiguous(input, values)
///   Cdiv(x, div), DebugBarrier()
/// static_assert/static_print and Python's min/max/float/int on constexprs
/// are evaluated by Sema and never reach the typed tree.
enum class Builtin {
  // Indexing.
  ProgramId, NumPrograms, Arange, Cdiv,
  // Creation.
  Zeros, Full, ZerosLike,
  // Memory.
  Load, Store, MakeBlockPtr, Advance,
  // Shape.
  Reshape, Trans, ExpandDims, BroadcastTo, Permute,
  // Math.
  Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Sin, Cos, Tanh, Abs, Floor, Ceil,
  Sigmoid, Erf, Fma, Maximum, Minimum, Where, Clamp,
  // Reductions and scans.
  Sum, Max, Min, Argmax, Argmin, Cumsum,
  // Matrix.
  Dot,
  // Atomics.
  AtomicAdd, AtomicMax, AtomicMin, AtomicXchg, AtomicCas, AtomicAnd, AtomicOr,
  AtomicXor,
  // Hints.
  MultipleOf, MaxContiguous,
  // Debugging.
  StaticAssert, StaticPrint, DevicePrint, DeviceAssert, DebugBarrier,
  // Iteration and casts.
  Range, StaticRange, Cast, Constexpr,
  // Python builtins (bare names only).
  PyRange, PyMin, PyMax, PyFloat, PyInt,
};

/// One parameter of a builtin's signature.
struct BuiltinParam {
  llvm::StringRef name;
  bool required;
  ConstValue defaultValue; ///< When not required (None unless stated).
  /// Only by keyword (after a variadic list: device_print's `hex`).
  bool keywordOnly = false;
};

/// A builtin's description.
struct BuiltinInfo {
  Builtin kind;
  llvm::StringRef name;       ///< Canonical name without prefix: "load".
  std::vector<BuiltinParam> params;
  bool variadic = false;      ///< Extra positional args allowed (device_print).
  bool isMethod = false;      ///< Callable as `x.name(...)` with x first.
  bool isPython = false;      ///< A Python builtin (resolved without prefix).
};

/// The description of `kind`.
const BuiltinInfo &getBuiltinInfo(Builtin kind);

/// Resolves a callee name. `name` is the dotted callee as written; the
/// prefixes `tl.`, `tl.math.`, `triton.language.`, `triton.language.math.`
/// are accepted (and optional). Python builtins (range, min, max, float,
/// int) resolve only without a prefix; `min`/`max` then mean Python's
/// (Sema turns them into reductions when called with `axis`). None if unknown.
std::optional<Builtin> lookupBuiltin(llvm::StringRef name);

/// Resolves a method name (`x.to(...)`, `x.sum(...)`). None if unknown.
std::optional<Builtin> lookupBuiltinMethod(llvm::StringRef name);

/// "load(ptr, mask=None, other=None, ...)" for diagnostics and docs.
std::string getBuiltinSignature(Builtin kind);

} // namespace tilec

#endif // TILEC_FRONTEND_BUILTINS_H
