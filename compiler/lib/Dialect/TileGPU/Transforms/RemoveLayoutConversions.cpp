//===- RemoveLayoutConversions.cpp - Avoid moving data between layouts ----===//
//
// convert_layout costs a round trip through shared memory and a barrier.
// This pass removes the conversions that are not needed:
//  - convert(convert(x)) becomes convert(x), and identity conversions fold
//    away (the op's folder);
//  - rematerialization (backward): when the converted value is computed by a
//    short chain of cheap ops (make_range, splat, constants, elementwise
//    arith/math, addptr, broadcast, expand_dims) from scalars and from values
//    that already exist in the needed layout, the chain is cloned in the
//    target layout and the conversion disappears. This makes address
//    arithmetic such as `offs_m[:, None] * stride + offs_k[None, :]` free;
//  - sinking (forward): a store, or an elementwise op, one of whose operands
//    is convert(x) is rewritten in x's layout when its other operands can be
//    rematerialized there; an elementwise op's result is converted back for
//    its users, so the conversion moves towards the stores, where it goes
//    away (a reduction's result stored without leaving its slice layout).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUREMOVELAYOUTCONVERSIONS
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// Most ops one rematerialization may clone.
constexpr unsigned kMaxRematerializedOps = 64;

/// `type` (a ranked tensor) with the layout `layout`.
RankedTensorType withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

/// Ops computed per element from their operands, cheap enough to recompute
/// in another layout: elementwise arith/math and addptr.
bool isCheapElementwise(Operation *op) {
  if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
      !isMemoryEffectFree(op))
    return false;
  StringRef dialect = op->getDialect()->getNamespace();
  return dialect == "arith" || dialect == "math" || isa<tile::AddPtrOp>(op);
}

/// Ops that create a tile from nothing but attributes and scalars.
bool isTileSource(Operation *op) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(constant.getValue());
  return isa<tile::MakeRangeOp, tile::SplatOp>(op);
}

/// The layout that `op`'s tensor operand `operand` needs for `op` to produce
/// its result in `layout`.
Attribute operandLayout(Operation *op, Attribute layout) {
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(op))
    return SliceEncodingAttr::get(op->getContext(), expand.getAxis(), layout);
  return layout;
}

/// Clones chains of cheap ops in another layout, after checking that the
/// whole chain can be cloned within the op budget.
class Rematerializer {
public:
  /// Whether `value` can be had in `layout` without moving data.
  bool canRematerialize(Value value, Attribute layout) {
    budget = kMaxRematerializedOps;
    visited.clear();
    return check(value, layout);
  }

  /// `value` in `layout`, cloning its chain (canRematerialize must hold).
  Value rematerialize(Value value, Attribute layout, RewriterBase &rewriter) {
    if (getLayout(value.getType()) == layout)
      return value;
    auto key = std::make_pair(value, layout);
    if (Value done = clones.lookup(key))
      return done;
    Operation *op = value.getDefiningOp();
    if (auto convert = dyn_cast<ConvertLayoutOp>(op))
      return rematerialize(convert.getSrc(), layout, rewriter);
    IRMapping mapping;
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        mapping.map(operand, rematerialize(
                                 operand, operandLayout(op, layout), rewriter));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(op);
    Operation *clone = rewriter.clone(*op, mapping);
    Value result = clone->getResult(0);
    result.setType(withLayout(result.getType(), layout));
    if (auto constant = dyn_cast<arith::ConstantOp>(clone))
      constant.setValueAttr(cast<SplatElementsAttr>(constant.getValue())
                                .reshape(cast<ShapedType>(result.getType())));
    clones[key] = result;
    return result;
  }

private:
  bool check(Value value, Attribute layout) {
    if (getLayout(value.getType()) == layout)
      return true;
    if (!visited.insert({value, layout}).second)
      return true;
    Operation *op = value.getDefiningOp();
    if (!op || budget-- == 0)
      return false;
    if (auto convert = dyn_cast<ConvertLayoutOp>(op))
      return check(convert.getSrc(), layout);
    if (!isTileSource(op) && !isCheapElementwise(op) &&
        !isa<tile::BroadcastOp, tile::ExpandDimsOp>(op))
      return false;
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !check(operand, operandLayout(op, layout)))
        return false;
    return true;
  }

  unsigned budget = 0;
  DenseSet<std::pair<Value, Attribute>> visited;
  DenseMap<std::pair<Value, Attribute>, Value> clones;
};

/// convert(convert(x)) -> convert(x).
struct FoldConvertChain : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(),
                                                 inner.getSrc());
    return success();
  }
};

/// convert(chain of cheap ops) -> the chain cloned in the target layout.
struct RematerializeConvert : OpRewritePattern<ConvertLayoutOp> {
  RematerializeConvert(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Attribute target = getLayout(op.getType());
    Rematerializer remat;
    if (!remat.canRematerialize(op.getSrc(), target))
      return failure();
    rewriter.replaceOp(op, remat.rematerialize(op.getSrc(), target, rewriter));
    return success();
  }
};

/// A store or elementwise op with an operand convert(x: A -> B): the op
/// rewritten in A when its other tensor operands can be had in A.
struct SinkConvert : RewritePattern {
  SinkConvert(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    bool isStore = isa<tile::StoreOp>(op);
    if (!isStore && !isCheapElementwise(op))
      return failure();
    if (!isStore && !isa<RankedTensorType>(op->getResult(0).getType()))
      return failure();
    Attribute source;
    for (Value operand : op->getOperands())
      if (auto convert = operand.getDefiningOp<ConvertLayoutOp>()) {
        source = getLayout(convert.getSrc().getType());
        break;
      }
    if (!source)
      return failure();
    Rematerializer remat;
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !remat.canRematerialize(operand, source))
        return failure();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(isa<RankedTensorType>(operand.getType())
                             ? remat.rematerialize(operand, source, rewriter)
                             : operand);
    rewriter.setInsertionPoint(op);
    if (isStore) {
      rewriter.modifyOpInPlace(op, [&] { op->setOperands(operands); });
      return success();
    }
    OperationState state(op->getLoc(), op->getName(), operands,
                         withLayout(op->getResult(0).getType(), source),
                         op->getAttrs());
    Operation *moved = rewriter.create(state);
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(
        op, op->getResult(0).getType(), moved->getResult(0));
    return success();
  }
};

struct RemoveLayoutConversionsPass
    : tilegpu::impl::TileGPURemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<FoldConvertChain, RematerializeConvert, SinkConvert>(context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
