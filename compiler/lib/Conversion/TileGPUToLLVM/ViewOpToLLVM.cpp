//===- ViewOpToLLVM.cpp - Shape changes that move no data -----------------===//
//
// broadcast and expand_dims between layouts that line up (the layouts
// convert-tile-to-tilegpu assigns): every thread already holds what it
// needs, so each result register is one of the operand's registers.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// broadcast in one layout: along the dimensions the operand keeps, a thread
/// holds the same indices in the operand and the result (equal offsets from
/// the same thread base), and along the broadcast ones the operand has only
/// index 0, which every thread holds (replication). So result register r
/// copies the operand register with r's offsets on the kept dimensions.
struct BroadcastOpConversion : OpConversionPattern<tile::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Attribute layout = dstType.getEncoding();
    if (srcType.getEncoding() != layout ||
        !tilegpu::isDistributedLayout(layout))
      return op.emitOpError("needs its operand in the result's layout, got ")
             << srcType << " -> " << dstType;
    Location loc = op.getLoc();
    SmallVector<Value> srcElements =
        unpackElements(loc, adaptor.getSrc(), rewriter);

    // Key of a register: its offsets along the dimensions the operand keeps.
    auto keyOf = [&](ArrayRef<int64_t> offset) {
      SmallVector<int64_t> key;
      for (auto [d, size] : llvm::enumerate(srcType.getShape()))
        key.push_back(size == 1 ? 0 : offset[d]);
      return key;
    };
    std::map<SmallVector<int64_t>, Value> byKey;
    for (auto [offset, element] :
         llvm::zip(getElemOffsets(layout, srcType.getShape()), srcElements))
      byKey.try_emplace(keyOf(offset), element);

    SmallVector<Value> results;
    for (ArrayRef<int64_t> offset :
         getElemOffsets(layout, dstType.getShape())) {
      auto it = byKey.find(keyOf(offset));
      if (it == byKey.end())
        return op.emitOpError("internal error: no operand register for a "
                              "broadcast element");
      results.push_back(it->second);
    }
    Type resultType = getTypeConverter()->convertType(dstType);
    rewriter.replaceOp(op, packElements(loc, results, resultType, rewriter));
    return success();
  }
};

/// expand_dims from slice(P, axis) to P: a slice holds exactly its parent's
/// registers for the parent shape, so the struct passes through unchanged.
struct ExpandDimsOpConversion : OpConversionPattern<tile::ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto slice =
        dyn_cast_or_null<tilegpu::SliceEncodingAttr>(srcType.getEncoding());
    Attribute layout = op.getType().getEncoding();
    if (!slice || slice.getDim() != op.getAxis() ||
        slice.getParent() != layout)
      return op.emitOpError("needs its operand in the slice of the result's "
                            "layout along axis ")
             << op.getAxis() << ", got " << srcType;
    // Both convert to the same literal struct.
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

} // namespace

void mlir::tilec::populateViewOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BroadcastOpConversion, ExpandDimsOpConversion>(
      converter, patterns.getContext(), kTilePatternBenefit);
}
