//===- ScanOpToLLVM.cpp - Inclusive scans along one axis (cumsum) ---------===//
//
// tile.scan through the op's scratch (numElements * elemBytes per source,
// each element at its row-major position), as a Hillis-Steele scan: for
// d = 1, 2, 4, ... below the axis length, every thread writes its current
// values, a barrier, and each of its elements at axis index i combines the
// value at i - d (i + d when reversed) into its own when that exists. The
// earlier segment is always the region's left operand, so an associative
// but not commutative combination is applied in order. Threads holding
// replicas write identical values. Each thread ends with its own elements
// of the result, in the source's layout.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/Allocation.h"
#include "tilec/Conversion/TileGPUToLLVM/CombineRegion.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

struct ScanOpConversion : OpConversionPattern<tile::ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned axis = op.getAxis();
    int64_t length = shape[axis];
    bool reverse = op.getReverse();
    unsigned numSrcs = op.getSrcs().size();

    SmallVector<SmallVector<Value>> values; // [source][register]
    for (Value src : adaptor.getSrcs())
      values.push_back(unpackElements(loc, src, rewriter));
    if (length == 1) {
      rewriter.replaceOp(op, adaptor.getSrcs());
      return success();
    }
    Value base = getScratchBase(loc, rewriter, op);
    if (!base)
      return failure();

    MLIRContext *context = rewriter.getContext();
    auto sharedPtr = LLVM::LLVMPointerType::get(context, 3);
    int64_t numElements = srcType.getNumElements();
    SmallVector<Value> buffers;
    SmallVector<Type> types;
    int64_t byteOffset = 0;
    for (Value src : op.getSrcs()) {
      Type elementType = getElementTypeOrSelf(src.getType());
      types.push_back(getTypeConverter()->convertType(elementType));
      buffers.push_back(LLVM::GEPOp::create(
          rewriter, loc, sharedPtr, rewriter.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(byteOffset)}));
      byteOffset += getElementBytes(elementType) * numElements;
    }

    int64_t axisStride = 1;
    for (unsigned d = axis + 1; d < shape.size(); ++d)
      axisStride *= shape[d];
    auto indices = emitIndices(loc, rewriter, srcType.getEncoding(), shape);
    SmallVector<Value> linear;
    for (ArrayRef<Value> index : indices)
      linear.push_back(emitLinearIndex(loc, rewriter, index, shape));
    auto elementPtr = [&](unsigned s, Value position) -> Value {
      return LLVM::GEPOp::create(rewriter, loc, sharedPtr, types[s], buffers[s],
                                 ArrayRef<LLVM::GEPArg>{position});
    };

    for (int64_t step = 1; step < length; step *= 2) {
      // The previous step's reads finish before this step's writes.
      if (step > 1)
        emitBarrier(loc, rewriter);
      for (unsigned s = 0; s < numSrcs; ++s)
        for (auto [reg, value] : llvm::enumerate(values[s]))
          LLVM::StoreOp::create(rewriter, loc, value,
                                elementPtr(s, linear[reg]));
      emitBarrier(loc, rewriter);
      Value stepValue = i32Constant(loc, rewriter, step);
      Value distance = i32Constant(loc, rewriter, step * axisStride);
      for (size_t reg = 0; reg < linear.size(); ++reg) {
        Value position = indices[reg][axis];
        // Whether the element `step` before (after) this one exists, and
        // where it is; a clamped position keeps the load in bounds.
        Value exists, partner;
        if (reverse) {
          exists = LLVM::ICmpOp::create(
              rewriter, loc, LLVM::ICmpPredicate::ult,
              LLVM::AddOp::create(rewriter, loc, position, stepValue),
              i32Constant(loc, rewriter, length));
          partner = LLVM::AddOp::create(rewriter, loc, linear[reg], distance);
        } else {
          exists = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::uge,
                                        position, stepValue);
          partner = LLVM::SubOp::create(rewriter, loc, linear[reg], distance);
        }
        partner =
            LLVM::SelectOp::create(rewriter, loc, exists, partner, linear[reg]);
        SmallVector<Value> mine, other;
        for (unsigned s = 0; s < numSrcs; ++s) {
          mine.push_back(values[s][reg]);
          other.push_back(LLVM::LoadOp::create(rewriter, loc, types[s],
                                               elementPtr(s, partner)));
        }
        SmallVector<Value> combined =
            reverse ? emitCombine(rewriter, op.getCombineOp(), mine, other)
                    : emitCombine(rewriter, op.getCombineOp(), other, mine);
        for (unsigned s = 0; s < numSrcs; ++s)
          values[s][reg] = LLVM::SelectOp::create(rewriter, loc, exists,
                                                  combined[s], mine[s]);
      }
    }

    SmallVector<Value> results;
    for (unsigned s = 0; s < numSrcs; ++s)
      results.push_back(packElements(
          loc, values[s],
          getTypeConverter()->convertType(op.getResult(s).getType()),
          rewriter));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::tilec::populateScanOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ScanOpConversion>(converter, patterns.getContext(),
                                 kTilePatternBenefit);
}
