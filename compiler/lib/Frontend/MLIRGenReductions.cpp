//===- MLIRGenReductions.cpp - Reductions and scans to the tile dialect ---===//
//
// sum/max/min -> tile.reduce with an add / maxnumf-minnumf (max/min[su]i)
// region; argmax/argmin -> a two-source tile.reduce of (values, indices)
// whose region keeps the larger (smaller) value and, on ties, the smaller
// index (Triton's tie_break_left). The comparisons are ordered, as Triton's
// `value1 > value2`, so a NaN never wins a comparison: which element a NaN
// pairing keeps depends on the combination order (Triton behaves the same).
// cumsum -> tile.scan with an add region. tl.reduce / tl.associative_scan
// -> tile.reduce / tile.scan whose region is the user's combine function,
// inlined by Sema on the region's scalar arguments.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

using namespace tilec;
using namespace tilec::detail;
using mlir::Value;

mlir::Block *MLIRGenerator::createCombineBlock(mlir::Region &region,
                                               mlir::TypeRange elementTypes,
                                               mlir::Location where) {
  llvm::SmallVector<mlir::Type> types(elementTypes);
  types.append(elementTypes.begin(), elementTypes.end());
  llvm::SmallVector<mlir::Location> locs(types.size(), where);
  return builder.createBlock(&region, {}, types, locs);
}

Value MLIRGenerator::combineAdd(mlir::Location where, Value a, Value b,
                                ScalarKind kind) {
  if (isFloat(kind))
    return mlir::arith::AddFOp::create(builder, where, a, b);
  return mlir::arith::AddIOp::create(builder, where, a, b);
}

Value MLIRGenerator::generateIndices(mlir::Location where,
                                     llvm::ArrayRef<int64_t> shape,
                                     unsigned axis) {
  mlir::Type i32 = builder.getI32Type();
  Value indices = mlir::tile::MakeRangeOp::create(
      builder, where, mlir::RankedTensorType::get({shape[axis]}, i32),
      builder.getI32IntegerAttr(0),
      builder.getI32IntegerAttr(static_cast<int32_t>(shape[axis])));
  llvm::SmallVector<int64_t> current{shape[axis]};
  for (unsigned dim = 0; dim < shape.size(); ++dim) {
    if (dim == axis)
      continue;
    unsigned position = dim < axis ? dim : current.size();
    current.insert(current.begin() + position, 1);
    indices = mlir::tile::ExpandDimsOp::create(
        builder, where, mlir::RankedTensorType::get(current, i32), indices,
        position);
  }
  if (llvm::ArrayRef<int64_t>(current) == shape)
    return indices;
  return mlir::tile::BroadcastOp::create(
      builder, where, mlir::RankedTensorType::get(shape, i32), indices);
}

Value MLIRGenerator::generateReduction(const BuiltinCallExpr &call,
                                       mlir::Location where) {
  Value src = generateExpr(call.getArg(0));
  if (!src)
    return nullptr;
  Builtin builtin = call.getBuiltin();
  auto axis = static_cast<unsigned>(call.getConstArg(1).getInt());
  const Type &srcType = call.getArg(0).getType();
  ScalarKind kind = srcType.getElement();
  mlir::Type element = elementType(kind);
  bool isArg = builtin == Builtin::Argmax || builtin == Builtin::Argmin;
  llvm::SmallVector<Value, 2> srcs{src};
  llvm::SmallVector<mlir::Type, 2> elements{element};
  llvm::SmallVector<mlir::Type, 2> results{
      convertType(call.getType().withElement(kind))};
  // An argmax/argmin built for max/min(return_indices=True) also yields
  // the values it selects (a third, constant argument).
  bool values = isArg && call.getArgs().size() > 2 && call.getConstArg(2).isTruthy();
  std::tuple<Value, unsigned, int> key{src, axis, static_cast<int>(builtin)};
  if (isArg) {
    // The same argmax earlier in this block (the values' and the indices'
    // halves of one max/min(return_indices=True)) is reused.
    auto it = argReductions.find(key);
    if (it != argReductions.end() &&
        it->second->getBlock() == builder.getInsertionBlock())
      return it->second->getResult(values ? 0 : 1);
    srcs.push_back(generateIndices(where, srcType.getShape(), axis));
    elements.push_back(builder.getI32Type());
    results.push_back(convertType(call.getType().withElement(ScalarKind::I32)));
  }
  auto reduce =
      mlir::tile::ReduceOp::create(builder, where, results, srcs, axis);
  if (isArg)
    argReductions[key] = reduce;
  mlir::OpBuilder::InsertionGuard guard(builder);
  mlir::Block *block =
      createCombineBlock(reduce.getCombineOp(), elements, where);
  Value lhs = block->getArgument(0);
  Value rhs = block->getArgument(isArg ? 2 : 1);
  llvm::SmallVector<Value, 2> combined;
  if (builtin == Builtin::Sum) {
    combined.push_back(combineAdd(where, lhs, rhs, kind));
  } else if (!isArg) {
    combined.push_back(
        maxOrMin(where, builtin == Builtin::Max, lhs, rhs, kind));
  } else {
    using namespace mlir::arith;
    bool isMax = builtin == Builtin::Argmax;
    Value lhsIndex = block->getArgument(1), rhsIndex = block->getArgument(3);
    Value better, equal;
    if (isFloat(kind)) {
      // NaN is beyond every number (torch.argmax's order), so that the
      // combine is associative and commutative with NaNs too and every
      // reduction order (the GPU's, the interpreter's) finds the first NaN.
      Value lhsNaN = CmpFOp::create(builder, where, CmpFPredicate::UNO, lhs, lhs);
      Value rhsNaN = CmpFOp::create(builder, where, CmpFPredicate::UNO, rhs, rhs);
      Value rhsNumber = CmpFOp::create(builder, where, CmpFPredicate::ORD, rhs, rhs);
      Value beyond = CmpFOp::create(
          builder, where, isMax ? CmpFPredicate::OGT : CmpFPredicate::OLT, lhs, rhs);
      Value nanWins = AndIOp::create(builder, where, lhsNaN, rhsNumber);
      better = OrIOp::create(builder, where, beyond, nanWins);
      Value same = CmpFOp::create(builder, where, CmpFPredicate::OEQ, lhs, rhs);
      Value bothNaN = AndIOp::create(builder, where, lhsNaN, rhsNaN);
      equal = OrIOp::create(builder, where, same, bothNaN);
    } else {
      bool isU = isUnsigned(kind) || kind == ScalarKind::I1;
      CmpIPredicate predicate =
          isMax ? (isU ? CmpIPredicate::ugt : CmpIPredicate::sgt)
                : (isU ? CmpIPredicate::ult : CmpIPredicate::slt);
      better = CmpIOp::create(builder, where, predicate, lhs, rhs);
      equal = CmpIOp::create(builder, where, CmpIPredicate::eq, lhs, rhs);
    }
    Value earlier =
        CmpIOp::create(builder, where, CmpIPredicate::slt, lhsIndex, rhsIndex);
    Value tie = AndIOp::create(builder, where, equal, earlier);
    Value pickLhs = OrIOp::create(builder, where, better, tie);
    combined.push_back(SelectOp::create(builder, where, pickLhs, lhs, rhs));
    combined.push_back(
        SelectOp::create(builder, where, pickLhs, lhsIndex, rhsIndex));
  }
  mlir::tile::ReduceReturnOp::create(builder, where, combined);
  return reduce.getResult(isArg && !values ? 1 : 0);
}

Value MLIRGenerator::generateScan(const BuiltinCallExpr &call,
                                  mlir::Location where) {
  Value src = generateExpr(call.getArg(0));
  if (!src)
    return nullptr;
  ScalarKind kind = call.getType().getElement();
  auto scan = mlir::tile::ScanOp::create(
      builder, where, mlir::TypeRange{src.getType()}, mlir::ValueRange{src},
      static_cast<uint32_t>(call.getConstArg(1).getInt()),
      call.getConstArg(2).isTruthy());
  mlir::OpBuilder::InsertionGuard guard(builder);
  mlir::Block *block = createCombineBlock(
      scan.getCombineOp(), mlir::TypeRange{elementType(kind)}, where);
  Value sum =
      combineAdd(where, block->getArgument(0), block->getArgument(1), kind);
  mlir::tile::ReduceReturnOp::create(builder, where, mlir::ValueRange{sum});
  return scan.getResult(0);
}

Value MLIRGenerator::generateCombine(const CombineExpr &expr) {
  const CombineSpec &spec = expr.getSpec();
  if (mlir::Operation *op = combineOps.lookup(&spec))
    return op->getResult(expr.getIndex());
  mlir::Location where = loc(expr.getLoc());
  llvm::SmallVector<Value> srcs;
  llvm::SmallVector<mlir::Type> elements, results;
  for (const ExprPtr &operand : spec.operands) {
    Value src = generateExpr(*operand);
    if (!src)
      return nullptr;
    srcs.push_back(src);
    const Type &type = operand->getType();
    elements.push_back(elementType(type.getElement()));
    Type result = type;
    if (!spec.isScan) {
      Shape shape(type.getShape());
      shape.erase(shape.begin() + spec.axis);
      result = Type::getTile(type.getElement(), shape);
    }
    results.push_back(convertType(result));
  }
  mlir::Operation *op;
  mlir::Region *region;
  if (spec.isScan) {
    auto scan = mlir::tile::ScanOp::create(builder, where, results, srcs,
                                           static_cast<uint32_t>(spec.axis), spec.reverse);
    op = scan;
    region = &scan.getCombineOp();
  } else {
    auto reduce = mlir::tile::ReduceOp::create(builder, where, results, srcs,
                                               static_cast<uint32_t>(spec.axis));
    op = reduce;
    region = &reduce.getCombineOp();
  }
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    mlir::Block *block = createCombineBlock(*region, elements, where);
    // The region's left side is the lower index. Triton's reversed scan
    // calls combine(accumulated higher indices, current): the sides swap.
    size_t n = spec.lhs.size();
    bool swap = spec.isScan && spec.reverse;
    for (size_t i = 0; i < n; ++i) {
      values[spec.lhs[i]] = block->getArgument(swap ? n + i : i);
      values[spec.rhs[i]] = block->getArgument(swap ? i : n + i);
    }
    if (!generateBlock(spec.body))
      return nullptr;
    llvm::SmallVector<Value> combined;
    for (const ExprPtr &result : spec.results) {
      Value value = generateExpr(*result);
      if (!value)
        return nullptr;
      combined.push_back(value);
    }
    mlir::tile::ReduceReturnOp::create(builder, where, combined);
  }
  // The region combines scalars; a tile computed inside it (tl.sum of an
  // arange in the combine function) has no lowering there.
  bool tileInside = false;
  region->walk([&](mlir::Operation *inner) {
    tileInside |= llvm::any_of(inner->getResultTypes(), [](mlir::Type type) {
      return mlir::isa<mlir::RankedTensorType>(type);
    });
  });
  if (tileInside)
    return fail(expr.getLoc(), "not supported yet: a tile inside a combine function (it "
                               "combines one element of each side)");
  combineOps[&spec] = op;
  return op->getResult(expr.getIndex());
}
