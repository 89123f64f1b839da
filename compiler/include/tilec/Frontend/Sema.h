//===- Sema.h - Semantic analysis and kernel specialization ------*- C++ -*-===//
//
// Sema takes a parsed Module, picks the kernels to compile, binds every
// constexpr parameter (default or `-D NAME=VALUE` override), and builds for
// each kernel a KernelInstance: a specialized, fully typed body in which
//   - every Expr has its Type; constexpr arithmetic is folded to
//     ConstantExprs; shapes are concrete;
//   - names are NameExprs bound to Variables (an AssignStmt is a new SSA
//     definition of its Variable; constexpr locals are folded away);
//   - builtin calls are BuiltinCallExprs with normalized arguments;
//   - implicit conversions/broadcasts are explicit ConvertExpr/BroadcastExpr,
//     so each BinaryExpr maps to one arith/addptr op (see AST.h);
//   - augmented assignments are plain AssignStmts; docstrings and `pass`
//     are gone; constexpr `if` is resolved (only the taken branch remains).
// Statements of a typed body: AssignStmt and ExprStmt. Features not
// implemented yet are rejected with "not supported yet: ...".
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_SEMA_H
#define TILEC_FRONTEND_SEMA_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilec {

/// The alignment in bytes that kernels assume of a pointer argument unless
/// it is specialized `none`; the runtime rejects arguments that break it
/// (metadata "align").
constexpr unsigned kPointerArgAlignment = 16;

/// What to compile and how.
struct SemaOptions {
  /// The kernel to compile; empty compiles every kernel of the module.
  std::string kernelName;
  /// `-D NAME=VALUE` overrides of constexpr parameters, in command-line order
  /// (see parseDefine). An override must name a constexpr parameter of at
  /// least one compiled kernel.
  std::vector<std::pair<std::string, ConstValue>> defines;
  /// `--specialize NAME=16|1`: runtime integer parameters the kernel may
  /// assume divisible by 16 (16) or equal to 1 (1), as Triton specializes
  /// its launches; the metadata records them and the runtime refuses
  /// arguments that break them. Each must name a runtime integer parameter
  /// of at least one compiled kernel.
  /// A pointer parameter may be given 0 (`NAME=none`): the kernel then
  /// assumes only the element's alignment instead of 16 bytes (integers: 0
  /// assumes nothing, the default).
  std::vector<std::pair<std::string, unsigned>> specializations;
  /// `--signature NAME=TYPE`: the types of unannotated kernel parameters
  /// (Triton's kernels leave them out; its JIT takes them from the launch).
  /// An annotated parameter may be named with its own type.
  std::vector<std::pair<std::string, Type>> signature;
  /// Values of runtime arguments that @triton.heuristics read (the JIT
  /// passes the launch's); a heuristic reading another runtime scalar is an
  /// error.
  std::vector<std::pair<std::string, ConstValue>> argumentValues;
  /// Command-line overrides of the decorator's launch options.
  std::optional<unsigned> numWarps, numStages;
  /// The @autotune configuration whose values fill the tuned constexprs that
  /// `defines` leaves out (CompileOptions::autotuneConfig).
  std::optional<unsigned> autotuneConfig;
  /// Used when neither the command line nor the decorator gives a value.
  unsigned defaultNumWarps = 4, defaultNumStages = 3;
  /// Whether the target has the tensor memory accelerator (sm_90): a host
  /// tensor descriptor whose blocks it can copy also gets a CUtensorMap
  /// parameter (KernelParam::tensorMap).
  bool tensorMaps = false;
  /// Whether kernels may build tensor maps themselves (sm_90a's
  /// tensormap.replace): a load of a 2-D tensor descriptor or block pointer
  /// made in the kernel then carries a map of its parts (tile.make_tensormap),
  /// which tilegpu-pipeline may copy with.
  bool deviceTensorMaps = false;
};

/// Parses the text of a `-D` option, "NAME=VALUE": VALUE is an int
/// (decimal/hex/binary), a float, True/False/true/false, None, a dtype name
/// (`fp16`, `tl.float16`), a flat tuple `(16, 32)` / `[16, 32]` of such
/// values, or else a string (quotes optional; quoted, always a string).
/// Returns false (and sets `error`) if malformed.
bool parseDefine(llvm::StringRef text, std::pair<std::string, ConstValue> &result,
                 std::string &error);

/// Parses the text of `--specialize`, comma-separated "NAME=16" or "NAME=1"
/// items, appending to `result`. Returns false (and sets `error`) if
/// malformed or a name repeats.
bool parseSpecializations(llvm::StringRef text,
                          std::vector<std::pair<std::string, unsigned>> &result,
                          std::string &error);

/// Parses the text of `--signature`, comma-separated "NAME=TYPE" items where
/// TYPE is a scalar or pointer type as in an annotation (`i32`, `*fp16`,
/// `tl.float32`), optionally followed by `:16`, `:1` or `:none` as in
/// Triton's AOT signatures (appended to `specializations`). Returns false
/// (and sets `error`) if malformed or a name repeats.
bool parseSignature(llvm::StringRef text,
                    std::vector<std::pair<std::string, Type>> &signature,
                    std::vector<std::pair<std::string, unsigned>> &specializations,
                    std::string &error);

/// A parameter of a specialized kernel.
struct KernelParam {
  std::string name;
  SourceLoc loc;
  /// Constexpr parameters are not kernel arguments: their uses are folded.
  bool isConstexpr = false;
  /// Runtime parameters: a scalar (`i32`) or pointer (`*fp32`) type.
  Type type;
  /// Constexpr parameters: the specialized value.
  ConstValue value;
  /// Runtime parameters: the Variable bound to the argument (null for
  /// constexpr parameters).
  Variable *var = nullptr;
  /// Runtime integer parameters: 16 when it is assumed divisible by 16, 1
  /// when assumed equal to 1 (--specialize), 0 otherwise.
  unsigned specialization = 0;
  /// Pointer parameters: the alignment in bytes the kernel assumes of the
  /// argument (16, or the element's size with `--specialize NAME=none`).
  unsigned align = 0;
  /// A host tensor descriptor parameter `a` (`--signature
  /// a=tensordesc<fp16[64, 64]>`) is passed as the parameters "a.base"
  /// (*fp16), "a.shape<d>" and "a.stride<d>" (i64, in elements) for each
  /// dimension d: each part names its descriptor here.
  std::string descriptor;
  /// The base part of a host tensor descriptor: its block shape.
  std::vector<int64_t> descriptorBlockShape;
  /// The last part "a.tensormap" of a host tensor descriptor on sm_90,
  /// after its strides: the CUtensorMap (128 bytes, by value) the runtime
  /// encodes from the descriptor, whose boxes of `tensorMapBox` (outermost
  /// dimension first) land in shared memory with a `tensorMapSwizzle`-byte
  /// swizzle. Its `type` is unused.
  bool tensorMap = false;
  std::vector<int64_t> tensorMapBox;
  int64_t tensorMapSwizzle = 0;
};

/// One kernel specialized for its constexpr values: the input of MLIRGen.
class KernelInstance {
public:
  const FunctionDef *def = nullptr; ///< The source function.
  std::string name;
  SourceLoc loc;
  /// All parameters in source order (runtime and constexpr).
  std::vector<KernelParam> params;
  unsigned numWarps = 4, numStages = 3;
  /// The typed body.
  Block body;

  /// Creates a Variable owned by this instance.
  Variable *createVariable(llvm::StringRef name, SourceLoc loc);

private:
  std::vector<std::unique_ptr<Variable>> variables;
};

/// True when `def` is compiled without --kernel: it has a decorator and no
/// other function of `module` calls it (a called one, like Triton's
/// @triton.jit helpers, is a device function there; --kernel or the JIT can
/// still launch it).
bool isEntryPoint(const Module &module, const FunctionDef &def);

/// A dtype's attribute as Triton spells it (`x.dtype.primitive_bitwidth`,
/// `int_bitwidth`, `itemsize`, `name`, `fp_mantissa_width`), or None.
std::optional<ConstValue> getDTypeAttribute(ScalarKind kind, llvm::StringRef name);
/// A dtype's predicate method (`x.dtype.is_floating()`, `is_int_signed`,
/// `is_fp16`, ...), or None when `name` is none.
std::optional<bool> getDTypePredicate(ScalarKind kind, llvm::StringRef name);

/// Analyzes `module`; on success returns one KernelInstance per selected
/// kernel (source order). Returns an empty vector iff errors were reported
/// (check diag.hasErrors()). Errors of all selected kernels are reported.
std::vector<std::unique_ptr<KernelInstance>>
analyze(const Module &module, const SemaOptions &options, DiagnosticEngine &diag);

} // namespace tilec

#endif // TILEC_FRONTEND_SEMA_H
