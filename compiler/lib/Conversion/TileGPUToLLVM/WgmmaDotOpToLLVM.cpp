//===- WgmmaDotOpToLLVM.cpp - Matrix products with wgmma (sm_90a) ---------===//
//
// tile.dot whose accumulator has a version 3 MMA layout: both operands are
// read from shared memory through wgmma matrix descriptors. An operand that
// a local_load reads from a pipelined slot is read from that slot; any other
// operand is first staged in the dot's scratch (1024-byte aligned) with the
// same swizzle, then a proxy fence and a barrier. For every K step of 16 and
// every 64-row block of its warpgroup, `wgmma.mma_async.m64nNk16` multiplies
// across the whole N; the group is committed and waited for before the
// accumulator is used (the wait takes and returns the accumulator, so no
// use can move above it). A dot marked tilegpu.wgmma_async (the pipeliner's
// loop-carried accumulators) leaves its group in flight; tilegpu.wgmma_wait
// waits for it.
//
// Shared layouts (LoadMatrix.h's emitSwizzledOffset): a [M, K] is K-major,
// b [K, N] is N-major; rows of 32, 64 or 128 bytes (wider rows are panels of
// 128-byte rows) are read with the 32-, 64- or 128-byte swizzle mode.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/LoadMatrix.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// An operand tile in shared memory: its first byte and its [rows, cols].
struct SharedTile {
  Value base; ///< !llvm.ptr<3>.
  int64_t rows = 0, cols = 0;
  /// Bytes of one stored row: at most a 128-byte line (wider rows are
  /// panels of such lines).
  int64_t rowBytes() const { return std::min<int64_t>(cols * 2, 128); }
  /// Bytes of one panel.
  int64_t panelBytes() const { return rows * rowBytes(); }
};

/// wgmma's swizzle mode for rows of `rowBytes` bytes (1: 128 B, 2: 64 B,
/// 3: 32 B).
uint64_t getSwizzleMode(int64_t rowBytes) {
  return rowBytes == 128 ? 1 : rowBytes == 64 ? 2 : 3;
}

/// A wgmma matrix descriptor for the matrix starting `offset` (i32) bytes
/// into `tile`, with the given leading and stride byte offsets.
Value emitDescriptor(Location loc, RewriterBase &rewriter,
                     const SharedTile &tile, Value offset, int64_t leading,
                     int64_t stride) {
  Type i64 = rewriter.getI64Type();
  Value address = LLVM::PtrToIntOp::create(
      rewriter, loc, i64,
      LLVM::GEPOp::create(rewriter, loc, tile.base.getType(),
                          rewriter.getI8Type(), tile.base, offset));
  auto constant = [&](uint64_t v) -> Value {
    return LLVM::ConstantOp::create(rewriter, loc, i64,
                                    rewriter.getI64IntegerAttr(v));
  };
  // Bits 0-13: address / 16 (18 bits of shared address).
  Value start = LLVM::LShrOp::create(
      rewriter, loc,
      LLVM::AndOp::create(rewriter, loc, address, constant(0x3ffff)),
      constant(4));
  uint64_t fixed = (uint64_t(leading >> 4) & 0x3fff) << 16 |
                   (uint64_t(stride >> 4) & 0x3fff) << 32 |
                   getSwizzleMode(tile.rowBytes()) << 62;
  return LLVM::OrOp::create(rewriter, loc, start, constant(fixed));
}

/// `wgmma.wait_group.sync.aligned pending` taking and returning `acc`, so
/// that every use of the accumulators follows the wait.
SmallVector<Value> emitWgmmaWait(Location loc, RewriterBase &rewriter,
                                 ArrayRef<Value> acc, unsigned pending) {
  SmallVector<std::string> constraints(acc.size(), "=f");
  for (size_t i = 0; i < acc.size(); ++i)
    constraints.push_back(std::to_string(i));
  Operation *wait = emitAsm(
      loc, rewriter, SmallVector<Type>(acc.size(), rewriter.getF32Type()), acc,
      "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";",
      constraints);
  return unpackElements(loc, wait->getResult(0), rewriter);
}

struct WgmmaDotOpConversion : OpConversionPattern<tile::DotOp> {
  WgmmaDotOpConversion(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, kTilePatternBenefit + 2) {}

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto aType = cast<RankedTensorType>(op.getA().getType());
    tilegpu::MmaEncodingAttr mma = getTensorCoreLayout(op, 3);
    if (!mma)
      return failure();
    Type input = aType.getElementType();
    Location loc = op.getLoc();
    Type element = getTypeConverter()->convertType(input);

    // Both operands in shared memory: their slots, or staged here.
    SharedTile tiles[2];
    int64_t stagedElements = 0;
    Value values[] = {op.getA(), op.getB()};
    Value packedValues[] = {adaptor.getA(), adaptor.getB()};
    for (auto [index, value, packed] : llvm::enumerate(values, packedValues)) {
      auto type = cast<RankedTensorType>(value.getType());
      tiles[index].rows = type.getDimSize(0);
      tiles[index].cols = type.getDimSize(1);
      if (auto slot = value.getDefiningOp<tilegpu::LocalLoadOp>()) {
        tiles[index].base = getLocalLoadAddress(loc, rewriter, slot, element);
        continue;
      }
      std::optional<StagedOperand> staged = stageDotOperand(
          loc, rewriter, op, index, packed, mma, element, stagedElements);
      if (!staged)
        return failure();
      tiles[index].base = staged->base;
    }
    if (stagedElements) {
      emitAsyncProxyFence(loc, rewriter);
      emitBarrier(loc, rewriter);
    }

    MmaThread thread = emitMmaThread(loc, rewriter, mma);
    Value warpgroup = LLVM::UDivOp::create(rewriter, loc, thread.warpM,
                                           i32Constant(loc, rewriter, 4));
    SmallVector<Value> acc = unpackElements(loc, adaptor.getC(), rewriter);
    SmallVector<int64_t> reps = mma.getRepetitions(cType.getShape());
    int64_t n = cType.getDimSize(1), k = aType.getDimSize(1);
    int64_t perInstr = n / 2; // fp32 accumulators per thread and instruction
    const SharedTile &a = tiles[0], &b = tiles[1];
    std::string regs;
    for (int64_t i = 0; i < perInstr; ++i)
      regs += (i ? ", $" : "$") + std::to_string(i);
    std::string text = llvm::formatv(
        ".reg .pred p;\nsetp.ne.b32 p, ${0}, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n{1}k16.f32.{2}.{2} {{{3}}, ${4}, "
        "${5}, p, 1, 1, 0, 1;",
        perInstr + 2, n, input.isF16() ? "f16" : "bf16", regs, perInstr,
        perInstr + 1);
    SmallVector<std::string> constraints(perInstr, "=f");
    constraints.append({"l", "l", "r"});
    for (int64_t i = 0; i < perInstr; ++i)
      constraints.push_back(std::to_string(i));
    SmallVector<Type> results(perInstr, rewriter.getF32Type());

    emitAsm(loc, rewriter, {}, {}, "wgmma.fence.sync.aligned;", {});
    Value one = i32Constant(loc, rewriter, 1);
    Value rowBase =
        LLVM::MulOp::create(rewriter, loc, warpgroup,
                            i32Constant(loc, rewriter, 64 * a.rowBytes()));
    for (int64_t step = 0; step < k / 16; ++step) {
      // b (N-major): rows step * 16 .. of every panel; panels `leading`
      // bytes apart, 8-row groups `stride` apart.
      Value descB =
          emitDescriptor(loc, rewriter, b,
                         i32Constant(loc, rewriter, step * 16 * b.rowBytes()),
                         b.panelBytes(), 8 * b.rowBytes());
      // a (K-major): columns step * 16 .. in their panel, rows of this
      // warpgroup's 64-row block of repetition r.
      int64_t column = step * 16 * 2;
      int64_t panel = column / a.rowBytes();
      for (int64_t r = 0; r < reps[0]; ++r) {
        int64_t fixed = panel * a.panelBytes() + column % a.rowBytes() +
                        r * mma.getCTATileSize(0) * a.rowBytes();
        Value offset = LLVM::AddOp::create(rewriter, loc, rowBase,
                                           i32Constant(loc, rewriter, fixed));
        Value descA =
            emitDescriptor(loc, rewriter, a, offset, 16, 8 * a.rowBytes());
        SmallVector<Value> operands{descA, descB, one};
        size_t first = r * perInstr;
        operands.append(acc.begin() + first, acc.begin() + first + perInstr);
        Operation *asmOp =
            emitAsm(loc, rewriter, results, operands, text, constraints);
        llvm::copy(unpackElements(loc, asmOp->getResult(0), rewriter),
                   acc.begin() + first);
      }
    }
    emitAsm(loc, rewriter, {}, {}, "wgmma.commit_group.sync.aligned;", {});
    // Unless the group stays in flight (a wgmma_wait follows), wait for it.
    if (!op->hasAttr(tilegpu::TileGPUDialect::kWgmmaAsyncAttr))
      acc = emitWgmmaWait(loc, rewriter, acc, 0);
    rewriter.replaceOp(
        op,
        packElements(loc, acc, getTypeConverter()->convertType(op.getType()),
                     rewriter));
    return success();
  }
};

/// tilegpu.wgmma_wait: the wait on every element of the accumulator.
struct WgmmaWaitOpConversion : OpConversionPattern<tilegpu::WgmmaWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::WgmmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> acc = unpackElements(loc, adaptor.getSrc(), rewriter);
    rewriter.replaceOp(
        op,
        packElements(loc, emitWgmmaWait(loc, rewriter, acc, op.getPending()),
                     getTypeConverter()->convertType(op.getType()), rewriter));
    return success();
  }
};

} // namespace

void mlir::tilec::populateWgmmaDotOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WgmmaDotOpConversion>(converter, patterns.getContext());
  patterns.add<WgmmaWaitOpConversion>(converter, patterns.getContext(),
                                      kTilePatternBenefit);
}
