//===- AsyncCopyOpToLLVM.cpp - Shared-memory slots and cp.async -----------===//
//
// local_alloc becomes the address of its slots in the kernel's shared
// memory; async_copy a cp.async per vector of each thread's elements into
// the slot, laid out with the slot's swizzle (the vectors run along its
// stored rows: dimension 1, or 0 in a slot that stores its tile
// transposed; zero-filled where the mask is false: the source size is 0);
// async_commit_group and async_wait the cp.async group instructions;
// fence_async_shared the proxy fence wgmma needs after them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/LoadMatrix.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

struct LocalAllocOpConversion : OpConversionPattern<tilegpu::LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::LocalAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value base = getScratchBase(op.getLoc(), rewriter, op);
    if (!base)
      return failure();
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct AsyncCopyOpConversion : OpConversionPattern<tilegpu::AsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getPtrs().getType());
    tilegpu::MemDescType buffer = op.getBuffer().getType();
    Type element = getTypeConverter()->convertType(buffer.getElementType());
    auto shared =
        cast<tilegpu::SwizzledSharedEncodingAttr>(buffer.getEncoding());
    Value slot = getSlotAddress(loc, rewriter, adaptor.getBuffer(),
                                adaptor.getSlot(), buffer, element);
    SmallVector<Value> ptrs = unpackElements(loc, adaptor.getPtrs(), rewriter);
    SmallVector<Value> mask;
    if (adaptor.getMask())
      mask = unpackElements(loc, adaptor.getMask(), rewriter);
    auto indices =
        emitIndices(loc, rewriter, type.getEncoding(), type.getShape());
    int64_t vec = op.getVec();
    int32_t bytes = vec * (element.getIntOrFloatBitWidth() / 8);
    auto modifier = bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                : NVVM::LoadCacheModifierKind::CA;
    // The slot's rows and columns and each pointer's place there (the
    // other way round with `transpose`).
    unsigned row = op.getTranspose() ? 1 : 0, col = 1 - row;
    for (size_t first = 0; first < ptrs.size(); first += vec) {
      Value offset =
          emitSwizzledOffset(loc, rewriter, shared, type.getShape()[row],
                             type.getShape()[col],
                             element.getIntOrFloatBitWidth() / 8,
                             indices[first][row], indices[first][col]);
      Value dst = LLVM::GEPOp::create(rewriter, loc, slot.getType(), element,
                                      slot, offset);
      Value size;
      if (!mask.empty())
        size = LLVM::SelectOp::create(rewriter, loc, mask[first],
                                      i32Constant(loc, rewriter, bytes),
                                      i32Constant(loc, rewriter, 0));
      NVVM::CpAsyncOp::create(rewriter, loc, dst, ptrs[first], bytes, modifier,
                              size);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitGroupOpConversion
    : OpConversionPattern<tilegpu::AsyncCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::AsyncCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitOpConversion : OpConversionPattern<tilegpu::AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, op.getPending());
    return success();
  }
};

struct FenceAsyncSharedOpConversion
    : OpConversionPattern<tilegpu::FenceAsyncSharedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::FenceAsyncSharedOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitAsyncProxyFence(op.getLoc(), rewriter);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tilec::populateAsyncCopyOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LocalAllocOpConversion, AsyncCopyOpConversion,
               AsyncCommitGroupOpConversion, AsyncWaitOpConversion,
               FenceAsyncSharedOpConversion>(
      converter, patterns.getContext(), kTilePatternBenefit);
}
