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

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute src = adaptor.getSrc();
  if (!isa_and_nonnull<IntegerAttr, FloatAttr>(src))
    return {};
  return SplatElementsAttr::get(getType(), src);
}

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

LogicalResult HistogramOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  if (src.getRank() != 1 || result.getRank() != 1 ||
      !result.getElementType().isInteger(32))
    return emitOpError("counts a 1-D tile into a 1-D tile of i32, got ")
           << src << " -> " << result;
  if (getMask() &&
      cast<RankedTensorType>(getMask().getType()).getShape() != src.getShape())
    return emitOpError("needs a mask of the source's shape");
  return success();
}

LogicalResult AddPtrOp::verify() {
  return verifySameShape(*this, getOffset().getType(), getPtr().getType(),
                         "offset");
}

LogicalResult ExternElementwiseOp::verify() {
  if (!getSymbol().starts_with("__nv_"))
    return emitOpError("symbol '") << getSymbol()
                                   << "' is not a libdevice function (__nv_...)";
  for (Value src : getSrcs())
    if (failed(verifySameShape(*this, src.getType(), getResult().getType(),
                               "operand")))
      return failure();
  return success();
}

LogicalResult InlineAsmOp::verify() {
  if (getResults().empty())
    return emitOpError("needs at least one result");
  Type shape = getResults().front().getType();
  for (Value value : llvm::concat<Value>(getSrcs(), getResults().drop_front()))
    if (failed(verifySameShape(*this, value.getType(), shape, "operand or result")))
      return failure();
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), SideEffects::DefaultResource::get());
  if ((*this)->hasAttr(kVolatileAttr))
    effects.emplace_back(MemoryEffects::Write::get(), SideEffects::DefaultResource::get());
}

/// Verifies the tensor-map operands of a load or store of a descriptor's
/// tile: a map, one coordinate per dimension of the tile, and the
/// descriptor's base, shapes and strides; or none of them.
template <typename AccessOp>
static LogicalResult verifyTensorMapOperands(AccessOp op) {
  auto tile = dyn_cast<RankedTensorType>(op.getPtr().getType());
  if (!op.getTensormap() &&
      (!op.getTmaCoords().empty() || !op.getTmaParts().empty()))
    return op.emitOpError("has tensor-map coordinates or parts without a "
                          "tensor map");
  if (!op.getTensormap())
    return success();
  int64_t rank = tile ? tile.getRank() : 0;
  if (!tile || static_cast<int64_t>(op.getTmaCoords().size()) != rank)
    return op.emitOpError("needs one tensor-map coordinate per dimension of "
                          "a tile");
  if (static_cast<int64_t>(op.getTmaParts().size()) != 1 + 2 * rank ||
      !isa<PointerType>(op.getTmaParts().front().getType()) ||
      llvm::any_of(op.getTmaParts().drop_front(),
                   [](Value part) { return !part.getType().isInteger(64); }))
    return op.emitOpError("needs the descriptor's base, then its ")
           << rank << " shapes and " << rank << " strides (i64)";
  return success();
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
  return verifyTensorMapOperands(*this);
}

LogicalResult MakeTensorMapOp::verify() {
  int64_t rank = getShapes().size();
  if (rank != 2 || getStrides().size() != getShapes().size() ||
      static_cast<int64_t>(getBox().size()) != rank)
    return emitOpError("needs 2 shapes, 2 strides and a box of 2 dimensions");
  if (llvm::any_of(getBox(), [](int64_t dim) { return dim < 1 || dim > 256; }))
    return emitOpError("box dimensions must be 1 to 256");
  // The lowering copies 16-bit elements (the slots' ldmatrix swizzle).
  Type element = getBase().getType().getPointeeType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() != 16)
    return emitOpError("needs a base pointer to 16-bit elements, not ") << element;
  int64_t swizzle = getSwizzle();
  if (swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitOpError("swizzle must be 32, 64 or 128 bytes, not ") << swizzle;
  return success();
}

/// Verifies that `addr` (the integer side of a pointer cast) is i64 and
/// has the shape of `ptr`.
static LogicalResult verifyPointerCast(Operation *op, Type ptr, Type addr) {
  if (!getElementTypeOrSelf(addr).isInteger(64))
    return op->emitOpError("casts pointers to and from i64 only, not ") << addr;
  return verifySameShape(op, addr, ptr, "address");
}

LogicalResult PtrToIntOp::verify() {
  return verifyPointerCast(*this, getPtr().getType(), getResult().getType());
}

LogicalResult IntToPtrOp::verify() {
  return verifyPointerCast(*this, getResult().getType(), getAddr().getType());
}

LogicalResult StoreOp::verify() {
  Type expected = getPointeeType(getPtr().getType());
  if (getValue().getType() != expected)
    return emitOpError("value type ")
           << getValue().getType() << " does not match the pointee type "
           << expected;
  if (getMask() &&
      failed(verifySameShape(*this, getMask().getType(), getPtr().getType(),
                             "mask")))
    return failure();
  return verifyTensorMapOperands(*this);
}

LogicalResult TransOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getResult().getType());
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != static_cast<size_t>(src.getRank()))
    return emitOpError("order has ")
           << order.size() << " entries for a rank-" << src.getRank()
           << " source";
  SmallVector<bool> seen(order.size(), false);
  SmallVector<int64_t> expected;
  for (int32_t dim : order) {
    if (dim < 0 || dim >= src.getRank() || seen[dim])
      return emitOpError("order is not a permutation of the source's "
                         "dimensions");
    seen[dim] = true;
    expected.push_back(src.getDimSize(dim));
  }
  if (dst.getShape() != ArrayRef<int64_t>(expected) ||
      src.getElementType() != dst.getElementType())
    return emitOpError("result type ")
           << dst << " is not the source permuted by the order";
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getResult().getType());
  if (src.getNumElements() != dst.getNumElements() ||
      src.getElementType() != dst.getElementType())
    return emitOpError("cannot reshape ") << src << " to " << dst;
  return success();
}

LogicalResult HintOp::verify() {
  size_t rank = shapeOf(getSrc().getType()).size();
  size_t expected = rank == 0 ? 1 : rank;
  for (auto attr : {getDivisibilityAttr(), getContiguityAttr()})
    if (attr && attr.size() != static_cast<int64_t>(expected))
      return emitOpError("a hint needs ") << expected << " entries, one per "
                                          << "dimension";
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  if (getMask())
    return verifySameShape(*this, getMask().getType(), getPtr().getType(),
                           "mask");
  return success();
}

/// Checks the combining region of a reduce or scan over `srcs`: one block
/// taking (lhs..., rhs...) scalars of the sources' element types and a
/// terminator yielding one value of each.
static LogicalResult verifyCombineRegion(Operation *op, ValueRange srcs,
                                         Region &region) {
  Block &block = region.front();
  size_t n = srcs.size();
  if (n == 0)
    return op->emitOpError("needs at least one source");
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError("combining region takes ")
           << block.getNumArguments() << " arguments, expected " << 2 * n;
  auto *terminator = block.getTerminator();
  if (!terminator || terminator->getNumOperands() != n)
    return op->emitOpError("combining region must yield ") << n << " values";
  for (size_t i = 0; i < n; ++i) {
    Type element = getElementTypeOrSelf(srcs[i].getType());
    if (block.getArgument(i).getType() != element ||
        block.getArgument(n + i).getType() != element ||
        terminator->getOperand(i).getType() != element)
      return op->emitOpError("combining region types do not match source ")
             << i << "'s element type " << element;
  }
  return success();
}

/// Checks what reduce and scan share: the sources have one shape and one
/// layout (the lowerings read the first source's), `axis` is a dimension of
/// them, and there is one result per source.
static LogicalResult verifyAxisAndResultCount(Operation *op, ValueRange srcs,
                                              ValueRange results,
                                              int64_t axis) {
  auto srcType = cast<RankedTensorType>(srcs[0].getType());
  for (Value src : srcs.drop_front()) {
    auto type = cast<RankedTensorType>(src.getType());
    if (type.getShape() != srcType.getShape() ||
        type.getEncoding() != srcType.getEncoding())
      return op->emitOpError("sources ")
             << srcType << " and " << type
             << " differ in shape or layout";
  }
  if (axis < 0 || axis >= srcType.getRank())
    return op->emitOpError("axis ") << axis << " is out of range for rank "
                                    << srcType.getRank();
  if (results.size() != srcs.size())
    return op->emitOpError("needs one result per source");
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  auto srcType = cast<RankedTensorType>(getSrcs()[0].getType());
  int64_t axis = getAxis();
  if (failed(verifyAxisAndResultCount(*this, getSrcs(), getResults(), axis)))
    return failure();
  SmallVector<int64_t> shape(srcType.getShape());
  shape.erase(shape.begin() + axis);
  for (auto [src, result] : llvm::zip(getSrcs(), getResults())) {
    if (getElementTypeOrSelf(src.getType()) !=
            getElementTypeOrSelf(result.getType()) ||
        shapeOf(result.getType()) != ArrayRef<int64_t>(shape) ||
        (shape.empty() && isa<RankedTensorType>(result.getType())))
      return emitOpError("result type ")
             << result.getType() << " is not " << src.getType()
             << " reduced along axis " << axis;
  }
  return verifyCombineRegion(*this, getSrcs(), getCombineOp());
}

LogicalResult ScanOp::verifyRegions() {
  if (failed(verifyAxisAndResultCount(*this, getSrcs(), getResults(),
                                      getAxis())))
    return failure();
  for (auto [src, result] : llvm::zip(getSrcs(), getResults()))
    if (src.getType() != result.getType())
      return emitOpError("result ") << result.getType()
                                    << " is not of the source's type "
                                    << src.getType();
  return verifyCombineRegion(*this, getSrcs(), getCombineOp());
}

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  int64_t rank = a.getRank();
  if ((rank != 2 && rank != 3) || b.getRank() != rank || c.getRank() != rank)
    return emitOpError("operands must be 2-D tiles, or 3-D ones (batched)");
  if (rank == 3 && (b.getDimSize(0) != a.getDimSize(0) ||
                    c.getDimSize(0) != a.getDimSize(0)))
    return emitOpError("batched operands and accumulator must have one batch "
                       "size");
  if (a.getDimSize(rank - 1) != b.getDimSize(rank - 2))
    return emitOpError("cannot multiply ")
           << a << " by " << b << ": inner dimensions differ";
  if (c.getDimSize(rank - 2) != a.getDimSize(rank - 2) ||
      c.getDimSize(rank - 1) != b.getDimSize(rank - 1))
    return emitOpError("accumulator ") << c << " is not [M, N] of " << a
                                       << " * " << b;
  if (a.getElementType() != b.getElementType())
    return emitOpError("operands have different element types");
  bool isInt8 = a.getElementType().isInteger(8);
  if (isInt8 ? !c.getElementType().isInteger(32)
             : !isa<FloatType>(a.getElementType()) ||
                   !isa<FloatType>(c.getElementType()))
    return emitOpError("operands and accumulator must be floating point, or "
                       "i8 operands with an i32 accumulator");
  if (std::optional<StringRef> precision = getInputPrecision()) {
    if (*precision != "tf32" && *precision != "ieee")
      return emitOpError("input_precision must be \"tf32\" or \"ieee\"");
    if (!a.getElementType().isF32())
      return emitOpError("input_precision applies to fp32 operands only");
  }
  return success();
}
