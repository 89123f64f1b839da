//===- ControlFlowOps.cpp - scf loops and branches, terminators -----------===//

#include "Runner.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace tilec::interp;
using mlir::Operation;

namespace {

void setResults(Runner &r, Operation &op, llvm::ArrayRef<TilePtr> values) {
  for (auto [result, value] : llvm::zip(op.getResults(), values))
    r.set(result, value);
}

bool forOp(Runner &r, Operation &op) {
  auto loop = llvm::cast<mlir::scf::ForOp>(op);
  const TileValue &lower = r.get(loop.getLowerBound());
  std::int64_t lb = lower.data[0].i;
  std::int64_t ub = r.get(loop.getUpperBound()).data[0].i;
  std::int64_t step = r.get(loop.getStep()).data[0].i;
  unsigned bits = lower.type.bits;
  bool isUnsigned = loop.getUnsignedCmp();
  if (step <= 0 && !isUnsigned)
    return r.fail(op, "loop step " + llvm::Twine(step) + " is not positive");
  llvm::SmallVector<TilePtr> carried;
  for (mlir::Value init : loop.getInitArgs())
    carried.push_back(r.getPtr(init));
  llvm::SmallVector<TilePtr> args, results;
  mlir::Block &body = *loop.getBody();
  for (std::int64_t iv = lb;;) {
    bool more = isUnsigned ? zeroExtend(iv, bits) < zeroExtend(ub, bits) : iv < ub;
    if (!more)
      break;
    auto ivTile = makeTile({}, lower.type);
    ivTile->data[0].i = iv;
    args.assign(1, std::move(ivTile));
    args.append(carried.begin(), carried.end());
    if (!r.runBlock(body, args, results))
      return false;
    carried.assign(results.begin(), results.end());
    std::int64_t next = signExtend(static_cast<std::uint64_t>(iv) + static_cast<std::uint64_t>(step), bits);
    if (isUnsigned ? zeroExtend(next, bits) <= zeroExtend(iv, bits) : next <= iv)
      break; // wrapped around the type
    iv = next;
  }
  setResults(r, op, carried);
  return true;
}

bool ifOp(Runner &r, Operation &op) {
  auto branch = llvm::cast<mlir::scf::IfOp>(op);
  bool taken = r.get(branch.getCondition()).data[0].i != 0;
  mlir::Region &region = taken ? branch.getThenRegion() : branch.getElseRegion();
  if (region.empty())
    return true;
  llvm::SmallVector<TilePtr> results;
  if (!r.runBlock(region.front(), {}, results))
    return false;
  setResults(r, op, results);
  return true;
}

bool whileOp(Runner &r, Operation &op) {
  auto loop = llvm::cast<mlir::scf::WhileOp>(op);
  llvm::SmallVector<TilePtr> args, results;
  for (mlir::Value init : loop.getInits())
    args.push_back(r.getPtr(init));
  while (true) {
    if (!r.runBlock(loop.getBefore().front(), args, results))
      return false;
    // results: the condition, then the values passed on.
    bool proceed = results.front()->data[0].i != 0;
    args.assign(results.begin() + 1, results.end());
    if (!proceed)
      break;
    if (!r.runBlock(loop.getAfter().front(), args, results))
      return false;
    args.assign(results.begin(), results.end());
  }
  setResults(r, op, args);
  return true;
}

/// ub.poison: any value will do; zeros.
bool poison(Runner &r, Operation &op) {
  mlir::Type type = op.getResult(0).getType();
  llvm::ArrayRef<std::int64_t> shape;
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type))
    shape = tensor.getShape();
  r.set(op.getResult(0), makeTile(shape, ElemType::of(type)));
  return true;
}

} // namespace

void tilec::interp::registerControlFlowOps(OpTable &t) {
  t["scf.for"] = {forOp};
  t["scf.if"] = {ifOp};
  t["scf.while"] = {whileOp};
  t["ub.poison"] = {poison};
  // Terminators: Runner::runBlock reads their operands.
  for (llvm::StringRef name : {"scf.yield", "scf.condition", "func.return"})
    t[name] = {nullptr};
}
