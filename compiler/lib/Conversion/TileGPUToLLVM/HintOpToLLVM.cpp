//===- HintOpToLLVM.cpp - multiple_of / max_contiguous --------------------===//
//
// tile.hint only informs the axis-info analysis (which the memory lowering
// has already queried); at run time it is its operand.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

struct HintOpConversion : OpConversionPattern<tile::HintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::HintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

} // namespace

void mlir::tilec::populateHintOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<HintOpConversion>(converter, patterns.getContext(),
                                 kTilePatternBenefit);
}
