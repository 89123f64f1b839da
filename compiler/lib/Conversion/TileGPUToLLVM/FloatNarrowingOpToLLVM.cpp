//===- FloatNarrowingOpToLLVM.cpp - Float ops InstCombine narrows wrongly -===//
//
// LLVM 22's InstCombine rewrites fptrunc(op(fpext a, fpext b)) into `op` on
// the narrowest type that holds both operands, and takes f16 and bf16 for
// interchangeable although neither holds the other:
//  - fptrunc(frem(fpext bf16 a, fpext f16 b)) to bf16 becomes an f16 frem of
//    a truncated a whose result is bitcast to bf16 (bf16 -28.375 % fp16 2.0
//    was stored as 1.9e-6, not -0.375); frem of two fpext f16 under an
//    fptrunc to bf16 is bitcast the same way;
//  - fptrunc(fadd(fpext bf16 a, fpext f16 b)) to f16 adds in f16 an `a` that
//    f16 may not hold (70000 becomes infinity).
// The other narrowings check that the destination holds the operands, which
// is true among f16, f32 and f64 and for bf16 operands into bf16. So:
//  - arith.extf from bf16 widens as bits (extendFloat), which InstCombine
//    cannot trace back to a bf16 (on the GPU it is the same shift that
//    cvt.f32.bf16 is);
//  - arith.remf is computed here as the NVPTX backend computes frem, in f32
//    for f16, bf16 and f32 (f64 in f64): fma(-trunc(a / b), b, a), or a when
//    b is infinite (div.rn, cvt.rzi, fma.rn; the interpreter's `%`), so that
//    no frem reaches InstCombine.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// Scalar arith.extf from bf16.
struct ExtFFromBF16Conversion : OpConversionPattern<arith::ExtFOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::ExtFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getIn().getType().isBF16())
      return failure();
    rewriter.replaceOp(op, extendFloat(op.getLoc(), rewriter, adaptor.getIn(),
                                       op.getType()));
    return success();
  }
};

/// Scalar arith.remf.
struct RemFConversion : OpConversionPattern<arith::RemFOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::RemFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type)
      return failure();
    Location loc = op.getLoc();
    FloatType wide = type.isF64() ? type : rewriter.getF32Type();
    Value a = extendFloat(loc, rewriter, adaptor.getLhs(), wide);
    Value b = extendFloat(loc, rewriter, adaptor.getRhs(), wide);
    Value quotient = LLVM::FTruncOp::create(rewriter, loc,
                                           LLVM::FDivOp::create(rewriter, loc, a, b));
    Value rest = LLVM::FMAOp::create(
        rewriter, loc, LLVM::FNegOp::create(rewriter, loc, quotient), b, a);
    Value infinity = LLVM::ConstantOp::create(
        rewriter, loc, wide,
        rewriter.getFloatAttr(wide, std::numeric_limits<double>::infinity()));
    Value infinite = LLVM::FCmpOp::create(rewriter, loc, LLVM::FCmpPredicate::oeq,
                                          LLVM::FAbsOp::create(rewriter, loc, b),
                                          infinity);
    Value result = LLVM::SelectOp::create(rewriter, loc, infinite, a, rest);
    if (wide != type)
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tilec::populateFloatNarrowingOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExtFFromBF16Conversion, RemFConversion>(
      converter, patterns.getContext(), kTilePatternBenefit);
}
