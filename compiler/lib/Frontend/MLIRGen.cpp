//===- MLIRGen.cpp - Typed AST to the tile dialect ------------------------===//
//
// A walk over each specialized kernel's typed body. Sema has made every
// conversion and broadcast explicit, so each node maps to one op (or a short
// fixed sequence); this file only chooses the op for the element type.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/MLIRGen.h"

#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"

using namespace tilec;
using mlir::Value;

namespace {

class MLIRGenerator {
public:
  MLIRGenerator(mlir::MLIRContext &context, DiagnosticEngine &diag)
      : context(context), builder(&context), diag(diag) {}

  mlir::OwningOpRef<mlir::ModuleOp>
  generate(llvm::ArrayRef<std::unique_ptr<KernelInstance>> kernels) {
    auto module = mlir::ModuleOp::create(builder.getUnknownLoc());
    for (const auto &kernel : kernels) {
      builder.setInsertionPointToEnd(module.getBody());
      if (!generateKernel(*kernel))
        return nullptr;
    }
    if (mlir::failed(mlir::verify(module))) {
      diag.error(SourceLoc(), "internal error: the generated tile IR is invalid");
      return nullptr;
    }
    return module;
  }

private:
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

  mlir::Type elementType(ScalarKind kind) {
    switch (kind) {
    case ScalarKind::I1:
      return builder.getI1Type();
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

  mlir::Type convertType(const Type &type) {
    mlir::Type element = elementType(type.getElement());
    if (type.isPointer())
      element = mlir::tile::PointerType::get(element);
    if (type.isTile())
      return mlir::RankedTensorType::get(type.getShape(), element);
    return element;
  }

  bool generateKernel(const KernelInstance &kernel) {
    llvm::SmallVector<mlir::Type> argTypes;
    llvm::SmallVector<const KernelParam *> args;
    for (const KernelParam &param : kernel.params)
      if (!param.isConstexpr) {
        argTypes.push_back(convertType(param.type));
        args.push_back(&param);
      }
    auto func = mlir::func::FuncOp::create(
        builder, loc(kernel.loc), kernel.name,
        builder.getFunctionType(argTypes, {}));
    func->setAttr(kKernelFuncAttr, builder.getUnitAttr());
    func->setAttr(kNumWarpsFuncAttr, builder.getI32IntegerAttr(kernel.numWarps));
    mlir::Block *entry = func.addEntryBlock();
    values.clear();
    for (auto [i, param] : llvm::enumerate(args)) {
      if (param->type.isPointer())
        func.setArgAttr(i, mlir::tilec::kDivisibilityAttr,
                        builder.getI32IntegerAttr(kPointerArgAlignment));
      entry->getArgument(i).setLoc(loc(param->loc));
      values[param->var] = entry->getArgument(i);
    }
    builder.setInsertionPointToStart(entry);
    for (const StmtPtr &stmt : kernel.body)
      if (!generateStmt(*stmt))
        return false;
    mlir::func::ReturnOp::create(builder, loc(kernel.loc));
    return true;
  }

  bool generateStmt(const Stmt &stmt) {
    if (const auto *assign = llvm::dyn_cast<AssignStmt>(&stmt)) {
      const auto &target = llvm::cast<NameExpr>(assign->getTarget());
      Value value = generateExpr(assign->getValue());
      if (!value)
        return false;
      values[target.getVariable()] = value;
      return true;
    }
    if (const auto *exprStmt = llvm::dyn_cast<ExprStmt>(&stmt)) {
      const Expr &expr = exprStmt->getExpr();
      if (expr.getType().isVoid())
        return generateVoidCall(expr);
      return generateExpr(expr) != nullptr;
    }
    diag.error(stmt.getLoc(), "not supported yet: this statement");
    return false;
  }

  Value generateExpr(const Expr &expr) {
    if (!expr.getType().isValue())
      return fail(expr.getLoc(), "internal error: a compile-time value "
                                 "reached code generation");
    switch (expr.getKind()) {
    case Expr::Kind::Constant:
      return generateConstant(llvm::cast<ConstantExpr>(expr));
    case Expr::Kind::Name: {
      auto it = values.find(llvm::cast<NameExpr>(expr).getVariable());
      if (it == values.end())
        return fail(expr.getLoc(), "internal error: use of an undefined variable");
      return it->second;
    }
    case Expr::Kind::Unary:
      return generateUnary(llvm::cast<UnaryExpr>(expr));
    case Expr::Kind::Binary:
      return generateBinary(llvm::cast<BinaryExpr>(expr));
    case Expr::Kind::Convert:
      return generateConvert(llvm::cast<ConvertExpr>(expr));
    case Expr::Kind::Broadcast:
      return generateBroadcast(llvm::cast<BroadcastExpr>(expr));
    case Expr::Kind::BuiltinCall:
      return generateBuiltin(llvm::cast<BuiltinCallExpr>(expr));
    default:
      return fail(expr.getLoc(), "not supported yet: this expression");
    }
  }

  /// A scalar constant of `type`'s element, splatted when `type` is a tile.
  Value constant(mlir::Location where, const Type &type, const ConstValue &value) {
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

  Value generateConstant(const ConstantExpr &expr) {
    if (!expr.getValue().isNumber() || expr.getType().isPointer())
      return fail(expr.getLoc(), "not supported yet: a constant of type " +
                                     expr.getType().str());
    return constant(loc(expr.getLoc()), expr.getType(), expr.getValue());
  }

  Value generateUnary(const UnaryExpr &expr) {
    Value operand = generateExpr(expr.getOperand());
    if (!operand)
      return nullptr;
    mlir::Location where = loc(expr.getLoc());
    const Type &type = expr.getType();
    switch (expr.getOp()) {
    case UnaryOp::Pos:
      return operand;
    case UnaryOp::Neg:
      if (isFloat(type.getElement()))
        return mlir::arith::NegFOp::create(builder, where, operand);
      return mlir::arith::SubIOp::create(
          builder, where, constant(where, type, ConstValue::getInt(0)), operand);
    case UnaryOp::Not:
    case UnaryOp::Invert:
      return mlir::arith::XOrIOp::create(
          builder, where, operand, constant(where, type, ConstValue::getInt(-1)));
    }
    return nullptr;
  }

  Value generateBinary(const BinaryExpr &expr) {
    Value lhs = generateExpr(expr.getLHS());
    Value rhs = lhs ? generateExpr(expr.getRHS()) : nullptr;
    if (!rhs)
      return nullptr;
    mlir::Location where = loc(expr.getLoc());
    const Type &operandType = expr.getLHS().getType();
    ScalarKind element = operandType.getElement();
    bool isF = isFloat(element), isU = isUnsigned(element);
    using namespace mlir::arith;
    if (operandType.isPointer()) {
      if (expr.getOp() == BinaryOp::Sub)
        rhs = SubIOp::create(builder, where,
                             constant(where, expr.getRHS().getType(),
                                      ConstValue::getInt(0)),
                             rhs);
      if (expr.getOp() == BinaryOp::Add || expr.getOp() == BinaryOp::Sub)
        return mlir::tile::AddPtrOp::create(builder, where, lhs.getType(), lhs,
                                            rhs);
      return fail(expr.getLoc(), "not supported yet: '" +
                                     getSpelling(expr.getOp()) +
                                     "' on pointers");
    }
    switch (expr.getOp()) {
    case BinaryOp::Add:
      return isF ? Value(AddFOp::create(builder, where, lhs, rhs))
                 : Value(AddIOp::create(builder, where, lhs, rhs));
    case BinaryOp::Sub:
      return isF ? Value(SubFOp::create(builder, where, lhs, rhs))
                 : Value(SubIOp::create(builder, where, lhs, rhs));
    case BinaryOp::Mul:
      return isF ? Value(MulFOp::create(builder, where, lhs, rhs))
                 : Value(MulIOp::create(builder, where, lhs, rhs));
    case BinaryOp::Div:
      return DivFOp::create(builder, where, lhs, rhs);
    case BinaryOp::FloorDiv:
      if (isF)
        break;
      return isU ? Value(DivUIOp::create(builder, where, lhs, rhs))
                 : Value(DivSIOp::create(builder, where, lhs, rhs));
    case BinaryOp::Mod:
      if (isF)
        return RemFOp::create(builder, where, lhs, rhs);
      return isU ? Value(RemUIOp::create(builder, where, lhs, rhs))
                 : Value(RemSIOp::create(builder, where, lhs, rhs));
    case BinaryOp::LShift:
      return ShLIOp::create(builder, where, lhs, rhs);
    case BinaryOp::RShift:
      return isU ? Value(ShRUIOp::create(builder, where, lhs, rhs))
                 : Value(ShRSIOp::create(builder, where, lhs, rhs));
    case BinaryOp::BitAnd:
    case BinaryOp::And:
      return AndIOp::create(builder, where, lhs, rhs);
    case BinaryOp::BitOr:
    case BinaryOp::Or:
      return OrIOp::create(builder, where, lhs, rhs);
    case BinaryOp::BitXor:
      return XOrIOp::create(builder, where, lhs, rhs);
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
    case BinaryOp::Eq:
    case BinaryOp::Ne:
      if (isF)
        return CmpFOp::create(builder, where, floatPredicate(expr.getOp()), lhs,
                              rhs);
      return CmpIOp::create(builder, where, intPredicate(expr.getOp(), isU), lhs,
                            rhs);
    default:
      break;
    }
    return fail(expr.getLoc(), "not supported yet: '" + getSpelling(expr.getOp()) +
                                   "' on " + operandType.str());
  }

  static mlir::arith::CmpFPredicate floatPredicate(BinaryOp op) {
    using P = mlir::arith::CmpFPredicate;
    switch (op) {
    case BinaryOp::Lt:
      return P::OLT;
    case BinaryOp::Le:
      return P::OLE;
    case BinaryOp::Gt:
      return P::OGT;
    case BinaryOp::Ge:
      return P::OGE;
    case BinaryOp::Eq:
      return P::OEQ;
    default:
      return P::UNE;
    }
  }

  static mlir::arith::CmpIPredicate intPredicate(BinaryOp op, bool isUnsigned) {
    using P = mlir::arith::CmpIPredicate;
    switch (op) {
    case BinaryOp::Lt:
      return isUnsigned ? P::ult : P::slt;
    case BinaryOp::Le:
      return isUnsigned ? P::ule : P::sle;
    case BinaryOp::Gt:
      return isUnsigned ? P::ugt : P::sgt;
    case BinaryOp::Ge:
      return isUnsigned ? P::uge : P::sge;
    case BinaryOp::Eq:
      return P::eq;
    default:
      return P::ne;
    }
  }

  Value generateConvert(const ConvertExpr &expr) {
    Value operand = generateExpr(expr.getOperand());
    if (!operand)
      return nullptr;
    mlir::Location where = loc(expr.getLoc());
    const Type &from = expr.getOperand().getType(), &to = expr.getType();
    if (from.isPointer() || to.isPointer())
      return fail(expr.getLoc(), "not supported yet: converting " + from.str() +
                                     " to " + to.str());
    mlir::Type result = convertType(to);
    ScalarKind src = from.getElement(), dst = to.getElement();
    using namespace mlir::arith;
    if (src == dst)
      return operand;
    if (dst == ScalarKind::I1) {
      Value zero = constant(where, from, ConstValue::getInt(0));
      if (isFloat(src))
        return CmpFOp::create(builder, where, CmpFPredicate::UNE, operand, zero);
      return CmpIOp::create(builder, where, CmpIPredicate::ne, operand, zero);
    }
    unsigned srcBits = getBitWidth(src), dstBits = getBitWidth(dst);
    bool srcUnsigned = isUnsigned(src) || src == ScalarKind::I1;
    if (isFloat(src) && isFloat(dst)) {
      if (srcBits < dstBits)
        return ExtFOp::create(builder, where, result, operand);
      return TruncFOp::create(builder, where, result, operand);
    }
    if (isFloat(dst))
      return srcUnsigned ? Value(UIToFPOp::create(builder, where, result, operand))
                         : Value(SIToFPOp::create(builder, where, result, operand));
    if (isFloat(src))
      return isUnsigned(dst)
                 ? Value(FPToUIOp::create(builder, where, result, operand))
                 : Value(FPToSIOp::create(builder, where, result, operand));
    if (srcBits == dstBits)
      return operand;
    if (srcBits > dstBits)
      return TruncIOp::create(builder, where, result, operand);
    return srcUnsigned ? Value(ExtUIOp::create(builder, where, result, operand))
                       : Value(ExtSIOp::create(builder, where, result, operand));
  }

  Value generateBroadcast(const BroadcastExpr &expr) {
    Value operand = generateExpr(expr.getOperand());
    if (!operand)
      return nullptr;
    mlir::Location where = loc(expr.getLoc());
    const Type &from = expr.getOperand().getType(), &to = expr.getType();
    auto result = llvm::cast<mlir::RankedTensorType>(convertType(to));
    if (!from.isTile())
      return mlir::tile::SplatOp::create(builder, where, result, operand);
    // Leading dimensions of size 1 first, then stretch.
    llvm::SmallVector<int64_t> shape(from.getShape());
    while (shape.size() < to.getShape().size()) {
      shape.insert(shape.begin(), 1);
      auto expanded =
          mlir::RankedTensorType::get(shape, result.getElementType());
      operand = mlir::tile::ExpandDimsOp::create(builder, where, expanded,
                                                 operand, 0);
    }
    if (llvm::ArrayRef<int64_t>(shape) == to.getShape())
      return operand;
    return mlir::tile::BroadcastOp::create(builder, where, result, operand);
  }

  /// Generates the runtime argument `i` of a call, or null if it is absent.
  Value optionalArg(const BuiltinCallExpr &call, unsigned i, bool &ok) {
    if (call.isAbsent(i))
      return nullptr;
    Value value = generateExpr(call.getArg(i));
    ok = ok && value;
    return value;
  }

  Value generateBuiltin(const BuiltinCallExpr &call) {
    mlir::Location where = loc(call.getLoc());
    mlir::Type result = convertType(call.getType());
    switch (call.getBuiltin()) {
    case Builtin::ProgramId:
      return mlir::tile::ProgramIdOp::create(builder, where,
                                             call.getConstArg(0).getInt());
    case Builtin::NumPrograms:
      return mlir::tile::NumProgramsOp::create(builder, where,
                                               call.getConstArg(0).getInt());
    case Builtin::Arange:
      return mlir::tile::MakeRangeOp::create(
          builder, where, result,
          builder.getI32IntegerAttr(call.getConstArg(0).getInt()),
          builder.getI32IntegerAttr(call.getConstArg(1).getInt()));
    case Builtin::Load: {
      if (!checkMemoryAccess(call, /*volatileArg=*/7))
        return nullptr;
      bool ok = true;
      Value ptr = generateExpr(call.getArg(0));
      if (!ptr)
        return nullptr;
      Value mask = optionalArg(call, 1, ok);
      Value other = optionalArg(call, 2, ok);
      if (!ok)
        return nullptr;
      return mlir::tile::LoadOp::create(builder, where, result, ptr, mask, other);
    }
    case Builtin::Exp:
      return unaryMath<mlir::math::ExpOp>(call, where);
    case Builtin::Exp2:
      return unaryMath<mlir::math::Exp2Op>(call, where);
    default:
      return fail(call.getLoc(),
                  "not supported yet: '" +
                      getBuiltinInfo(call.getBuiltin()).name +
                      "' in code generation");
    }
  }

  /// What the GPU lowering cannot do yet, reported at the call: i1 through
  /// pointers and volatile accesses.
  bool checkMemoryAccess(const BuiltinCallExpr &call,
                         std::optional<unsigned> volatileArg) {
    if (call.getArg(0).getType().getElement() == ScalarKind::I1) {
      diag.error(call.getLoc(), "not supported yet: loads and stores through "
                                "'*i1' pointers (use '*i8' and compare)");
      return false;
    }
    if (volatileArg && call.getConstArg(*volatileArg).isTruthy()) {
      diag.error(call.getLoc(), "not supported yet: volatile=True");
      return false;
    }
    return true;
  }

  template <typename OpTy>
  Value unaryMath(const BuiltinCallExpr &call, mlir::Location where) {
    if (call.getType().getElement() == ScalarKind::F64) {
      fail(call.getLoc(), "not supported yet: '" +
                              getBuiltinInfo(call.getBuiltin()).name +
                              "' on fp64");
      return nullptr;
    }
    Value operand = generateExpr(call.getArg(0));
    if (!operand)
      return nullptr;
    return OpTy::create(builder, where, operand);
  }

  /// Calls that produce nothing (store).
  bool generateVoidCall(const Expr &expr) {
    const auto *call = llvm::dyn_cast<BuiltinCallExpr>(&expr);
    if (!call || call->getBuiltin() != Builtin::Store) {
      diag.error(expr.getLoc(), "not supported yet: this statement");
      return false;
    }
    if (!checkMemoryAccess(*call, std::nullopt))
      return false;
    bool ok = true;
    Value ptr = generateExpr(call->getArg(0));
    Value value = ptr ? generateExpr(call->getArg(1)) : nullptr;
    if (!value)
      return false;
    Value mask = optionalArg(*call, 2, ok);
    if (!ok)
      return false;
    mlir::tile::StoreOp::create(builder, loc(call->getLoc()), ptr, value, mask);
    return true;
  }

  mlir::MLIRContext &context;
  mlir::OpBuilder builder;
  DiagnosticEngine &diag;
  llvm::DenseMap<const Variable *, Value> values;
};

} // namespace

mlir::OwningOpRef<mlir::ModuleOp>
tilec::generateMLIR(mlir::MLIRContext &context,
                    llvm::ArrayRef<std::unique_ptr<KernelInstance>> kernels,
                    DiagnosticEngine &diag) {
  context.loadDialect<mlir::tile::TileDialect>();
  return MLIRGenerator(context, diag).generate(kernels);
}
