//===- Layouts.cpp - Queries over any distributed layout ------------------===//
//
// Layout questions the lowering asks without caring whether a tile is
// blocked or a slice of a blocked layout: rank, elements per thread, order
// and per-thread contiguity. Slices answer through their parent.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

Attribute mlir::tilegpu::getLayout(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getEncoding();
  return {};
}

bool mlir::tilegpu::isDistributedLayout(Attribute layout) {
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout))
    return isDistributedLayout(slice.getParent());
  return isa_and_nonnull<BlockedEncodingAttr>(layout);
}

unsigned mlir::tilegpu::getLayoutRank(Attribute layout) {
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(layout))
    return blocked.getRank();
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout))
    return slice.getRank();
  return 0;
}

int64_t mlir::tilegpu::getTotalElemsPerThread(Attribute layout,
                                              ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    return getTotalElemsPerThread(slice.getParent(),
                                  slice.getParentShape(shape));
  return cast<BlockedEncodingAttr>(layout).getElemsPerThread(shape);
}

bool mlir::tilegpu::isReplicated(Attribute layout, ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    return isReplicated(slice.getParent(), slice.getParentShape(shape));
  auto blocked = cast<BlockedEncodingAttr>(layout);
  for (unsigned d = 0; d < shape.size(); ++d)
    if (shape[d] < blocked.getCTATileSize(d))
      return true;
  return false;
}

SmallVector<unsigned> mlir::tilegpu::getLayoutOrder(Attribute layout) {
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout)) {
    SmallVector<unsigned> order;
    for (unsigned dim : getLayoutOrder(slice.getParent())) {
      if (dim == slice.getDim())
        continue;
      order.push_back(dim > slice.getDim() ? dim - 1 : dim);
    }
    return order;
  }
  return SmallVector<unsigned>(cast<BlockedEncodingAttr>(layout).getOrder());
}

SmallVector<int64_t> mlir::tilegpu::getContigPerThread(Attribute layout,
                                                       ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout)) {
    SmallVector<int64_t> contig =
        getContigPerThread(slice.getParent(), slice.getParentShape(shape));
    contig.erase(contig.begin() + slice.getDim());
    return contig;
  }
  auto blocked = cast<BlockedEncodingAttr>(layout);
  SmallVector<int64_t> contig;
  for (auto [size, extent] : llvm::zip(blocked.getSizePerThread(), shape))
    contig.push_back(std::min<int64_t>(size, extent));
  return contig;
}
