//===- Layouts.cpp - Queries over any distributed layout ------------------===//
//
// Layout questions the lowering asks without caring which distributed
// layout a tile has (blocked, MMA accumulator, dot operand, or a slice of
// one): rank, elements per thread, order and per-thread contiguity. Slices
// answer through their parent.
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

RankedTensorType mlir::tilegpu::withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

void mlir::tilegpu::convertOperand(OpOperand &operand, Attribute layout) {
  Value value = operand.get();
  if (getLayout(value.getType()) == layout)
    return;
  OpBuilder builder(operand.getOwner());
  operand.set(ConvertLayoutOp::create(builder, operand.getOwner()->getLoc(),
                                      withLayout(value.getType(), layout),
                                      value));
}

bool mlir::tilegpu::isDistributedLayout(Attribute layout) {
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout))
    return isDistributedLayout(slice.getParent());
  return isa_and_nonnull<BlockedEncodingAttr, MmaEncodingAttr,
                         DotOperandEncodingAttr>(layout);
}

bool mlir::tilegpu::isTensorCoreLayout(Attribute layout) {
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout))
    return isTensorCoreLayout(slice.getParent());
  return isa_and_nonnull<MmaEncodingAttr, DotOperandEncodingAttr>(layout);
}

unsigned mlir::tilegpu::getLayoutRank(Attribute layout) {
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(layout))
    return blocked.getRank();
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout))
    return slice.getRank();
  if (isa_and_nonnull<MmaEncodingAttr, DotOperandEncodingAttr>(layout))
    return 2;
  return 0;
}

int64_t mlir::tilegpu::getTotalElemsPerThread(Attribute layout,
                                              ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    return getTotalElemsPerThread(slice.getParent(),
                                  slice.getParentShape(shape));
  if (auto mma = dyn_cast<MmaEncodingAttr>(layout)) {
    SmallVector<int64_t> reps = mma.getRepetitions(shape);
    return reps[0] * reps[1] * 4;
  }
  if (auto dot = dyn_cast<DotOperandEncodingAttr>(layout)) {
    SmallVector<int64_t> reps = dot.getRepetitions(shape);
    // a: four registers per 16 x instrK tile, b: two per instrK x 8 tile.
    return reps[0] * reps[1] * (dot.getOpIdx() == 0 ? 4 : 2) * dot.getKWidth();
  }
  return cast<BlockedEncodingAttr>(layout).getElemsPerThread(shape);
}

SmallVector<int64_t> mlir::tilegpu::getTileExtent(Attribute layout) {
  if (auto mma = dyn_cast<MmaEncodingAttr>(layout))
    return {mma.getCTATileSize(0), mma.getCTATileSize(1)};
  if (auto dot = dyn_cast<DotOperandEncodingAttr>(layout)) {
    MmaEncodingAttr mma = dot.getMmaParent();
    if (dot.getOpIdx() == 0)
      return {mma.getCTATileSize(0), dot.getInstrK()};
    return {dot.getInstrK(), mma.getCTATileSize(1)};
  }
  auto blocked = cast<BlockedEncodingAttr>(layout);
  SmallVector<int64_t> extent;
  for (unsigned d = 0; d < blocked.getRank(); ++d)
    extent.push_back(blocked.getCTATileSize(d));
  return extent;
}

/// Product of `sizes[d]` over the dimensions before `dim` in `order`.
static int64_t strideBefore(ArrayRef<unsigned> sizes, ArrayRef<unsigned> order,
                            unsigned dim) {
  int64_t stride = 1;
  for (unsigned d : order) {
    if (d == dim)
      break;
    stride *= sizes[d];
  }
  return stride;
}

std::optional<DimDistribution>
mlir::tilegpu::getDimDistribution(Attribute layout, unsigned dim) {
  DimDistribution result;
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(layout)) {
    result.perThread = blocked.getSizePerThread()[dim];
    result.lanes = blocked.getThreadsPerWarp()[dim];
    result.laneStride =
        strideBefore(blocked.getThreadsPerWarp(), blocked.getOrder(), dim);
    result.warps = blocked.getWarpsPerCTA()[dim];
    result.warpStride =
        strideBefore(blocked.getWarpsPerCTA(), blocked.getOrder(), dim);
    result.warpExtent = result.perThread * result.lanes;
    return result;
  }
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(layout);
  if (!mma)
    return std::nullopt;
  // Lane l holds rows l / 4 (and + 8) and columns 2 * (l % 4) (and + 1) of
  // each 16x8 tile; warp w sits at (w / warpsPerCTA[1], w % warpsPerCTA[1]).
  ArrayRef<unsigned> warps = mma.getWarpsPerCTA();
  result.perThread = dim == 0 ? 1 : 2;
  result.lanes = dim == 0 ? 8 : 4;
  result.laneStride = dim == 0 ? 4 : 1;
  result.warps = warps[dim];
  result.warpStride = dim == 0 ? warps[1] : 1;
  result.warpExtent = mma.getInstrShape()[dim];
  return result;
}

bool mlir::tilegpu::isRegisterConversion(RankedTensorType src,
                                         RankedTensorType dst) {
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(src.getEncoding());
  auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(dst.getEncoding());
  if (!mma || !dot || dot.getParent() != mma || dot.getOpIdx() != 0 ||
      dot.getKWidth() != 2 || mma.getWarpsPerCTA()[1] != 1)
    return false;
  Type element = src.getElementType();
  return element == dst.getElementType() && element.isIntOrFloat() &&
         element.getIntOrFloatBitWidth() == 16 && src.getDimSize(0) % 16 == 0 &&
         src.getDimSize(1) % 16 == 0;
}

bool mlir::tilegpu::isReplicated(Attribute layout, ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    return isReplicated(slice.getParent(), slice.getParentShape(shape));
  // The warps of a dot operand's parent that differ only in the other
  // operand's dimension read the same elements.
  if (auto dot = dyn_cast<DotOperandEncodingAttr>(layout))
    if (dot.getMmaParent().getWarpsPerCTA()[1 - dot.getOpIdx()] > 1)
      return true;
  for (auto [size, extent] : llvm::zip(shape, getTileExtent(layout)))
    if (size < extent)
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
  if (isa<MmaEncodingAttr>(layout))
    return {1, 0};
  if (auto dot = dyn_cast<DotOperandEncodingAttr>(layout))
    return dot.getOpIdx() == 0 ? SmallVector<unsigned>{1, 0}
                               : SmallVector<unsigned>{0, 1};
  return SmallVector<unsigned>(cast<BlockedEncodingAttr>(layout).getOrder());
}

SmallVector<int64_t>
mlir::tilegpu::getContigPerThread(Attribute layout, ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout)) {
    SmallVector<int64_t> contig =
        getContigPerThread(slice.getParent(), slice.getParentShape(shape));
    contig.erase(contig.begin() + slice.getDim());
    return contig;
  }
  if (isa<MmaEncodingAttr>(layout))
    return {1, std::min<int64_t>(2, shape[1])};
  if (auto dot = dyn_cast<DotOperandEncodingAttr>(layout)) {
    int64_t kWidth = dot.getKWidth();
    if (dot.getOpIdx() == 0)
      return {1, std::min(kWidth, shape[1])};
    return {std::min(kWidth, shape[0]), 1};
  }
  auto blocked = cast<BlockedEncodingAttr>(layout);
  SmallVector<int64_t> contig;
  for (auto [size, extent] : llvm::zip(blocked.getSizePerThread(), shape))
    contig.push_back(std::min<int64_t>(size, extent));
  return contig;
}
