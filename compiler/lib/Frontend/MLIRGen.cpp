//===- MLIRGen.cpp - Typed AST to the tile dialect ------------------------===//
//
// A walk over each specialized kernel's typed body: kernels, statements,
// expressions, conversions and broadcasts. Sema has made every conversion and
// broadcast explicit, so each node maps to one op (or a short fixed
// sequence); this file only chooses the op for the element type. Builtin
// calls are in MLIRGenBuiltins.cpp.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "tilec/Analysis/AxisInfo.h"

#include "mlir/IR/Verifier.h"

using namespace tilec;
using namespace tilec::detail;
using mlir::Value;

mlir::OwningOpRef<mlir::ModuleOp> MLIRGenerator::generate(
    llvm::ArrayRef<std::unique_ptr<KernelInstance>> kernels) {
  // Owned from the start: a kernel that fails frees the whole module.
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::ModuleOp::create(builder.getUnknownLoc());
  for (const auto &kernel : kernels) {
    builder.setInsertionPointToEnd(module->getBody());
    if (!generateKernel(*kernel))
      return nullptr;
  }
  if (mlir::failed(mlir::verify(*module))) {
    diag.error(SourceLoc(), "internal error: the generated tile IR is invalid");
    return nullptr;
  }
  return module;
}

bool MLIRGenerator::generateKernel(const KernelInstance &kernel) {
  llvm::SmallVector<mlir::Type> argTypes;
  llvm::SmallVector<const KernelParam *> args;
  for (const KernelParam &param : kernel.params)
    if (!param.isConstexpr) {
      argTypes.push_back(param.tensorMap
                             ? mlir::tile::TensorMapType::get(builder.getContext())
                             : convertType(param.type));
      args.push_back(&param);
    }
  auto func = mlir::func::FuncOp::create(builder, loc(kernel.loc), kernel.name,
                                         builder.getFunctionType(argTypes, {}));
  func->setAttr(mlir::tile::kKernelAttr, builder.getUnitAttr());
  func->setAttr(kNumWarpsFuncAttr, builder.getI32IntegerAttr(kernel.numWarps));
  func->setAttr(mlir::tile::kNumStagesAttr,
                builder.getI32IntegerAttr(kernel.numStages));
  mlir::Block *entry = func.addEntryBlock();
  values.clear();
  inlineAsmGroups.clear();
  for (auto [i, param] : llvm::enumerate(args)) {
    if (param->type.isPointer())
      func.setArgAttr(i, mlir::tilec::kDivisibilityAttr,
                      builder.getI32IntegerAttr(param->align));
    if (param->tensorMap) {
      func.setArgAttr(i, mlir::tile::kTensorMapBoxAttr,
                      builder.getDenseI64ArrayAttr(param->tensorMapBox));
      func.setArgAttr(i, mlir::tile::kTensorMapSwizzleAttr,
                      builder.getI64IntegerAttr(param->tensorMapSwizzle));
    }
    entry->getArgument(i).setLoc(loc(param->loc));
    values[param->var] = entry->getArgument(i);
  }
  builder.setInsertionPointToStart(entry);
  // Specialized integer arguments: divisible by 16 is a fact for the axis
  // analysis; equal to 1 replaces the argument (which stays in the
  // signature) by the constant.
  for (auto [i, param] : llvm::enumerate(args)) {
    if (param->specialization == 16)
      func.setArgAttr(i, mlir::tilec::kDivisibilityAttr,
                      builder.getI32IntegerAttr(16));
    else if (param->specialization == 1)
      values[param->var] = mlir::arith::ConstantOp::create(
          builder, loc(param->loc),
          builder.getIntegerAttr(entry->getArgument(i).getType(), 1));
  }
  for (const StmtPtr &stmt : kernel.body)
    if (!generateStmt(*stmt))
      return false;
  mlir::func::ReturnOp::create(builder, loc(kernel.loc));
  return true;
}

bool MLIRGenerator::generateStmt(const Stmt &stmt) {
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
  if (const auto *loop = llvm::dyn_cast<RangeForStmt>(&stmt))
    return generateRangeFor(*loop);
  if (const auto *loop = llvm::dyn_cast<RuntimeWhileStmt>(&stmt))
    return generateWhile(*loop);
  if (const auto *ifStmt = llvm::dyn_cast<RuntimeIfStmt>(&stmt))
    return generateIf(*ifStmt);
  diag.error(stmt.getLoc(), "not supported yet: this statement");
  return false;
}

Value MLIRGenerator::generateExpr(const Expr &expr) {
  if (!expr.getType().isValue())
    return fail(expr.getLoc(), "internal error: a compile-time value "
                               "reached code generation");
  switch (expr.getKind()) {
  case Expr::Kind::Constant:
    return generateConstant(llvm::cast<ConstantExpr>(expr));
  case Expr::Kind::Name: {
    auto it = values.find(llvm::cast<NameExpr>(expr).getVariable());
    if (it == values.end())
      return fail(expr.getLoc(),
                  "internal error: use of an undefined variable");
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
  case Expr::Kind::Combine:
    return generateCombine(llvm::cast<CombineExpr>(expr));
  default:
    return fail(expr.getLoc(), "not supported yet: this expression");
  }
}

Value MLIRGenerator::generateConstant(const ConstantExpr &expr) {
  if (!expr.getValue().isNumber() || expr.getType().isPointer())
    return fail(expr.getLoc(), "not supported yet: a constant of type " +
                                   expr.getType().str());
  return constant(loc(expr.getLoc()), expr.getType(), expr.getValue());
}

Value MLIRGenerator::generateUnary(const UnaryExpr &expr) {
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
  case UnaryOp::Star: // Sema rejects it.
    break;
  }
  return nullptr;
}

Value MLIRGenerator::generateBinary(const BinaryExpr &expr) {
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
      rhs = SubIOp::create(
          builder, where,
          constant(where, expr.getRHS().getType(), ConstValue::getInt(0)), rhs);
    if (expr.getOp() == BinaryOp::Add || expr.getOp() == BinaryOp::Sub)
      return mlir::tile::AddPtrOp::create(builder, where, lhs.getType(), lhs,
                                          rhs);
    return fail(expr.getLoc(), "not supported yet: '" +
                                   getSpelling(expr.getOp()) + "' on pointers");
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
  return fail(expr.getLoc(), "not supported yet: '" +
                                 getSpelling(expr.getOp()) + "' on " +
                                 operandType.str());
}

mlir::arith::CmpFPredicate MLIRGenerator::floatPredicate(BinaryOp op) {
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

mlir::arith::CmpIPredicate MLIRGenerator::intPredicate(BinaryOp op,
                                                       bool isUnsigned) {
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

Value MLIRGenerator::generateConvert(const ConvertExpr &expr) {
  Value operand = generateExpr(expr.getOperand());
  if (!operand)
    return nullptr;
  return convertValue(operand, expr.getOperand().getType(), expr.getType(), expr.getLoc());
}

Value MLIRGenerator::convertValue(Value operand, const Type &from, const Type &to,
                                  SourceLoc at) {
  mlir::Location where = loc(at);
  if (from.isPointer() || to.isPointer()) {
    // Pointer casts (Sema allows int64 <-> pointer, pointer -> pointer, and
    // a pointer as a condition) go through the address.
    Value address = operand;
    Type addressType = from.withElement(ScalarKind::I64);
    if (from.isPointer())
      address = mlir::tile::PtrToIntOp::create(builder, where, convertType(addressType),
                                               operand);
    if (to.isPointer())
      return mlir::tile::IntToPtrOp::create(builder, where, convertType(to), address);
    if (to.getElement() == ScalarKind::I1)
      return mlir::arith::CmpIOp::create(
          builder, where, mlir::arith::CmpIPredicate::ne, address,
          constant(where, addressType, ConstValue::getInt(0)));
    return address;
  }
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
  // fp8 converts to and from the other float types in one step (one
  // rounding; the lowering goes through f16 or f32 exactly, or through an
  // f32 rounded to odd from f64); integers and the other fp8 type go
  // through fp32.
  ScalarKind other = isFP8(src) ? dst : src;
  bool direct = isFloat(other) && !isFP8(other);
  if ((isFP8(src) || isFP8(dst)) && !direct) {
    Type wide = to.withElement(ScalarKind::F32);
    Value widened = convertValue(operand, from, wide, at);
    return widened ? convertValue(widened, wide, to, at) : nullptr;
  }
  if (isFloat(src) && isFloat(dst)) {
    if (srcBits == dstBits) {
      // fp16 <-> bf16: neither holds the other, so through fp32 (exact
      // widening, then one rounding).
      mlir::Type wide = convertType(to.withElement(ScalarKind::F32));
      Value widened = ExtFOp::create(builder, where, wide, operand);
      return TruncFOp::create(builder, where, result, widened);
    }
    if (srcBits < dstBits)
      return ExtFOp::create(builder, where, result, operand);
    return TruncFOp::create(builder, where, result, operand);
  }
  if (isFloat(dst))
    return srcUnsigned
               ? Value(UIToFPOp::create(builder, where, result, operand))
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

Value MLIRGenerator::generateBroadcast(const BroadcastExpr &expr) {
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
    auto expanded = mlir::RankedTensorType::get(shape, result.getElementType());
    operand =
        mlir::tile::ExpandDimsOp::create(builder, where, expanded, operand, 0);
  }
  if (llvm::ArrayRef<int64_t>(shape) == to.getShape())
    return operand;
  return mlir::tile::BroadcastOp::create(builder, where, result, operand);
}

mlir::OwningOpRef<mlir::ModuleOp>
tilec::generateMLIR(mlir::MLIRContext &context,
                    llvm::ArrayRef<std::unique_ptr<KernelInstance>> kernels,
                    DiagnosticEngine &diag) {
  context.loadDialect<mlir::tile::TileDialect>();
  return MLIRGenerator(context, diag).generate(kernels);
}
