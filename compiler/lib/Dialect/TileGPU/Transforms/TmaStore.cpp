//===- TmaStore.cpp - tilegpu-tma-store -----------------------------------===//
//
// Stores of tensor descriptors' and block pointers' tiles through the tensor
// memory accelerator: the tile goes from registers into one swizzled slot
// (local_store) and from there to global memory in boxes of its map
// (tma_store). Analyse first (which stores qualify, getTensorMapInfo and
// fitsSlotPanels), then rewrite; a kernel whose new slots would not fit the
// target's shared memory keeps its stores as they were. Stores that are not
// rewritten lose their maps, so that maps nothing uses fold away.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/Allocation.h"
#include "tilec/Analysis/TensorMap.h"
#include "tilec/Dialect/Tile/IR/Dialect.h"
#include "tilec/Dialect/TileGPU/IR/Dialect.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUTMASTORE
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// A store that the tensor memory accelerator may perform, and whether its
/// map is transposed (its innermost dimension is the tile's dimension 0).
struct TmaStorePlan {
  tile::StoreOp store;
  bool transposed;
};

/// The ops that replace a store, kept until the kernel's shared memory is
/// known to fit.
struct Rewritten {
  tile::StoreOp store;
  SmallVector<Operation *, 4> created;
};

/// Whether a local_store writes tiles of `layout`: blocked and MMA layouts.
bool isStorableLayout(Attribute layout) {
  return isa_and_nonnull<BlockedEncodingAttr, MmaEncodingAttr>(layout);
}

/// The tile `value` in the layout it was computed in: a local_store writes
/// blocked and MMA layouts alike, so the conversion that coalesced the
/// store (an MMA accumulator into a blocked layout, through shared memory)
/// is not needed.
Value getUnconverted(Value value) {
  if (auto convert = value.getDefiningOp<ConvertLayoutOp>())
    if (isStorableLayout(convert.getSrc().getType().getEncoding()))
      return convert.getSrc();
  return value;
}

/// Whether the tensor memory accelerator can store `store`'s tile: a 2-D
/// tile computed in a blocked or MMA layout whose map fills its slot
/// exactly.
std::optional<TmaStorePlan> analyzeStore(tile::StoreOp store,
                                         const tilec::ModuleAxisInfo &axisInfo,
                                         bool deviceMaps) {
  auto type = dyn_cast<RankedTensorType>(store.getValue().getType());
  if (!store.getTensormap() || !type || type.getRank() != 2 ||
      !isStorableLayout(
          cast<RankedTensorType>(getUnconverted(store.getValue()).getType()).getEncoding()))
    return std::nullopt;
  std::optional<tilec::TensorMapInfo> map = tilec::getTensorMapInfo(
      store.getTensormap(), store.getTmaParts(), tilec::getElementBytes(type),
      /*outside=*/nullptr, axisInfo, deviceMaps);
  if (!map || !tilec::fitsSlotPanels(*map, type))
    return std::nullopt;
  return TmaStorePlan{store, map->transposed};
}

/// Replaces nothing yet: builds, before the store, one slot, the local_store
/// of its tile and the tma_store of the slot.
Rewritten buildTmaStore(const TmaStorePlan &plan) {
  tile::StoreOp store = plan.store;
  OpBuilder builder(store);
  Location loc = store.getLoc();
  Value value = getUnconverted(store.getValue());
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<unsigned> order =
      plan.transposed ? SmallVector<unsigned>{0, 1} : SmallVector<unsigned>{1, 0};
  auto shared = SwizzledSharedEncodingAttr::getForLdmatrix(
      builder.getContext(), type.getShape(), type.getElementTypeBitWidth(), order);
  SmallVector<int64_t> shape{1};
  shape.append(type.getShape().begin(), type.getShape().end());
  auto memdesc = MemDescType::get(builder.getContext(), shape, type.getElementType(), shared);
  Rewritten rewritten{store, {}};
  auto alloc = LocalAllocOp::create(builder, loc, memdesc);
  auto slot = arith::ConstantIntOp::create(builder, loc, 0, 32);
  rewritten.created.push_back(LocalStoreOp::create(builder, loc, value, alloc, slot));
  rewritten.created.push_back(
      TmaStoreOp::create(builder, loc, store.getTensormap(), store.getTmaCoords(), alloc, slot));
  rewritten.created.append({slot, alloc});
  return rewritten;
}

struct TmaStorePass : tilegpu::impl::TileGPUTmaStoreBase<TmaStorePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (enabled && getComputeCapability(target) >= 90) {
      tilec::ModuleAxisInfo axisInfo(module);
      bool deviceMaps = StringRef(target).ends_with("a");
      module.walk([&](func::FuncOp func) { rewriteStores(func, axisInfo, deviceMaps); });
    }
    // The stores left write through their pointers.
    module.walk([](tile::StoreOp store) {
      store.getTensormapMutable().clear();
      store.getTmaCoordsMutable().clear();
      store.getTmaPartsMutable().clear();
    });
  }

  void rewriteStores(func::FuncOp func, const tilec::ModuleAxisInfo &axisInfo,
                     bool deviceMaps) {
    SmallVector<TmaStorePlan> plans;
    func.walk([&](tile::StoreOp store) {
      if (std::optional<TmaStorePlan> plan = analyzeStore(store, axisInfo, deviceMaps))
        plans.push_back(*plan);
    });
    SmallVector<Rewritten> rewritten;
    for (const TmaStorePlan &plan : plans)
      rewritten.push_back(buildTmaStore(plan));
    // The slots must fit beside every other buffer of the kernel.
    bool fits = sharedMemoryLimit == 0 ||
                tilec::SharedMemoryAllocation(func).getSharedBytes() <= sharedMemoryLimit;
    for (Rewritten &done : rewritten) {
      if (fits) {
        done.store.erase();
        continue;
      }
      for (Operation *op : done.created)
        op->erase();
    }
  }
};

} // namespace
