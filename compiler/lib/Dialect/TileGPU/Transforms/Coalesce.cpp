//===- Coalesce.cpp - Coalesced, vectorized layouts for memory access -----===//
//
// Analysis first: for each blocked layout that loads or stores use, the
// widest aligned vector that any of those accesses can move along its
// fastest dimension. Then one rewrite: that layout becomes the default
// layout of the (largest) accessed shape with that many consecutive elements
// per thread, everywhere it appears, slices of it included. Tensors that
// shared a layout still share one, so elementwise producers and consumers of
// the accesses, broadcasts and expand_dims stay consistent and need no new
// layout conversion.
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
    func.walk([&](Operation *op) {
      Value ptr;
      if (auto load = dyn_cast<tile::LoadOp>(op))
        ptr = load.getPtr();
      else if (auto store = dyn_cast<tile::StoreOp>(op))
        ptr = store.getPtr();
      auto type = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : nullptr;
      if (!type || !getBlockedEncoding(type))
        return;
      unsigned fastest = type.getRank() - 1;
      int64_t perThread =
          std::max<int64_t>(1, type.getNumElements() / threads);
      unsigned width =
          axisInfo.getVectorWidth(ptr, fastest, std::min<int64_t>(perThread, 16));
      AccessSummary &summary = accesses[type.getEncoding()];
      if (summary.shape.empty() ||
          type.getNumElements() > ShapedType::getNumElements(summary.shape))
        summary.shape.assign(type.getShape().begin(), type.getShape().end());
      summary.width = std::max(summary.width, width);
    });

    // Mutate: re-lay-out every tile in each such layout.
    MLIRContext *context = &getContext();
    DenseMap<Attribute, Attribute> map;
    for (auto &[layout, summary] : accesses)
      map[layout] = BlockedEncodingAttr::getDefault(
          context, summary.shape, numWarps, threadsPerWarp, summary.width);
    rewriteTensorEncodings(func, [&](RankedTensorType type) -> Attribute {
      Attribute layout = remapLayout(type.getEncoding(), map);
      return layout == type.getEncoding() ? Attribute() : layout;
    });
  }
};

} // namespace
