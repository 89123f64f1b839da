//===- Ops.cpp - Verifiers of the tile dialect's operations ---------------===//
//
// Shape and type rules that ODS constraints cannot state on their own.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"

/// Returns the shape of a tile, or an empty shape for a scalar.
static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

/// Checks that `type` has the shape of `expected` (both scalars or equal tile
/// shapes), naming `what` in the error.
static LogicalResult verifySameShape(Operation *op, Type type, Type expected,
                                     StringRef what) {
  if (isa<RankedTensorType>(type) == isa<RankedTensorType>(expected) &&
      shapeOf(type) == shapeOf(expected))
    return success();
  return op->emitOpError() << what << " type " << type
                           << " does not have the shape of " << expected;
}

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  auto type = getResult().getType();
  if (type.getRank() != 1)
    return emitOpError("result must be a 1-D tile");
  if (end <= start)
    return emitOpError("end (") << end << ") must be greater than start ("
                                << start << ")";
  if (type.getDimSize(0) != end - start)
    return emitOpError("result has ")
           << type.getDimSize(0) << " elements but the range has "
           << end - start;
  if (!llvm::isPowerOf2_64(end - start))
    return emitOpError("range length ") << end - start
                                        << " is not a power of two";
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getResult().getType());
  if (src.getElementType() != dst.getElementType())
    return emitOpError("element types of source and result differ");
  if (src.getRank() != dst.getRank())
    return emitOpError("source and result ranks differ");
  for (auto [s, d] : llvm::zip(src.getShape(), dst.getShape()))
    if (s != d && s != 1)
      return emitOpError("cannot broadcast ")
             << src << " to " << dst << ": dimension " << s
             << " is neither 1 nor " << d;
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getResult().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError("axis ") << axis << " is out of range for rank "
                                << src.getRank();
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (dst.getShape() != ArrayRef<int64_t>(expected) ||
      src.getElementType() != dst.getElementType())
    return emitOpError("result type ") << dst << " is not " << src
                                       << " with a 1 inserted at axis "
                                       << axis;
  return success();
}

LogicalResult AddPtrOp::verify() {
  return verifySameShape(*this, getOffset().getType(), getPtr().getType(),
                         "offset");
}

LogicalResult LoadOp::verify() {
  Type expected = getPointeeType(getPtr().getType());
  if (getResult().getType() != expected)
    return emitOpError("result type ")
           << getResult().getType() << " does not match the pointee type "
           << expected;
  if (getMask() &&
      failed(verifySameShape(*this, getMask().getType(), getPtr().getType(),
                             "mask")))
    return failure();
  if (getOther() && getOther().getType() != expected)
    return emitOpError("'other' type ")
           << getOther().getType() << " does not match the result type "
           << expected;
  return success();
}

LogicalResult StoreOp::verify() {
  Type expected = getPointeeType(getPtr().getType());
  if (getValue().getType() != expected)
    return emitOpError("value type ")
           << getValue().getType() << " does not match the pointee type "
           << expected;
  if (getMask())
    return verifySameShape(*this, getMask().getType(), getPtr().getType(),
                           "mask");
  return success();
}
