//===- Ops.cpp - Operations of the tilegpu dialect ------------------------===//
//
// Folding of layout conversions; verification of the shared-memory slot
// ops and of the tensor memory accelerator's copies.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tilegpu;

#define GET_OP_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  // convert(convert(x)) -> convert(x), or x itself when the layouts match.
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>())
    if (inner.getSrc().getType() == getResult().getType())
      return inner.getSrc();
  return {};
}

/// Whether `tile` holds the elements of one slot of `buffer`: the slot's
/// shape and `element` as its element type.
static bool matchesSlot(MemDescType buffer, RankedTensorType tile,
                        Type element) {
  return tile.getShape() == buffer.getSlotShape() &&
         element == buffer.getElementType();
}

LogicalResult AsyncCopyOp::verify() {
  MemDescType buffer = getBuffer().getType();
  auto ptrs = cast<RankedTensorType>(getPtrs().getType());
  auto pointee =
      cast<tile::PointerType>(ptrs.getElementType()).getPointeeType();
  // The slot's view of the pointers: transposed with `transpose`.
  RankedTensorType copied = ptrs;
  if (getTranspose()) {
    if (ptrs.getRank() != 2)
      return emitOpError("transposes 2-D tiles only, not ") << ptrs;
    copied = RankedTensorType::get({ptrs.getDimSize(1), ptrs.getDimSize(0)},
                                   ptrs.getElementType());
  }
  if (!matchesSlot(buffer, copied, pointee))
    return emitOpError("copies ")
           << ptrs << (getTranspose() ? " transposed" : "") << " into slots of "
           << buffer << ": shapes or types differ";
  if (Value mask = getMask())
    if (cast<RankedTensorType>(mask.getType()).getShape() != ptrs.getShape())
      return emitOpError("mask shape differs from the pointers' shape");
  int64_t bytes = getVec() * std::max(1u, pointee.getIntOrFloatBitWidth() / 8);
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return emitOpError("copies vectors of ")
           << bytes << " bytes; cp.async moves 4, 8 or 16";
  // A vector is a run of one thread's registers along the pointers' fastest
  // dimension, and must be one piece of a stored row of the slot.
  auto shared = cast<SwizzledSharedEncodingAttr>(buffer.getEncoding());
  if (getVec() > 1 && isDistributedLayout(ptrs.getEncoding())) {
    // The slot's dimension that the pointers' fastest one is.
    unsigned along = getLayoutOrder(ptrs.getEncoding()).front();
    if (getTranspose())
      along = 1 - along;
    if (along != shared.getOrder().front())
      return emitOpError("copies vectors along dimension ")
             << along << " of the slot into slots whose rows run along dimension "
             << shared.getOrder().front();
  }
  return success();
}

LogicalResult LocalLoadOp::verify() {
  MemDescType buffer = getBuffer().getType();
  auto result = cast<RankedTensorType>(getResult().getType());
  if (!matchesSlot(buffer, result, result.getElementType()))
    return emitOpError("reads ")
           << result << " from slots of " << buffer
           << ": shapes or types differ";
  auto operand = dyn_cast_or_null<DotOperandEncodingAttr>(result.getEncoding());
  if (!operand || result.getElementType().getIntOrFloatBitWidth() != 16)
    return emitOpError("reads 16-bit tensor-core operands only, not ")
           << result;
  return success();
}

LogicalResult LocalStoreOp::verify() {
  MemDescType buffer = getBuffer().getType();
  auto value = cast<RankedTensorType>(getValue().getType());
  if (!matchesSlot(buffer, value, value.getElementType()))
    return emitOpError("writes ")
           << value << " into slots of " << buffer
           << ": shapes or types differ";
  if (value.getRank() != 2 ||
      !isa_and_nonnull<BlockedEncodingAttr, MmaEncodingAttr>(value.getEncoding()))
    return emitOpError("writes 2-D tiles of a blocked or MMA layout only, not ")
           << value;
  return success();
}

/// Verifies that a copy of the tensor memory accelerator names one
/// coordinate per dimension of `buffer`'s slots.
static LogicalResult verifyTmaCoords(Operation *op, ValueRange coords,
                                     MemDescType buffer) {
  if (coords.size() != buffer.getSlotShape().size())
    return op->emitOpError("has ")
           << coords.size() << " coordinates for a "
           << buffer.getSlotShape().size() << "-D slot";
  return success();
}

LogicalResult TmaStoreOp::verify() {
  return verifyTmaCoords(*this, getCoords(), getBuffer().getType());
}

LogicalResult TmaCopyOp::verify() {
  MemDescType buffer = getBuffer().getType();
  MemDescType barriers = getBarriers().getType();
  if (failed(verifyTmaCoords(*this, getCoords(), buffer)))
    return failure();
  if (!barriers.getElementType().isInteger(64) ||
      barriers.getSlotElements() != 1 ||
      barriers.getNumSlots() != buffer.getNumSlots())
    return emitOpError("needs one i64 mbarrier per slot of ")
           << buffer << ", got " << barriers;
  return success();
}
