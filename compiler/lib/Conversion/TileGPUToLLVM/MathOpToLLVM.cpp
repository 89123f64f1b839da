//===- MathOpToLLVM.cpp - Scalar math through PTX's fast units ------------===//
//
// exp and exp2 on f32 use the special function unit (ex2.approx), as Triton
// does; f16/bf16 are computed in f32. f32 division is div.full (at most 2 ulp
// off), Triton's choice for `/`. What is not handled here falls to the
// upstream arith- and math-to-LLVM patterns.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"


using namespace mlir;
using namespace mlir::tilec;

namespace {

/// exp(x) = 2^(x * log2(e)) and exp2(x) through llvm.nvvm.ex2.approx.f32.
template <typename OpTy>
struct Exp2BasedOpConversion : OpConversionPattern<OpTy> {
  Exp2BasedOpConversion(TypeConverter &converter, MLIRContext *context,
                        double inputScale)
      : OpConversionPattern<OpTy>(converter, context, kTilePatternBenefit),
        inputScale(inputScale) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF16() && !type.isBF16())
      return failure();
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value x = adaptor.getOperand();
    if (!type.isF32())
      x = LLVM::FPExtOp::create(rewriter, loc, f32, x);
    if (inputScale != 1.0)
      x = LLVM::FMulOp::create(
          rewriter, loc, x,
          LLVM::ConstantOp::create(rewriter, loc, f32,
                                   rewriter.getF32FloatAttr(inputScale)));
    Value result = LLVM::CallIntrinsicOp::create(
                       rewriter, loc, f32,
                       rewriter.getStringAttr("llvm.nvvm.ex2.approx.f32"),
                       ValueRange{x})
                       .getResults();
    if (!type.isF32())
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  double inputScale;
};

/// f32 `a / b` through llvm.nvvm.div.full.
struct DivFOpConversion : OpConversionPattern<arith::DivFOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    rewriter.replaceOp(
        op, LLVM::CallIntrinsicOp::create(
                rewriter, op.getLoc(), op.getType(),
                rewriter.getStringAttr("llvm.nvvm.div.full"),
                ValueRange{adaptor.getLhs(), adaptor.getRhs()})
                .getResults());
    return success();
  }
};

} // namespace

void mlir::tilec::populateMathOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<Exp2BasedOpConversion<math::ExpOp>>(converter, context,
                                                   1.4426950408889634 /* log2(e) */);
  patterns.add<Exp2BasedOpConversion<math::Exp2Op>>(converter, context, 1.0);
  patterns.add<DivFOpConversion>(converter, context, kTilePatternBenefit);
}
