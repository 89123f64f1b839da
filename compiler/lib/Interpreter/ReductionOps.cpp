//===- ReductionOps.cpp - tile.reduce, tile.scan and tile.histogram -------===//
//
// The combine region runs on whole tiles: a reduction pairs neighbours
// (2i, 2i + 1) along the axis for every other index at once, halving the
// axis each round, so a combine that is associative but not commutative
// still sees its operands in order. A scan doubles its reach each round
// (Hillis-Steele). As in the GPU lowering, the lower indices are always
// the region's left operand, reversed or not (the frontend orders a user's
// combine function's arguments for a reversed scan).
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

using namespace tilec::interp;
using mlir::Operation;

namespace {

/// A tile viewed as [outer, n, inner] around `axis`.
struct AxisView {
  std::int64_t outer = 1, n = 1, inner = 1;

  AxisView(llvm::ArrayRef<std::int64_t> shape, unsigned axis) {
    for (unsigned d = 0; d < shape.size(); ++d)
      (d < axis ? outer : d == axis ? n : inner) *= shape[d];
  }
  std::size_t at(std::int64_t o, std::int64_t k, std::int64_t i, std::int64_t size) const {
    return static_cast<std::size_t>((o * size + k) * inner + i);
  }
};

/// Copies elements [o, k, i] of `src` (axis length `srcN`) for k in `ks`
/// into a flat tile of outer * ks.size() * inner elements.
std::shared_ptr<TileValue> pick(const TileValue &src, const AxisView &view, std::int64_t srcN,
                                llvm::ArrayRef<std::int64_t> ks) {
  auto out = makeTile({view.outer * static_cast<std::int64_t>(ks.size()) * view.inner}, src.type);
  std::size_t j = 0;
  for (std::int64_t o = 0; o < view.outer; ++o)
    for (std::int64_t k : ks)
      for (std::int64_t i = 0; i < view.inner; ++i) {
        std::size_t from = view.at(o, k, i, srcN);
        out->data[j] = src.data[from];
        if (!out->origin.empty())
          out->origin[j] = src.origin[from];
        ++j;
      }
  return out;
}

/// Runs the combine region of `op` on lhs and rhs tiles.
bool combine(Runner &r, Operation &op, llvm::ArrayRef<TilePtr> lhs, llvm::ArrayRef<TilePtr> rhs,
             llvm::SmallVectorImpl<TilePtr> &results) {
  llvm::SmallVector<TilePtr> args(lhs.begin(), lhs.end());
  args.append(rhs.begin(), rhs.end());
  return r.runBlock(op.getRegion(0).front(), args, results);
}

bool reduce(Runner &r, Operation &op) {
  auto reduceOp = llvm::cast<mlir::tile::ReduceOp>(op);
  unsigned axis = reduceOp.getAxis();
  llvm::SmallVector<TilePtr> current;
  for (mlir::Value src : reduceOp.getSrcs())
    current.push_back(r.getPtr(src));
  llvm::SmallVector<std::int64_t, 4> shape(current.front()->shape);
  AxisView view(shape, axis);
  std::int64_t n = view.n;
  while (n > 1) {
    std::int64_t half = n / 2;
    llvm::SmallVector<std::int64_t> even, odd, all;
    for (std::int64_t k = 0; k < half; ++k) {
      even.push_back(2 * k);
      odd.push_back(2 * k + 1);
    }
    llvm::SmallVector<TilePtr> lhs, rhs, combined;
    for (const TilePtr &tile : current) {
      lhs.push_back(pick(*tile, view, n, even));
      rhs.push_back(pick(*tile, view, n, odd));
    }
    if (!combine(r, op, lhs, rhs, combined))
      return false;
    // The next round's axis: the pairs' results, then an odd one out.
    std::int64_t next = half + n % 2;
    for (auto [index, tile] : llvm::enumerate(current)) {
      auto merged = makeTile({view.outer * next * view.inner}, combined[index]->type);
      const TileValue &pairs = *combined[index];
      for (std::int64_t o = 0; o < view.outer; ++o)
        for (std::int64_t k = 0; k < next; ++k)
          for (std::int64_t i = 0; i < view.inner; ++i)
            merged->data[view.at(o, k, i, next)] =
                k < half ? pairs.data[pairs.size() == 1 ? 0 : view.at(o, k, i, half)]
                         : tile->data[view.at(o, n - 1, i, n)];
      current[index] = std::move(merged);
    }
    n = next;
  }
  shape.erase(shape.begin() + axis);
  for (auto [result, tile] : llvm::zip(op.getResults(), current)) {
    auto shaped = std::make_shared<TileValue>(*tile);
    shaped->shape = shape;
    r.set(result, std::move(shaped));
  }
  return true;
}

bool scan(Runner &r, Operation &op) {
  auto scanOp = llvm::cast<mlir::tile::ScanOp>(op);
  unsigned axis = scanOp.getAxis();
  bool reverse = scanOp.getReverse();
  llvm::SmallVector<std::shared_ptr<TileValue>> current;
  for (mlir::Value src : scanOp.getSrcs())
    current.push_back(std::make_shared<TileValue>(r.get(src)));
  AxisView view(current.front()->shape, axis);
  std::int64_t n = view.n;
  for (std::int64_t d = 1; d < n; d *= 2) {
    // Forward: x[k] = combine(x[k - d], x[k]) for k >= d. Reversed:
    // x[k] = combine(x[k], x[k + d]) for k < n - d.
    llvm::SmallVector<std::int64_t> targets, partners;
    for (std::int64_t k = 0; k + d < n; ++k) {
      targets.push_back(reverse ? k : k + d);
      partners.push_back(reverse ? k + d : k);
    }
    // The lower indices are always the region's left operand.
    llvm::ArrayRef<std::int64_t> lower = reverse ? targets : partners;
    llvm::ArrayRef<std::int64_t> higher = reverse ? partners : targets;
    llvm::SmallVector<TilePtr> lhs, rhs, combined;
    for (const auto &tile : current) {
      lhs.push_back(pick(*tile, view, n, lower));
      rhs.push_back(pick(*tile, view, n, higher));
    }
    if (!combine(r, op, lhs, rhs, combined))
      return false;
    for (auto [index, tile] : llvm::enumerate(current)) {
      auto next = std::make_shared<TileValue>(*tile);
      const TileValue &values = *combined[index];
      std::size_t j = 0;
      for (std::int64_t o = 0; o < view.outer; ++o)
        for (std::int64_t k : targets)
          for (std::int64_t i = 0; i < view.inner; ++i, ++j)
            next->data[view.at(o, k, i, n)] = values.data[values.size() == 1 ? 0 : j];
      current[index] = std::move(next);
    }
  }
  for (auto [result, tile] : llvm::zip(op.getResults(), current))
    r.set(result, std::move(tile));
  return true;
}

/// tile.histogram: counts of 0 .. bins - 1 among the enabled elements.
bool histogram(Runner &r, Operation &op) {
  auto histogramOp = llvm::cast<mlir::tile::HistogramOp>(op);
  const TileValue &src = r.get(histogramOp.getSrc());
  const TileValue *mask = histogramOp.getMask() ? &r.get(histogramOp.getMask()) : nullptr;
  auto type = llvm::cast<mlir::RankedTensorType>(histogramOp.getType());
  auto out = makeTile(type.getShape(), ElemType::of(type));
  std::int64_t bins = type.getDimSize(0);
  for (std::size_t i = 0; i < src.size(); ++i) {
    std::int64_t value = src.data[i].i;
    if ((!mask || mask->data[i].i) && value >= 0 && value < bins)
      ++out->data[value].i;
  }
  r.set(histogramOp.getResult(), std::move(out));
  return true;
}

} // namespace

void tilec::interp::registerReductionOps(OpTable &t) {
  t["tile.histogram"] = {histogram};
  t["tile.reduce"] = {reduce};
  t["tile.scan"] = {scan};
  t["tile.reduce.return"] = {nullptr}; // A terminator: runBlock reads it.
}
