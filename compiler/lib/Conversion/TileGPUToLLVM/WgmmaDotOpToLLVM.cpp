//===- WgmmaDotOpToLLVM.cpp - Matrix products with wgmma (sm_90a) ---------===//
//
// tile.dot whose accumulator has a version 3 MMA layout. b is read from
// shared memory through wgmma matrix descriptors; a too, unless it arrives
// in its dot operand registers (wgmma's register form: flash attention's p,
// or a loop-invariant q converted once). An operand that a local_load reads
// from a pipelined slot is read from that slot; any other is first staged in
// the dot's scratch (1024-byte aligned) with the same swizzle, then a proxy
// fence and a barrier. For every K step of 16 and every 64-row block of its
// warpgroup, `wgmma.mma_async.m64nNk16` multiplies across the whole N; the
// group is committed and waited for before the accumulator is used (the
// wait takes and returns the accumulator, so no use can move above it). A
// dot marked tilegpu.wgmma_async (the pipeliner's loop-carried
// accumulators) leaves its group in flight; tilegpu.wgmma_wait waits for it.
//
// Shared layouts (LoadMatrix.h's emitSwizzledOffset): a [M, K] is K-major;
// b is N-major when stored [K, N] (imm-trans-b 1) and K-major when stored
// transposed as [N, K] (a b that runs along K, such as attention's K^T:
// imm-trans-b 0). Rows of 32, 64 or 128 bytes (wider rows are panels of
// 128-byte rows) are read with the 32-, 64- or 128-byte swizzle mode.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/LoadMatrix.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// An operand tile in shared memory: its first byte, its stored [rows,
/// cols] and which of them runs along K.
struct SharedTile {
  Value base; ///< !llvm.ptr<3>.
  int64_t rows = 0, cols = 0;
  /// Whether the stored rows run along K (a, and a b stored as [N, K]);
  /// otherwise they run along N (a b stored as [K, N]).
  bool kMajor = true;
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

/// The descriptor of K step `step` (16 elements along K) of `tile`, from
/// stored row `firstRow` (i32) on: a K-major tile advances within its rows
/// (then to the next panel), its 8-row groups `8 * rowBytes` apart; an
/// N-major one starts `16 * step` rows down, its panels `leading` bytes
/// apart.
Value emitStepDescriptor(Location loc, RewriterBase &rewriter,
                         const SharedTile &tile, int64_t step, Value firstRow) {
  Value rowStart = LLVM::MulOp::create(
      rewriter, loc, firstRow, i32Constant(loc, rewriter, tile.rowBytes()));
  if (!tile.kMajor) {
    Value offset = LLVM::AddOp::create(
        rewriter, loc, rowStart,
        i32Constant(loc, rewriter, step * 16 * tile.rowBytes()));
    return emitDescriptor(loc, rewriter, tile, offset, tile.panelBytes(),
                          8 * tile.rowBytes());
  }
  int64_t column = step * 16 * 2;
  int64_t fixed =
      column / tile.rowBytes() * tile.panelBytes() + column % tile.rowBytes();
  Value offset = LLVM::AddOp::create(rewriter, loc, rowStart,
                                     i32Constant(loc, rewriter, fixed));
  return emitDescriptor(loc, rewriter, tile, offset, 16, 8 * tile.rowBytes());
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

/// The inline asm of one `wgmma.mma_async.m64n<n>k16` into `perInstr` fp32
/// accumulators: a from 4 registers or a descriptor, b from a descriptor
/// (`transB`: N-major), the accumulators scaled by the predicate operand,
/// and its constraints (accumulators out, a, b, predicate, accumulators in).
std::pair<std::string, SmallVector<std::string>>
getWgmmaAsm(int64_t n, StringRef input, bool aInRegisters, bool transB) {
  int64_t perInstr = n / 2;
  auto operand = [](int64_t i) { return "$" + std::to_string(i); };
  std::string acc;
  for (int64_t i = 0; i < perInstr; ++i)
    acc += (i ? ", " : "") + operand(i);
  int64_t next = perInstr;
  std::string a;
  SmallVector<std::string> constraints(perInstr, "=f");
  if (aInRegisters) {
    a = "{" + operand(next) + ", " + operand(next + 1) + ", " +
        operand(next + 2) + ", " + operand(next + 3) + "}";
    constraints.append({"r", "r", "r", "r"});
    next += 4;
  } else {
    a = operand(next++);
    constraints.push_back("l");
  }
  std::string b = operand(next++);
  std::string predicate = operand(next++);
  constraints.append({"l", "r"});
  for (int64_t i = 0; i < perInstr; ++i)
    constraints.push_back(std::to_string(i));
  // Immediates: scale-a, scale-b, then (a in shared memory only) trans-a,
  // and trans-b.
  std::string text = llvm::formatv(
      ".reg .pred p;\nsetp.ne.b32 p, {0}, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n{1}k16.f32.{2}.{2} {{{3}}, {4}, {5}, "
      "p, 1, 1, {6}{7};",
      predicate, n, input, acc, a, b, aInRegisters ? "" : "0, ",
      transB ? 1 : 0);
  return {text, constraints};
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

    // a in its dot operand registers, or in shared memory like b: their
    // slots (whose local_load gives the dot operand layout but emits
    // nothing), or staged here.
    auto aLayout =
        dyn_cast<tilegpu::DotOperandEncodingAttr>(aType.getEncoding());
    if (op.getA().getDefiningOp<tilegpu::LocalLoadOp>())
      aLayout = {};
    if (aLayout && (aLayout.getParent() != mma || aLayout.getOpIdx() != 0 ||
                    aLayout.getKWidth() != 2))
      return op.emitOpError("operand 0 has a dot operand layout of another "
                            "product: ")
             << aType;
    SharedTile tiles[2];
    int64_t stagedElements = 0;
    Value values[] = {op.getA(), op.getB()};
    Value packedValues[] = {adaptor.getA(), adaptor.getB()};
    for (auto [index, value, packed] : llvm::enumerate(values, packedValues)) {
      if (index == 0 && aLayout)
        continue;
      auto type = cast<RankedTensorType>(value.getType());
      SharedTile &tile = tiles[index];
      tilegpu::SwizzledSharedEncodingAttr shared;
      if (auto slot = value.getDefiningOp<tilegpu::LocalLoadOp>()) {
        tile.base = getLocalLoadAddress(loc, rewriter, slot, element);
        shared = cast<tilegpu::SwizzledSharedEncodingAttr>(
            slot.getBuffer().getType().getEncoding());
      } else {
        std::optional<StagedOperand> staged = stageDotOperand(
            loc, rewriter, op, index, packed, mma, element, stagedElements);
        if (!staged)
          return failure();
        tile.base = staged->base;
        shared = staged->shared;
      }
      // a is stored [M, K]; b as [K, N], or transposed as [N, K].
      tile.rows = type.getDimSize(shared.isTransposed() ? 1 : 0);
      tile.cols = type.getDimSize(shared.isTransposed() ? 0 : 1);
      tile.kMajor = index == 0 || shared.isTransposed();
      if (index == 0 && shared.isTransposed())
        return op.emitOpError("operand 0 is stored transposed in shared "
                              "memory, which wgmma does not read");
    }
    if (stagedElements) {
      emitAsyncProxyFence(loc, rewriter);
      emitBarrier(loc, rewriter);
    }

    MmaThread thread = emitMmaThread(loc, rewriter, mma);
    Value warpgroup = LLVM::UDivOp::create(rewriter, loc, thread.warpM,
                                           i32Constant(loc, rewriter, 4));
    SmallVector<Value> acc = unpackElements(loc, adaptor.getC(), rewriter);
    SmallVector<Value> aElements;
    if (aLayout)
      aElements = unpackElements(loc, adaptor.getA(), rewriter);
    SmallVector<int64_t> reps = mma.getRepetitions(cType.getShape());
    int64_t n = cType.getDimSize(1), k = aType.getDimSize(1);
    int64_t perInstr = n / 2; // fp32 accumulators per thread and instruction
    const SharedTile &a = tiles[0], &b = tiles[1];
    auto [text, constraints] = getWgmmaAsm(n, input.isF16() ? "f16" : "bf16",
                                           bool(aLayout), !b.kMajor);
    SmallVector<Type> results(perInstr, rewriter.getF32Type());

    // The a registers of every K step and M repetition are packed before
    // the fence, so that ptxas need not fence again before each wgmma.
    SmallVector<SmallVector<Value>> aRegisters;
    for (int64_t step = 0; aLayout && step < k / 16; ++step) {
      SmallVector<int64_t> positions =
          getStepPositions(aLayout, aType.getShape(), step);
      for (int64_t r = 0; r < reps[0]; ++r) {
        SmallVector<Value> stepElements;
        for (int64_t i = 0; i < 8; ++i)
          stepElements.push_back(aElements[positions[r * 8 + i]]);
        aRegisters.push_back(
            packRegisters(loc, rewriter, stepElements, 0, 4, 2));
      }
    }
    Value one = i32Constant(loc, rewriter, 1);
    // A +0.0 accumulator (q @ k^T in attention) is not read: the first K
    // step runs with scale-d 0, on undefined registers (no zeroing moves).
    bool zeroAcc = matchPattern(op.getC(), m_PosZeroFloat());
    if (zeroAcc)
      for (Value &element : acc)
        element = LLVM::UndefOp::create(rewriter, loc, element.getType());
    Value zero = i32Constant(loc, rewriter, 0);
    Value firstRow = LLVM::MulOp::create(rewriter, loc, warpgroup,
                                         i32Constant(loc, rewriter, 64));
    emitAsm(loc, rewriter, {}, {}, "wgmma.fence.sync.aligned;", {});
    for (int64_t step = 0; step < k / 16; ++step) {
      Value descB = emitStepDescriptor(loc, rewriter, b, step, zero);
      for (int64_t r = 0; r < reps[0]; ++r) {
        // a: this warpgroup's 64 rows of M repetition r.
        SmallVector<Value> operands;
        if (aLayout) {
          operands = aRegisters[step * reps[0] + r];
        } else {
          Value row = LLVM::AddOp::create(
              rewriter, loc, firstRow,
              i32Constant(loc, rewriter, r * mma.getCTATileSize(0)));
          operands.push_back(emitStepDescriptor(loc, rewriter, a, step, row));
        }
        operands.append({descB, zeroAcc && step == 0 ? zero : one});
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
