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

/// The arguments of a typed tl.load call (ptr, mask, other, boundary_check,
/// padding_option, cache_modifier, eviction_policy, volatile). A load of a
/// tensor descriptor or block pointer may have three more: its tensor map, a
/// tuple of coordinates and a tuple of the descriptor's parts
/// (Sema::addTensorMap).
constexpr unsigned kLoadArgs = 8;

/// The arguments of a typed tl.store call (ptr, value, mask, boundary_check,
/// cache_modifier, eviction_policy); a store of a tensor descriptor or block
/// pointer may have the same three more as a load (kLoadArgs).
constexpr unsigned kStoreArgs = 6;

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
/// are evaluated by Sema and never reach the typed tree. The normalized
/// argument lists of the other builtins are documented at the top of
/// SemaReductions.cpp, SemaShapeOps.cpp, SemaAtomics.cpp and
/// SemaBlockPointers.cpp.
///
/// Semantics follow triton.language 3.x; the differences and the choices
/// where Triton leaves room (for the language reference):
///  - `//` and `%` on signed integers truncate toward zero (C semantics, as
///    Triton: arith.divsi/remsi), not Python's flooring; `%` on floats is
///    fmod. cdiv(x, d) = (x + d - 1) // d with that division.
///  - exp/log/sin/... on fp16/bf16 compute in fp32 and round back; on
///    integers they are an error (Triton: "Expected dtype fp32/fp64");
///    fp64 transcendental functions are not supported (PTX has no fp64
///    exp/log/sin; sqrt, abs, floor, ceil and fma on fp64 work).
///  - maximum/minimum/clamp on floats are maxnumf/minnumf (Triton's default
///    propagate_nan=NONE: a NaN operand yields the other one); clamp
///    requires floats, as Triton. `propagate_nan=` is not accepted.
///  - sum/cumsum of integers narrower than 32 bits accumulate in i32 (u32
///    for unsigned; i1 counts as signed); sum of fp16 stays fp16; max and
///    min widen types narrower than 32 bits (fp16/bf16 -> fp32, small
///    integers -> i32), argmax, argmin and cumsum promote bf16 to fp32.
///    `dtype=` overrides.
///  - argmax/argmin return i32; ties pick the smaller index; comparisons
///    are ordered, so NaNs never win (the result with NaNs is unspecified,
///    as in Triton). tie_break_left=False and max/min(return_indices=True)
///    are not supported.
///  - dot: 2-D only, M, N, K >= 16, both inputs of one type among fp16,
///    bf16, fp32; accumulates in fp32 (an fp16 `acc` or out_dtype=fp16 is
///    rounded at the end). input_precision/allow_tf32 are accepted and
///    ignored: fp32 inputs always multiply in full fp32 ("ieee").
///  - atomics: acq_rel at GPU scope; sem="acq_rel"/scope="gpu" (or omitted)
///    are accepted, other values are "not supported yet". Types: every kind
///    on 32/64-bit integers; add/max/min/xchg on fp32/fp64; on 16 bits,
///    xchg and fp16/bf16 add/max/min; no 8-bit or i1 atomics.
///  - load/store: cache_modifier, eviction_policy are accepted and ignored;
///    volatile=True is not supported.
///  - block pointers are lowered in the frontend (no pointer-of-tensor
///    type); see SemaBlockPointers.cpp. padding_option="" leaves
///    out-of-bounds elements undefined.
///  - device_print prints the prefix as given (no separator is added).
enum class Builtin {
  // Indexing.
  ProgramId, NumPrograms, Arange, Cdiv,
  // Creation.
  Zeros, Full, ZerosLike,
  // Memory.
  Load, Store, MakeBlockPtr, Advance,
  // Shape.
  Reshape, Trans, ExpandDims, BroadcastTo, Permute, BroadcastPair,
  // Math.
  Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Sin, Cos, Tanh, Abs, Floor, Ceil,
  Sigmoid, Erf, Fma, Maximum, Minimum, Where, Clamp,
  // A libdevice function: (symbol, args...), typed by SemaLibdevice.cpp.
  LibdeviceCall,
  // Reductions and scans.
  Sum, Max, Min, Argmax, Argmin, Cumsum, Reduce, AssociativeScan, Histogram,
  // Matrix.
  Dot,
  // Atomics.
  AtomicAdd, AtomicMax, AtomicMin, AtomicXchg, AtomicCas, AtomicAnd, AtomicOr,
  AtomicXor,
  // Hints.
  MultipleOf, MaxContiguous, MaxConstancy, Assume,
  // Debugging.
  StaticAssert, StaticPrint, DevicePrint, DeviceAssert, DebugBarrier,
  // Iteration and casts.
  Range, StaticRange, Cast, Constexpr, NextPowerOf2, PointerType,
  // Python builtins (bare names only).
  PyRange, PyMin, PyMax, PyFloat, PyInt, PyBool, PyLen,
  // Reshape that may reorder elements.
  View,
  // Tensor descriptors (block pointers checked in every dimension).
  MakeTensorDescriptor, DescriptorLoad, DescriptorStore,
  // The user's PTX, element by element.
  InlineAsmElementwise,
  // Internal (no source name reaches it): the tensor map of a 2-D block
  // made in the kernel, (base, shape0, shape1, stride0, stride1, box,
  // swizzle), typed as an i64 placeholder (Sema::addDeviceTensorMap).
  MakeTensorMap,
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
