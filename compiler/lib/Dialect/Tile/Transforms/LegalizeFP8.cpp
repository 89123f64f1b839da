//===- LegalizeFP8.cpp - tile-legalize-fp8 --------------------------------===//
//
// fp8 tiles are loaded, stored, moved and converted, but computed on in
// fp32: each arith/math op that touches fp8 gets its fp8 operands widened
// (exactly) and its fp8 results rounded back once, so the GPU lowering and
// the interpreter only ever see fp8 in memory ops, data movement, constants,
// selects, bitcasts and extf/truncf. The user's PTX (tile.inline_asm) gets
// fp8 operands and results as their bytes, as Triton passes them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILELEGALIZEFP8
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {

/// Whether `type` (a scalar or a tile's element) is one of the fp8 types.
bool isFP8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(getElementTypeOrSelf(type));
}

bool touchesFP8(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isFP8) ||
         llvm::any_of(op->getResultTypes(), isFP8);
}

/// `type` with its fp8 element replaced by `element`.
Type withElement(Type type, Type element) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(element);
  return element;
}

/// What the pass does with an op that touches fp8.
enum class Action { Keep, Compute, Bytes, Print, Reject };

Action classify(Operation *op) {
  if (isa<arith::ConstantOp, arith::SelectOp, arith::BitcastOp, arith::ExtFOp,
          arith::TruncFOp>(op))
    return Action::Keep;
  if (isa<tile::PrintOp>(op))
    return Action::Print;
  if (isa<tile::InlineAsmOp>(op))
    return Action::Bytes;
  if (isa<tile::DotOp, tile::AtomicRMWOp, tile::AtomicCASOp, tile::ExternElementwiseOp,
          tile::ReduceOp, tile::ScanOp>(op))
    return Action::Reject;
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return Action::Compute;
  return Action::Keep; // Memory, data movement, control flow, reductions.
}

struct TileLegalizeFP8Pass : tile::impl::TileLegalizeFP8Base<TileLegalizeFP8Pass> {
  using TileLegalizeFP8Base::TileLegalizeFP8Base;

  void runOnOperation() override {
    // Analyse first: which ops change, and whether any cannot.
    SmallVector<std::pair<Operation *, Action>> work;
    bool failedAny = false;
    bool hasConvert = targetConvertsFP8();
    getOperation().walk([&](Operation *op) {
      if (!touchesFP8(op))
        return;
      Action action = classify(op);
      if (action == Action::Reject) {
        op->emitError() << "not supported: fp8 operands of '" << op->getName()
                        << "' (convert them with .to(tl.float16) or .to(tl.float32))";
        failedAny = true;
        return;
      }
      if (!hasConvert && ((action != Action::Keep && action != Action::Bytes) ||
                          isa<arith::ExtFOp, arith::TruncFOp>(op))) {
        op->emitError() << "fp8 conversions need sm_89 or newer (the target is "
                        << target << "); compile with --arch sm_90";
        failedAny = true;
        return;
      }
      if (action != Action::Keep)
        work.emplace_back(op, action);
    });
    if (failedAny)
      return signalPassFailure();
    for (auto [op, action] : work) {
      if (action == Action::Print)
        printAsF32(cast<tile::PrintOp>(op));
      else
        rebuildWithoutFP8(op, action == Action::Bytes);
    }
    // Every rounding to fp8 states its mode, which keeps canonicalization
    // from folding `truncf(sitofp x to bf16) to fp8` into one sitofp to fp8
    // (that fold drops the bf16 rounding: 273 -> bf16 272 -> e4m3 256
    // would become 288).
    getOperation().walk([&](arith::TruncFOp op) {
      if (isFP8(op.getType()) && !op.getRoundingmodeAttr())
        op.setRoundingmodeAttr(
            arith::RoundingModeAttr::get(&getContext(), arith::RoundingMode::to_nearest_even));
    });
  }

private:
  /// Whether the target's cvt converts to and from fp8 (sm_89 and newer).
  bool targetConvertsFP8() const {
    StringRef name = target;
    unsigned capability = 0;
    if (!name.consume_front("sm_"))
      return false;
    name.consume_back("a");
    return !name.getAsInteger(10, capability) && capability >= 89;
  }

  /// `value` widened to fp32 when it is fp8.
  static Value widen(OpBuilder &builder, Location loc, Value value) {
    if (!isFP8(value.getType()))
      return value;
    Type f32 = withElement(value.getType(), builder.getF32Type());
    return arith::ExtFOp::create(builder, loc, f32, value);
  }

  /// Rebuilds `op` without fp8: on fp32 (operands widened, fp8 results
  /// rounded back), or with `bytes` on the fp8 values' bytes (bitcasts).
  static void rebuildWithoutFP8(Operation *op, bool bytes) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    Type element = bytes ? Type(builder.getI8Type()) : Type(builder.getF32Type());
    OperationState state(loc, op->getName());
    for (Value operand : op->getOperands())
      state.addOperands(
          !bytes ? widen(builder, loc, operand)
          : isFP8(operand.getType())
              ? arith::BitcastOp::create(builder, loc,
                                         withElement(operand.getType(), element), operand)
                    .getResult()
              : operand);
    for (Type type : op->getResultTypes())
      state.addTypes(isFP8(type) ? withElement(type, element) : type);
    state.addAttributes(op->getAttrs());
    Operation *rebuilt = builder.create(state);
    for (auto [old, result] : llvm::zip(op->getResults(), rebuilt->getResults())) {
      Value replacement = result;
      if (isFP8(old.getType()))
        replacement = bytes ? arith::BitcastOp::create(builder, loc, old.getType(), result)
                                  .getResult()
                            : arith::TruncFOp::create(builder, loc, old.getType(), result)
                                  .getResult();
      old.replaceAllUsesWith(replacement);
    }
    op->erase();
  }

  /// Prints fp8 operands as fp32 values (as their bytes with hex=True).
  static void printAsF32(tile::PrintOp op) {
    OpBuilder builder(op);
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      if (!isFP8(value.getType()))
        continue;
      operand.set(op.getHex() ? Value(arith::BitcastOp::create(
                                    builder, op.getLoc(),
                                    withElement(value.getType(), builder.getI8Type()),
                                    value))
                              : widen(builder, op.getLoc(), value));
    }
  }
};

} // namespace
