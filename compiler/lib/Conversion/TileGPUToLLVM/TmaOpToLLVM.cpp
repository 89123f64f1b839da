//===- TmaOpToLLVM.cpp - Tensor memory accelerator copies (sm_90) ---------===//
//
// The mbarriers of TMA slots and the copies that complete on them, as inline
// PTX: init_barriers and inval_barriers run in thread 0 (mbarrier.init, then
// a proxy fence so that the copies see the initialized barriers;
// mbarrier.inval); tma_copy in thread 0 when its predicate holds:
// mbarrier.arrive.expect_tx with the slot's bytes, then one
// cp.async.bulk.tensor per 128-byte panel of the slot (a box of the map, the
// panel's columns from the tile's first column + panel * panel columns);
// wait_barrier in every thread, a try_wait.parity loop.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/LoadMatrix.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// The 32-bit shared-memory address of `pointer` (!llvm.ptr<3>).
Value getSharedAddress(Location loc, RewriterBase &rewriter, Value pointer) {
  return LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI32Type(),
                                  pointer);
}

/// The calling thread's index in its program (i32).
Value getThreadIndex(Location loc, RewriterBase &rewriter) {
  return NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
}

/// Runs `statements` in thread 0 only: each is predicated on $0 (the thread
/// index) being 0; `barriers` (an i32 shared address) is $1.
void emitInThreadZero(Location loc, RewriterBase &rewriter, Value barriers,
                      ArrayRef<std::string> statements) {
  std::string text = ".reg .pred first;\nsetp.eq.u32 first, $0, 0;\n";
  for (const std::string &statement : statements)
    text += "@first " + statement + "\n";
  emitAsm(loc, rewriter, {}, {getThreadIndex(loc, rewriter), barriers}, text,
          {"r", "r"});
}

/// The statement of init_barriers / inval_barriers for the mbarrier at
/// `address`.
std::string getBarrierStatement(tilegpu::InitBarriersOp op,
                                StringRef address) {
  return ("mbarrier.init.shared::cta.b64 " + address + ", " +
          Twine(op.getCount()) + ";")
      .str();
}
std::string getBarrierStatement(tilegpu::InvalBarriersOp, StringRef address) {
  return ("mbarrier.inval.shared::cta.b64 " + address + ";").str();
}

/// init_barriers and inval_barriers: their statement for each slot's
/// mbarrier, in thread 0; after an initialization, a proxy fence, since the
/// copies (the async proxy) arrive on what the generic proxy wrote.
template <typename BarriersOp>
struct BarriersOpConversion : OpConversionPattern<BarriersOp> {
  using OpConversionPattern<BarriersOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarriersOp op, typename BarriersOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<std::string> statements;
    for (int64_t i = 0; i < op.getBarriers().getType().getNumSlots(); ++i)
      statements.push_back(
          getBarrierStatement(op, "[$1+" + std::to_string(8 * i) + "]"));
    emitInThreadZero(loc, rewriter,
                     getSharedAddress(loc, rewriter, adaptor.getBarriers()),
                     statements);
    if constexpr (std::is_same_v<BarriersOp, tilegpu::InitBarriersOp>)
      emitAsyncProxyFence(loc, rewriter);
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaCopyOpConversion : OpConversionPattern<tilegpu::TmaCopyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::TmaCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tilegpu::MemDescType buffer = op.getBuffer().getType();
    tilegpu::MemDescType barriers = op.getBarriers().getType();
    Type element = getTypeConverter()->convertType(buffer.getElementType());
    int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
    int64_t rows = buffer.getSlotShape()[0], cols = buffer.getSlotShape()[1];
    // Panels as emitSwizzledOffset stores them: 128-byte rows at most.
    int64_t panelCols = std::min<int64_t>(cols, 128 / elementBytes);
    int64_t panels = cols / panelCols;
    Value slot = getShared(loc, rewriter, adaptor.getBuffer(),
                           adaptor.getSlot(), buffer, element);
    Value barrier =
        getShared(loc, rewriter, adaptor.getBarriers(), adaptor.getSlot(),
                  barriers, rewriter.getI64Type());
    Value pred = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                             getThreadIndex(loc, rewriter),
                             i32Constant(loc, rewriter, 0)),
        adaptor.getPred());
    // $0 predicate, $1 mbarrier, $2 tensor map, $3 outer coordinate, then
    // per panel its destination and inner coordinate.
    SmallVector<Value> operands{
        LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), pred),
        barrier, adaptor.getTensormap(), adaptor.getCoords()[0]};
    SmallVector<std::string> constraints{"r", "r", "l", "r"};
    std::string text = ".reg .pred copy;\nsetp.ne.b32 copy, $0, 0;\n"
                       "@copy mbarrier.arrive.expect_tx.shared::cta.b64 _, "
                       "[$1], " +
                       std::to_string(rows * cols * elementBytes) + ";\n";
    for (int64_t panel = 0; panel < panels; ++panel) {
      unsigned dst = operands.size(), inner = dst + 1;
      operands.push_back(LLVM::AddOp::create(
          rewriter, loc, slot,
          i32Constant(loc, rewriter, panel * rows * panelCols * elementBytes)));
      operands.push_back(LLVM::AddOp::create(
          rewriter, loc, adaptor.getCoords()[1],
          i32Constant(loc, rewriter, panel * panelCols)));
      constraints.append({"r", "r"});
      text += "@copy cp.async.bulk.tensor.2d.shared::cluster.global.tile."
              "mbarrier::complete_tx::bytes [$" +
              std::to_string(dst) + "], [$2, {$" + std::to_string(inner) +
              ", $3}], [$1];\n";
    }
    emitAsm(loc, rewriter, {}, operands, text, constraints);
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// The i32 shared address of slot `slot` of `buffer` (at `base`).
  static Value getShared(Location loc, RewriterBase &rewriter, Value base,
                         Value slot, tilegpu::MemDescType buffer,
                         Type element) {
    return getSharedAddress(
        loc, rewriter,
        getSlotAddress(loc, rewriter, base, slot, buffer, element));
  }
};

struct WaitBarrierOpConversion : OpConversionPattern<tilegpu::WaitBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::WaitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = getSharedAddress(
        loc, rewriter,
        getSlotAddress(loc, rewriter, adaptor.getBarriers(), adaptor.getSlot(),
                       op.getBarriers().getType(), rewriter.getI64Type()));
    // The labels are local to the braces emitAsm puts around the text.
    emitAsm(loc, rewriter, {}, {barrier, adaptor.getPhase()},
            ".reg .pred done;\n"
            "wait:\n"
            "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
            "@!done bra wait;\n",
            {"r", "r"});
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tilec::populateTmaOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BarriersOpConversion<tilegpu::InitBarriersOp>,
               BarriersOpConversion<tilegpu::InvalBarriersOp>,
               TmaCopyOpConversion, WaitBarrierOpConversion>(
      converter, patterns.getContext(), kTilePatternBenefit);
}
