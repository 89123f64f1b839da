//===- ElementwiseOpToLLVM.cpp - Per-element lowering of tile ops ---------===//
//
// Ops whose every result element depends only on the same element of each
// operand: each thread applies the scalar op to each element it holds, once
// per run of elements that the axis-info analysis proves equal. Also the ops
// that create tiles (constants, make_range, splat) and addptr.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Transforms/DialectConversion.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// The elements of a converted operand, repeated `count` times when it is a
/// scalar used beside tiles (e.g. the condition of a select).
SmallVector<Value> elementsOf(Location loc, Value operand, size_t count,
                              RewriterBase &rewriter) {
  SmallVector<Value> elements = unpackElements(loc, operand, rewriter);
  if (elements.size() == 1 && count > 1)
    elements.assign(count, elements.front());
  return elements;
}

/// How many consecutive elements of a thread's struct hold the same value of
/// `result`: its constancy along the fastest dimension (the axis-info
/// analysis tracks integers, masks included), within a thread's run of
/// consecutive elements; 1 when nothing is known.
unsigned constantRun(Value result, const ModuleAxisInfo &axisInfo) {
  auto type = cast<RankedTensorType>(result.getType());
  Attribute layout = type.getEncoding();
  // Blocked layouts (and their slices) order a thread's registers with
  // order[0] fastest; tensor-core registers follow the instruction.
  if (!type.getElementType().isIntOrIndex() || !tilegpu::isDistributedLayout(layout) ||
      tilegpu::isTensorCoreLayout(layout))
    return 1;
  unsigned fastest = tilegpu::getLayoutOrder(layout).front();
  int64_t run = tilegpu::getContigPerThread(layout, type.getShape())[fastest];
  int64_t constancy = axisInfo.lookup(result).getConstancy(fastest);
  return constancy > 1 ? std::gcd(run, constancy) : 1;
}

/// Any arith or math op marked Elementwise, on tiles: the same op on the
/// scalars of each element, left for the scalar patterns to lower. Where the
/// result is constant over runs of a thread's elements (a mask `offs < n`
/// over 8 contiguous elements with n divisible by 16), only the first
/// element of each run is computed and the others reuse it, as the memory
/// lowering already reads such a mask once per vector.
struct ElementwiseOpConversion : ConversionPattern {
  ElementwiseOpConversion(TypeConverter &converter, MLIRContext *context,
                          const ModuleAxisInfo &axisInfo)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), kTilePatternBenefit,
                          context),
        axisInfo(axisInfo) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if ((dialect != "arith" && dialect != "math") ||
        !op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return failure();
    Type resultType = getTypeConverter()->convertType(op->getResult(0).getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result type not convertible");
    Location loc = op->getLoc();
    size_t count = cast<LLVM::LLVMStructType>(resultType).getBody().size();
    SmallVector<SmallVector<Value>> perOperand;
    for (Value operand : operands)
      perOperand.push_back(elementsOf(loc, operand, count, rewriter));
    // fp8 elements are bytes, which selects and bitcasts move as they are;
    // every other op on them has its own pattern (FP8OpToLLVM.cpp) or none,
    // never this byte-wise one.
    Type elementType = getElementTypeOrSelf(op->getResult(0).getType());
    if (auto fp = dyn_cast<FloatType>(elementType); fp && fp.getWidth() == 8) {
      if (!isa<arith::SelectOp, arith::BitcastOp>(op))
        return rewriter.notifyMatchFailure(op, "fp8 result");
      elementType = rewriter.getI8Type();
    }
    unsigned run = constantRun(op->getResult(0), axisInfo);
    SmallVector<Value> results;
    for (size_t i = 0; i < count; ++i) {
      if (i % run != 0) {
        results.push_back(results[i - i % run]);
        continue;
      }
      OperationState state(loc, op->getName());
      for (auto &elements : perOperand)
        state.addOperands(elements[i]);
      state.addTypes(elementType);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOp(op, packElements(loc, results, resultType, rewriter));
    return success();
  }

private:
  const ModuleAxisInfo &axisInfo;
};

/// A bitcast between two float types of one width (fp16 <-> bf16), through
/// an opaque `mov`: LLVM 22's InstCombine rewrites a float compare of such a
/// bitcast into an integer `and` on the other float type, which is invalid IR
/// that the NVPTX backend cannot select. The mov costs nothing after ptxas.
struct FloatBitcastOpConversion : OpConversionPattern<arith::BitcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = op.getIn().getType(), to = op.getType();
    if (!isa<FloatType>(from) || !isa<FloatType>(to) || from == to ||
        from.getIntOrFloatBitWidth() == 8) // fp8: bytes either way.
      return failure();
    Location loc = op.getLoc();
    unsigned width = from.getIntOrFloatBitWidth();
    Type bitsType = rewriter.getIntegerType(width);
    Value bits = LLVM::BitcastOp::create(rewriter, loc, bitsType, adaptor.getIn());
    std::string constraint = width == 16 ? "=h,h" : width == 32 ? "=r,r" : "=l,l";
    auto move = LLVM::InlineAsmOp::create(
        rewriter, loc, TypeRange(bitsType), ValueRange(bits),
        "mov.b" + std::to_string(width) + " $0, $1;", constraint,
        /*has_side_effects=*/false, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, to, move.getResult(0));
    return success();
  }
};

/// Splat constants: one scalar constant, held in every element.
struct ConstantOpConversion : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!splat)
      return op.emitOpError("only splat tile constants can be lowered");
    Type resultType = getTypeConverter()->convertType(type);
    auto value = cast<TypedAttr>(splat.getSplatValue<Attribute>());
    // An fp8 constant is its byte (LLVM has no fp8 type).
    if (auto fp = dyn_cast<FloatAttr>(value); fp && fp.getType().getIntOrFloatBitWidth() == 8)
      value = rewriter.getIntegerAttr(rewriter.getI8Type(),
                                      fp.getValue().bitcastToAPInt().getZExtValue());
    Value scalar = arith::ConstantOp::create(rewriter, op.getLoc(), value);
    size_t count = cast<LLVM::LLVMStructType>(resultType).getBody().size();
    SmallVector<Value> elements(count, scalar);
    rewriter.replaceOp(op, packElements(op.getLoc(), elements, resultType, rewriter));
    return success();
  }
};

struct MakeRangeOpConversion : OpConversionPattern<tile::MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::MakeRangeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    Attribute layout = type.getEncoding();
    if (!tilegpu::isDistributedLayout(layout))
      return op.emitOpError("has no layout");
    Location loc = op.getLoc();
    Value start = i32Constant(loc, rewriter, op.getStart());
    SmallVector<Value> elements;
    for (auto &index : emitIndices(loc, rewriter, layout, type.getShape()))
      elements.push_back(LLVM::AddOp::create(rewriter, loc, index[0], start));
    rewriter.replaceOp(op, packElements(loc, elements,
                                        getTypeConverter()->convertType(type),
                                        rewriter));
    return success();
  }
};

struct SplatOpConversion : OpConversionPattern<tile::SplatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return op.emitOpError("has no layout");
    size_t count = cast<LLVM::LLVMStructType>(resultType).getBody().size();
    SmallVector<Value> elements(count, adaptor.getSrc());
    rewriter.replaceOp(op, packElements(op.getLoc(), elements, resultType, rewriter));
    return success();
  }
};

struct AddPtrOpConversion : OpConversionPattern<tile::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    auto pointee = cast<tile::PointerType>(getElementTypeOrSelf(op.getType()))
                       .getPointeeType();
    Type elementType = getTypeConverter()->convertType(pointee);
    SmallVector<Value> ptrs = unpackElements(loc, adaptor.getPtr(), rewriter);
    SmallVector<Value> offsets = unpackElements(loc, adaptor.getOffset(), rewriter);
    SmallVector<Value> results;
    for (auto [ptr, offset] : llvm::zip(ptrs, offsets))
      results.push_back(LLVM::GEPOp::create(rewriter, loc, ptr.getType(),
                                            elementType, ptr, offset));
    rewriter.replaceOp(op, packElements(loc, results, resultType, rewriter));
    return success();
  }
};

/// tile.ptr_to_int / tile.int_to_ptr: llvm.ptrtoint / llvm.inttoptr per
/// element.
template <class TileOp, class LLVMOp>
struct PointerCastOpConversion : OpConversionPattern<TileOp> {
  using OpConversionPattern<TileOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TileOp op, typename TileOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    Type elementType = this->getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getType()));
    if (!resultType || !elementType)
      return op.emitOpError("has no layout");
    SmallVector<Value> results;
    for (Value element : unpackElements(loc, adaptor.getOperands()[0], rewriter))
      results.push_back(LLVMOp::create(rewriter, loc, elementType, element));
    rewriter.replaceOp(op, packElements(loc, results, resultType, rewriter));
    return success();
  }
};

} // namespace

void mlir::tilec::populateElementwiseOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const ModuleAxisInfo &axisInfo) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ElementwiseOpConversion>(converter, context, axisInfo);
  patterns.add<ConstantOpConversion, MakeRangeOpConversion, SplatOpConversion,
               AddPtrOpConversion, FloatBitcastOpConversion,
               PointerCastOpConversion<tile::PtrToIntOp, LLVM::PtrToIntOp>,
               PointerCastOpConversion<tile::IntToPtrOp, LLVM::IntToPtrOp>>(
      converter, context, kTilePatternBenefit);
}
