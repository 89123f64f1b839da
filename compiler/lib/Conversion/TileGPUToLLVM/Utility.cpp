//===- Utility.cpp - Helpers of the tilegpu-to-LLVM lowering --------------===//
//
// Struct packing, and the index arithmetic of the distributed layouts
// (blocked, and slices of it through their parent): which element of the
// tile each of a thread's elements is, and which thread owns it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilec;
using tilegpu::BlockedEncodingAttr;

SmallVector<Value> mlir::tilec::unpackElements(Location loc, Value packed,
                                               RewriterBase &rewriter) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(packed.getType());
  if (!structType)
    return {packed};
  SmallVector<Value> elements;
  for (int64_t i = 0, e = structType.getBody().size(); i < e; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(rewriter, loc, packed, i));
  return elements;
}

Value mlir::tilec::packElements(Location loc, ValueRange elements, Type type,
                                RewriterBase &rewriter) {
  if (!isa<LLVM::LLVMStructType>(type))
    return elements.front();
  Value packed = LLVM::UndefOp::create(rewriter, loc, type);
  for (auto [i, element] : llvm::enumerate(elements))
    packed = LLVM::InsertValueOp::create(rewriter, loc, packed, element, i);
  return packed;
}

Value mlir::tilec::i32Constant(Location loc, RewriterBase &rewriter,
                               int64_t value) {
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                  rewriter.getI32IntegerAttr(value));
}

namespace {

/// Per-dimension facts of a layout applied to one shape.
struct LayoutGeometry {
  SmallVector<int64_t> reps;   ///< CTA tiles along each dimension.
  SmallVector<Value> lane, warp; ///< This thread's coordinates.
};

/// Splits `linear` into coordinates over the dimensions in `order` (fastest
/// first), each ranging over `sizes[d]`.
SmallVector<Value> delinearize(Location loc, RewriterBase &rewriter,
                               Value linear, ArrayRef<unsigned> sizes,
                               ArrayRef<unsigned> order) {
  SmallVector<Value> coords(sizes.size());
  for (unsigned dim : order) {
    Value size = i32Constant(loc, rewriter, sizes[dim]);
    coords[dim] = LLVM::URemOp::create(rewriter, loc, linear, size);
    linear = LLVM::UDivOp::create(rewriter, loc, linear, size);
  }
  return coords;
}

LayoutGeometry getGeometry(Location loc, RewriterBase &rewriter,
                           BlockedEncodingAttr layout,
                           ArrayRef<int64_t> shape) {
  LayoutGeometry geometry;
  for (unsigned d = 0; d < shape.size(); ++d)
    geometry.reps.push_back(
        std::max<int64_t>(1, shape[d] / layout.getCTATileSize(d)));
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  unsigned warpSize = 1;
  for (unsigned t : layout.getThreadsPerWarp())
    warpSize *= t;
  Value warpSizeValue = i32Constant(loc, rewriter, warpSize);
  Value laneId = LLVM::URemOp::create(rewriter, loc, tid, warpSizeValue);
  Value warpId = LLVM::UDivOp::create(rewriter, loc, tid, warpSizeValue);
  geometry.lane = delinearize(loc, rewriter, laneId, layout.getThreadsPerWarp(),
                              layout.getOrder());
  geometry.warp = delinearize(loc, rewriter, warpId, layout.getWarpsPerCTA(),
                              layout.getOrder());
  return geometry;
}

/// This thread's first element along `dim` within a CTA tile.
Value threadBase(Location loc, RewriterBase &rewriter,
                 BlockedEncodingAttr layout, const LayoutGeometry &geometry,
                 unsigned dim) {
  Value threads = i32Constant(loc, rewriter, layout.getThreadsPerWarp()[dim]);
  Value perThread = i32Constant(loc, rewriter, layout.getSizePerThread()[dim]);
  Value thread = LLVM::AddOp::create(
      rewriter, loc,
      LLVM::MulOp::create(rewriter, loc, geometry.warp[dim], threads),
      geometry.lane[dim]);
  return LLVM::MulOp::create(rewriter, loc, thread, perThread);
}

} // namespace

SmallVector<SmallVector<int64_t>>
mlir::tilec::getElemOffsets(Attribute layout, ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<tilegpu::SliceEncodingAttr>(layout)) {
    SmallVector<SmallVector<int64_t>> offsets =
        getElemOffsets(slice.getParent(), slice.getParentShape(shape));
    for (SmallVector<int64_t> &offset : offsets)
      offset.erase(offset.begin() + slice.getDim());
    return offsets;
  }
  auto blocked = cast<BlockedEncodingAttr>(layout);
  unsigned rank = shape.size();
  SmallVector<int64_t> perThread = tilegpu::getContigPerThread(blocked, shape);
  SmallVector<int64_t> reps;
  int64_t inTile = 1;
  for (unsigned d = 0; d < rank; ++d) {
    inTile *= perThread[d];
    reps.push_back(std::max<int64_t>(1, shape[d] / blocked.getCTATileSize(d)));
  }
  SmallVector<SmallVector<int64_t>> offsets;
  for (int64_t e = 0, total = blocked.getElemsPerThread(shape); e < total;
       ++e) {
    // Element e is element `k` of the thread's block in CTA tile `rep`.
    int64_t k = e % inTile, rep = e / inTile;
    SmallVector<int64_t> offset(rank);
    for (unsigned dim : blocked.getOrder()) {
      offset[dim] =
          (rep % reps[dim]) * blocked.getCTATileSize(dim) + k % perThread[dim];
      k /= perThread[dim];
      rep /= reps[dim];
    }
    offsets.push_back(std::move(offset));
  }
  return offsets;
}

SmallVector<SmallVector<Value>>
mlir::tilec::emitIndices(Location loc, RewriterBase &rewriter, Attribute layout,
                         ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<tilegpu::SliceEncodingAttr>(layout)) {
    SmallVector<SmallVector<Value>> indices = emitIndices(
        loc, rewriter, slice.getParent(), slice.getParentShape(shape));
    for (SmallVector<Value> &index : indices)
      index.erase(index.begin() + slice.getDim());
    return indices;
  }
  auto blocked = cast<BlockedEncodingAttr>(layout);
  unsigned rank = shape.size();
  LayoutGeometry geometry = getGeometry(loc, rewriter, blocked, shape);
  SmallVector<Value> base;
  for (unsigned d = 0; d < rank; ++d)
    base.push_back(threadBase(loc, rewriter, blocked, geometry, d));

  SmallVector<SmallVector<Value>> indices;
  for (ArrayRef<int64_t> offset : getElemOffsets(blocked, shape)) {
    SmallVector<Value> index(rank);
    for (unsigned dim = 0; dim < rank; ++dim) {
      Value value = LLVM::AddOp::create(
          rewriter, loc, base[dim], i32Constant(loc, rewriter, offset[dim]));
      // A tile smaller than the CTA tile wraps around (replication).
      if (shape[dim] < blocked.getCTATileSize(dim))
        value = LLVM::URemOp::create(rewriter, loc, value,
                                     i32Constant(loc, rewriter, shape[dim]));
      index[dim] = value;
    }
    indices.push_back(std::move(index));
  }
  return indices;
}

Value mlir::tilec::emitLinearIndex(Location loc, RewriterBase &rewriter,
                                   ArrayRef<Value> index,
                                   ArrayRef<int64_t> shape) {
  Value linear;
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    // A dimension of size 1 contributes nothing (its index is always 0).
    if (shape[d] != 1) {
      Value term = index[d];
      if (stride != 1)
        term = LLVM::MulOp::create(rewriter, loc, term,
                                   i32Constant(loc, rewriter, stride));
      linear = linear ? LLVM::AddOp::create(rewriter, loc, linear, term) : term;
    }
    stride *= shape[d];
  }
  return linear ? linear : i32Constant(loc, rewriter, 0);
}

Value mlir::tilec::emitOwnerPredicate(Location loc, RewriterBase &rewriter,
                                      Attribute layout,
                                      ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<tilegpu::SliceEncodingAttr>(layout))
    return emitOwnerPredicate(loc, rewriter, slice.getParent(),
                              slice.getParentShape(shape));
  auto blocked = cast<BlockedEncodingAttr>(layout);
  Value owner;
  std::optional<LayoutGeometry> geometry;
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (shape[d] >= blocked.getCTATileSize(d))
      continue;
    if (!geometry)
      geometry = getGeometry(loc, rewriter, blocked, shape);
    Value base = threadBase(loc, rewriter, blocked, *geometry, d);
    Value inside =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, base,
                             i32Constant(loc, rewriter, shape[d]));
    owner = owner ? LLVM::AndOp::create(rewriter, loc, owner, inside) : inside;
  }
  return owner;
}
