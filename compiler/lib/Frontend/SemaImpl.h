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

#include "llvm/ADT/StringMap.h"

namespace tilec {

/// The largest tile, in elements (Triton's limit).
constexpr int64_t kMaxTileElements = int64_t(1) << 20;

/// Folds a binary operator on compile-time values with Python semantics.
/// On failure returns None and sets `error` (e.g. "division by zero").
std::optional<ConstValue> foldBinary(BinaryOp op, const ConstValue &lhs,
                                     const ConstValue &rhs, std::string &error);
/// Folds a unary operator on a compile-time value.
std::optional<ConstValue> foldUnary(UnaryOp op, const ConstValue &operand,
                                    std::string &error);

/// Analyzes one kernel. Expression functions return null after reporting an
/// error (or silently when an operand already failed).
class Sema {
public:
  Sema(const Module &module, const SemaOptions &options, DiagnosticEngine &diag)
      : module(module), options(options), diag(diag) {}

  /// Specializes `def`; null if errors were reported.
  std::unique_ptr<KernelInstance> analyzeKernel(const FunctionDef &def);

  //===--- Statements (Sema.cpp) ---------------------------------------===//
  void analyzeBlock(const Block &block);
  void analyzeStmt(const Stmt &stmt);
  void analyzeAssign(const AssignStmt &stmt);
  void analyzeFor(const ForStmt &stmt);
  /// Binds `name` to `value`: constexpr values are folded into the scope,
  /// runtime values produce an AssignStmt. A null value poisons the name.
  void bind(llvm::StringRef name, SourceLoc loc, ExprPtr value);

  //===--- Expressions (SemaExpr.cpp) ----------------------------------===//
  ExprPtr analyzeExpr(const Expr &expr);
  ExprPtr analyzeName(const NameExpr &expr);
  ExprPtr analyzeAttribute(const AttributeExpr &expr);
  ExprPtr analyzeUnary(const UnaryExpr &expr);
  ExprPtr analyzeBinary(SourceLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs);
  ExprPtr analyzeTuple(const TupleExpr &expr);
  ExprPtr analyzeSubscript(const SubscriptExpr &expr);
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

  DiagnosticEngine &getDiag() { return diag; }

private:
  /// A name in the kernel's scope: a constexpr value or a Variable.
  struct Binding {
    ConstValue value;       ///< When var is null and not poisoned.
    Variable *var = nullptr;
    Type type;              ///< The variable's current type.
    bool poisoned = false;  ///< Its definition failed: uses stay silent.
  };

  ExprPtr analyzeBuiltin(Builtin builtin, const CallExpr &call,
                         llvm::StringRef calleeName, ExprPtr self);
  bool normalizeArgs(Builtin builtin, const CallExpr &call,
                     llvm::StringRef calleeName, ExprPtr self,
                     std::vector<ExprPtr> &args);
  ExprPtr typeBuiltin(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                      std::vector<ExprPtr> args);
  ExprPtr typeMemoryOp(Builtin builtin, SourceLoc loc, std::vector<ExprPtr> args);
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
  /// (base, shape0.., stride0.., offset0..), or empty if `name` is not one.
  /// A loop that assigns `name` must carry each of these names.
  std::vector<std::string> getBlockPointerParts(llvm::StringRef name) const;
  /// Binds block-pointer value `value` to `name`: one scalar variable per
  /// runtime part (see Types.h). bind() forwards block pointers here.
  void bindBlockPointer(llvm::StringRef name, SourceLoc loc, ExprPtr value);

private:
  /// The compile-time facts of a block-pointer variable.
  struct BlockPointerInfo {
    ScalarKind elem;
    Shape blockShape;
    ConstValue blockShapeValue, order;
  };
  ExprPtr typeMakeBlockPtr(SourceLoc loc, std::vector<ExprPtr> args);
  ExprPtr typeAdvance(SourceLoc loc, std::vector<ExprPtr> args);
  /// load/store of a block pointer, rewritten to a pointer tile and a mask.
  ExprPtr typeBlockPointerAccess(Builtin builtin, SourceLoc loc,
                                 std::vector<ExprPtr> args);
  /// The value of block-pointer variable `name` (rebuilt from its parts).
  ExprPtr loadBlockPointer(llvm::StringRef name, SourceLoc loc);
  /// Reshapes a 1-D tile to rank `rank`, keeping it along `dim`.
  ExprPtr alongDim(ExprPtr x, size_t dim, size_t rank);
  /// The `rank` integer scalars of a tuple argument, converted to `elem`.
  std::optional<std::vector<ExprPtr>> requireScalarTuple(ExprPtr tuple, size_t rank,
                                                         ScalarKind elem,
                                                         llvm::StringRef what);
  llvm::StringMap<BlockPointerInfo> blockPointers;

  /// device_print/device_assert (SemaAtomics.cpp).
  ExprPtr typeDeviceDebug(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                          std::vector<ExprPtr> args);
  ExprPtr makeCall(SourceLoc loc, Builtin builtin, std::vector<ExprPtr> args,
                   Type type);

  const Module &module;
  const SemaOptions &options;
  DiagnosticEngine &diag;
  KernelInstance *kernel = nullptr;
  Block *out = nullptr;
  llvm::StringMap<Binding> scope;
  llvm::StringMap<Variable *> variables;
};

} // namespace tilec

#endif // TILEC_LIB_FRONTEND_SEMAIMPL_H
