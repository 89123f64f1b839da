//===- MLIRGenBuiltins.cpp - Builtin calls to the tile dialect ------------===//
//
// Code generation for builtin calls: program ids, ranges, memory accesses,
// elementwise math, shape ops, hints, atomics, bitcasts, and the calls that
// produce nothing (store, device_print, device_assert, debug_barrier).
// Reductions, scans and dot are in MLIRGenReductions.cpp. Sema has checked,
// converted and broadcast every argument (see the normalized forms in
// SemaReductions.cpp, SemaShapeOps.cpp and SemaAtomics.cpp); this file picks
// the ops.
//
// fp16/bf16 arguments of transcendental math (exp ... erf, sigmoid) are
// computed in fp32 and rounded back, as Triton's libdevice path does.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace tilec;
using namespace tilec::detail;
using mlir::Value;

Value MLIRGenerator::optionalArg(const BuiltinCallExpr &call, unsigned i,
                                 bool &ok) {
  if (call.isAbsent(i))
    return nullptr;
  Value value = generateExpr(call.getArg(i));
  ok = ok && value;
  return value;
}

bool MLIRGenerator::generateArgs(const BuiltinCallExpr &call,
                                 llvm::SmallVectorImpl<Value> &operands,
                                 unsigned first) {
  for (unsigned i = first; i < call.getArgs().size(); ++i) {
    Value value = generateExpr(call.getArg(i));
    if (!value)
      return false;
    operands.push_back(value);
  }
  return true;
}

/// The integers of a constexpr int or tuple, repeated to `rank` entries when
/// a single int is given (hints); at least one entry.
static llvm::SmallVector<int64_t> getIntList(const ConstValue &value,
                                             size_t rank) {
  llvm::SmallVector<int64_t> result;
  if (value.isTuple())
    for (const ConstValue &element : value.getTuple())
      result.push_back(element.getInt());
  else
    result.assign(std::max<size_t>(rank, 1), value.getInt());
  return result;
}

Value MLIRGenerator::generateBuiltin(const BuiltinCallExpr &call) {
  using B = Builtin;
  mlir::Location where = loc(call.getLoc());
  mlir::Type result = convertType(call.getType());
  switch (call.getBuiltin()) {
  case B::ProgramId:
    return mlir::tile::ProgramIdOp::create(builder, where,
                                           call.getConstArg(0).getInt());
  case B::NumPrograms:
    return mlir::tile::NumProgramsOp::create(builder, where,
                                             call.getConstArg(0).getInt());
  case B::Arange:
    return mlir::tile::MakeRangeOp::create(
        builder, where, result,
        builder.getI32IntegerAttr(call.getConstArg(0).getInt()),
        builder.getI32IntegerAttr(call.getConstArg(1).getInt()));
  case B::Load: {
    bool ok = true;
    Value ptr = generateExpr(call.getArg(0));
    if (!ptr)
      return nullptr;
    Value mask = optionalArg(call, 1, ok);
    Value other = optionalArg(call, 2, ok);
    if (!ok)
      return nullptr;
    if (call.getType().getElement() != ScalarKind::I1) {
      Value load;
      if (call.getArgs().size() > kLoadArgs) {
        TensorMapOperands map;
        if (!generateTensorMapOperands(call, kLoadArgs, map))
          return nullptr;
        load = mlir::tile::LoadOp::create(builder, where, result, ptr, mask, other, map.map,
                                          map.coords, map.parts);
      } else {
        load = mlir::tile::LoadOp::create(builder, where, result, ptr, mask, other);
      }
      markVolatile(call, load);
      return load;
    }
    // Bytes through *i1: true where nonzero, as Triton reads a torch.bool.
    if (other)
      other = boolToByte(where, other);
    Value bytes = mlir::tile::LoadOp::create(
        builder, where, convertType(call.getType().withElement(ScalarKind::I8)), ptr, mask,
        other);
    markVolatile(call, bytes);
    Value zero = constant(where, call.getType().withElement(ScalarKind::I8),
                          ConstValue::getInt(0));
    return mlir::arith::CmpIOp::create(builder, where, mlir::arith::CmpIPredicate::ne, bytes,
                                       zero);
  }
  case B::MakeTensorMap: {
    // (base, shape0, shape1, stride0, stride1, box, swizzle).
    llvm::SmallVector<Value> values;
    for (size_t i = 0; i < 5; ++i)
      if (!values.emplace_back(generateExpr(call.getArg(i))))
        return nullptr;
    llvm::SmallVector<int64_t> box;
    for (const ConstValue &dim : call.getConstArg(5).getTuple())
      box.push_back(dim.getInt());
    return mlir::tile::MakeTensorMapOp::create(
        builder, where, mlir::tile::TensorMapType::get(builder.getContext()), values[0],
        mlir::ValueRange(values).slice(1, 2), mlir::ValueRange(values).slice(3, 2),
        builder.getDenseI64ArrayAttr(box), builder.getI64IntegerAttr(call.getConstArg(6).getInt()));
  }
  case B::Exp:
  case B::Exp2:
  case B::Log:
  case B::Log2:
  case B::Sqrt:
  case B::Rsqrt:
  case B::Sin:
  case B::Cos:
  case B::Tanh:
  case B::Abs:
  case B::Floor:
  case B::Ceil:
  case B::Sigmoid:
  case B::Erf:
    return generateUnaryMath(call, where);
  case B::LibdeviceCall: {
    llvm::SmallVector<Value> operands;
    if (!generateArgs(call, operands, /*first=*/1))
      return nullptr;
    return mlir::tile::ExternElementwiseOp::create(
        builder, where, result, operands, call.getConstArg(0).getString());
  }
  case B::InlineAsmElementwise: {
    // asm, constraints, pure, pack, (dtypes...), result index, group, args...
    // (SemaInlineAsm.cpp): the first call of a group makes the op.
    int64_t index = call.getConstArg(5).getInt(), group = call.getConstArg(6).getInt();
    if (mlir::Operation *made = inlineAsmGroups.lookup(group))
      return made->getResult(index);
    llvm::SmallVector<Value> operands;
    if (!generateArgs(call, operands, /*first=*/7))
      return nullptr;
    llvm::SmallVector<mlir::Type> results;
    for (const ConstValue &dtype : call.getConstArg(4).getTuple())
      results.push_back(convertType(call.getType().withElement(dtype.getDType())));
    auto op = mlir::tile::InlineAsmOp::create(
        builder, where, results, operands, call.getConstArg(0).getString(),
        call.getConstArg(1).getString(), call.getConstArg(2).isTruthy(),
        static_cast<int32_t>(call.getConstArg(3).getInt()));
    inlineAsmGroups[group] = op;
    return op->getResult(index);
  }
  case B::Fma:
  case B::Maximum:
  case B::Minimum:
  case B::Clamp:
  case B::Where:
  case B::Cdiv:
    return generateElementwise(call, where);
  case B::ExpandDims: {
    Value src = generateExpr(call.getArg(0));
    if (!src)
      return nullptr;
    auto type = llvm::cast<mlir::RankedTensorType>(result);
    if (!llvm::isa<mlir::RankedTensorType>(src.getType())) // A scalar: [1].
      return mlir::tile::SplatOp::create(builder, where, type, src);
    return mlir::tile::ExpandDimsOp::create(builder, where, type, src,
                                            call.getConstArg(1).getInt());
  }
  case B::Reshape: {
    Value src = generateExpr(call.getArg(0));
    return src ? mlir::tile::ReshapeOp::create(builder, where, result, src)
               : nullptr;
  }
  case B::Trans: {
    Value src = generateExpr(call.getArg(0));
    if (!src)
      return nullptr;
    llvm::SmallVector<int32_t> order;
    for (int64_t dim : getIntList(call.getConstArg(1), 0))
      order.push_back(static_cast<int32_t>(dim));
    return mlir::tile::TransOp::create(builder, where, result, src, order);
  }
  case B::MultipleOf:
  case B::MaxContiguous: {
    Value src = generateExpr(call.getArg(0));
    if (!src)
      return nullptr;
    auto values = builder.getDenseI64ArrayAttr(getIntList(
        call.getConstArg(1), call.getArg(0).getType().getShape().size()));
    bool divisibility = call.getBuiltin() == B::MultipleOf;
    return mlir::tile::HintOp::create(builder, where, result, src,
                                      divisibility ? values : nullptr,
                                      divisibility ? nullptr : values);
  }
  case B::Cast: { // Only bitcasts reach here; conversions are ConvertExprs.
    Value src = generateExpr(call.getArg(0));
    return src ? mlir::arith::BitcastOp::create(builder, where, result, src)
               : nullptr;
  }
  case B::AtomicAdd:
  case B::AtomicMax:
  case B::AtomicMin:
  case B::AtomicXchg:
  case B::AtomicAnd:
  case B::AtomicOr:
  case B::AtomicXor:
  case B::AtomicCas:
    return generateAtomic(call, where);
  case B::Sum:
  case B::Max:
  case B::Min:
  case B::Argmax:
  case B::Argmin:
    return generateReduction(call, where);
  case B::Cumsum:
    return generateScan(call, where);
  case B::Histogram: {
    bool ok = true;
    Value src = generateExpr(call.getArg(0));
    Value mask = optionalArg(call, 2, ok);
    if (!src || !ok)
      return nullptr;
    // Narrow values are counted as the integers they are (u8 200 is 200).
    ScalarKind elem = call.getArg(0).getType().getElement();
    if (getBitWidth(elem) < 32) {
      mlir::Type wide = convertType(call.getArg(0).getType().withElement(ScalarKind::I32));
      src = isUnsigned(elem) ? Value(mlir::arith::ExtUIOp::create(builder, where, wide, src))
                             : Value(mlir::arith::ExtSIOp::create(builder, where, wide, src));
    }
    return mlir::tile::HistogramOp::create(builder, where, result, src, mask);
  }
  case B::Dot: {
    // a, b, acc, then for fp32 operands the input precision.
    llvm::SmallVector<Value, 3> operands;
    for (unsigned i = 0; i < 3; ++i) {
      operands.push_back(generateExpr(call.getArg(i)));
      if (!operands.back())
        return nullptr;
    }
    mlir::StringAttr precision;
    if (call.getArgs().size() > 3)
      precision = builder.getStringAttr(call.getConstArg(3).getString());
    return mlir::tile::DotOp::create(builder, where, result, operands[0],
                                     operands[1], operands[2], precision);
  }
  default:
    return fail(call.getLoc(), "not supported yet: '" +
                                   getBuiltinInfo(call.getBuiltin()).name +
                                   "' in code generation");
  }
}

void MLIRGenerator::markVolatile(const BuiltinCallExpr &call, Value load) {
  if (call.getConstArg(7).isTruthy()) // tl.load's `volatile`.
    load.getDefiningOp()->setAttr(mlir::tile::kVolatileAttr,
                                  builder.getI64IntegerAttr(volatileLoads++));
}

/// Applies the math op for `builtin` to a float or integer `x`.
static Value applyUnaryMath(mlir::OpBuilder &builder, mlir::Location where,
                            Builtin builtin, Value x, ScalarKind kind) {
  namespace math = mlir::math;
  namespace arith = mlir::arith;
  switch (builtin) {
  case Builtin::Exp:
    return math::ExpOp::create(builder, where, x);
  case Builtin::Exp2:
    return math::Exp2Op::create(builder, where, x);
  case Builtin::Log:
    return math::LogOp::create(builder, where, x);
  case Builtin::Log2:
    return math::Log2Op::create(builder, where, x);
  case Builtin::Sqrt:
    return math::SqrtOp::create(builder, where, x);
  case Builtin::Rsqrt:
    return math::RsqrtOp::create(builder, where, x);
  case Builtin::Sin:
    return math::SinOp::create(builder, where, x);
  case Builtin::Cos:
    return math::CosOp::create(builder, where, x);
  case Builtin::Tanh:
    return math::TanhOp::create(builder, where, x);
  case Builtin::Erf:
    return math::ErfOp::create(builder, where, x);
  case Builtin::Floor:
    return math::FloorOp::create(builder, where, x);
  case Builtin::Ceil:
    return math::CeilOp::create(builder, where, x);
  case Builtin::Abs:
    if (isFloat(kind))
      return math::AbsFOp::create(builder, where, x);
    if (isUnsigned(kind) || kind == ScalarKind::I1)
      return x;
    return math::AbsIOp::create(builder, where, x);
  case Builtin::Sigmoid: { // 1 / (1 + exp(-x))
    mlir::Type type = x.getType();
    mlir::Type element = mlir::getElementTypeOrSelf(type);
    auto oneAttr = builder.getFloatAttr(element, 1.0);
    Value one = llvm::isa<mlir::RankedTensorType>(type)
                    ? Value(arith::ConstantOp::create(
                          builder, where,
                          mlir::DenseElementsAttr::get(
                              llvm::cast<mlir::ShapedType>(type), oneAttr)))
                    : Value(arith::ConstantOp::create(builder, where, oneAttr));
    Value negated = arith::NegFOp::create(builder, where, x);
    Value exp = math::ExpOp::create(builder, where, negated);
    Value denominator = arith::AddFOp::create(builder, where, one, exp);
    return arith::DivFOp::create(builder, where, one, denominator);
  }
  default:
    return nullptr;
  }
}

Value MLIRGenerator::generateUnaryMath(const BuiltinCallExpr &call,
                                       mlir::Location where) {
  Builtin builtin = call.getBuiltin();
  const Type &type = call.getType();
  ScalarKind kind = type.getElement();
  bool exact = builtin == Builtin::Abs || builtin == Builtin::Floor ||
               builtin == Builtin::Ceil;
  // fp64 transcendentals have no PTX instructions: the lowering calls
  // libdevice for them.
  Value operand = generateExpr(call.getArg(0));
  if (!operand)
    return nullptr;
  if ((kind == ScalarKind::F16 || kind == ScalarKind::BF16) && !exact) {
    Type wide = type.withElement(ScalarKind::F32);
    Value x =
        mlir::arith::ExtFOp::create(builder, where, convertType(wide), operand);
    Value y = applyUnaryMath(builder, where, builtin, x, ScalarKind::F32);
    return mlir::arith::TruncFOp::create(builder, where, convertType(type), y);
  }
  return applyUnaryMath(builder, where, builtin, operand, kind);
}

Value MLIRGenerator::maxOrMin(mlir::Location where, bool isMax, Value a,
                              Value b, ScalarKind kind) {
  using namespace mlir::arith;
  if (isFloat(kind))
    return isMax ? Value(MaxNumFOp::create(builder, where, a, b))
                 : Value(MinNumFOp::create(builder, where, a, b));
  if (isUnsigned(kind) || kind == ScalarKind::I1)
    return isMax ? Value(MaxUIOp::create(builder, where, a, b))
                 : Value(MinUIOp::create(builder, where, a, b));
  return isMax ? Value(MaxSIOp::create(builder, where, a, b))
               : Value(MinSIOp::create(builder, where, a, b));
}

Value MLIRGenerator::generateElementwise(const BuiltinCallExpr &call,
                                         mlir::Location where) {
  llvm::SmallVector<Value, 3> operands;
  if (!generateArgs(call, operands))
    return nullptr;
  ScalarKind kind = call.getType().getElement();
  using namespace mlir::arith;
  switch (call.getBuiltin()) {
  case Builtin::Fma:
    return mlir::math::FmaOp::create(builder, where, operands[0], operands[1],
                                     operands[2]);
  case Builtin::Maximum:
  case Builtin::Minimum:
    return maxOrMin(where, call.getBuiltin() == Builtin::Maximum, operands[0],
                    operands[1], kind);
  case Builtin::Clamp: // min(max(x, lo), hi)
    return maxOrMin(where, false,
                    maxOrMin(where, true, operands[0], operands[1], kind),
                    operands[2], kind);
  case Builtin::Where:
    return SelectOp::create(builder, where, operands[0], operands[1],
                            operands[2]);
  case Builtin::Cdiv: { // (x + div - 1) // div, C division as Triton.
    Value one = constant(where, call.getType(), ConstValue::getInt(1));
    Value sum = AddIOp::create(builder, where, operands[0], operands[1]);
    Value numerator = SubIOp::create(builder, where, sum, one);
    return isUnsigned(kind)
               ? Value(DivUIOp::create(builder, where, numerator, operands[1]))
               : Value(DivSIOp::create(builder, where, numerator, operands[1]));
  }
  default:
    return nullptr;
  }
}

Value MLIRGenerator::generateAtomic(const BuiltinCallExpr &call,
                                    mlir::Location where) {
  using B = Builtin;
  using mlir::tile::RMWKind;
  mlir::Type result = convertType(call.getType());
  // Sema checked both strings.
  auto sem = *mlir::tile::symbolizeMemSemantic(call.getConstArg(3).getString());
  auto scope = *mlir::tile::symbolizeMemScope(call.getConstArg(4).getString());
  if (call.getBuiltin() == B::AtomicCas) {
    Value ptr = generateExpr(call.getArg(0));
    Value cmp = ptr ? generateExpr(call.getArg(1)) : nullptr;
    Value val = cmp ? generateExpr(call.getArg(2)) : nullptr;
    if (!val)
      return nullptr;
    return mlir::tile::AtomicCASOp::create(builder, where, result, ptr, cmp, val, sem,
                                           scope);
  }
  bool ok = true;
  Value ptr = generateExpr(call.getArg(0));
  Value val = ptr ? generateExpr(call.getArg(1)) : nullptr;
  if (!val)
    return nullptr;
  Value mask = optionalArg(call, 2, ok);
  if (!ok)
    return nullptr;
  bool isU = isUnsigned(call.getType().getElement());
  RMWKind kind;
  switch (call.getBuiltin()) {
  case B::AtomicAdd:
    kind = RMWKind::Add;
    break;
  case B::AtomicMax:
    kind = isU ? RMWKind::UMax : RMWKind::Max;
    break;
  case B::AtomicMin:
    kind = isU ? RMWKind::UMin : RMWKind::Min;
    break;
  case B::AtomicAnd:
    kind = RMWKind::And;
    break;
  case B::AtomicOr:
    kind = RMWKind::Or;
    break;
  case B::AtomicXor:
    kind = RMWKind::Xor;
    break;
  default:
    kind = RMWKind::Xchg;
    break;
  }
  return mlir::tile::AtomicRMWOp::create(builder, where, result, kind, ptr, val, mask,
                                         sem, scope);
}

bool MLIRGenerator::generateTensorMapOperands(const BuiltinCallExpr &call, unsigned first,
                                              TensorMapOperands &out) {
  out.map = generateExpr(call.getArg(first));
  for (auto [index, values] :
       {std::pair{first + 1, &out.coords}, std::pair{first + 2, &out.parts}})
    for (const ExprPtr &element : llvm::cast<TupleExpr>(call.getArg(index)).getElements())
      values->push_back(generateExpr(*element));
  return out.map && !llvm::is_contained(out.coords, Value()) &&
         !llvm::is_contained(out.parts, Value());
}

bool MLIRGenerator::generateVoidCall(const Expr &expr) {
  const auto *call = llvm::dyn_cast<BuiltinCallExpr>(&expr);
  if (!call) {
    diag.error(expr.getLoc(), "not supported yet: this statement");
    return false;
  }
  mlir::Location where = loc(call->getLoc());
  switch (call->getBuiltin()) {
  case Builtin::Store: {
    bool ok = true;
    Value ptr = generateExpr(call->getArg(0));
    Value value = ptr ? generateExpr(call->getArg(1)) : nullptr;
    if (!value)
      return false;
    Value mask = optionalArg(*call, 2, ok);
    if (!ok)
      return false;
    if (call->getArg(0).getType().getElement() == ScalarKind::I1)
      value = boolToByte(where, value);
    if (call->getArgs().size() > kStoreArgs) {
      TensorMapOperands map;
      if (!generateTensorMapOperands(*call, kStoreArgs, map))
        return false;
      mlir::tile::StoreOp::create(builder, where, ptr, value, mask, map.map, map.coords,
                                  map.parts);
      return true;
    }
    mlir::tile::StoreOp::create(builder, where, ptr, value, mask);
    return true;
  }
  case Builtin::DevicePrint: {
    llvm::SmallVector<Value> values;
    if (!generateArgs(*call, values, /*first=*/2))
      return false;
    mlir::tile::PrintOp::create(builder, where,
                                call->getConstArg(0).getString(),
                                call->getConstArg(1).isTruthy(), values);
    return true;
  }
  case Builtin::DeviceAssert: {
    Value cond = generateExpr(call->getArg(0));
    if (!cond)
      return false;
    mlir::tile::AssertOp::create(builder, where, cond,
                                 call->getConstArg(1).getString());
    return true;
  }
  case Builtin::DebugBarrier:
    mlir::tile::BarrierOp::create(builder, where);
    return true;
  default:
    diag.error(expr.getLoc(), "not supported yet: this statement");
    return false;
  }
}
