//===- LoadMatrixToLLVM.cpp - Operands into tensor-core registers ---------===//
//
// 16-bit tensor-core operands through shared memory: every thread stores its
// elements (in vectors of up to 16 bytes along the stored rows) into the tile
// laid out with the swizzle of SwizzledSharedEncodingAttr::getForLdmatrix,
// and after a barrier each warp reads its registers with ldmatrix: a
// ([M, K], rows along K) with ldmatrix.x4, four 8x8 blocks per 16x16
// instruction tile; b two instruction tiles along N at a time (x2 for an
// odd last one), with ldmatrix.x4.trans when it is stored row-major ([K, N],
// rows along N) and with ldmatrix.x4 when it is stored transposed ([N, K],
// rows along K: an mma.sync b operand whose registers run along K).
// The patterns here are convert_layout into a dot operand layout (the whole
// operand at once; other element widths take the generic path) and
// local_load, which reads a slot the pipeliner's cp.async copies filled.
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

/// Pointer to element `offset` of the staged tile.
Value elementAddress(Location loc, RewriterBase &rewriter,
                     const StagedOperand &operand, Value offset) {
  return LLVM::GEPOp::create(rewriter, loc, operand.base.getType(),
                             operand.element, operand.base, offset);
}

/// One ldmatrix of `count` 8x8 matrices whose rows lane l points at, as
/// `count` i32 registers.
SmallVector<Value> emitLdmatrix(Location loc, RewriterBase &rewriter,
                                const StagedOperand &operand, unsigned count,
                                bool trans, Value row, Value col) {
  Value offset = emitSwizzledOffset(
      loc, rewriter, operand.shared, operand.shape[0], operand.shape[1],
      operand.element.getIntOrFloatBitWidth() / 8, row, col);
  Value ptr =
      LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(),
                               elementAddress(loc, rewriter, operand, offset));
  std::string text = llvm::formatv(
      "ldmatrix.sync.aligned.m8n8.x{0}{1}.shared.b16 {{{2}}, [${3}];\n", count,
      trans ? ".trans" : "", count == 4 ? "$0, $1, $2, $3" : "$0, $1", count);
  SmallVector<std::string> constraints(count, "=r");
  constraints.push_back("l");
  Type i32 = rewriter.getI32Type();
  Operation *asmOp = emitAsm(loc, rewriter, SmallVector<Type>(count, i32), ptr,
                             text, constraints);
  SmallVector<Value> registers;
  for (unsigned i = 0; i < count; ++i)
    registers.push_back(
        LLVM::ExtractValueOp::create(rewriter, loc, asmOp->getResult(0), i));
  return registers;
}

/// Splits 32-bit registers into their two 16-bit elements, low half first.
void appendElements(Location loc, RewriterBase &rewriter, Type element,
                    ArrayRef<Value> registers, SmallVector<Value> &out) {
  auto pair = VectorType::get(2, element);
  for (Value reg : registers) {
    Value vector = LLVM::BitcastOp::create(rewriter, loc, pair, reg);
    for (int64_t j = 0; j < 2; ++j)
      out.push_back(LLVM::ExtractElementOp::create(
          rewriter, loc, vector, i32Constant(loc, rewriter, j)));
  }
}

} // namespace

Value mlir::tilec::emitSwizzledOffset(
    Location loc, RewriterBase &rewriter,
    tilegpu::SwizzledSharedEncodingAttr shared, int64_t rows, int64_t cols,
    int64_t elementBytes, Value row, Value col) {
  auto constant = [&](int64_t v) { return i32Constant(loc, rewriter, v); };
  // A tile stored transposed is the row-major [cols, rows] tile.
  if (shared.isTransposed()) {
    std::swap(rows, cols);
    std::swap(row, col);
  }
  // Rows longer than one 128-byte line are stored as panels of 128-byte
  // rows, one panel after another.
  int64_t panelCols = std::min<int64_t>(cols, 128 / elementBytes);
  Value panelStart;
  if (panelCols < cols) {
    Value panel = LLVM::UDivOp::create(rewriter, loc, col, constant(panelCols));
    col = LLVM::URemOp::create(rewriter, loc, col, constant(panelCols));
    panelStart =
        LLVM::MulOp::create(rewriter, loc, panel, constant(rows * panelCols));
  }
  Value vec = constant(shared.getVec());
  Value phase = LLVM::URemOp::create(
      rewriter, loc,
      LLVM::UDivOp::create(rewriter, loc, row, constant(shared.getPerPhase())),
      constant(shared.getMaxPhase()));
  Value vector = LLVM::UDivOp::create(rewriter, loc, col, vec);
  Value inVector = LLVM::URemOp::create(rewriter, loc, col, vec);
  Value swizzled = LLVM::XOrOp::create(rewriter, loc, vector, phase);
  Value rowStart = LLVM::MulOp::create(rewriter, loc, row, constant(panelCols));
  Value colStart = LLVM::AddOp::create(
      rewriter, loc, LLVM::MulOp::create(rewriter, loc, swizzled, vec),
      inVector);
  Value offset = LLVM::AddOp::create(rewriter, loc, rowStart, colStart);
  return panelStart ? LLVM::AddOp::create(rewriter, loc, panelStart, offset)
                          .getResult()
                    : offset;
}

Value mlir::tilec::getSlotAddress(Location loc, RewriterBase &rewriter,
                                  Value base, Value slot,
                                  tilegpu::MemDescType buffer, Type element) {
  Value first =
      LLVM::MulOp::create(rewriter, loc, slot,
                          i32Constant(loc, rewriter, buffer.getSlotElements()));
  return LLVM::GEPOp::create(rewriter, loc, base.getType(), element, base,
                             first);
}

Value mlir::tilec::getLocalLoadAddress(Location loc,
                                       ConversionPatternRewriter &rewriter,
                                       tilegpu::LocalLoadOp slot,
                                       Type element) {
  return getSlotAddress(loc, rewriter,
                        rewriter.getRemappedValue(slot.getBuffer()),
                        rewriter.getRemappedValue(slot.getSlot()),
                        slot.getBuffer().getType(), element);
}

tilegpu::MmaEncodingAttr mlir::tilec::getTensorCoreLayout(tile::DotOp dot,
                                                          unsigned version) {
  auto cType = cast<RankedTensorType>(dot.getC().getType());
  auto mma = dyn_cast<tilegpu::MmaEncodingAttr>(cType.getEncoding());
  if (!mma || mma.getVersion() != version)
    return {};
  Type input = cast<RankedTensorType>(dot.getA().getType()).getElementType();
  if ((input.isF16() || input.isBF16()) && cType.getElementType().isF32())
    return mma;
  if (version == 2 && input.isF32() && dot.getInputPrecision() == "tf32" &&
      cType.getElementType().isF32())
    return mma;
  if (version == 2 && input.isInteger(8) &&
      cType.getElementType().isInteger(32))
    return mma;
  dot.emitOpError("has an MMA accumulator but no tensor-core instruction "
                  "multiplies ")
      << dot.getA().getType() << " by " << dot.getB().getType() << " into "
      << cType;
  return {};
}

void mlir::tilec::storeSwizzled(Location loc, RewriterBase &rewriter,
                                Value value, Value packed, Value base,
                                tilegpu::SwizzledSharedEncodingAttr shared,
                                Type element) {
  auto type = cast<RankedTensorType>(value.getType());
  ArrayRef<int64_t> shape = type.getShape();
  Attribute srcLayout = type.getEncoding();
  unsigned srcFastest = tilegpu::getLayoutOrder(srcLayout).front();
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  // Runs of registers consecutive along the stored rows, never crossing a
  // 16-byte vector (the swizzle moves whole vectors).
  SmallVector<Value> elements = unpackElements(loc, packed, rewriter);
  auto indices = emitIndices(loc, rewriter, srcLayout, shape);
  int64_t run = 1;
  if (srcFastest == shared.getOrder().front())
    run = std::min<int64_t>(
        tilegpu::getContigPerThread(srcLayout, shape)[srcFastest],
        shared.getVec());
  Type runType = run == 1 ? element : VectorType::get(run, element);
  for (size_t first = 0; first < elements.size(); first += run) {
    Value stored = elements[first];
    if (run > 1) {
      stored = LLVM::UndefOp::create(rewriter, loc, runType);
      for (int64_t i = 0; i < run; ++i)
        stored = LLVM::InsertElementOp::create(rewriter, loc, stored,
                                               elements[first + i],
                                               i32Constant(loc, rewriter, i));
    }
    Value offset = emitSwizzledOffset(loc, rewriter, shared, shape[0],
                                      shape[1], elementBytes,
                                      indices[first][0], indices[first][1]);
    LLVM::StoreOp::create(
        rewriter, loc, stored,
        LLVM::GEPOp::create(rewriter, loc, base.getType(), element, base,
                            offset),
        run * elementBytes);
  }
}

StagedOperand mlir::tilec::stageOperand(Location loc, RewriterBase &rewriter,
                                        Value value, Value packed, Value base,
                                        tilegpu::DotOperandEncodingAttr layout,
                                        Type element) {
  auto type = cast<RankedTensorType>(value.getType());
  ArrayRef<int64_t> shape = type.getShape();
  unsigned srcFastest = tilegpu::getLayoutOrder(type.getEncoding()).front();
  // A b operand whose registers run along K is stored transposed ([N, K]),
  // so that its runs stay vectors; ldmatrix without .trans reads it, and
  // wgmma as a K-major b. Everything else is stored row-major.
  bool transposed = layout.getOpIdx() == 1 && srcFastest == 0;
  SmallVector<unsigned> order =
      transposed ? SmallVector<unsigned>{0, 1} : SmallVector<unsigned>{1, 0};
  StagedOperand operand{
      base,
      tilegpu::SwizzledSharedEncodingAttr::getForLdmatrix(
          rewriter.getContext(), shape, element.getIntOrFloatBitWidth(), order),
      layout, SmallVector<int64_t>(shape), element};
  storeSwizzled(loc, rewriter, value, packed, base, operand.shared, element);
  return operand;
}

std::optional<StagedOperand>
mlir::tilec::stageDotOperand(Location loc, RewriterBase &rewriter,
                             tile::DotOp dot, unsigned index, Value packed,
                             tilegpu::MmaEncodingAttr mma, Type element,
                             int64_t &stagedElements) {
  Value scratch = getScratchBase(loc, rewriter, dot);
  if (!scratch)
    return std::nullopt;
  Value value = dot->getOperand(index);
  Value base = LLVM::GEPOp::create(
      rewriter, loc, scratch.getType(), element, scratch,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(stagedElements)});
  stagedElements += cast<RankedTensorType>(value.getType()).getNumElements();
  return stageOperand(loc, rewriter, value, packed, base,
                      tilegpu::DotOperandEncodingAttr::get(
                          rewriter.getContext(), index, mma, 2),
                      element);
}

SmallVector<Value> mlir::tilec::loadOperandStep(Location loc,
                                                RewriterBase &rewriter,
                                                const StagedOperand &operand,
                                                const MmaThread &thread,
                                                int64_t k) {
  auto constant = [&](int64_t v) { return i32Constant(loc, rewriter, v); };
  auto add = [&](Value x, Value y) -> Value {
    return LLVM::AddOp::create(rewriter, loc, x, y);
  };
  auto mul = [&](Value x, int64_t y) -> Value {
    return LLVM::MulOp::create(rewriter, loc, x, constant(y));
  };
  auto wrap = [&](Value index, int64_t size, int64_t extent) -> Value {
    return size < extent
               ? LLVM::URemOp::create(rewriter, loc, index, constant(size))
                     .getResult()
               : index;
  };
  tilegpu::MmaEncodingAttr mma = operand.layout.getMmaParent();
  SmallVector<int64_t> reps = operand.layout.getRepetitions(operand.shape);
  ArrayRef<int64_t> shape = operand.shape;
  Value lane8 = LLVM::URemOp::create(rewriter, loc, thread.lane, constant(8));
  Value matrix = LLVM::UDivOp::create(rewriter, loc, thread.lane, constant(8));
  SmallVector<Value> elements;
  if (operand.layout.getOpIdx() == 0) {
    // Matrix i covers rows + (i % 2) * 8 and columns + (i / 2) * 8.
    Value rowInTile =
        add(mul(LLVM::URemOp::create(rewriter, loc, matrix, constant(2)), 8),
            lane8);
    Value col =
        add(mul(LLVM::UDivOp::create(rewriter, loc, matrix, constant(2)), 8),
            constant(k * 16));
    Value warpRow = add(mul(thread.warpM, 16), rowInTile);
    for (int64_t m = 0; m < reps[0]; ++m) {
      Value row = wrap(add(warpRow, constant(m * mma.getCTATileSize(0))),
                       shape[0], mma.getCTATileSize(0));
      appendElements(loc, rewriter, operand.element,
                     emitLdmatrix(loc, rewriter, operand, 4, false, row, col),
                     elements);
    }
    return elements;
  }
  // b: matrices 0 and 1 are K rows k * 16 + [0, 8) and [8, 16) of N tile
  // n, 2 and 3 the same rows of tile n + 1 (lanes 16-31 point into tile
  // n + 1). Stored row-major ([K, N]), lane l points at K row
  // k * 16 + l % 16 of its tile, and ldmatrix.trans hands lane
  // (g = l / 4, t = l % 4) of each matrix the elements (2t, g) and
  // (2t + 1, g). Stored transposed ([N, K]), lane l points at N row l % 8
  // of its tile, K column k * 16 + (l / 8 % 2) * 8, and ldmatrix without
  // .trans hands lane l elements 2t and 2t + 1 of N row g: the same
  // registers.
  bool transposed = operand.shared.isTransposed();
  Value row =
      transposed
          ? mul(LLVM::URemOp::create(rewriter, loc, matrix, constant(2)), 8)
          : LLVM::URemOp::create(rewriter, loc, thread.lane, constant(16))
                .getResult();
  row = add(row, constant(k * 16));
  Value tileOfLane =
      LLVM::UDivOp::create(rewriter, loc, thread.lane, constant(16));
  Value warpCol = mul(thread.warpN, 8);
  for (int64_t n = 0; n < reps[1]; n += 2) {
    unsigned count = n + 1 < reps[1] ? 4 : 2;
    Value tile = count == 4 ? add(tileOfLane, constant(n)) : constant(n);
    Value col = wrap(add(warpCol, mul(tile, mma.getCTATileSize(1))), shape[1],
                     mma.getCTATileSize(1));
    if (transposed)
      col = add(col, lane8);
    appendElements(
        loc, rewriter, operand.element,
        emitLdmatrix(loc, rewriter, operand, count, !transposed, row, col),
        elements);
  }
  return elements;
}

SmallVector<Value> mlir::tilec::loadOperand(Location loc,
                                            RewriterBase &rewriter,
                                            const StagedOperand &operand) {
  tilegpu::DotOperandEncodingAttr layout = operand.layout;
  MmaThread thread = emitMmaThread(loc, rewriter, layout.getMmaParent());
  ArrayRef<int64_t> shape = operand.shape;
  int64_t repK = layout.getRepetitions(shape)[layout.getOpIdx() == 0 ? 1 : 0];
  SmallVector<Value> results(tilegpu::getTotalElemsPerThread(layout, shape));
  for (int64_t k = 0; k < repK; ++k) {
    SmallVector<Value> step =
        loadOperandStep(loc, rewriter, operand, thread, k);
    for (auto [position, element] :
         llvm::zip_equal(getStepPositions(layout, shape, k), step))
      results[position] = element;
  }
  return results;
}

SmallVector<int64_t>
mlir::tilec::getStepPositions(tilegpu::DotOperandEncodingAttr layout,
                              ArrayRef<int64_t> shape, int64_t k) {
  // The layout orders registers by M (a) or N (b) repetition, then K step,
  // then the step's 4 * kWidth (a) or 2 * kWidth (b) elements.
  SmallVector<int64_t> reps = layout.getRepetitions(shape);
  bool isA = layout.getOpIdx() == 0;
  int64_t repK = reps[isA ? 1 : 0], repOther = reps[isA ? 0 : 1];
  int64_t perStep = (isA ? 4 : 2) * layout.getKWidth();
  SmallVector<int64_t> positions;
  for (int64_t r = 0; r < repOther; ++r)
    for (int64_t i = 0; i < perStep; ++i)
      positions.push_back((r * repK + k) * perStep + i);
  return positions;
}

SmallVector<Value> mlir::tilec::packRegisters(Location loc,
                                              RewriterBase &rewriter,
                                              ArrayRef<Value> elements,
                                              size_t first, unsigned count,
                                              unsigned perRegister) {
  Type i32 = rewriter.getI32Type();
  SmallVector<Value> registers;
  for (unsigned r = 0; r < count; ++r) {
    if (perRegister == 1) {
      registers.push_back(
          LLVM::BitcastOp::create(rewriter, loc, i32, elements[first + r]));
      continue;
    }
    auto vectorType = VectorType::get(perRegister, elements.front().getType());
    Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
    for (unsigned j = 0; j < perRegister; ++j)
      vector = LLVM::InsertElementOp::create(
          rewriter, loc, vector, elements[first + perRegister * r + j],
          i32Constant(loc, rewriter, j));
    registers.push_back(LLVM::BitcastOp::create(rewriter, loc, i32, vector));
  }
  return registers;
}

namespace {

/// convert_layout into a 16-bit dot operand layout: stage, barrier, and
/// every K step's registers, reordered into the layout's register order.
struct ConvertToDotOperand : OpConversionPattern<tilegpu::ConvertLayoutOp> {
  ConvertToDotOperand(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, kTilePatternBenefit + 1) {}

  LogicalResult
  matchAndRewrite(tilegpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType srcType = op.getSrc().getType(), dstType = op.getType();
    auto dot = dyn_cast<tilegpu::DotOperandEncodingAttr>(dstType.getEncoding());
    Type element = getTypeConverter()->convertType(dstType.getElementType());
    if (!dot || srcType == dstType || !element.isIntOrFloat() ||
        element.getIntOrFloatBitWidth() != 16 || dot.getKWidth() != 2 ||
        !tilegpu::isDistributedLayout(srcType.getEncoding()))
      return failure();
    Location loc = op.getLoc();
    Value base = getScratchBase(loc, rewriter, op);
    if (!base)
      return failure();
    StagedOperand operand = stageOperand(loc, rewriter, op.getSrc(),
                                         adaptor.getSrc(), base, dot, element);
    emitBarrier(loc, rewriter);
    rewriter.replaceOp(
        op, packElements(loc, loadOperand(loc, rewriter, operand),
                         getTypeConverter()->convertType(dstType), rewriter));
    return success();
  }
};

/// local_load of a slot into a 16-bit dot operand layout: every K step's
/// registers with ldmatrix (the slot was written with the same swizzle).
/// When only tensor-core dots use it, they read the slot one K step at a
/// time (MmaDotOpToLLVM.cpp) and the local_load emits nothing.
struct LocalLoadOpConversion : OpConversionPattern<tilegpu::LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type converted = getTypeConverter()->convertType(type);
    // Tensor-core dots read their slots themselves, step by step.
    if (llvm::all_of(op->getUsers(),
                     [](Operation *user) { return isa<tile::DotOp>(user); })) {
      rewriter.replaceOpWithNewOp<LLVM::PoisonOp>(op, converted);
      return success();
    }
    tilegpu::MemDescType buffer = op.getBuffer().getType();
    Type element = getTypeConverter()->convertType(type.getElementType());
    StagedOperand operand{
        getSlotAddress(loc, rewriter, adaptor.getBuffer(), adaptor.getSlot(),
                       buffer, element),
        cast<tilegpu::SwizzledSharedEncodingAttr>(buffer.getEncoding()),
        cast<tilegpu::DotOperandEncodingAttr>(type.getEncoding()),
        SmallVector<int64_t>(type.getShape()), element};
    rewriter.replaceOp(op,
                       packElements(loc, loadOperand(loc, rewriter, operand),
                                    converted, rewriter));
    return success();
  }
};

/// local_store: the tile into its slot, swizzled as the slot's encoding
/// says (storeSwizzled); no barrier.
struct LocalStoreOpConversion : OpConversionPattern<tilegpu::LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tilegpu::MemDescType buffer = op.getBuffer().getType();
    Type element = getTypeConverter()->convertType(buffer.getElementType());
    Value slot = getSlotAddress(loc, rewriter, adaptor.getBuffer(),
                                adaptor.getSlot(), buffer, element);
    storeSwizzled(loc, rewriter, op.getValue(), adaptor.getValue(), slot,
                  cast<tilegpu::SwizzledSharedEncodingAttr>(buffer.getEncoding()),
                  element);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tilec::populateLoadMatrixToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConvertToDotOperand>(converter, patterns.getContext());
  patterns.add<LocalLoadOpConversion, LocalStoreOpConversion>(
      converter, patterns.getContext(), kTilePatternBenefit);
}
