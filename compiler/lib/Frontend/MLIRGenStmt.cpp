//===- MLIRGenStmt.cpp - Runtime control flow to scf ------------------------===//
//
// RangeForStmt -> scf.for, RuntimeWhileStmt -> scf.while, RuntimeIfStmt ->
// scf.if. Variables map to SSA values (`values`); a region sees the values
// from before it, its carried variables become block arguments (iter_args)
// and yields, and after the op the map is what it was before the op plus the
// op's results for the carried variables. Each op gets the statement's
// location.
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace tilec;
using namespace tilec::detail;
using mlir::Value;

bool MLIRGenerator::generateBlock(const Block &block) {
  for (const StmtPtr &stmt : block)
    if (!generateStmt(*stmt))
      return false;
  return true;
}

bool MLIRGenerator::carriedValues(llvm::ArrayRef<CarriedVar> carried, SourceLoc where,
                                  llvm::SmallVectorImpl<Value> &result) {
  for (const CarriedVar &var : carried) {
    auto it = values.find(var.var);
    if (it == values.end()) {
      diag.error(where, "internal error: carried variable '" + var.var->getName() +
                            "' has no value");
      return false;
    }
    result.push_back(it->second);
  }
  return true;
}

bool MLIRGenerator::generateYieldingBlock(const Block &block,
                                          llvm::ArrayRef<CarriedVar> carried,
                                          mlir::ValueRange args, SourceLoc where) {
  for (auto [var, arg] : llvm::zip(carried, args))
    values[var.var] = arg;
  llvm::SmallVector<Value> yields;
  if (!generateBlock(block) || !carriedValues(carried, where, yields))
    return false;
  mlir::scf::YieldOp::create(builder, loc(where), yields);
  return true;
}

void MLIRGenerator::restoreAfter(llvm::DenseMap<const Variable *, Value> before,
                                 llvm::ArrayRef<CarriedVar> carried,
                                 mlir::ValueRange results) {
  values = std::move(before);
  for (auto [var, result] : llvm::zip(carried, results))
    values[var.var] = result;
}

/// Removes the terminator a builder may have put into a fresh scf block.
static void dropTerminator(mlir::Block *block) {
  if (!block->empty() && block->back().hasTrait<mlir::OpTrait::IsTerminator>())
    block->back().erase();
}

bool MLIRGenerator::generateRangeFor(const RangeForStmt &loop) {
  mlir::Location where = loc(loop.getLoc());
  Value start = generateExpr(loop.getStart());
  Value end = start ? generateExpr(loop.getEnd()) : nullptr;
  Value step = end ? generateExpr(loop.getStep()) : nullptr;
  llvm::SmallVector<Value> inits;
  if (!step || !carriedValues(loop.getCarried(), loop.getLoc(), inits))
    return false;
  // Loops whose step is not a known positive constant count trips k from 0
  // (scf.for needs a positive step); the body sees i = start + k * step.
  using StepSign = RangeForStmt::StepSign;
  StepSign sign = loop.getStepSign();
  Value lower = start, upper = end, forStep = step;
  if (sign != StepSign::Positive) {
    using namespace mlir::arith;
    const Type &type = loop.getInductionType();
    Value zero = constant(where, type, ConstValue::getInt(0));
    Value one = constant(where, type, ConstValue::getInt(1));
    // ceil(span / stride) for a positive stride; a span <= 0 gives <= 0 trips.
    auto trips = [&](Value span, Value stride) -> Value {
      Value rounded = AddIOp::create(builder, where, span,
                                     SubIOp::create(builder, where, stride, one));
      return DivSIOp::create(builder, where, rounded, stride);
    };
    if (sign == StepSign::Negative) {
      upper = trips(SubIOp::create(builder, where, start, end), step);
      // The body steps by -|step|.
      step = SubIOp::create(builder, where, zero, step);
    } else {
      // Python's rule for either sign; a zero step (an error in Python) runs
      // no defined number of trips but never divides by zero.
      Value positive = CmpIOp::create(builder, where, CmpIPredicate::sgt, step, zero);
      Value span = SelectOp::create(builder, where, positive,
                                    SubIOp::create(builder, where, end, start),
                                    SubIOp::create(builder, where, start, end));
      Value stride = MaxSIOp::create(
          builder, where,
          SelectOp::create(builder, where, positive, step,
                           SubIOp::create(builder, where, zero, step)),
          one);
      upper = trips(span, stride);
    }
    lower = zero;
    forStep = one;
  }
  auto forOp = mlir::scf::ForOp::create(builder, where, lower, upper, forStep, inits);
  if (loop.getNumStages() != 0)
    forOp->setAttr(mlir::tile::kNumStagesAttr,
                   builder.getI32IntegerAttr(loop.getNumStages()));
  llvm::DenseMap<const Variable *, Value> before = values;
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    mlir::Block *body = forOp.getBody();
    dropTerminator(body);
    builder.setInsertionPointToEnd(body);
    Value iv = forOp.getInductionVar();
    if (sign != StepSign::Positive)
      iv = mlir::arith::AddIOp::create(
          builder, where, start, mlir::arith::MulIOp::create(builder, where, iv, step));
    values[loop.getInductionVar()] = iv;
    if (!generateYieldingBlock(loop.getBody(), loop.getCarried(),
                               forOp.getRegionIterArgs(), loop.getLoc()))
      return false;
  }
  restoreAfter(std::move(before), loop.getCarried(), forOp.getResults());
  return true;
}

bool MLIRGenerator::generateWhile(const RuntimeWhileStmt &loop) {
  mlir::Location where = loc(loop.getLoc());
  llvm::SmallVector<Value> inits;
  if (!carriedValues(loop.getCarried(), loop.getLoc(), inits))
    return false;
  llvm::SmallVector<mlir::Type> types;
  llvm::SmallVector<mlir::Location> locs(inits.size(), where);
  for (Value init : inits)
    types.push_back(init.getType());
  auto whileOp = mlir::scf::WhileOp::create(builder, where, types, inits);
  llvm::DenseMap<const Variable *, Value> before = values;
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    // Before region: the condition, passing the carried values on.
    mlir::Block *cond = builder.createBlock(&whileOp.getBefore(), {}, types, locs);
    for (auto [var, arg] : llvm::zip(loop.getCarried(), cond->getArguments()))
      values[var.var] = arg;
    if (!generateBlock(loop.getCondBlock()))
      return false;
    Value condition = generateExpr(loop.getCond());
    llvm::SmallVector<Value> forwarded;
    if (!condition || !carriedValues(loop.getCarried(), loop.getLoc(), forwarded))
      return false;
    mlir::scf::ConditionOp::create(builder, where, condition, forwarded);
    // After region: the body.
    mlir::Block *body = builder.createBlock(&whileOp.getAfter(), {}, types, locs);
    if (!generateYieldingBlock(loop.getBody(), loop.getCarried(), body->getArguments(),
                               loop.getLoc()))
      return false;
  }
  restoreAfter(std::move(before), loop.getCarried(), whileOp.getResults());
  return true;
}

bool MLIRGenerator::generateIf(const RuntimeIfStmt &ifStmt) {
  mlir::Location where = loc(ifStmt.getLoc());
  Value cond = generateExpr(ifStmt.getCond());
  if (!cond)
    return false;
  llvm::SmallVector<mlir::Type> types;
  for (const CarriedVar &var : ifStmt.getResults())
    types.push_back(convertType(var.type));
  auto ifOp =
      mlir::scf::IfOp::create(builder, where, types, cond, /*withElseRegion=*/true);
  llvm::DenseMap<const Variable *, Value> before = values;
  for (auto [block, branch] : {std::pair(ifOp.thenBlock(), &ifStmt.getThen()),
                               std::pair(ifOp.elseBlock(), &ifStmt.getElse())}) {
    mlir::OpBuilder::InsertionGuard guard(builder);
    dropTerminator(block);
    builder.setInsertionPointToEnd(block);
    values = before;
    if (!generateYieldingBlock(*branch, ifStmt.getResults(), {}, ifStmt.getLoc()))
      return false;
  }
  restoreAfter(std::move(before), ifStmt.getResults(), ifOp.getResults());
  return true;
}
