//===- HistogramOpToLLVM.cpp - tile.histogram through shared memory -------===//
//
// The bins live in the op's scratch (4 bytes each): every thread zeroes its
// share, a barrier, then each element's owner (replicas count nothing) adds 1
// to its bin with `red.shared.add.u32` when the element is enabled and in
// range (an unsigned compare, so negative values are out), a barrier, and
// each thread reads the bins its result elements are.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"
#include "tilec/Dialect/Tile/IR/Dialect.h"
#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

struct HistogramOpConversion : OpConversionPattern<tile::HistogramOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = getScratchBase(loc, rewriter, op);
    if (!base)
      return failure();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t bins = resultType.getDimSize(0);
    Type i32 = rewriter.getI32Type();
    auto binAddress = [&](Value bin) -> Value {
      return LLVM::GEPOp::create(rewriter, loc, base.getType(), i32, base, bin);
    };

    // Zero the bins: thread t writes t, t + threads, ... (modulo the bins, so
    // that spare threads write a zero twice).
    int64_t threads = tilegpu::TileGPUDialect::getThreadsPerProgram(op);
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
    Value zero = i32Constant(loc, rewriter, 0);
    for (int64_t first = 0; first < std::max(bins, threads); first += threads) {
      Value bin = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::AddOp::create(rewriter, loc, tid, i32Constant(loc, rewriter, first)),
          i32Constant(loc, rewriter, bins - 1));
      LLVM::StoreOp::create(rewriter, loc, zero, binAddress(bin));
    }
    emitBarrier(loc, rewriter);

    SmallVector<Value> values = unpackElements(loc, adaptor.getSrc(), rewriter);
    SmallVector<Value> mask;
    if (adaptor.getMask())
      mask = unpackElements(loc, adaptor.getMask(), rewriter);
    Value owner = emitOwnerPredicate(loc, rewriter, srcType.getEncoding(),
                                     srcType.getShape());
    Type valueType = values.front().getType();
    Value limit = LLVM::ConstantOp::create(
        rewriter, loc, valueType, rewriter.getIntegerAttr(valueType, bins));
    for (auto [i, value] : llvm::enumerate(values)) {
      Value counted = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult,
                                           value, limit);
      if (!mask.empty())
        counted = LLVM::AndOp::create(rewriter, loc, counted, mask[i]);
      if (owner)
        counted = LLVM::AndOp::create(rewriter, loc, counted, owner);
      Value bin = valueType == i32
                      ? value
                      : LLVM::TruncOp::create(rewriter, loc, i32, value).getResult();
      Value address = LLVM::PtrToIntOp::create(rewriter, loc, i32, binAddress(bin));
      emitAsm(loc, rewriter, {},
              {LLVM::ZExtOp::create(rewriter, loc, i32, counted), address},
              ".reg .pred counted;\nsetp.ne.b32 counted, $0, 0;\n"
              "@counted red.shared.add.u32 [$1], 1;\n",
              {"r", "r"});
    }
    emitBarrier(loc, rewriter);

    SmallVector<Value> counts;
    for (const SmallVector<Value> &index :
         emitIndices(loc, rewriter, resultType.getEncoding(), resultType.getShape()))
      counts.push_back(LLVM::LoadOp::create(rewriter, loc, i32, binAddress(index[0])));
    rewriter.replaceOp(op, packElements(loc, counts,
                                        getTypeConverter()->convertType(resultType),
                                        rewriter));
    return success();
  }
};

} // namespace

void mlir::tilec::populateHistogramOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<HistogramOpConversion>(converter, patterns.getContext(),
                                      kTilePatternBenefit);
}
