//===- Coalesce.cpp - Coalesced, vectorized layouts for memory access -----===//
//
// Analysis first: for each blocked layout that loads or stores use, the
// widest aligned vector that any of those accesses can move along its
// fastest dimension. Then one rewrite: that layout becomes the default
// layout of the (largest) accessed shape with that many consecutive elements
// per thread, everywhere it appears, slices of it included. Tensors that
// shared a layout still share one, so elementwise producers and consumers of
// the accesses, broadcasts and expand_dims stay consistent and need no new
// layout conversion. Where a reduction or scan of a tile in such a layout
// crosses a dimension, the warps go to the other dimensions first (when they
// have room), so that it combines with shuffles alone, without a round trip
// through shared memory and a barrier (a weighted sum's row sums).
// An access that is contiguous along another dimension than the last (a
// column-major tile, such as K^T read from a row-major K) gets a layout of
// its own with that dimension fastest, and conversions around it, which
// tilegpu-remove-layout-conversions then removes where it can (the pointer
// arithmetic is recomputed in the access's layout).
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUCOALESCE
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// What the accesses in one layout allow.
struct AccessSummary {
  SmallVector<int64_t> shape; ///< The largest accessed shape.
  unsigned width = 1;         ///< The widest vector any access can use.
  uint64_t reducedDims = 0;   ///< A bit per dimension that a reduction or
                              ///< scan of a tile in the layout crosses.
};

/// `layout` with every blocked layout in it (a slice's parents included)
/// replaced as `map` says.
Attribute remapLayout(Attribute layout,
                      const DenseMap<Attribute, Attribute> &map) {
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout)) {
    Attribute parent = remapLayout(slice.getParent(), map);
    if (parent == slice.getParent())
      return layout;
    return SliceEncodingAttr::get(layout.getContext(), slice.getDim(), parent);
  }
  return map.lookup_or(layout, layout);
}

/// The pointer of a load or store, or null for any other op.
Value getAccessPointer(Operation *op) {
  if (auto load = dyn_cast<tile::LoadOp>(op))
    return load.getPtr();
  if (auto store = dyn_cast<tile::StoreOp>(op))
    return store.getPtr();
  return {};
}

struct CoalescePass : tilegpu::impl::TileGPUCoalesceBase<CoalescePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    tilec::ModuleAxisInfo axisInfo(module);
    module.walk([&](func::FuncOp func) { coalesce(func, axisInfo); });
  }

  void coalesce(func::FuncOp func, const tilec::ModuleAxisInfo &axisInfo) {
    unsigned numWarps = TileGPUDialect::getNumWarps(func);
    unsigned threadsPerWarp = TileGPUDialect::getThreadsPerWarp(func);
    unsigned threads = numWarps * threadsPerWarp;

    // Analyse: the widest vector per accessed blocked layout.
    llvm::MapVector<Attribute, AccessSummary> accesses;
    // Accesses contiguous along another dimension than the last, with the
    // dimension and the vector width along it.
    SmallVector<std::tuple<Operation *, unsigned, unsigned>> columnAccesses;
    func.walk([&](Operation *op) {
      Value ptr = getAccessPointer(op);
      auto type = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : nullptr;
      if (!type || !getBlockedEncoding(type))
        return;
      unsigned fastest = type.getRank() - 1;
      int64_t perThread =
          std::max<int64_t>(1, type.getNumElements() / threads);
      unsigned width =
          axisInfo.getVectorWidth(ptr, fastest, std::min<int64_t>(perThread, 16));
      if (width == 1)
        for (unsigned dim = 0; dim < fastest; ++dim) {
          unsigned along = axisInfo.getVectorWidth(
              ptr, dim, std::min<int64_t>(perThread, 16));
          if (along > 1) {
            columnAccesses.emplace_back(op, dim, along);
            return;
          }
        }
      AccessSummary &summary = accesses[type.getEncoding()];
      if (summary.shape.empty() ||
          type.getNumElements() > ShapedType::getNumElements(summary.shape))
        summary.shape.assign(type.getShape().begin(), type.getShape().end());
      summary.width = std::max(summary.width, width);
    });

    // The dimensions that reductions and scans of tiles in those layouts
    // cross: warps go there last, so that they combine without shared
    // memory where the other dimensions have room for the warps.
    func.walk([&](Operation *op) {
      if (!isa<tile::ReduceOp, tile::ScanOp>(op) || op->getNumOperands() == 0)
        return;
      auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
      auto it = type ? accesses.find(type.getEncoding()) : accesses.end();
      if (it == accesses.end() || it->second.shape.size() != type.getRank())
        return;
      unsigned axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
      it->second.reducedDims |= uint64_t(1) << axis;
    });

    // Mutate: re-lay-out every tile in each such layout.
    MLIRContext *context = &getContext();
    DenseMap<Attribute, Attribute> map;
    for (auto &[layout, summary] : accesses)
      map[layout] = BlockedEncodingAttr::getDefault(
          context, summary.shape, numWarps, threadsPerWarp, summary.width, {},
          summary.reducedDims);
    rewriteTensorEncodings(func, [&](RankedTensorType type) -> Attribute {
      Attribute layout = remapLayout(type.getEncoding(), map);
      return layout == type.getEncoding() ? Attribute() : layout;
    });
    for (auto [op, dim, width] : columnAccesses)
      relayoutAccess(op, dim, width, numWarps, threadsPerWarp);
  }

  /// Gives the access `op` a layout with `dim` fastest and `width`
  /// consecutive elements per thread along it (the other dimensions from the
  /// last to the first): its tensor operands are converted into it, and a
  /// load's result back to its old layout.
  void relayoutAccess(Operation *op, unsigned dim, unsigned width,
                      unsigned numWarps, unsigned threadsPerWarp) {
    auto type = cast<RankedTensorType>(getAccessPointer(op).getType());
    SmallVector<unsigned> order{dim};
    for (unsigned d = type.getRank(); d-- > 0;)
      if (d != dim)
        order.push_back(d);
    auto layout = BlockedEncodingAttr::getDefault(
        &getContext(), type.getShape(), numWarps, threadsPerWarp, width, order);
    for (OpOperand &operand : op->getOpOperands())
      if (isa<RankedTensorType>(operand.get().getType()))
        convertOperand(operand, layout);
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      auto oldType = cast<RankedTensorType>(load.getType());
      load.getResult().setType(withLayout(oldType, layout));
      OpBuilder builder(op->getContext());
      builder.setInsertionPointAfter(op);
      auto back =
          ConvertLayoutOp::create(builder, op->getLoc(), oldType, load.getResult());
      load.getResult().replaceAllUsesExcept(back, back);
    }
  }
};

} // namespace
