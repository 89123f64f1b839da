//===- TmaOpToLLVM.cpp - Tensor memory accelerator copies (sm_90) ---------===//
//
// The mbarriers of TMA slots and the copies that complete on them, as inline
// PTX: init_barriers and inval_barriers run in thread 0 (mbarrier.init, then
// a proxy fence so that the copies see the initialized barriers;
// mbarrier.inval); tma_copy in thread 0 when its predicate holds:
// mbarrier.arrive.expect_tx with the slot's bytes, then one
// cp.async.bulk.tensor per 128-byte panel of the slot (a box of the map, the
// panel's columns from the tile's first column + panel * panel columns);
// wait_barrier in every thread, a try_wait.parity loop; tma_store: a proxy
// fence and a barrier, then thread 0 stores each panel of the slot with
// cp.async.bulk.tensor and waits until the slot has been read, then a
// barrier; make_tensormap in thread 0 too, into the program's global
// scratch.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/GlobalScratch.h"
#include "tilec/Conversion/TileGPUToLLVM/LoadMatrix.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

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

/// The i32 shared address of slot `slot` of `buffer` (at `base`).
Value getSlotShared(Location loc, RewriterBase &rewriter, Value base,
                    Value slot, tilegpu::MemDescType buffer, Type element) {
  return getSharedAddress(
      loc, rewriter, getSlotAddress(loc, rewriter, base, slot, buffer, element));
}

/// A slot as the tensor memory accelerator moves it: panels of rows of at
/// most 128 bytes (as emitSwizzledOffset stores them), one box of the map
/// each, and the inline-asm operands of every panel's copy.
struct SlotPanels {
  int64_t rows, cols, elementBytes;
  /// Whole panels, and the columns of each.
  int64_t panels, panelCols;
  /// The map's coordinates of the tile, outermost first (a transposed slot
  /// holds the tile's dimension 0 contiguous, so its map's innermost
  /// dimension is the tile's first).
  Value outer, innerStart;
  /// The i32 shared address of the slot.
  Value slot;

  /// Slot `slotIndex` of `buffer` (converted `converted`), copied to or from
  /// the tile at `coords` (converted).
  SlotPanels(Location loc, RewriterBase &rewriter, const TypeConverter &converter,
             tilegpu::MemDescType buffer, Value converted, Value slotIndex,
             ValueRange coords) {
    Type element = converter.convertType(buffer.getElementType());
    bool transposed =
        cast<tilegpu::SwizzledSharedEncodingAttr>(buffer.getEncoding()).isTransposed();
    rows = buffer.getSlotShape()[transposed ? 1 : 0];
    cols = buffer.getSlotShape()[transposed ? 0 : 1];
    outer = coords[transposed ? 1 : 0];
    innerStart = coords[transposed ? 0 : 1];
    elementBytes = element.getIntOrFloatBitWidth() / 8;
    panelCols = std::min<int64_t>(cols, 128 / elementBytes);
    panels = cols / panelCols;
    slot = getSlotShared(loc, rewriter, converted, slotIndex, buffer, element);
  }

  int64_t getBytes() const { return rows * cols * elementBytes; }

  /// Appends panel `panel`'s shared address and inner coordinate to
  /// `operands` ("r" constraints), and returns their operand numbers.
  std::pair<unsigned, unsigned> addPanel(Location loc, RewriterBase &rewriter,
                                         int64_t panel,
                                         SmallVectorImpl<Value> &operands,
                                         SmallVectorImpl<std::string> &constraints) const {
    unsigned shared = operands.size();
    operands.push_back(LLVM::AddOp::create(
        rewriter, loc, slot,
        i32Constant(loc, rewriter, panel * rows * panelCols * elementBytes)));
    operands.push_back(LLVM::AddOp::create(
        rewriter, loc, innerStart, i32Constant(loc, rewriter, panel * panelCols)));
    constraints.append({"r", "r"});
    return {shared, shared + 1};
  }
};

struct TmaCopyOpConversion : OpConversionPattern<tilegpu::TmaCopyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::TmaCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SlotPanels slots(loc, rewriter, *getTypeConverter(), op.getBuffer().getType(),
                     adaptor.getBuffer(), adaptor.getSlot(), adaptor.getCoords());
    Value barrier = getSlotShared(loc, rewriter, adaptor.getBarriers(),
                                  adaptor.getSlot(), op.getBarriers().getType(),
                                  rewriter.getI64Type());
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
        barrier, adaptor.getTensormap(), slots.outer};
    SmallVector<std::string> constraints{"r", "r", "l", "r"};
    std::string text = ".reg .pred copy;\nsetp.ne.b32 copy, $0, 0;\n"
                       "@copy mbarrier.arrive.expect_tx.shared::cta.b64 _, "
                       "[$1], " +
                       std::to_string(slots.getBytes()) + ";\n";
    for (int64_t panel = 0; panel < slots.panels; ++panel) {
      auto [dst, inner] =
          slots.addPanel(loc, rewriter, panel, operands, constraints);
      text += "@copy cp.async.bulk.tensor.2d.shared::cluster.global.tile."
              "mbarrier::complete_tx::bytes [$" +
              std::to_string(dst) + "], [$2, {$" + std::to_string(inner) +
              ", $3}], [$1];\n";
    }
    emitAsm(loc, rewriter, {}, operands, text, constraints);
    rewriter.eraseOp(op);
    return success();
  }
};

/// tma_store: every thread fences its writes of the slot for the async
/// proxy; after a barrier thread 0 stores each panel with
/// cp.async.bulk.tensor (a bulk group), commits the group and waits until
/// it has read the slot; a second barrier keeps every thread from writing
/// the slot's bytes before that.
struct TmaStoreOpConversion : OpConversionPattern<tilegpu::TmaStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::TmaStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SlotPanels slots(loc, rewriter, *getTypeConverter(), op.getBuffer().getType(),
                     adaptor.getBuffer(), adaptor.getSlot(), adaptor.getCoords());
    emitAsyncProxyFence(loc, rewriter);
    emitBarrier(loc, rewriter);
    // $0 thread, $1 tensor map, $2 outer coordinate, then per panel its
    // source and inner coordinate.
    SmallVector<Value> operands{getThreadIndex(loc, rewriter),
                                adaptor.getTensormap(), slots.outer};
    SmallVector<std::string> constraints{"r", "l", "r"};
    std::string text = ".reg .pred first;\nsetp.eq.u32 first, $0, 0;\n";
    for (int64_t panel = 0; panel < slots.panels; ++panel) {
      auto [src, inner] =
          slots.addPanel(loc, rewriter, panel, operands, constraints);
      text += "@first cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group "
              "[$1, {$" +
              std::to_string(inner) + ", $2}], [$" + std::to_string(src) +
              "];\n";
    }
    text += "@first cp.async.bulk.commit_group;\n"
            "@first cp.async.bulk.wait_group.read 0;\n";
    emitAsm(loc, rewriter, {}, operands, text, constraints);
    emitBarrier(loc, rewriter);
    rewriter.eraseOp(op);
    return success();
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

/// make_tensormap: thread 0 writes the map into the op's global scratch in
/// its program (zeroes, then every field with tensormap.replace, sm_90a),
/// then fences it for the tensor-map proxy (release, then acquire), so that
/// the copies thread 0 issues next read it. A dimension of 2^32 elements or
/// more, a negative one, or an outer stride that is negative or 2^40 bytes
/// or more, which a map cannot hold, traps.
struct MakeTensorMapOpConversion : OpConversionPattern<tile::MakeTensorMapOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::MakeTensorMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value slot = getGlobalScratch(loc, rewriter, op);
    if (!slot)
      return failure();
    Value map = LLVM::AddrSpaceCastOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()), slot);
    Type element = getTypeConverter()->convertType(
        cast<tile::PointerType>(op.getBase().getType()).getPointeeType());
    int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
    ArrayRef<int64_t> box = op.getBox(); // Outermost first.
    int64_t swizzleMode = llvm::Log2_64(op.getSwizzle()) - 4; // 32 B: 1 ... 128 B: 3.
    // $0 thread, $1 the map (global), $2 the map (generic), $3 base,
    // $4 outer shape, $5 inner shape, $6 outer stride (elements).
    std::string replace = "@first tensormap.replace.tile.";
    std::string text = ".reg .pred first, bad;\n.reg .b32 value;\n.reg .b64 bytes, zero;\n"
                       "setp.eq.u32 first, $0, 0;\n"
                       "setp.gt.u64 bad, $4, 4294967295;\n"
                       "setp.gt.or.u64 bad, $5, 4294967295, bad;\n"
                       "mul.lo.u64 bytes, $6, " +
                       std::to_string(elementBytes) +
                       ";\n"
                       "setp.gt.or.u64 bad, bytes, 1099511627775, bad;\n"
                       "and.pred bad, bad, first;\n"
                       "@bad trap;\n"
                       "mov.b64 zero, 0;\n";
    for (int64_t offset = 0; offset < tile::kTensorMapBytes; offset += 16)
      text += "@first st.global.v2.b64 [$1+" + std::to_string(offset) + "], {zero, zero};\n";
    text += replace + "global_address.global.b1024.b64 [$1], $3;\n";
    text += replace + "rank.global.b1024.b32 [$1], 1;\n"; // The rank less 1.
    // Dimension 0 of the map is the innermost.
    for (int64_t dim = 0; dim < 2; ++dim)
      text += "mov.b32 value, " + std::to_string(box[1 - dim]) + ";\n" + replace +
              "box_dim.global.b1024.b32 [$1], " + std::to_string(dim) + ", value;\n" +
              "cvt.u32.u64 value, $" + std::to_string(5 - dim) + ";\n" + replace +
              "global_dim.global.b1024.b32 [$1], " + std::to_string(dim) + ", value;\n";
    text += replace + "global_stride.global.b1024.b64 [$1], 0, bytes;\n";
    text += "mov.b32 value, 1;\n";
    for (int64_t dim = 0; dim < 2; ++dim)
      text += replace + "element_stride.global.b1024.b32 [$1], " + std::to_string(dim) +
              ", value;\n";
    // Elements as 16-bit integers (a copy converts nothing; out of bounds
    // is zero), no interleave, zero fill.
    text += replace + "elemtype.global.b1024.b32 [$1], 1;\n";
    text += replace + "interleave_layout.global.b1024.b32 [$1], 0;\n";
    text += replace + "swizzle_mode.global.b1024.b32 [$1], " + std::to_string(swizzleMode) +
            ";\n";
    text += replace + "fill_mode.global.b1024.b32 [$1], 0;\n";
    text += "@first fence.proxy.tensormap::generic.release.gpu;\n"
            "@first fence.proxy.tensormap::generic.acquire.gpu [$2], 128;\n";
    emitAsm(loc, rewriter, {},
            {getThreadIndex(loc, rewriter), slot, map, adaptor.getBase(),
             adaptor.getShapes()[0], adaptor.getShapes()[1], adaptor.getStrides()[0]},
            text, {"r", "l", "l", "l", "l", "l", "l"});
    rewriter.replaceOp(op, map);
    return success();
  }
};

} // namespace

void mlir::tilec::populateTmaOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BarriersOpConversion<tilegpu::InitBarriersOp>,
               BarriersOpConversion<tilegpu::InvalBarriersOp>,
               TmaCopyOpConversion, TmaStoreOpConversion,
               WaitBarrierOpConversion, MakeTensorMapOpConversion>(
      converter, patterns.getContext(), kTilePatternBenefit);
}
