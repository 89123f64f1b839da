//===- MLIRGenImpl.h - The typed-AST-to-tile-dialect generator --*- C++ -*-===//
//
// The MLIRGenerator class shared by the MLIRGen*.cpp files: MLIRGen.cpp holds
// kernels, statements, expressions, conversions and broadcasts;
// MLIRGenBuiltins.cpp holds the builtin calls. Private to the frontend.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_FRONTEND_MLIRGENIMPL_H
#define TILEC_LIB_FRONTEND_MLIRGENIMPL_H

#include "tilec/Frontend/MLIRGen.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"

namespace tilec {
namespace detail {

/// Walks each specialized kernel's typed body and emits tile-dialect IR. Sema
/// has made every conversion and broadcast explicit, so each node maps to one
/// op (or a short fixed sequence).
class MLIRGenerator {
public:
  MLIRGenerator(mlir::MLIRContext &context, DiagnosticEngine &diag)
      : context(context), builder(&context), diag(diag) {}

  /// Emits one function per kernel; null (with diagnostics) on failure.
  mlir::OwningOpRef<mlir::ModuleOp>
  generate(llvm::ArrayRef<std::unique_ptr<KernelInstance>> kernels);

private:
  using Value = mlir::Value;

  /// The MLIR location of a source position.
  mlir::Location loc(SourceLoc where) {
    LineColumn position = diag.resolve(where);
    if (position.line == 0)
      return builder.getUnknownLoc();
    return mlir::FileLineColLoc::get(builder.getStringAttr(position.file),
                                     position.line, position.column);
  }

  /// Reports an error and returns null, so callers can `return fail(...)`.
  Value fail(SourceLoc where, const llvm::Twine &message) {
    diag.error(where, message);
    return nullptr;
  }

  /// The MLIR element type of a scalar kind.
  mlir::Type elementType(ScalarKind kind) {
    switch (kind) {
    case ScalarKind::I1:
      return builder.getI1Type();
    case ScalarKind::F8E4M3:
      return builder.getType<mlir::Float8E4M3FNType>();
    case ScalarKind::F8E5M2:
      return builder.getType<mlir::Float8E5M2Type>();
    case ScalarKind::F16:
      return builder.getF16Type();
    case ScalarKind::BF16:
      return builder.getBF16Type();
    case ScalarKind::F32:
      return builder.getF32Type();
    case ScalarKind::F64:
      return builder.getF64Type();
    default:
      return builder.getIntegerType(getBitWidth(kind));
    }
  }

  /// The MLIR type of a runtime frontend type.
  mlir::Type convertType(const Type &type) {
    mlir::Type element = elementType(type.getElement());
    // A bool in memory is a byte (torch.bool, Triton's *i1): *i1 points to
    // i8, and loads and stores convert.
    if (type.isPointer() && type.getElement() == ScalarKind::I1)
      element = builder.getI8Type();
    if (type.isPointer())
      element = mlir::tile::PointerType::get(element);
    if (type.isTile())
      return mlir::RankedTensorType::get(type.getShape(), element);
    return element;
  }

  /// `value` (i1 or a tile of it) as bytes 0 / 1, for a store through *i1.
  Value boolToByte(mlir::Location where, Value value) {
    mlir::Type byte = builder.getI8Type();
    if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(value.getType()))
      byte = tensor.clone(byte);
    return mlir::arith::ExtUIOp::create(builder, where, byte, value);
  }

  /// A scalar constant of `type`'s element, splatted when `type` is a tile.
  Value constant(mlir::Location where, const Type &type,
                 const ConstValue &value) {
    mlir::Type element = elementType(type.getElement());
    mlir::TypedAttr scalar;
    if (auto floatType = llvm::dyn_cast<mlir::FloatType>(element))
      scalar = builder.getFloatAttr(floatType, value.getFloat());
    else
      scalar = builder.getIntegerAttr(element, value.getInt());
    if (!type.isTile())
      return mlir::arith::ConstantOp::create(builder, where, scalar);
    auto tensor = mlir::RankedTensorType::get(type.getShape(), element);
    return mlir::arith::ConstantOp::create(
        builder, where, mlir::DenseElementsAttr::get(tensor, scalar));
  }

  // MLIRGen.cpp: kernels, statements, expressions.
  bool generateKernel(const KernelInstance &kernel);
  bool generateStmt(const Stmt &stmt);
  Value generateExpr(const Expr &expr);
  Value generateConstant(const ConstantExpr &expr);
  Value generateUnary(const UnaryExpr &expr);
  Value generateBinary(const BinaryExpr &expr);
  static mlir::arith::CmpFPredicate floatPredicate(BinaryOp op);
  static mlir::arith::CmpIPredicate intPredicate(BinaryOp op, bool isUnsigned);
  Value generateConvert(const ConvertExpr &expr);
  /// `operand`, of frontend type `from`, converted to `to` (same shape) as
  /// `.to()` converts; errors at `at`.
  Value convertValue(Value operand, const Type &from, const Type &to, SourceLoc at);
  Value generateBroadcast(const BroadcastExpr &expr);

  // MLIRGenStmt.cpp: runtime control flow (scf).
  bool generateBlock(const Block &block);
  bool generateRangeFor(const RangeForStmt &loop);
  bool generateWhile(const RuntimeWhileStmt &loop);
  bool generateIf(const RuntimeIfStmt &ifStmt);
  /// The current values of `carried`, in order; false (reported) if one has
  /// none.
  bool carriedValues(llvm::ArrayRef<CarriedVar> carried, SourceLoc where,
                     llvm::SmallVectorImpl<Value> &result);
  /// Binds `carried` to `args` (block arguments; may be fewer), generates
  /// `block` and ends it with an scf.yield of the carried values.
  bool generateYieldingBlock(const Block &block, llvm::ArrayRef<CarriedVar> carried,
                             mlir::ValueRange args, SourceLoc where);
  /// After an scf op: the variables from `before`, and the op's results for
  /// the carried ones.
  void restoreAfter(llvm::DenseMap<const Variable *, Value> before,
                    llvm::ArrayRef<CarriedVar> carried, mlir::ValueRange results);

  // MLIRGenBuiltins.cpp: builtin calls.
  /// Generates the runtime argument `i` of a call, or null if it is absent.
  Value optionalArg(const BuiltinCallExpr &call, unsigned i, bool &ok);
  /// Generates arguments `first...` of a call into `operands`.
  bool generateArgs(const BuiltinCallExpr &call,
                    llvm::SmallVectorImpl<Value> &operands, unsigned first = 0);
  Value generateBuiltin(const BuiltinCallExpr &call);
  /// The tensor map, coordinates and descriptor parts of a descriptor's or
  /// block pointer's load or store (Sema::addTensorMap).
  struct TensorMapOperands {
    Value map;
    llvm::SmallVector<Value> coords, parts;
  };
  /// Generates the tensor-map operands that start at argument `first` of a
  /// load or store; false if one of them failed.
  bool generateTensorMapOperands(const BuiltinCallExpr &call, unsigned first,
                                 TensorMapOperands &out);
  /// Marks `load` volatile (tile::kVolatileAttr) when `call` asks so.
  void markVolatile(const BuiltinCallExpr &call, Value load);
  /// Volatile loads made so far (each gets its own attribute value).
  int64_t volatileLoads = 0;
  /// exp ... erf, sigmoid, abs, floor, ceil.
  Value generateUnaryMath(const BuiltinCallExpr &call, mlir::Location where);
  /// fma, maximum, minimum, clamp, where, cdiv.
  Value generateElementwise(const BuiltinCallExpr &call, mlir::Location where);
  /// max(a, b) or min(a, b) of element kind `kind` (floats: maxnumf/minnumf).
  Value maxOrMin(mlir::Location where, bool isMax, Value a, Value b,
                 ScalarKind kind);
  /// atomic_add ... atomic_xor, atomic_cas.
  Value generateAtomic(const BuiltinCallExpr &call, mlir::Location where);
  /// Calls that produce nothing (store, device_print, device_assert,
  /// debug_barrier).
  bool generateVoidCall(const Expr &expr);

  // MLIRGenReductions.cpp: reductions and scans.
  Value generateReduction(const BuiltinCallExpr &call, mlir::Location where);
  Value generateScan(const BuiltinCallExpr &call, mlir::Location where);
  /// tl.reduce / tl.associative_scan with a user's combine function: one op
  /// per CombineSpec, built at its first result.
  Value generateCombine(const CombineExpr &expr);
  /// The combining block of a reduce/scan region: (lhs..., rhs...) scalars;
  /// leaves the builder inside it.
  mlir::Block *createCombineBlock(mlir::Region &region,
                                  mlir::TypeRange elementTypes,
                                  mlir::Location where);
  Value combineAdd(mlir::Location where, Value a, Value b, ScalarKind kind);
  /// An i32 tile of `shape` holding each element's index along `axis`.
  Value generateIndices(mlir::Location where, llvm::ArrayRef<int64_t> shape,
                        unsigned axis);

  mlir::MLIRContext &context;
  mlir::OpBuilder builder;
  DiagnosticEngine &diag;
  llvm::DenseMap<const Variable *, Value> values;
  /// The tile.reduce / tile.scan built for each CombineSpec.
  llvm::DenseMap<const CombineSpec *, mlir::Operation *> combineOps;
  /// The tile.inline_asm of each group of inline_asm_elementwise result
  /// calls (SemaInlineAsm.cpp), by group.
  llvm::DenseMap<int64_t, mlir::Operation *> inlineAsmGroups;
  /// The argmax/argmin reductions built so far, by (source, axis, builtin):
  /// max/min(return_indices=True) reads the values and the indices of one.
  llvm::DenseMap<std::tuple<Value, unsigned, int>, mlir::Operation *> argReductions;
};

} // namespace detail
} // namespace tilec

#endif // TILEC_LIB_FRONTEND_MLIRGENIMPL_H
