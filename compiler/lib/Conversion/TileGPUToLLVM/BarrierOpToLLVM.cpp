//===- BarrierOpToLLVM.cpp - tile.barrier ---------------------------------===//
//
// A barrier across the program's threads: the user's debug_barrier, and the
// barriers the shared-memory allocation inserts between scratch ops.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// tile.barrier -> bar.sync 0.
struct BarrierOpConversion : OpConversionPattern<tile::BarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitBarrier(op.getLoc(), rewriter);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tilec::populateBarrierOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BarrierOpConversion>(converter, patterns.getContext(),
                                    kTilePatternBenefit);
}
