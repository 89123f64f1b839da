//===- FP8OpToLLVM.cpp - fp8 constants and conversions --------------------===//
//
// LLVM has no fp8 type: fp8 elements are i8 bytes (the type converter), and
// what tile-legalize-fp8 leaves touching them is lowered here:
//  - constants become their bytes;
//  - arith.extf from fp8 to f16 is `cvt.rn.f16x2.{e4m3x2,e5m2x2}` on the
//    byte (exact; to f32 the f16 is widened);
//  - arith.truncf from f16/f32 to fp8 is
//    `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32` (round to nearest even, values
//    past the largest finite one saturate to it, NaN stays NaN), as Triton
//    converts. Both need sm_89+, which tile-legalize-fp8 checked.
// Tiles and scalars alike: a tile's elements are converted one at a time.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// The PTX name of an fp8 element type's pair format, or "" for other types.
StringRef getPairFormat(Type type) {
  type = getElementTypeOrSelf(type);
  if (isa<Float8E4M3FNType>(type))
    return "e4m3x2";
  if (isa<Float8E5M2Type>(type))
    return "e5m2x2";
  return "";
}

/// Applies `convert` to each element of `op`'s converted operand and packs
/// the results as `op`'s converted result.
template <typename OpT>
LogicalResult replaceEachElement(OpT op, Value operand, const TypeConverter &converter,
                                 ConversionPatternRewriter &rewriter,
                                 llvm::function_ref<Value(Value)> convert) {
  Type resultType = converter.convertType(op.getType());
  if (!resultType)
    return rewriter.notifyMatchFailure(op, "result type not convertible");
  SmallVector<Value> results;
  for (Value element : unpackElements(op.getLoc(), operand, rewriter))
    results.push_back(convert(element));
  rewriter.replaceOp(op, packElements(op.getLoc(), results, resultType, rewriter));
  return success();
}

/// arith.extf from fp8.
struct ExtFFromFP8Conversion : OpConversionPattern<arith::ExtFOp> {
  ExtFFromFP8Conversion(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, kTilePatternBenefit + 1) {}

  LogicalResult
  matchAndRewrite(arith::ExtFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef format = getPairFormat(op.getIn().getType());
    if (format.empty())
      return failure();
    Location loc = op.getLoc();
    Type to = getElementTypeOrSelf(op.getType());
    return replaceEachElement(op, adaptor.getIn(), *getTypeConverter(), rewriter,
                              [&](Value byte) -> Value {
      Value pair = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI16Type(), byte);
      std::string text = ".reg .b32 pair;\n.reg .b16 high;\ncvt.rn.f16x2." +
                         format.str() + " pair, $1;\nmov.b32 {$0, high}, pair;\n";
      Value bits = emitAsm(loc, rewriter, rewriter.getI16Type(), pair, text,
                           {"=h", "h"}, /*hasSideEffects=*/false)
                       ->getResult(0);
      Value half = LLVM::BitcastOp::create(rewriter, loc, rewriter.getF16Type(), bits);
      return to.isF16() ? half : LLVM::FPExtOp::create(rewriter, loc, to, half);
    });
  }
};

/// arith.truncf to fp8.
struct TruncFToFP8Conversion : OpConversionPattern<arith::TruncFOp> {
  TruncFToFP8Conversion(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, kTilePatternBenefit + 1) {}

  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef format = getPairFormat(op.getType());
    if (format.empty())
      return failure();
    if (op.getRoundingmode())
      return op.emitOpError("fp8 conversions round to nearest even only");
    Location loc = op.getLoc();
    return replaceEachElement(op, adaptor.getIn(), *getTypeConverter(), rewriter,
                              [&](Value x) -> Value {
      Type f32 = rewriter.getF32Type();
      if (x.getType() != f32)
        x = LLVM::FPExtOp::create(rewriter, loc, f32, x); // f16: exact.
      std::string text = "cvt.rn.satfinite." + format.str() + ".f32 $0, $1, $1;\n";
      Value pair = emitAsm(loc, rewriter, rewriter.getI16Type(), x, text, {"=h", "f"},
                           /*hasSideEffects=*/false)
                       ->getResult(0);
      return LLVM::TruncOp::create(rewriter, loc, rewriter.getI8Type(), pair);
    });
  }
};

/// Scalar fp8 constants: their bytes.
struct FP8ConstantOpConversion : OpConversionPattern<arith::ConstantOp> {
  FP8ConstantOpConversion(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, kTilePatternBenefit + 1) {}

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<FloatAttr>(op.getValue());
    if (!value || getPairFormat(value.getType()).empty())
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(
        op, rewriter.getI8Type(),
        rewriter.getIntegerAttr(rewriter.getI8Type(),
                                value.getValue().bitcastToAPInt().getZExtValue()));
    return success();
  }
};

} // namespace

void mlir::tilec::populateFP8OpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<ExtFFromFP8Conversion, TruncFToFP8Conversion, FP8ConstantOpConversion>(
      converter, patterns.getContext());
}
