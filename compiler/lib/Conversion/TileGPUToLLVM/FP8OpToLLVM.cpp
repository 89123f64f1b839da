//===- FP8OpToLLVM.cpp - fp8 constants and conversions --------------------===//
//
// LLVM has no fp8 type: fp8 elements are i8 bytes (the type converter), and
// what tile-legalize-fp8 leaves touching them is lowered here:
//  - constants become their bytes;
//  - arith.extf from fp8 to f16 is `cvt.rn.f16x2.{e4m3x2,e5m2x2}` on the
//    byte (exact; to f32 the f16 is widened);
//  - arith.truncf from f16/bf16/f32 to fp8 is
//    `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32` (round to nearest even, values
//    past the largest finite one saturate to it, NaN stays NaN), as Triton
//    converts; from f64 through an f32 rounded to odd, so that the result is
//    the fp8 nearest to the f64. Both need sm_89+, which tile-legalize-fp8
//    checked;
//  - sitofp/uitofp to fp8 and fptosi/fptoui from fp8, which canonicalization
//    makes of `.to()`'s two steps, go through f32.
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

/// The f16 value of the fp8 byte `byte` of format `format` (exact).
Value emitFP8ToF16(Location loc, ConversionPatternRewriter &rewriter, Value byte,
                   StringRef format) {
  Value pair = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI16Type(), byte);
  std::string text = ".reg .b32 pair;\n.reg .b16 high;\ncvt.rn.f16x2." + format.str() +
                     " pair, $1;\nmov.b32 {$0, high}, pair;\n";
  Value bits = emitAsm(loc, rewriter, rewriter.getI16Type(), pair, text, {"=h", "h"},
                       /*hasSideEffects=*/false)
                   ->getResult(0);
  return LLVM::BitcastOp::create(rewriter, loc, rewriter.getF16Type(), bits);
}

/// The fp8 byte of format `format` nearest to the f32 `x` (satfinite).
Value emitF32ToFP8(Location loc, ConversionPatternRewriter &rewriter, Value x,
                   StringRef format) {
  std::string text = "cvt.rn.satfinite." + format.str() + ".f32 $0, $1, $1;\n";
  Value pair = emitAsm(loc, rewriter, rewriter.getI16Type(), x, text, {"=h", "f"},
                       /*hasSideEffects=*/false)
                   ->getResult(0);
  return LLVM::TruncOp::create(rewriter, loc, rewriter.getI8Type(), pair);
}

/// The f64 `x` as an f32 rounded to odd (toward zero, the last bit set when
/// inexact): rounding that to fp8 to nearest even gives the fp8 nearest to
/// `x`, which going through an f32 rounded to nearest would not always.
Value emitF64ToF32RoundToOdd(Location loc, ConversionPatternRewriter &rewriter, Value x) {
  Type f32 = rewriter.getF32Type(), i32 = rewriter.getI32Type();
  Value truncated = emitAsm(loc, rewriter, f32, x, "cvt.rz.f32.f64 $0, $1;\n", {"=f", "d"},
                            /*hasSideEffects=*/false)
                        ->getResult(0);
  Value back = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF64Type(), truncated);
  Value inexact = LLVM::FCmpOp::create(rewriter, loc, LLVM::FCmpPredicate::une, back, x);
  Value bits = LLVM::BitcastOp::create(rewriter, loc, i32, truncated);
  Value odd = LLVM::OrOp::create(rewriter, loc, bits,
                                 LLVM::ZExtOp::create(rewriter, loc, i32, inexact));
  return LLVM::BitcastOp::create(rewriter, loc, f32, odd);
}

/// A float `x` (f16, bf16, f32, f64) as the f32 to round to fp8.
Value emitToF32ForFP8(Location loc, ConversionPatternRewriter &rewriter, Value x) {
  Type type = x.getType(), f32 = rewriter.getF32Type();
  if (type == f32)
    return x;
  if (type.isF64())
    return emitF64ToF32RoundToOdd(loc, rewriter, x);
  return extendFloat(loc, rewriter, x, f32); // f16, bf16: exact.
}

/// The f32 value of the fp8 byte `byte` (exact).
Value emitFP8ToF32(Location loc, ConversionPatternRewriter &rewriter, Value byte,
                   StringRef format) {
  return LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(),
                               emitFP8ToF16(loc, rewriter, byte, format));
}

/// The patterns below: ahead of the tile-wide elementwise lowering, which
/// would take fp8 elements for plain bytes.
template <typename OpT> struct FP8Pattern : OpConversionPattern<OpT> {
  FP8Pattern(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<OpT>(converter, context, kTilePatternBenefit + 1) {}
};

/// arith.extf from fp8 (to f16, bf16, f32 or f64: exact).
struct ExtFFromFP8Conversion : FP8Pattern<arith::ExtFOp> {
  using FP8Pattern::FP8Pattern;

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
      if (to.isF16())
        return emitFP8ToF16(loc, rewriter, byte, format);
      Value single = emitFP8ToF32(loc, rewriter, byte, format);
      if (to.isF32())
        return single;
      if (to.isBF16()) // Exact: bf16 holds every fp8 value.
        return LLVM::FPTruncOp::create(rewriter, loc, to, single);
      return LLVM::FPExtOp::create(rewriter, loc, to, single);
    });
  }
};

/// arith.truncf to fp8 (from f16, bf16, f32 or f64).
struct TruncFToFP8Conversion : FP8Pattern<arith::TruncFOp> {
  using FP8Pattern::FP8Pattern;

  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef format = getPairFormat(op.getType());
    if (format.empty())
      return failure();
    if (op.getRoundingmode() && *op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return op.emitOpError("fp8 conversions round to nearest even only");
    Location loc = op.getLoc();
    return replaceEachElement(op, adaptor.getIn(), *getTypeConverter(), rewriter,
                              [&](Value x) -> Value {
      return emitF32ToFP8(loc, rewriter, emitToF32ForFP8(loc, rewriter, x), format);
    });
  }
};

/// arith.sitofp / uitofp to fp8 (canonicalization folds `.to()`'s integer
/// -> f32 -> fp8 into one): the integer to f32 (exact below 2^24, and a
/// larger value saturates either way), then to fp8.
template <typename OpT, bool Signed>
struct IntToFP8Conversion : FP8Pattern<OpT> {
  using FP8Pattern<OpT>::FP8Pattern;

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef format = getPairFormat(op.getType());
    if (format.empty())
      return failure();
    Location loc = op.getLoc();
    return replaceEachElement(op, adaptor.getIn(), *this->getTypeConverter(), rewriter,
                              [&](Value x) -> Value {
      Type f32 = rewriter.getF32Type();
      Value single = Signed ? Value(LLVM::SIToFPOp::create(rewriter, loc, f32, x))
                            : Value(LLVM::UIToFPOp::create(rewriter, loc, f32, x));
      return emitF32ToFP8(loc, rewriter, single, format);
    });
  }
};

/// arith.fptosi / fptoui from fp8 (canonicalization folds fp8 -> f32 ->
/// integer into one): the fp8 value in f32 (exact), then the ordinary
/// conversion, which the scalar patterns lower.
template <typename OpT>
struct FP8ToIntConversion : FP8Pattern<OpT> {
  using FP8Pattern<OpT>::FP8Pattern;

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef format = getPairFormat(op.getIn().getType());
    if (format.empty())
      return failure();
    Location loc = op.getLoc();
    Type to = getElementTypeOrSelf(op.getType());
    return replaceEachElement(op, adaptor.getIn(), *this->getTypeConverter(), rewriter,
                              [&](Value byte) -> Value {
      return OpT::create(rewriter, loc, to, emitFP8ToF32(loc, rewriter, byte, format));
    });
  }
};

/// Scalar fp8 constants: their bytes.
struct FP8ConstantOpConversion : FP8Pattern<arith::ConstantOp> {
  using FP8Pattern::FP8Pattern;

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
  patterns.add<ExtFFromFP8Conversion, TruncFToFP8Conversion, FP8ConstantOpConversion,
               IntToFP8Conversion<arith::SIToFPOp, true>,
               IntToFP8Conversion<arith::UIToFPOp, false>,
               FP8ToIntConversion<arith::FPToSIOp>, FP8ToIntConversion<arith::FPToUIOp>>(
      converter, patterns.getContext());
}
