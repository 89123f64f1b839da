//===- ShapeOps.cpp - grid queries, ranges and shape ops ------------------===//

#include "Runner.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace tilec::interp;
using mlir::Operation;

namespace {

llvm::ArrayRef<std::int64_t> resultShape(Operation &op) {
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(op.getResult(0).getType()))
    return tensor.getShape();
  return {};
}

/// Row-major strides of `shape`.
llvm::SmallVector<std::int64_t, 4> stridesOf(llvm::ArrayRef<std::int64_t> shape) {
  llvm::SmallVector<std::int64_t, 4> strides(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// A tile of `shape` whose element at index I is src's element at
/// sum(I[d] * srcStrides[d]).
std::shared_ptr<TileValue> gather(const TileValue &src, llvm::ArrayRef<std::int64_t> shape,
                                  llvm::ArrayRef<std::int64_t> srcStrides) {
  auto out = makeTile(shape, src.type);
  llvm::SmallVector<std::int64_t, 4> index(shape.size(), 0);
  std::int64_t offset = 0;
  for (std::size_t i = 0, n = out->size(); i < n; ++i) {
    out->data[i] = src.data[offset];
    if (!out->origin.empty())
      out->origin[i] = src.origin[offset];
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      offset += srcStrides[d];
      if (++index[d] < shape[d])
        break;
      offset -= srcStrides[d] * shape[d];
      index[d] = 0;
    }
  }
  return out;
}

bool programId(Runner &r, Operation &op) {
  auto tile = makeTile({}, ElemType::of(op.getResult(0).getType()));
  tile->data[0].i = r.programId[llvm::cast<mlir::tile::ProgramIdOp>(op).getAxis()];
  r.set(op.getResult(0), std::move(tile));
  return true;
}

bool numPrograms(Runner &r, Operation &op) {
  auto tile = makeTile({}, ElemType::of(op.getResult(0).getType()));
  tile->data[0].i = r.launch.grid[llvm::cast<mlir::tile::NumProgramsOp>(op).getAxis()];
  r.set(op.getResult(0), std::move(tile));
  return true;
}

bool makeRange(Runner &r, Operation &op) {
  auto range = llvm::cast<mlir::tile::MakeRangeOp>(op);
  auto tile = makeTile(resultShape(op), ElemType::of(op.getResult(0).getType()));
  for (std::size_t i = 0; i < tile->size(); ++i)
    tile->data[i].i = range.getStart() + static_cast<std::int64_t>(i);
  r.set(op.getResult(0), std::move(tile));
  return true;
}

bool splat(Runner &r, Operation &op) {
  const TileValue &src = r.get(op.getOperand(0));
  auto tile = makeTile(resultShape(op), src.type);
  std::fill(tile->data.begin(), tile->data.end(), src.data[0]);
  if (!tile->origin.empty())
    std::fill(tile->origin.begin(), tile->origin.end(), src.origin[0]);
  r.set(op.getResult(0), std::move(tile));
  return true;
}

bool broadcast(Runner &r, Operation &op) {
  const TileValue &src = r.get(op.getOperand(0));
  llvm::SmallVector<std::int64_t, 4> strides = stridesOf(src.shape);
  for (auto [d, size] : llvm::enumerate(src.shape))
    if (size == 1)
      strides[d] = 0;
  r.set(op.getResult(0), gather(src, resultShape(op), strides));
  return true;
}

bool trans(Runner &r, Operation &op) {
  const TileValue &src = r.get(op.getOperand(0));
  llvm::ArrayRef<std::int32_t> order = llvm::cast<mlir::tile::TransOp>(op).getOrder();
  llvm::SmallVector<std::int64_t, 4> srcStrides = stridesOf(src.shape), strides;
  for (std::int32_t d : order)
    strides.push_back(srcStrides[d]);
  r.set(op.getResult(0), gather(src, resultShape(op), strides));
  return true;
}

/// expand_dims and reshape: the same elements in the same order.
bool reshape(Runner &r, Operation &op) {
  auto tile = std::make_shared<TileValue>(r.get(op.getOperand(0)));
  llvm::ArrayRef<std::int64_t> shape = resultShape(op);
  tile->shape.assign(shape.begin(), shape.end());
  r.set(op.getResult(0), std::move(tile));
  return true;
}

/// tile.hint: the value itself.
bool identity(Runner &r, Operation &op) {
  r.set(op.getResult(0), r.getPtr(op.getOperand(0)));
  return true;
}

} // namespace

void tilec::interp::registerShapeOps(OpTable &t) {
  t["tile.program_id"] = {programId};
  t["tile.num_programs"] = {numPrograms};
  t["tile.make_range"] = {makeRange};
  t["tile.splat"] = {splat};
  t["tile.broadcast"] = {broadcast};
  t["tile.trans"] = {trans};
  t["tile.expand_dims"] = {reshape};
  t["tile.reshape"] = {reshape};
  t["tile.hint"] = {identity};
}
