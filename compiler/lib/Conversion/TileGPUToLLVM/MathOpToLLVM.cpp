//===- MathOpToLLVM.cpp - Scalar math through PTX's fast units ------------===//
//
// exp and exp2 on f32 use the special function unit (ex2.approx.ftz), as Triton
// does; rsqrt uses rsqrt.approx; f16/bf16 are computed in f32. f32 division
// is div.full (at most 2 ulp off), Triton's choice for `/`. The functions
// PTX has no accurate instruction for (sin, cos, tanh, erf, log, log2, and
// the f64 transcendentals) call NVIDIA's libdevice (`__nv_sinf`, ...), which
// the PTX target links in. What is not handled here (sqrt, abs, floor, ceil,
// fma, maxnumf, ...) falls to the upstream arith- and math-to-LLVM patterns,
// which NVPTX lowers to exact instructions. tile.extern_elementwise (the
// libdevice functions a kernel names, `libdevice.pow(x, y)`) becomes one call
// per element (tile.inline_asm: InlineAsmOpToLLVM.cpp).
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/ExternalFunctions.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"
#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// Converts the f32 `x` back to `type`.
Value truncateFromF32(Location loc, Value x, Type type,
                      RewriterBase &rewriter) {
  if (type.isF32())
    return x;
  return LLVM::FPTruncOp::create(rewriter, loc, type, x);
}

/// exp(x) = 2^(x * log2(e)) and exp2(x) through llvm.nvvm.ex2.approx.ftz.f32
/// (subnormal results flush to zero, as in Triton: one MUFU.EX2, without the
/// range scaling the non-ftz form costs).
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
    Value x = extendFloat(loc, rewriter, adaptor.getOperand(), f32);
    if (inputScale != 1.0)
      x = LLVM::FMulOp::create(
          rewriter, loc, x,
          LLVM::ConstantOp::create(rewriter, loc, f32,
                                   rewriter.getF32FloatAttr(inputScale)));
    Value result =
        LLVM::CallIntrinsicOp::create(
            rewriter, loc, f32,
            rewriter.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"), ValueRange{x})
            .getResults();
    rewriter.replaceOp(op, truncateFromF32(loc, result, type, rewriter));
    return success();
  }

  double inputScale;
};

/// A unary float function through libdevice: `f32Name` for f32 (and for
/// f16/bf16, computed in f32), `f64Name` for f64. An empty name leaves that
/// type to another pattern.
template <typename OpTy>
struct LibdeviceOpConversion : OpConversionPattern<OpTy> {
  LibdeviceOpConversion(TypeConverter &converter, MLIRContext *context,
                        StringRef f32Name, StringRef f64Name)
      : OpConversionPattern<OpTy>(converter, context, kTilePatternBenefit),
        f32Name(f32Name), f64Name(f64Name) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    Location loc = op.getLoc();
    if (type.isF64() && !f64Name.empty()) {
      rewriter.replaceOp(op, callExternalFunction(loc, rewriter, op, f64Name,
                                                  type, adaptor.getOperands()));
      return success();
    }
    if (!(type.isF32() || type.isF16() || type.isBF16()) || f32Name.empty())
      return failure();
    SmallVector<Value> args;
    for (Value operand : adaptor.getOperands())
      args.push_back(extendFloat(loc, rewriter, operand, rewriter.getF32Type()));
    Value result = callExternalFunction(loc, rewriter, op, f32Name,
                                        rewriter.getF32Type(), args);
    rewriter.replaceOp(op, truncateFromF32(loc, result, type, rewriter));
    return success();
  }

  StringRef f32Name, f64Name;
};

/// rsqrt on f32 (and f16/bf16 through f32) with rsqrt.approx.f32, which is
/// what libdevice's __nv_rsqrtf and Triton use; f64 goes to libdevice.
struct RsqrtOpConversion : OpConversionPattern<math::RsqrtOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(math::RsqrtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF16() && !type.isBF16())
      return failure();
    Location loc = op.getLoc();
    Value x = extendFloat(loc, rewriter, adaptor.getOperand(), rewriter.getF32Type());
    Value result =
        LLVM::CallIntrinsicOp::create(
            rewriter, loc, rewriter.getF32Type(),
            rewriter.getStringAttr("llvm.nvvm.rsqrt.approx.f"), ValueRange{x})
            .getResults();
    rewriter.replaceOp(op, truncateFromF32(loc, result, type, rewriter));
    return success();
  }
};

/// f32 `a / b` through llvm.nvvm.div.full.
struct DivFOpConversion : OpConversionPattern<arith::DivFOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    rewriter.replaceOp(op, LLVM::CallIntrinsicOp::create(
                               rewriter, op.getLoc(), op.getType(),
                               rewriter.getStringAttr("llvm.nvvm.div.full"),
                               ValueRange{adaptor.getLhs(), adaptor.getRhs()})
                               .getResults());
    return success();
  }
};

/// Replaces `op` (scalars or tiles of one layout) by `emitOne` applied to
/// the elements at each index of `srcs`.
LogicalResult replaceElementwise(Operation *op, ValueRange srcs,
                                 const TypeConverter &converter,
                                 ConversionPatternRewriter &rewriter,
                                 function_ref<Value(ValueRange)> emitOne) {
  Location loc = op->getLoc();
  Type type = op->getResult(0).getType();
  if (!isa<RankedTensorType>(type)) {
    rewriter.replaceOp(op, emitOne(srcs));
    return success();
  }
  Type resultType = converter.convertType(type);
  if (!resultType)
    return rewriter.notifyMatchFailure(op, "result type not convertible");
  SmallVector<SmallVector<Value>> perOperand;
  for (Value src : srcs)
    perOperand.push_back(unpackElements(loc, src, rewriter));
  size_t count = cast<LLVM::LLVMStructType>(resultType).getBody().size();
  SmallVector<Value> results;
  for (size_t i = 0; i < count; ++i) {
    SmallVector<Value> elements;
    for (const SmallVector<Value> &values : perOperand)
      elements.push_back(values[i]);
    results.push_back(emitOne(elements));
  }
  rewriter.replaceOp(op, packElements(loc, results, resultType, rewriter));
  return success();
}

/// A call of `symbol` on the elements at each index of the operands.
struct ExternElementwiseOpConversion
    : OpConversionPattern<tile::ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getType());
    return replaceElementwise(op, adaptor.getSrcs(), *getTypeConverter(), rewriter,
                              [&](ValueRange args) {
                                return callExternalFunction(op.getLoc(), rewriter, op,
                                                            op.getSymbol(), elementType,
                                                            args);
                              });
  }
};

/// Registers the libdevice lowering of `OpTy`.
template <typename OpTy>
void addLibdevice(RewritePatternSet &patterns, TypeConverter &converter,
                  StringRef f32Name, StringRef f64Name) {
  patterns.add<LibdeviceOpConversion<OpTy>>(converter, patterns.getContext(),
                                            f32Name, f64Name);
}

} // namespace

void mlir::tilec::populateMathOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<Exp2BasedOpConversion<math::ExpOp>>(
      converter, context, 1.4426950408889634 /* log2(e) */);
  patterns.add<Exp2BasedOpConversion<math::Exp2Op>>(converter, context, 1.0);
  patterns.add<DivFOpConversion, RsqrtOpConversion,
               ExternElementwiseOpConversion>(converter, context, kTilePatternBenefit);
  // f32 name (also used for f16/bf16), f64 name.
  addLibdevice<math::SinOp>(patterns, converter, "__nv_sinf", "__nv_sin");
  addLibdevice<math::CosOp>(patterns, converter, "__nv_cosf", "__nv_cos");
  addLibdevice<math::TanhOp>(patterns, converter, "__nv_tanhf", "__nv_tanh");
  addLibdevice<math::ErfOp>(patterns, converter, "__nv_erff", "__nv_erf");
  addLibdevice<math::LogOp>(patterns, converter, "__nv_logf", "__nv_log");
  addLibdevice<math::Log2Op>(patterns, converter, "__nv_log2f", "__nv_log2");
  addLibdevice<math::Log1pOp>(patterns, converter, "__nv_log1pf", "__nv_log1p");
  addLibdevice<math::PowFOp>(patterns, converter, "__nv_powf", "__nv_pow");
  // f64 only: f32 has the ex2.approx and rsqrt.approx patterns above.
  addLibdevice<math::ExpOp>(patterns, converter, "", "__nv_exp");
  addLibdevice<math::Exp2Op>(patterns, converter, "", "__nv_exp2");
  addLibdevice<math::RsqrtOp>(patterns, converter, "", "__nv_rsqrt");
}
