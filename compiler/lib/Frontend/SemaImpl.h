//===- SemaImpl.h - Internal interface of the Sema implementation -*- C++ -*-===//
//
// The Sema class shared by Sema.cpp (kernels, statements), SemaExpr.cpp
// (names, operators, promotion), SemaBuiltins.cpp (calls) and ConstFold.cpp
// (constexpr arithmetic). Not part of the public API.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_FRONTEND_SEMAIMPL_H
#define TILEC_LIB_FRONTEND_SEMAIMPL_H

#include "tilec/Frontend/Sema.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace tilec {

struct LibdeviceFunction;
struct AutotuneSpec;
struct TuneConfig;
struct CombineSpec;
struct Heuristic;

/// The largest tile, in elements (Triton's limit).
constexpr int64_t kMaxTileElements = int64_t(1) << 20;

/// Folds a binary operator on compile-time values with Python semantics.
/// On failure returns None and sets `error` (e.g. "division by zero").
std::optional<ConstValue> foldBinary(BinaryOp op, const ConstValue &lhs,
                                     const ConstValue &rhs, std::string &error);
/// Folds a unary operator on a compile-time value.
std::optional<ConstValue> foldUnary(UnaryOp op, const ConstValue &operand,
                                    std::string &error);
/// The constant `math.<name>` of Python's math module (pi, e, tau, inf,
/// nan), or None.
std::optional<ConstValue> getPythonMathConstant(llvm::StringRef name);
/// Python's `math.<name>(args)` on compile-time numbers (module-level
/// constants such as `1.0 / math.log(2.0)`); None with `error` set for an
/// unknown function, wrong arguments or a domain error.
std::optional<ConstValue> foldPythonMath(llvm::StringRef name,
                                         llvm::ArrayRef<ConstValue> args,
                                         std::string &error);

/// Does `block` (syntactic, nested blocks included) call the function
/// `name` or pass it on (as the combine_fn of tl.reduce)? (SemaLiveness.cpp)
bool blockCalls(const Block &block, llvm::StringRef name);

/// The names assigned anywhere in `block` (syntactic, nested blocks
/// included), in order of first appearance (SemaLiveness.cpp).
std::vector<std::string> collectAssignedNames(const Block &block);

/// The dtype constant `expr` holds (tl.float16), or None after an error
/// (SemaBuiltins.cpp).
std::optional<ScalarKind> requireDType(const Expr &expr, DiagnosticEngine &diag);

/// Analyzes one kernel. Expression functions return null after reporting an
/// error (or silently when an operand already failed).
class Sema {
public:
  Sema(const Module &module, const SemaOptions &options, DiagnosticEngine &diag)
      : module(&module), options(options), diag(diag) {}

  /// Specializes `def`; null if errors were reported.
  std::unique_ptr<KernelInstance> analyzeKernel(const FunctionDef &def);

  //===--- Statements (Sema.cpp) ---------------------------------------===//
  void analyzeBlock(const Block &block);
  void analyzeStmt(const Stmt &stmt);
  void analyzeAssign(const AssignStmt &stmt);
  void analyzeFor(const ForStmt &stmt);
  /// `for` over range/tl.range -> RangeForStmt; `bounds` are the analyzed
  /// start, end and step; `numStages` tl.range's num_stages (0: none).
  void analyzeRangeFor(const ForStmt &stmt, const NameExpr &target,
                       llvm::MutableArrayRef<ExprPtr> bounds,
                       unsigned numStages);
  /// `for` over tl.static_range: the body is analyzed once per iteration.
  void analyzeStaticRange(const ForStmt &stmt, const NameExpr &target,
                          llvm::MutableArrayRef<ExprPtr> bounds);
  void analyzeWhile(const WhileStmt &stmt);
  void analyzeIf(const IfStmt &stmt);
  void analyzeReturn(const ReturnStmt &stmt);
  /// `x if c else y` with a runtime scalar `c`: a RuntimeIfStmt that
  /// evaluates only the taken side; returns its result variable.
  ExprPtr analyzeRuntimeIfExpr(const IfExpr &expr, ExprPtr cond);

  //===--- Device functions (SemaFunctions.cpp) -------------------------===//
  /// Inlines a call of device function `def`: binds the arguments in a fresh
  /// scope, analyzes the body into the current block and returns the
  /// returned value (None, a value, or a TupleExpr of typed values).
  /// `self`, when given, is the first argument (a prelude function called as
  /// a method: `x.sort()`); the call's own arguments follow it.
  ExprPtr callDeviceFunction(const FunctionDef &def, const CallExpr &call,
                             ExprPtr self = nullptr);
  /// Matches a call's arguments to `def`'s parameters (keywords, defaults,
  /// annotations); one analyzed value per parameter. False after an error.
  bool bindArguments(const FunctionDef &def, const CallExpr &call, ExprPtr self,
                     std::vector<ExprPtr> &values);
  /// Assigns a runtime return value to a fresh variable inside the callee.
  ExprPtr materializeReturn(ExprPtr value);
  /// Assigns the runtime `value` to a fresh variable named `name` (it is
  /// evaluated here, once) and returns a read of it.
  std::unique_ptr<NameExpr> evaluateOnce(llvm::StringRef name, ExprPtr value);
  /// Another read of the variable that `read` reads.
  static std::unique_ptr<NameExpr> readAgain(const NameExpr &read);
  /// Binds `name` to `value`: constexpr values are folded into the scope,
  /// runtime values produce an AssignStmt. A null value poisons the name.
  void bind(llvm::StringRef name, SourceLoc loc, ExprPtr value);

  //===--- Expressions (SemaExpr.cpp) ----------------------------------===//
  ExprPtr analyzeExpr(const Expr &expr);
  ExprPtr analyzeName(const NameExpr &expr);
  /// The value of module-level constant `global`, read at `loc`.
  ExprPtr analyzeGlobal(const GlobalDef &global, SourceLoc loc);
  /// Reports `name` when a foreign import binds it (a module tilec cannot
  /// read) or Python host code defines it (a class, a function outside the
  /// language); returns whether it did.
  bool reportUnreadableName(llvm::StringRef name, SourceLoc loc);
  /// Reports `name` (a module-level constant or function, `what`) when host
  /// code or an import may bind it too; returns whether it did.
  bool reportAmbiguousName(llvm::StringRef name, SourceLoc loc, llvm::StringRef what);
  ExprPtr analyzeAttribute(const AttributeExpr &expr);
  ExprPtr analyzeUnary(const UnaryExpr &expr);
  ExprPtr analyzeBinary(SourceLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs);
  ExprPtr analyzeTuple(const TupleExpr &expr);
  ExprPtr analyzeSubscript(const SubscriptExpr &expr);
  /// `tuple[lower:upper:step]` of a constexpr tuple.
  ExprPtr sliceTuple(const ConstValue &tuple, const SliceExpr &slice, SourceLoc loc);
  ExprPtr analyzeIfExpr(const IfExpr &expr);

  /// A Constexpr-typed constant.
  static ExprPtr makeConstant(SourceLoc loc, ConstValue value);
  /// The value of a Constexpr-typed ConstantExpr, or null.
  static const ConstValue *getConstexpr(const Expr &expr);
  /// True if `expr` is the constexpr None (an omitted optional argument).
  static bool isNone(const Expr &expr) {
    const ConstValue *value = getConstexpr(expr);
    return value && value->isNone();
  }
  /// Converts `expr` (runtime, or a constexpr number) to element `elem`
  /// and broadcasts it to `shape`; constants are re-typed in place.
  ExprPtr coerce(ExprPtr expr, ScalarKind elem, llvm::ArrayRef<int64_t> shape);
  /// Broadcasts a runtime value (keeping its element/pointer) to `shape`.
  ExprPtr broadcast(ExprPtr expr, llvm::ArrayRef<int64_t> shape);
  /// Gives the operands one element type and shape (Triton's promotion and
  /// NumPy broadcasting). `what` names the operation in errors. Returns
  /// the common element type, or None after an error.
  std::optional<ScalarKind> unify(llvm::MutableArrayRef<ExprPtr> operands,
                                  SourceLoc loc, llvm::StringRef what);
  /// Requires a constexpr int; `what` describes the argument in errors.
  std::optional<int64_t> requireConstInt(const Expr &expr, llvm::StringRef what);
  /// A constexpr shape: an int or a tuple/list of ints, all powers of two.
  std::optional<Shape> requireShape(const Expr &expr, llvm::StringRef what);
  /// Reports unless `dim` is a power of two (the tile shape rule).
  bool checkDimension(int64_t dim, SourceLoc loc);
  /// Reports unless a tile of `shape` has at most kMaxTileElements elements.
  bool checkNumElements(llvm::ArrayRef<int64_t> shape, SourceLoc loc);

  //===--- Calls (SemaBuiltins.cpp) ------------------------------------===//
  ExprPtr analyzeCall(const CallExpr &call);
  /// `x.to(tl.pointer_type(pointee))` of an int64 address or a pointer.
  ExprPtr typePointerCast(SourceLoc loc, ExprPtr input, ScalarKind pointee);
  /// `math.<name>(...)` of Python's math module, folded on constants.
  ExprPtr analyzePythonMathCall(const CallExpr &call, llvm::StringRef name);

  DiagnosticEngine &getDiag() { return diag; }

private:
  /// A name in the kernel's scope: a constexpr value or a Variable.
  struct Binding {
    ConstValue value;       ///< When var is null and not poisoned.
    Variable *var = nullptr;
    Type type;              ///< The variable's current type.
    bool poisoned = false;  ///< Its definition failed: uses stay silent.
    SourceLoc loc;          ///< The latest assignment (for error messages).
    /// For a poisoned name that was never defined on this path (e.g. set in
    /// one branch of a runtime `if` only): the error a use reports.
    std::string reason;
  };

  /// A block being analyzed (for the liveness questions of control flow).
  struct Frame {
    const Block *block;
    size_t index = 0;                      ///< The statement being analyzed.
    bool loopBody = false;                 ///< Runs again (loop body).
    const Expr *loopCond = nullptr;        ///< A while loop's condition.
    llvm::ArrayRef<std::string> carried;   ///< The enclosing loop's carried names.
  };
  /// The device function being inlined.
  struct FunctionContext {
    const FunctionDef *def = nullptr;
    SourceLoc callLoc;
    unsigned runtimeDepth = 0; ///< Nesting in runtime if/loops.
    bool returned = false;
    ExprPtr returnValue;
  };

  /// Analyzes `block` with a frame for liveness; `loopBody` marks loop bodies.
  void analyzeBlockIn(const Block &block, bool loopBody, const Expr *loopCond,
                      llvm::ArrayRef<std::string> carried);
  /// May `name` be read after the current statement (later statements,
  /// further iterations of enclosing loops)?
  bool isLiveAfter(llvm::StringRef name) const;
  /// Gives a constexpr binding a runtime Variable (its natural type), by
  /// emitting an assignment into the current block. False after an error.
  bool materialize(llvm::StringRef name, SourceLoc loc);
  /// Gives every carried name a runtime Variable before a loop and records
  /// it in `carried`. False after an error.
  bool enterLoop(llvm::ArrayRef<std::string> names, SourceLoc loc,
                 std::vector<CarriedVar> &carried);
  /// Restores the scope after a loop (see SemaControlFlow.cpp).
  void finishLoop(const llvm::StringMap<Binding> &before, const Block &body,
                  llvm::StringRef loopVar, llvm::ArrayRef<CarriedVar> carried,
                  llvm::ArrayRef<std::string> carriedNames, SourceLoc loc);
  /// The hidden name a `return` inside a runtime `if` assigns ("<fn>.return").
  std::string getReturnName() const;
  /// After a branch of a runtime `if`: did it return? Clears the flag.
  bool takeReturned();
  /// Analyzes into `branchBlock`, with `branchScope`, the statements that
  /// follow the runtime `if` whose enclosing frames are `outerFrames` (the
  /// rest of the function), for a branch that does not return while another
  /// does. Falling off the end returns None.
  void analyzeContinuation(llvm::StringMap<Binding> &branchScope, Block &branchBlock,
                           llvm::ArrayRef<Frame> outerFrames);
  /// Reports (and returns false) unless the values two branches of a runtime
  /// `if` return can be merged into one type.
  bool checkReturnTypes(const Binding &a, const Binding &b);
  /// checkCarried for `name` in one branch of a runtime `if`.
  bool checkBranch(llvm::StringMap<Binding> &branchScope, Block &branchBlock,
                   llvm::StringRef name, const Type &type, SourceLoc ifLoc);
  /// A runtime or constexpr condition as an i1 scalar; tiles are an error.
  /// `what` names the construct ("'if'").
  ExprPtr toCondition(ExprPtr cond, llvm::StringRef what);
  /// Reports (once) when Sema's recursion gets too deep for the stack.
  bool checkStackDepth(SourceLoc loc);
  /// Returns the carried variables for a loop over `body` (and `cond`):
  /// names assigned in it, defined before it, and read in it or after it.
  std::vector<std::string> loopCarriedNames(const Block &body, const Expr *cond);
  /// Checks a carried name's binding at the end of a loop body against its
  /// type on entry (Triton's rule); coerces constexpr numbers.
  bool checkCarried(llvm::StringRef name, const Type &type, SourceLoc loopLoc,
                    llvm::StringRef what);

  /// The kernel's @autotune for a compilation: errors in reading it become
  /// one warning (the values come from -D).
  std::optional<AutotuneSpec> readAutotuneForCompile(const FunctionDef &def);
  /// What an analyzed `expr` is, for an error that got something else: its
  /// constant value, "a tuple of N values" (with a word on trailing commas)
  /// or its type.
  static std::string describeValue(const Expr &expr);
  /// The @autotune configuration (SemaOptions::autotuneConfig) whose values
  /// the kernel is compiled with, with a note naming it; null when -D gives
  /// every tuned value or no configuration was asked for.
  const TuneConfig *chooseAutotuneConfig(const FunctionDef &def,
                                         const std::optional<AutotuneSpec> &autotune);
  /// The value `config` gives constexpr `name`, or null.
  static const ConstValue *configValue(const TuneConfig *config, llvm::StringRef name);
  /// Evaluates `h` in the kernel's scope and binds its parameter.
  void evaluateHeuristic(const Heuristic &h, const FunctionDef &def,
                         KernelInstance &instance);
  /// `args["NAME"]` inside the heuristic being evaluated.
  ExprPtr analyzeHeuristicArgument(const SubscriptExpr &expr);
  /// The heuristic being evaluated, or null.
  const Heuristic *heuristic = nullptr;
  /// The runtime scalars it has read, for the error if its value is not a
  /// constant.
  std::vector<std::string> heuristicRuntimeReads;
  /// The prelude's function that the full dotted callee `path` names
  /// (`tl.rand`), parsing the prelude on first use; null if none.
  const FunctionDef *lookupPreludeFunction(llvm::StringRef path);
  /// The prelude (Prelude.h), once a kernel calls into it.
  std::unique_ptr<Module> prelude;
  /// tl.reduce / tl.associative_scan with a combine function
  /// (SemaCombine.cpp).
  ExprPtr analyzeCombineCall(Builtin builtin, const CallExpr &call,
                             llvm::StringRef calleeName, ExprPtr self);
  /// Inlines `combine` on scalars of `kinds` into `spec` (its variables,
  /// body and results).
  bool inlineCombine(const FunctionDef &combine, llvm::ArrayRef<ScalarKind> kinds,
                     SourceLoc loc, CombineSpec &spec);
  /// A call of a libdevice function (SemaLibdevice.cpp).
  ExprPtr analyzeLibdeviceCall(const LibdeviceFunction &function,
                               const CallExpr &call, llvm::StringRef calleeName);
  ExprPtr analyzeBuiltin(Builtin builtin, const CallExpr &call,
                         llvm::StringRef calleeName, ExprPtr self);
  bool normalizeArgs(Builtin builtin, const CallExpr &call,
                     llvm::StringRef calleeName, ExprPtr self,
                     std::vector<ExprPtr> &args);
  ExprPtr typeBuiltin(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                      std::vector<ExprPtr> args);
  ExprPtr typeMemoryOp(Builtin builtin, SourceLoc loc, std::vector<ExprPtr> args);
  /// Checks a load's or store's cache_modifier and eviction_policy: a
  /// warning that tilec does not apply them (naming the values Triton
  /// accepts when it would not accept this one), an error for a non-string.
  void checkMemoryOptions(Builtin builtin, llvm::ArrayRef<ExprPtr> args);
  ExprPtr typeCast(SourceLoc loc, std::vector<ExprPtr> args);
  /// The runtime non-pointer value type of `expr`, or null after an error
  /// naming `calleeName`.
  const Type *requireValue(const Expr &expr, llvm::StringRef calleeName);
  /// sum/max/min/argmax/argmin (SemaReductions.cpp).
  ExprPtr typeReduction(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                        std::vector<ExprPtr> args);
  /// cumsum (SemaReductions.cpp).
  ExprPtr typeScan(SourceLoc loc, llvm::StringRef calleeName,
                   std::vector<ExprPtr> args);
  /// histogram(input, num_bins, mask) (SemaReductions.cpp).
  ExprPtr typeHistogram(SourceLoc loc, std::vector<ExprPtr> args);
  /// dot (SemaReductions.cpp).
  ExprPtr typeDot(SourceLoc loc, std::vector<ExprPtr> args);
  /// trans/permute/reshape (SemaShapeOps.cpp).
  ExprPtr typeShapeOp(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                      std::vector<ExprPtr> args);
  /// atomic_* (SemaAtomics.cpp).
  ExprPtr typeAtomic(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                     std::vector<ExprPtr> args);
  /// Checks the `mask` of a load/store/atomic (an i1 tile or scalar, or a
  /// constexpr bool) and broadcasts it to the pointer's `shape`.
  ExprPtr typeMask(ExprPtr mask, llvm::ArrayRef<int64_t> shape);
  /// Checks that `operand` ('other', 'value', 'val', ...) broadcasts to the
  /// pointer's `shape` and converts it to `elem`. Both shapes are named in
  /// the error.
  ExprPtr typePointee(ExprPtr operand, llvm::StringRef what, llvm::StringRef callee,
                      ScalarKind elem, llvm::ArrayRef<int64_t> shape);
  //===--- Block pointers (SemaBlockPointers.cpp) ----------------------===//
public:
  /// The scope names of the runtime parts of block-pointer variable `name`
  /// (base, shape0.., stride0.., offset0..) or of tuple variable `name`
  /// ("name.0", "name.1", ...), or empty if `name` is neither. A loop that
  /// assigns `name` must carry each of these names.
  std::vector<std::string> getVariableParts(llvm::StringRef name) const;
  /// Binds block-pointer value `value` to `name`: one scalar variable per
  /// runtime part (see Types.h). bind() forwards block pointers here.
  void bindBlockPointer(llvm::StringRef name, SourceLoc loc, ExprPtr value);

private:
  /// The compile-time facts of a block-pointer variable.
  struct BlockPointerInfo {
    ScalarKind elem;
    Shape blockShape;
    ConstValue blockShapeValue, order;
    Type::Padding padding; ///< None, or a tensor descriptor's.
  };
  ExprPtr typeMakeBlockPtr(SourceLoc loc, std::vector<ExprPtr> args);
  ExprPtr typeAdvance(SourceLoc loc, std::vector<ExprPtr> args);
  /// `bptr` (its arguments taken) moved by the tuple `offsets`.
  ExprPtr advanceBlockPointer(SourceLoc loc, BuiltinCallExpr &bptr, ExprPtr offsets,
                              llvm::StringRef what);
  ExprPtr typeMakeTensorDescriptor(SourceLoc loc, std::vector<ExprPtr> args);
  /// Kernel parameter `param` of host tensor descriptor type `type`: adds
  /// its parts to `instance`'s parameters (KernelParam::descriptor) and
  /// binds `param`'s name to the descriptor they make. With
  /// `shapesDivisible`, every dimension is assumed a multiple of 16.
  void bindHostDescriptor(const Param &param, const Type &type, bool shapesDivisible,
                          KernelInstance &instance);
  /// tl.inline_asm_elementwise (SemaInlineAsm.cpp).
  ExprPtr typeInlineAsm(SourceLoc loc, std::vector<ExprPtr> args);
  /// desc.load(offsets) / desc.store(offsets, value): a block-pointer access
  /// with every dimension checked.
  ExprPtr typeDescriptorAccess(Builtin builtin, SourceLoc loc, std::vector<ExprPtr> args);
  /// desc.dtype, desc.block_shape (constexprs), desc.shape, desc.strides
  /// (tuples of its runtime parts).
  ExprPtr tensorDescriptorAttribute(ExprPtr desc, llvm::StringRef name, SourceLoc loc);
  /// load/store of a block pointer, rewritten to a pointer tile and a mask.
  /// `boundName`, when given, receives the name the block pointer's parts
  /// were bound to.
  ExprPtr typeBlockPointerAccess(Builtin builtin, SourceLoc loc,
                                 std::vector<ExprPtr> args,
                                 std::string *boundName = nullptr);
  /// `access` (a load or store of the block pointer bound to `blockName`),
  /// with tensor map `map`, the coordinates and the descriptor's parts
  /// appended to its arguments (MLIRGen gives them to tile.load's or
  /// tile.store's `tma` operands).
  ExprPtr addTensorMap(ExprPtr access, ExprPtr map, llvm::StringRef blockName,
                       SourceLoc loc);
  /// `access` (a load or store of the block pointer bound to `blockName`,
  /// made in the kernel) with a tensor map of its parts (a MakeTensorMap
  /// call, its dimensions in memory order: swapped for a block pointer of
  /// order (0, 1)), when the target builds maps in kernels and the tensor
  /// memory accelerator can copy its blocks; else `access` as it is.
  ExprPtr addDeviceTensorMap(ExprPtr access, llvm::StringRef blockName, SourceLoc loc);
  /// The value of block-pointer variable `name` (rebuilt from its parts).
  ExprPtr loadBlockPointer(llvm::StringRef name, SourceLoc loc);
  /// Reshapes a 1-D tile to rank `rank`, keeping it along `dim`.
  ExprPtr alongDim(ExprPtr x, size_t dim, size_t rank);
  /// The `rank` integer scalars of a tuple argument, converted to `elem`.
  std::optional<std::vector<ExprPtr>> requireScalarTuple(ExprPtr tuple, size_t rank,
                                                         ScalarKind elem,
                                                         llvm::StringRef what);
  llvm::StringMap<BlockPointerInfo> blockPointers;
  /// inline_asm_elementwise calls so far (each one group of result calls).
  int64_t inlineAsmGroups = 0;
  /// A host tensor descriptor with a CUtensorMap parameter: the scoped name
  /// of that parameter ("$a.tensormap") and the variable of the descriptor's
  /// base ("a.base", which a load of the descriptor itself reads).
  struct HostTensorMap {
    std::string scopedName;
    Variable *base = nullptr;
  };
  /// By the descriptor's name.
  llvm::StringMap<HostTensorMap> hostTensorMaps;
  /// Variables holding a tuple of runtime values (`pair = (a, x)`): their
  /// arity; element i is the variable "name.i".
  llvm::StringMap<size_t> tupleVariables;
  /// Temporaries made so far for the elements of tuples being bound.
  unsigned tupleTemporaries = 0;

  /// device_print/device_assert (SemaAtomics.cpp).
  ExprPtr typeDeviceDebug(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                          std::vector<ExprPtr> args);
  ExprPtr makeCall(SourceLoc loc, Builtin builtin, std::vector<ExprPtr> args,
                   Type type);

  /// The module whose names the code being analyzed sees: the kernel's,
  /// or the file an imported function or constant comes from.
  const Module *module;
  /// Makes `owner` (when set) the module names resolve in until destroyed.
  struct ModuleScope {
    ModuleScope(Sema &sema, const Module *owner) : sema(sema), saved(sema.module) {
      if (owner)
        sema.module = owner;
    }
    ~ModuleScope() { sema.module = saved; }
    Sema &sema;
    const Module *saved;
  };
  const SemaOptions &options;
  DiagnosticEngine &diag;
  KernelInstance *kernel = nullptr;
  Block *out = nullptr;
  llvm::StringMap<Binding> scope;
  /// The kernel's scope when a heuristic started (its arguments).
  llvm::StringMap<Binding> heuristicScope;
  /// Module-level constants already evaluated, and those being evaluated
  /// (a cycle among them is an error).
  llvm::DenseMap<const GlobalDef *, ConstValue> globalValues;
  llvm::SmallVector<const GlobalDef *> evaluatingGlobals;
  llvm::StringMap<Variable *> variables;
  std::vector<Frame> frames;
  FunctionContext *function = nullptr;
  /// Device functions being inlined (outermost first), for recursion checks.
  std::vector<const FunctionDef *> callStack;
  /// The stack address when analysis started (see checkStackDepth).
  const char *stackBase = nullptr;
  bool reportedDeepStack = false;
  /// Statements analyzed for the current kernel (unrolled and inlined
  /// copies included), bounded so that no input makes Sema run for long.
  size_t analyzedStatements = 0;
};

/// Requires a constexpr bool (or int) flag; None counts as false.
std::optional<bool> requireFlag(const Expr &expr, llvm::StringRef what,
                                DiagnosticEngine &diag);
/// `type` (of argument `expr`) if it is a tile; null after an error.
const Type *requireTile(const Type *type, const Expr &expr, llvm::StringRef calleeName,
                        DiagnosticEngine &diag);
/// Normalizes a constexpr axis against `rank` (negative counts from the
/// end); None after an error naming `calleeName`.
std::optional<int64_t> normalizeAxis(Sema &sema, const Expr &expr, int64_t rank,
                                     llvm::StringRef calleeName);

} // namespace tilec

#endif // TILEC_LIB_FRONTEND_SEMAIMPL_H
