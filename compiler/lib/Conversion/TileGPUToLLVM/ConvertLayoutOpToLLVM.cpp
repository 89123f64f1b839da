//===- ConvertLayoutOpToLLVM.cpp - Data movement through shared memory ----===//
//
// convert_layout, trans and reshape: ops after which a thread may need
// elements another thread holds. Each goes through the op's shared-memory
// scratch buffer: every thread stores its elements at their row-major
// position in the result's index space, a barrier, then every thread loads
// the elements the result's layout gives it. The buffer holds one slot per
// element (getScratchBytes: elements * element bytes; i1 kept as i8).
// Replicated elements are stored by each replica, with the same value.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// Maps an element's index in the source to its row-major position in the
/// result (an i32).
using PositionFn = function_ref<Value(Location, RewriterBase &,
                                      ArrayRef<Value>)>;

/// Moves the elements of `src` (converted operand `packedSrc`) into the
/// layout of `dstType`; `positionOf` says where each source element goes.
/// Returns the packed result, or null after reporting an error at `op`.
Value moveThroughScratch(Operation *op, Value src, Value packedSrc,
                         RankedTensorType dstType, PositionFn positionOf,
                         const TypeConverter &converter,
                         ConversionPatternRewriter &rewriter) {
  auto srcType = cast<RankedTensorType>(src.getType());
  if (!tilegpu::isDistributedLayout(srcType.getEncoding()) ||
      !tilegpu::isDistributedLayout(dstType.getEncoding())) {
    op->emitOpError("cannot move data between these layouts: ")
        << srcType << " -> " << dstType;
    return {};
  }
  Location loc = op->getLoc();
  Value base = getScratchBase(loc, rewriter, op);
  if (!base)
    return {};
  Type element = converter.convertType(srcType.getElementType());
  bool isBool = element.isInteger(1);
  Type slotType = isBool ? rewriter.getI8Type() : element;
  auto slotAddress = [&](Value position) -> Value {
    return LLVM::GEPOp::create(rewriter, loc, base.getType(), slotType, base,
                               position);
  };

  SmallVector<Value> srcElements = unpackElements(loc, packedSrc, rewriter);
  SmallVector<SmallVector<Value>> srcIndices =
      emitIndices(loc, rewriter, srcType.getEncoding(), srcType.getShape());
  for (auto [value, index] : llvm::zip(srcElements, srcIndices)) {
    if (isBool)
      value = LLVM::ZExtOp::create(rewriter, loc, slotType, value);
    LLVM::StoreOp::create(rewriter, loc, value,
                          slotAddress(positionOf(loc, rewriter, index)));
  }
  emitBarrier(loc, rewriter);

  SmallVector<Value> results;
  for (ArrayRef<Value> index :
       emitIndices(loc, rewriter, dstType.getEncoding(), dstType.getShape())) {
    Value position =
        emitLinearIndex(loc, rewriter, index, dstType.getShape());
    Value value =
        LLVM::LoadOp::create(rewriter, loc, slotType, slotAddress(position));
    if (isBool)
      value = LLVM::TruncOp::create(rewriter, loc, element, value);
    results.push_back(value);
  }
  return packElements(loc, results, converter.convertType(dstType), rewriter);
}

/// The row-major position in the result of the source element at `index`.
template <typename OpTy>
using PositionOfFn = Value (*)(OpTy op, Location loc, RewriterBase &rewriter,
                               ArrayRef<Value> index);

/// convert_layout: every element keeps its index.
Value convertPosition(tilegpu::ConvertLayoutOp op, Location loc,
                      RewriterBase &rewriter, ArrayRef<Value> index) {
  return emitLinearIndex(loc, rewriter, index, op.getType().getShape());
}

/// trans: result dimension k is source dimension order[k].
Value transPosition(tile::TransOp op, Location loc, RewriterBase &rewriter,
                    ArrayRef<Value> index) {
  SmallVector<Value> permuted;
  for (int32_t dim : op.getOrder())
    permuted.push_back(index[dim]);
  return emitLinearIndex(loc, rewriter, permuted, op.getType().getShape());
}

/// reshape: row-major element order is preserved, so an element's position
/// in the result is its row-major position in the source.
Value reshapePosition(tile::ReshapeOp op, Location loc, RewriterBase &rewriter,
                      ArrayRef<Value> index) {
  return emitLinearIndex(loc, rewriter, index,
                         op.getSrc().getType().getShape());
}

/// One op whose elements move through its scratch buffer to the positions
/// `positionOf` gives.
template <typename OpTy>
struct ThroughScratchConversion : OpConversionPattern<OpTy> {
  ThroughScratchConversion(TypeConverter &converter, MLIRContext *context,
                           PositionOfFn<OpTy> positionOf)
      : OpConversionPattern<OpTy>(converter, context, kTilePatternBenefit),
        positionOf(positionOf) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A conversion to the same layout moves nothing.
    if (isa<tilegpu::ConvertLayoutOp>(op.getOperation()) &&
        op.getSrc().getType() == op.getType()) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    auto position = [&](Location loc, RewriterBase &rewriter,
                        ArrayRef<Value> index) {
      return positionOf(op, loc, rewriter, index);
    };
    Value result = moveThroughScratch(op, op.getSrc(), adaptor.getSrc(),
                                      op.getType(), position,
                                      *this->getTypeConverter(), rewriter);
    if (!result)
      return failure();
    rewriter.replaceOp(op, result);
    return success();
  }

  PositionOfFn<OpTy> positionOf;
};

} // namespace

void mlir::tilec::populateConvertLayoutOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ThroughScratchConversion<tilegpu::ConvertLayoutOp>>(
      converter, context, convertPosition);
  patterns.add<ThroughScratchConversion<tile::TransOp>>(converter, context,
                                                        transPosition);
  patterns.add<ThroughScratchConversion<tile::ReshapeOp>>(converter, context,
                                                          reshapePosition);
}
