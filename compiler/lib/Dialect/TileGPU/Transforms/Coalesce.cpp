//===- Coalesce.cpp - Coalesced, vectorized layouts for memory access -----===//
//
// Analysis first: for each tile shape, the widest aligned vector that any
// load or store of that shape can use along its fastest dimension. Then one
// rewrite: every tile of that shape takes a blocked layout with that many
// consecutive elements per thread, so that elementwise producers and
// consumers of the accesses need no layout conversion.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUCOALESCE
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// Shapes are keyed by their dimensions.
using ShapeKey = SmallVector<int64_t, 4>;

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

    // Analyse: the widest vector per tile shape.
    std::map<ShapeKey, unsigned> widthPerShape;
    func.walk([&](Operation *op) {
      Value ptr;
      if (auto load = dyn_cast<tile::LoadOp>(op))
        ptr = load.getPtr();
      else if (auto store = dyn_cast<tile::StoreOp>(op))
        ptr = store.getPtr();
      auto type = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : nullptr;
      if (!type)
        return;
      unsigned fastest = type.getRank() - 1;
      int64_t perThread =
          std::max<int64_t>(1, type.getNumElements() / threads);
      unsigned width =
          axisInfo.getVectorWidth(ptr, fastest, std::min<int64_t>(perThread, 16));
      unsigned &best = widthPerShape[ShapeKey(type.getShape())];
      best = std::max(best, width);
    });

    // Mutate: re-lay-out every tile of each such shape.
    MLIRContext *context = &getContext();
    rewriteTensorEncodings(func, [&](RankedTensorType type) -> Attribute {
      auto it = widthPerShape.find(ShapeKey(type.getShape()));
      if (it == widthPerShape.end() || !getBlockedEncoding(type))
        return {};
      return BlockedEncodingAttr::getDefault(context, type.getShape(), numWarps,
                                             threadsPerWarp, it->second);
    });
  }
};

} // namespace
