//===- Canonicalize.cpp - Canonicalization patterns of the tile dialect ---===//
//
// tile.trans of an index chain (a tile computed from scalars, ranges and
// constants by splats, broadcasts, expand_dims and elementwise arith ops,
// as a mask is: `tl.trans(mask)` in a transpose kernel) moves down the chain
// until it reaches the splats and ranges, where it vanishes: the chain is
// computed transposed instead of the tile going through shared memory.
//
// `acc += tl.dot(a, b)`, a sum of a product with a zero accumulator, becomes
// the product accumulating into `acc`, as Triton combines it, so that the
// tensor cores add in their accumulator and a loop carries it there.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Longest chain below a transpose that it moves through.
constexpr unsigned kMaxIndexChainDepth = 16;

/// Whether `op` is an elementwise arith op without memory effects.
bool isArithElementwise(Operation *op) {
  return op->getDialect() && op->getDialect()->getNamespace() == "arith" &&
         op->getNumResults() == 1 && op->hasTrait<OpTrait::Elementwise>() &&
         isMemoryEffectFree(op);
}

/// Whether the tile `value` is an index chain of at most `depth` ops.
bool isIndexChain(Value value, unsigned depth = kMaxIndexChainDepth) {
  Operation *op = value.getDefiningOp();
  if (!op || depth == 0)
    return false;
  if (isa<SplatOp, MakeRangeOp>(op))
    return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(constant.getValue());
  if (!isa<BroadcastOp, ExpandDimsOp>(op) && !isArithElementwise(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return !isa<RankedTensorType>(operand.getType()) || isIndexChain(operand, depth - 1);
  });
}

/// trans(f(x, ...)) -> f(trans(x), ...) for the 2-D transpose of an index
/// chain (before layouts are assigned).
struct PushTransposeIntoIndexChain : OpRewritePattern<TransOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransOp op, PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (type.getRank() != 2 || type.getEncoding() ||
        op.getOrder() != ArrayRef<int32_t>{1, 0} || !isIndexChain(op.getSrc()))
      return failure();
    Operation *src = op.getSrc().getDefiningOp();
    Location loc = op.getLoc();
    auto transpose = [&](Value value) -> Value {
      auto tile = cast<RankedTensorType>(value.getType());
      auto swapped = RankedTensorType::get({tile.getDimSize(1), tile.getDimSize(0)},
                                           tile.getElementType());
      return TransOp::create(rewriter, loc, swapped, value,
                             rewriter.getDenseI32ArrayAttr({1, 0}));
    };
    if (auto splat = dyn_cast<SplatOp>(src)) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, type, splat.getSrc());
    } else if (auto constant = dyn_cast<arith::ConstantOp>(src)) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, type, cast<SplatElementsAttr>(constant.getValue()).reshape(type));
    } else if (auto expand = dyn_cast<ExpandDimsOp>(src)) {
      // A 1-D tile made a row becomes a column, and the other way round.
      rewriter.replaceOpWithNewOp<ExpandDimsOp>(op, type, expand.getSrc(),
                                                rewriter.getI32IntegerAttr(1 - expand.getAxis()));
    } else if (auto broadcast = dyn_cast<BroadcastOp>(src)) {
      rewriter.replaceOpWithNewOp<BroadcastOp>(op, type, transpose(broadcast.getSrc()));
    } else {
      IRMapping mapping;
      for (Value operand : src->getOperands())
        if (isa<RankedTensorType>(operand.getType()))
          mapping.map(operand, transpose(operand));
      Operation *clone = rewriter.clone(*src, mapping);
      clone->getResult(0).setType(type);
      rewriter.replaceOp(op, clone->getResults());
    }
    return success();
  }
};

/// add(x, dot(a, b, 0)) -> dot(a, b, x), either operand order, when the
/// product has no other use and sits in the add's block (moving it down
/// never moves it into a loop).
template <typename AddOp> struct FoldAddIntoDotAccumulator : OpRewritePattern<AddOp> {
  using OpRewritePattern<AddOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &rewriter) const override {
    for (unsigned i = 0; i < 2; ++i) {
      auto dot = op->getOperand(i).template getDefiningOp<DotOp>();
      Value other = op->getOperand(1 - i);
      if (!dot || !dot->hasOneUse() || dot->getBlock() != op->getBlock() ||
          other.getType() != dot.getType() || !isZeroSplat(dot.getC()))
        continue;
      rewriter.moveOpBefore(dot, op);
      rewriter.modifyOpInPlace(dot, [&] { dot.getCMutable().assign(other); });
      rewriter.replaceOp(op, dot.getD());
      return success();
    }
    return failure();
  }

  static bool isZeroSplat(Value value) {
    auto constant = value.getDefiningOp<arith::ConstantOp>();
    auto splat = constant ? dyn_cast<SplatElementsAttr>(constant.getValue()) : nullptr;
    if (!splat)
      return false;
    Attribute element = splat.getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(element))
      return f.getValue().isZero();
    auto n = dyn_cast<IntegerAttr>(element);
    return n && n.getValue().isZero();
  }
};

} // namespace

void DotOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<FoldAddIntoDotAccumulator<arith::AddFOp>, FoldAddIntoDotAccumulator<arith::AddIOp>>(
      context);
}

void TransOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<PushTransposeIntoIndexChain>(context);
}
