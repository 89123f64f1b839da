//===- GridOpToLLVM.cpp - program_id and num_programs ---------------------===//
//
// Grid queries read the PTX special registers %ctaid and %nctaid.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// Lowers a grid query to the special register of its axis.
template <typename SourceOp, typename XOp, typename YOp, typename ZOp>
struct GridQueryOpConversion : OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Location loc = op.getLoc();
    Value value;
    switch (op.getAxis()) {
    case 0:
      value = XOp::create(rewriter, loc, i32);
      break;
    case 1:
      value = YOp::create(rewriter, loc, i32);
      break;
    default:
      value = ZOp::create(rewriter, loc, i32);
      break;
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

} // namespace

void mlir::tilec::populateGridOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GridQueryOpConversion<tile::ProgramIdOp, NVVM::BlockIdXOp,
                                     NVVM::BlockIdYOp, NVVM::BlockIdZOp>,
               GridQueryOpConversion<tile::NumProgramsOp, NVVM::GridDimXOp,
                                     NVVM::GridDimYOp, NVVM::GridDimZOp>>(
      converter, patterns.getContext(), kTilePatternBenefit);
}
