//===- ConvertLayoutOpToLLVM.cpp - Data movement through shared memory ----===//
//
// convert_layout, trans and reshape: ops after which a thread may need
// elements another thread holds. Each goes through the op's shared-memory
// scratch buffer: every thread stores its elements at their row-major
// position in the result's index space, a barrier, then every thread loads
// the elements the result's layout gives it, both in vectors of up to 16
// bytes where a thread's registers are consecutive slots. The buffer holds
// one slot per element (getScratchBytes: elements * element bytes; i1 kept
// as i8). Where one side walks down the result's columns (a transpose), the
// positions are XOR-swizzled within rows (ScratchSwizzle) so that lanes
// storing one column hit different banks.
// Replicated elements are stored by each replica, with the same value.
// An MMA accumulator (every warp along M) converted into the a operand of a
// product with the same layout moves nothing (tilegpu::isRegisterConversion).
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// Maps an element's index in the source to its row-major position in the
/// result (an i32).
using PositionFn =
    function_ref<Value(Location, RewriterBase &, ArrayRef<Value>)>;

/// Largest number of elements a thread can move to or from scratch in one
/// aligned vector access (up to 16 bytes), for a tile of `shape` in `layout`
/// whose dimension `unitDim` has stride 1 in the scratch positions: the
/// thread's registers must run along that dimension (it is the layout's
/// fastest), and a run of `contig` registers then covers `contig`
/// consecutive slots starting at a multiple of `contig` (a block starts at a
/// multiple of sizePerThread, every other dimension's stride is a multiple
/// of the dimension's size, and a wrapped block covers the dimension from
/// 0).
unsigned getScratchVectorWidth(Attribute layout, ArrayRef<int64_t> shape,
                               unsigned unitDim, Type slotType) {
  if (!slotType.isIntOrFloat() ||
      tilegpu::getLayoutOrder(layout).front() != unitDim)
    return 1;
  int64_t contig = tilegpu::getContigPerThread(layout, shape)[unitDim];
  int64_t bytes = std::max(1u, slotType.getIntOrFloatBitWidth() / 8);
  unsigned vec = 1;
  while (vec * 2 <= contig && vec * 2 * bytes <= 16)
    vec *= 2;
  return vec;
}

/// An XOR swizzle of the scratch's row-major positions, so that the lanes of
/// a warp that store one column of the result (a transpose, a conversion
/// between layouts of different orders) hit different banks: within each
/// row of `cols` elements, the runs of `unit` elements are permuted by
/// XOR-ing their index with (row / rowStep) mod slots. Runs stay whole, so
/// vector stores and loads of up to `unit` elements stay vectors; stores
/// and loads apply the same swizzle.
struct ScratchSwizzle {
  int64_t cols = 1, unit = 1, slots = 1, rowStep = 1;

  /// The swizzle for a result of `shape` read in runs of `loadVec` and
  /// written in runs of `storeVec` along its last dimension, by threads
  /// that each write `rowStep` consecutive rows; none (slots 1) when rows
  /// are not whole numbers of a power of two of runs.
  static ScratchSwizzle get(ArrayRef<int64_t> shape, unsigned loadVec,
                            unsigned storeVec, int64_t rowStep) {
    ScratchSwizzle swizzle;
    if (shape.size() < 2)
      return swizzle;
    swizzle.cols = shape.back();
    swizzle.unit = std::max(loadVec, storeVec);
    swizzle.rowStep = std::max<int64_t>(1, rowStep);
    if (swizzle.cols % swizzle.unit == 0 &&
        llvm::isPowerOf2_64(swizzle.cols / swizzle.unit))
      swizzle.slots = swizzle.cols / swizzle.unit;
    return swizzle;
  }

  /// The swizzled position of row-major position `position` (i32).
  Value apply(Location loc, RewriterBase &rewriter, Value position) const {
    if (slots < 2)
      return position;
    auto constant = [&](int64_t v) { return i32Constant(loc, rewriter, v); };
    Value row = LLVM::UDivOp::create(rewriter, loc, position, constant(cols));
    Value col = LLVM::URemOp::create(rewriter, loc, position, constant(cols));
    Value run = LLVM::UDivOp::create(rewriter, loc, col, constant(unit));
    Value phase = LLVM::URemOp::create(
        rewriter, loc,
        LLVM::UDivOp::create(rewriter, loc, row, constant(rowStep)),
        constant(slots));
    Value swizzled = LLVM::AddOp::create(
        rewriter, loc,
        LLVM::MulOp::create(rewriter, loc,
                            LLVM::XOrOp::create(rewriter, loc, run, phase),
                            constant(unit)),
        LLVM::URemOp::create(rewriter, loc, col, constant(unit)));
    return LLVM::AddOp::create(
        rewriter, loc, LLVM::MulOp::create(rewriter, loc, row, constant(cols)),
        swizzled);
  }
};

/// Moves the elements of `src` (converted operand `packedSrc`) into the
/// layout of `dstType`; `positionOf` says where each source element goes,
/// source dimension `srcUnitDim` has stride 1 in those positions, and
/// source dimension `srcRowDim` (when given) becomes the result's
/// second-to-last dimension. Returns the packed result, or null after
/// reporting an error at `op`.
Value moveThroughScratch(Operation *op, Value src, Value packedSrc,
                         RankedTensorType dstType, PositionFn positionOf,
                         unsigned srcUnitDim, std::optional<unsigned> srcRowDim,
                         const TypeConverter &converter,
                         ConversionPatternRewriter &rewriter) {
  auto srcType = cast<RankedTensorType>(src.getType());
  if (!tilegpu::isDistributedLayout(srcType.getEncoding()) ||
      !tilegpu::isDistributedLayout(dstType.getEncoding())) {
    op->emitOpError("cannot move data between these layouts: ")
        << srcType << " -> " << dstType;
    return {};
  }
  Location loc = op->getLoc();
  Value base = getScratchBase(loc, rewriter, op);
  if (!base)
    return {};
  Type element = converter.convertType(srcType.getElementType());
  bool isBool = element.isInteger(1);
  Type slotType = isBool ? rewriter.getI8Type() : element;
  auto slotAddress = [&](Value position) -> Value {
    return LLVM::GEPOp::create(rewriter, loc, base.getType(), slotType, base,
                               position);
  };
  int64_t slotBytes = slotType.isIntOrFloat()
                          ? std::max(1u, slotType.getIntOrFloatBitWidth() / 8)
                          : 8;
  auto vectorType = [&](unsigned vec) -> Type {
    return vec == 1 ? slotType : VectorType::get(vec, slotType);
  };

  // Stores, `storeVec` consecutive registers at a time.
  SmallVector<Value> srcElements = unpackElements(loc, packedSrc, rewriter);
  SmallVector<SmallVector<Value>> srcIndices =
      emitIndices(loc, rewriter, srcType.getEncoding(), srcType.getShape());
  unsigned storeVec = getScratchVectorWidth(
      srcType.getEncoding(), srcType.getShape(), srcUnitDim, slotType);
  unsigned loadVec =
      getScratchVectorWidth(dstType.getEncoding(), dstType.getShape(),
                            dstType.getRank() - 1, slotType);
  // Swizzle only where one side walks down the result's columns: stores
  // whose source runs do not follow the result's rows (a transpose), or
  // loads whose result layout is not row-major. A thread's run along the
  // rows on that side keeps its neighbours' phases apart.
  int64_t rowStep = 0;
  unsigned dstRank = dstType.getRank();
  if (srcRowDim &&
      tilegpu::getLayoutOrder(srcType.getEncoding()).front() != srcUnitDim)
    rowStep = tilegpu::getContigPerThread(srcType.getEncoding(),
                                          srcType.getShape())[*srcRowDim];
  else if (dstRank >= 2 &&
           tilegpu::getLayoutOrder(dstType.getEncoding()).front() !=
               dstRank - 1)
    rowStep = tilegpu::getContigPerThread(dstType.getEncoding(),
                                          dstType.getShape())[dstRank - 2];
  ScratchSwizzle swizzle;
  if (rowStep > 0)
    swizzle =
        ScratchSwizzle::get(dstType.getShape(), loadVec, storeVec, rowStep);
  for (size_t first = 0; first < srcElements.size(); first += storeVec) {
    Value stored;
    if (storeVec > 1)
      stored = LLVM::UndefOp::create(rewriter, loc, vectorType(storeVec));
    for (unsigned i = 0; i < storeVec; ++i) {
      Value value = srcElements[first + i];
      if (isBool)
        value = LLVM::ZExtOp::create(rewriter, loc, slotType, value);
      stored =
          storeVec == 1
              ? value
              : LLVM::InsertElementOp::create(rewriter, loc, stored, value,
                                              i32Constant(loc, rewriter, i));
    }
    Value position = swizzle.apply(
        loc, rewriter, positionOf(loc, rewriter, srcIndices[first]));
    LLVM::StoreOp::create(rewriter, loc, stored, slotAddress(position),
                          storeVec * slotBytes);
  }
  emitBarrier(loc, rewriter);

  // Loads, `loadVec` consecutive registers at a time.
  SmallVector<SmallVector<Value>> dstIndices =
      emitIndices(loc, rewriter, dstType.getEncoding(), dstType.getShape());
  SmallVector<Value> results;
  for (size_t first = 0; first < dstIndices.size(); first += loadVec) {
    Value position = swizzle.apply(
        loc, rewriter,
        emitLinearIndex(loc, rewriter, dstIndices[first], dstType.getShape()));
    Value loaded =
        LLVM::LoadOp::create(rewriter, loc, vectorType(loadVec),
                             slotAddress(position), loadVec * slotBytes);
    for (unsigned i = 0; i < loadVec; ++i) {
      Value value =
          loadVec == 1
              ? loaded
              : LLVM::ExtractElementOp::create(rewriter, loc, loaded,
                                               i32Constant(loc, rewriter, i));
      if (isBool)
        value = LLVM::TruncOp::create(rewriter, loc, element, value);
      results.push_back(value);
    }
  }
  return packElements(loc, results, converter.convertType(dstType), rewriter);
}

/// The row-major position in the result of the source element at `index`.
template <typename OpTy>
using PositionOfFn = Value (*)(OpTy op, Location loc, RewriterBase &rewriter,
                               ArrayRef<Value> index);

/// The source dimension whose index has stride 1 in the scratch positions.
unsigned getSourceUnitDim(tilegpu::ConvertLayoutOp op) {
  return op.getType().getRank() - 1;
}
unsigned getSourceUnitDim(tile::TransOp op) { return op.getOrder().back(); }
unsigned getSourceUnitDim(tile::ReshapeOp op) {
  return op.getSrc().getType().getRank() - 1;
}

/// The source dimension that becomes the result's second-to-last one
/// (none for a reshape, which regroups dimensions).
std::optional<unsigned> getSourceRowDim(tilegpu::ConvertLayoutOp op) {
  if (op.getType().getRank() < 2)
    return std::nullopt;
  return op.getType().getRank() - 2;
}
std::optional<unsigned> getSourceRowDim(tile::TransOp op) {
  ArrayRef<int32_t> order = op.getOrder();
  if (order.size() < 2)
    return std::nullopt;
  return order[order.size() - 2];
}
std::optional<unsigned> getSourceRowDim(tile::ReshapeOp) {
  return std::nullopt;
}

/// convert_layout: every element keeps its index.
Value convertPosition(tilegpu::ConvertLayoutOp op, Location loc,
                      RewriterBase &rewriter, ArrayRef<Value> index) {
  return emitLinearIndex(loc, rewriter, index, op.getType().getShape());
}

/// trans: result dimension k is source dimension order[k].
Value transPosition(tile::TransOp op, Location loc, RewriterBase &rewriter,
                    ArrayRef<Value> index) {
  SmallVector<Value> permuted;
  for (int32_t dim : op.getOrder())
    permuted.push_back(index[dim]);
  return emitLinearIndex(loc, rewriter, permuted, op.getType().getShape());
}

/// reshape: row-major element order is preserved, so an element's position
/// in the result is its row-major position in the source.
Value reshapePosition(tile::ReshapeOp op, Location loc, RewriterBase &rewriter,
                      ArrayRef<Value> index) {
  return emitLinearIndex(loc, rewriter, index,
                         op.getSrc().getType().getShape());
}

/// One op whose elements move through its scratch buffer to the positions
/// `positionOf` gives.
template <typename OpTy>
struct ThroughScratchConversion : OpConversionPattern<OpTy> {
  ThroughScratchConversion(TypeConverter &converter, MLIRContext *context,
                           PositionOfFn<OpTy> positionOf)
      : OpConversionPattern<OpTy>(converter, context, kTilePatternBenefit),
        positionOf(positionOf) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A conversion to the same layout moves nothing.
    if (isa<tilegpu::ConvertLayoutOp>(op.getOperation()) &&
        op.getSrc().getType() == op.getType()) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    auto position = [&](Location loc, RewriterBase &rewriter,
                        ArrayRef<Value> index) {
      return positionOf(op, loc, rewriter, index);
    };
    Value result =
        moveThroughScratch(op, op.getSrc(), adaptor.getSrc(), op.getType(),
                           position, getSourceUnitDim(op), getSourceRowDim(op),
                           *this->getTypeConverter(), rewriter);
    if (!result)
      return failure();
    rewriter.replaceOp(op, result);
    return success();
  }

  PositionOfFn<OpTy> positionOf;
};

} // namespace

namespace {

/// convert_layout that moves nothing (tilegpu::isRegisterConversion): the
/// converted struct passes through.
struct RegisterConversion : OpConversionPattern<tilegpu::ConvertLayoutOp> {
  RegisterConversion(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, kTilePatternBenefit + 2) {}

  LogicalResult
  matchAndRewrite(tilegpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!tilegpu::isRegisterConversion(op.getSrc().getType(), op.getType()))
      return failure();
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

} // namespace

void mlir::tilec::populateConvertLayoutOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<RegisterConversion>(converter, context);
  patterns.add<ThroughScratchConversion<tilegpu::ConvertLayoutOp>>(
      converter, context, convertPosition);
  patterns.add<ThroughScratchConversion<tile::TransOp>>(converter, context,
                                                        transPosition);
  patterns.add<ThroughScratchConversion<tile::ReshapeOp>>(converter, context,
                                                          reshapePosition);
}
