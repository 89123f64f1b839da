//===- RemoveLayoutConversions.cpp - Avoid moving data between layouts ----===//
//
// convert_layout costs a round trip through shared memory and a barrier.
// This pass removes the conversions that are not needed:
//  - convert(convert(x)) becomes convert(x), and identity conversions fold
//    away (the op's folder);
//  - rematerialization (backward): when the converted value is computed by a
//    short chain of cheap ops (make_range, splat, constants, elementwise
//    arith/math, addptr, broadcast, expand_dims, hints) from scalars and values
//    that already exist in the needed layout, the chain is cloned in the
//    target layout and the conversion disappears. This makes address
//    arithmetic such as `offs_m[:, None] * stride + offs_k[None, :]` free. A
//    load used only by the conversion is moved into the target layout too
//    when that replicates it little (`w[None, :]` loaded where it is used);
//  - sinking (forward): a store, or an elementwise op, one of whose operands
//    is convert(x) is rewritten in x's layout when its other operands can be
//    rematerialized there; an elementwise op's result is converted back for
//    its users, so the conversion moves towards the stores, where it goes
//    away (a reduction's result stored without leaving its slice layout);
//  - a reduction of convert(x) from an MMA layout reduces x where it is
//    (the softmax of flash attention runs on the product's registers);
//  - a tensor-core dot reads its a and b operands in whatever distributed
//    layout they come in (it stages them), so a conversion feeding one goes;
//  - loop-carried tiles that are converted into their layout every iteration
//    are carried in the converted value's layout instead (a dot's
//    accumulator stays in its MMA layout through the K loop, and so do the
//    running maxima and sums of flash attention).
// MMA accumulator layouts take index arithmetic, broadcasts and elementwise
// ops this way, but no memory accesses and no pointer tiles; dot operand
// layouts take only splats and elementwise ops.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// Rewrites per op of the module after which the pass stops.
constexpr int64_t kMaxRewritesPerOp = 64;

/// The number of ops in `module`.
int64_t countOps(Operation *module) {
  int64_t count = 0;
  module->walk([&](Operation *) { ++count; });
  return count;
}

/// How many times more elements per thread a moved load may hold.
constexpr int64_t kMaxLoadReplication = 4;

/// Ops computed per element from their operands, cheap enough to recompute
/// in another layout: elementwise arith/math and addptr.
bool isCheapElementwise(Operation *op) {
  if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
      !isMemoryEffectFree(op))
    return false;
  StringRef dialect = op->getDialect()->getNamespace();
  return dialect == "arith" || dialect == "math" || isa<tile::AddPtrOp>(op);
}

/// Whether `layout` is a dot operand layout or a slice of one.
bool isDotOperandLayout(Attribute layout) {
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    return isDotOperandLayout(slice.getParent());
  return isa<DotOperandEncodingAttr>(layout);
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

/// Whether a load or store of `type` moved to `layout` keeps the fastest
/// dimension of its current layout and as many consecutive elements per
/// thread along it, so that it stays as coalesced and vectorized as
/// tilegpu-coalesce made it.
bool keepsAccessVectors(RankedTensorType type, Attribute layout) {
  unsigned fastest = getLayoutOrder(type.getEncoding()).front();
  return getLayoutOrder(layout).front() == fastest &&
         getContigPerThread(layout, type.getShape())[fastest] >=
             getContigPerThread(type.getEncoding(), type.getShape())[fastest];
}

/// Clones chains of cheap ops in another layout, after checking that the
/// whole chain can be cloned within the op budget.
class Rematerializer {
public:
  /// Whether `value` can be had in `layout` without moving data.
  bool canRematerialize(Value value, Attribute layout) {
    budget = kMaxRematerializedOps;
    visited = assumed;
    return check(value, layout);
  }

  /// Lets canRematerialize assume that `value` will be available in
  /// `layout` (a loop-carried value about to change layout).
  void assume(Value value, Attribute layout) {
    assumed.insert({value, layout});
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
    // Tensor-core layouts hold products and the math on them, never memory
    // accesses; dot operand layouts take no index arithmetic or broadcasts.
    if (isDotOperandLayout(layout)) {
      bool isSplat = isTileSource(op) && !isa<tile::MakeRangeOp>(op);
      if (!isSplat && !isCheapElementwise(op))
        return false;
    } else if (isTensorCoreLayout(layout) &&
               (isa<tile::LoadOp>(op) ||
                isa<tile::PointerType>(getElementTypeOrSelf(value.getType())))) {
      // No accesses, and no pointers: they would only be converted back.
      return false;
    } else if (auto load = dyn_cast<tile::LoadOp>(op)) {
      if (!canMoveLoad(load, layout))
        return false;
    } else if (!isTileSource(op) && !isCheapElementwise(op) &&
               !isa<tile::BroadcastOp, tile::ExpandDimsOp, tile::HintOp>(op)) {
      return false;
    }
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !check(operand, operandLayout(op, layout)))
        return false;
    return true;
  }

  /// A load is moved (not copied) to another layout when nothing else uses
  /// its result, the new layout replicates it at most kMaxLoadReplication
  /// times as much per thread, and it keeps the access as coalesced
  /// (keepsAccessVectors).
  static bool canMoveLoad(tile::LoadOp load, Attribute layout) {
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!type || !load->hasOneUse() || !isDistributedLayout(layout) ||
        !isDistributedLayout(type.getEncoding()) ||
        !keepsAccessVectors(type, layout))
      return false;
    return getTotalElemsPerThread(layout, type.getShape()) <=
           kMaxLoadReplication *
               getTotalElemsPerThread(type.getEncoding(), type.getShape());
  }

  unsigned budget = 0;
  DenseSet<std::pair<Value, Attribute>> visited, assumed;
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
    // Stores stay where the accesses are coalesced.
    if (!source ||
        (isStore && (isTensorCoreLayout(source) ||
                     !keepsAccessVectors(cast<RankedTensorType>(
                                             op->getOperand(0).getType()),
                                         source))))
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

/// A tensor-core dot whose a or b operand is convert(x) into a distributed
/// layout other than a dot operand one reads x instead: the dot stages
/// operands from any layout, so the conversion would only add a round trip
/// through shared memory (a column-major K^T load keeps its own layout).
struct FoldConvertIntoDotOperand : OpRewritePattern<tile::DotOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tile::DotOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa_and_nonnull<MmaEncodingAttr>(getLayout(op.getC().getType())))
      return failure();
    bool changed = false;
    for (OpOperand &operand : op->getOpOperands().take_front(2)) {
      auto convert = operand.get().getDefiningOp<ConvertLayoutOp>();
      if (!convert || isTensorCoreLayout(getLayout(convert.getType())) ||
          !isDistributedLayout(getLayout(convert.getSrc().getType())) ||
          isTensorCoreLayout(getLayout(convert.getSrc().getType())))
        continue;
      rewriter.modifyOpInPlace(op, [&] { operand.set(convert.getSrc()); });
      changed = true;
    }
    return success(changed);
  }
};

/// reduce(convert(x: mma -> L)) -> convert(reduce(x)): the reduction runs
/// on the MMA tile where it was computed, and its result (a slice of the MMA
/// layout) is converted instead, when every source can be had in that
/// layout and the tile holds whole instruction tiles.
struct SinkConvertThroughReduce : OpRewritePattern<tile::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tile::ReduceOp op,
                                PatternRewriter &rewriter) const override {
    MmaEncodingAttr mma;
    for (Value src : op.getSrcs())
      if (auto convert = src.getDefiningOp<ConvertLayoutOp>())
        if ((mma = dyn_cast<MmaEncodingAttr>(
                 getLayout(convert.getSrc().getType()))))
          break;
    if (!mma)
      return failure();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    for (auto [size, instr] : llvm::zip(srcType.getShape(), mma.getInstrShape()))
      if (size < instr)
        return failure();
    Rematerializer remat;
    for (Value src : op.getSrcs())
      if (!remat.canRematerialize(src, mma))
        return failure();
    SmallVector<Value> srcs;
    for (Value src : op.getSrcs())
      srcs.push_back(remat.rematerialize(src, mma, rewriter));
    auto slice = SliceEncodingAttr::get(getContext(), op.getAxis(), mma);
    SmallVector<Type> resultTypes;
    for (Type type : op.getResultTypes())
      resultTypes.push_back(withLayout(type, slice));
    rewriter.setInsertionPoint(op);
    OperationState state(op.getLoc(), op->getName(), srcs, resultTypes,
                         op->getAttrs());
    state.addRegion();
    Operation *moved = rewriter.create(state);
    rewriter.inlineRegionBefore(op.getCombineOp(), moved->getRegion(0),
                                moved->getRegion(0).end());
    SmallVector<Value> results;
    for (auto [result, type] :
         llvm::zip(moved->getResults(), op.getResultTypes()))
      results.push_back(
          ConvertLayoutOp::create(rewriter, op.getLoc(), type, result));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The source layout of a conversion that feeds `value` through a short
/// chain of cheap ops, other than `current`; null when there is none.
Attribute findConvertedLayout(Value value, Attribute current,
                              unsigned depth = 8) {
  Operation *op = value.getDefiningOp();
  if (!op || depth == 0)
    return {};
  if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
    Attribute source = getLayout(convert.getSrc().getType());
    return source != current && isDistributedLayout(source) ? source
                                                            : Attribute();
  }
  if (!isCheapElementwise(op))
    return {};
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()))
      if (Attribute found = findConvertedLayout(operand, current, depth - 1))
        return found;
  return {};
}

/// For a pointer tile `arg` advanced each iteration (`b_ptrs += BK`) whose
/// load has a layout of its own: the one layout that its uses other than
/// cheap elementwise ops convert it to; null otherwise. (Only pointers: once
/// such a tile is carried in the new layout, nothing converts it back, while
/// a value with other uses in the old layout would keep a conversion to it
/// and be moved back and forth.)
Attribute findUsesLayout(BlockArgument arg) {
  if (!isa<tile::PointerType>(getElementTypeOrSelf(arg.getType())))
    return {};
  Attribute target;
  for (Operation *user : arg.getUsers()) {
    if (isCheapElementwise(user))
      continue;
    // A conversion that feeds anything but accesses (the one relayout leaves
    // for the old chain, until it is erased) does not count.
    auto convert = dyn_cast<ConvertLayoutOp>(user);
    if (convert && llvm::any_of(convert->getUsers(), [](Operation *use) {
          return !isa<tile::LoadOp, tile::StoreOp>(use);
        }))
      continue;
    if (!convert || (target && getLayout(convert.getType()) != target))
      return {};
    target = getLayout(convert.getType());
  }
  return target && isDistributedLayout(target) ? target : Attribute();
}

/// A loop-carried tile that is converted into its layout every iteration
/// (an accumulator of reductions: `acc += tl.sum(x, axis=1)`, or a dot's
/// accumulator loaded before the loop), or whose every use converts it to
/// one layout (a pointer tile advanced each iteration for a load with a
/// layout of its own), is carried in that layout instead: the yielded value
/// is rematerialized there, the initial value too or else converted once
/// before the loop, and uses that need the old layout get a conversion
/// (inside the loop only when some use is not part of the yielded chain).
struct RelayoutLoopCarried : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type)
        continue;
      Value yielded = yield.getOperand(i);
      Attribute target = findConvertedLayout(yielded, type.getEncoding());
      if (!target)
        target = findUsesLayout(arg);
      if (!target || target == type.getEncoding())
        continue;
      Rematerializer remat;
      remat.assume(arg, target);
      if (!remat.canRematerialize(yielded, target))
        continue;
      relayout(loop, i, target, remat, rewriter);
      return success();
    }
    return failure();
  }

  void relayout(scf::ForOp loop, unsigned i, Attribute target,
                Rematerializer &remat, PatternRewriter &rewriter) const {
    BlockArgument arg = loop.getRegionIterArgs()[i];
    OpResult result = loop->getResult(i);
    Type oldType = arg.getType(), newType = withLayout(oldType, target);
    rewriter.setInsertionPoint(loop);
    // The initial value is rematerialized when that moves no data, else
    // converted once before the loop (e.g. an accumulator loaded from memory).
    Value init = loop.getInitArgs()[i];
    init = remat.canRematerialize(init, target)
               ? remat.rematerialize(init, target, rewriter)
               : ConvertLayoutOp::create(rewriter, loop.getLoc(), newType, init)
                     .getResult();
    rewriter.modifyOpInPlace(loop, [&] {
      loop.getInitArgsMutable()[i].set(init);
      arg.setType(newType);
      result.setType(newType);
    });
    // Uses of the carried value in the old layout read a conversion of it.
    rewriter.setInsertionPointToStart(loop.getBody());
    auto inside = ConvertLayoutOp::create(rewriter, loop.getLoc(), oldType, arg);
    rewriter.replaceAllUsesExcept(arg, inside, inside);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    Value yielded = remat.rematerialize(yield.getOperand(i), target, rewriter);
    rewriter.modifyOpInPlace(
        yield, [&] { yield.getResultsMutable()[i].set(yielded); });
    rewriter.setInsertionPointAfter(loop);
    auto after = ConvertLayoutOp::create(rewriter, loop.getLoc(), oldType,
                                         result);
    rewriter.replaceAllUsesExcept(result, after, after);
  }
};

struct RemoveLayoutConversionsPass
    : tilegpu::impl::TileGPURemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<FoldConvertChain, RematerializeConvert, SinkConvert,
                 SinkConvertThroughReduce, FoldConvertIntoDotOperand,
                 RelayoutLoopCarried>(context);
    // Every rewrite leaves valid IR, so stopping at the driver's limits only
    // leaves some conversions in place; it is not an error. The limit on
    // rewrites keeps two rules that undo each other from running forever.
    GreedyRewriteConfig config;
    config.setMaxNumRewrites(kMaxRewritesPerOp *
                             countOps(getOperation()));
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
