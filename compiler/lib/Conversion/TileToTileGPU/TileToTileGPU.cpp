//===- TileToTileGPU.cpp - Give every tile a GPU layout -------------------===//
//
// The entry into the tilegpu stage. Every tensor (op results, block arguments
// of functions and scf regions, constants) first gets the default blocked
// layout for its shape. Then the ops whose operands and results are related
// by more than "the same layout" are made consistent, as Triton does:
//  - a tile.reduce result takes slice(operand layout, axis), converted back
//    to the default layout for its users;
//  - a tile.expand_dims operand is converted to slice(result layout, axis);
//  - a tile.broadcast operand is converted to the result's layout.
// Elementwise ops, loads and stores, scf iter_args and yields all see the
// default layout of their shape, so they already agree. Correctness never
// depends on the choice; tilegpu-remove-layout-conversions removes the
// conversions this leaves behind wherever they are not needed.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

namespace mlir::tilec {
#define GEN_PASS_DEF_CONVERTTILETOTILEGPU
#include "tilec/Conversion/Passes.h.inc"
} // namespace mlir::tilec

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// Gives each tensor result of `reduce` the slice of its operand's layout
/// along the reduced axis, converting it back to the layout it had (the
/// default for its shape) for its users.
void assignReduceLayouts(tile::ReduceOp reduce) {
  Attribute source = getLayout(reduce.getSrcs().front().getType());
  auto slice = SliceEncodingAttr::get(reduce.getContext(), reduce.getAxis(),
                                      source);
  OpBuilder builder(reduce->getContext());
  builder.setInsertionPointAfter(reduce);
  for (OpResult result : reduce->getResults()) {
    Type original = result.getType();
    if (!isa<RankedTensorType>(original))
      continue;
    result.setType(withLayout(original, slice));
    auto convert =
        ConvertLayoutOp::create(builder, reduce.getLoc(), original, result);
    result.replaceAllUsesExcept(convert, convert);
  }
}

/// Makes the ops that relate layouts of different shapes consistent, after
/// every tensor got the default layout of its shape.
void assignShapeOpLayouts(func::FuncOp func) {
  func.walk([](Operation *op) {
    if (auto reduce = dyn_cast<tile::ReduceOp>(op))
      return assignReduceLayouts(reduce);
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(op))
      return convertOperand(
          expand.getSrcMutable(),
          SliceEncodingAttr::get(op->getContext(), expand.getAxis(),
                                 getLayout(expand.getType())));
    if (auto broadcast = dyn_cast<tile::BroadcastOp>(op))
      return convertOperand(broadcast.getSrcMutable(),
                            getLayout(broadcast.getType()));
  });
}

/// The warps per program the frontend records on a kernel.
constexpr StringLiteral kFuncNumWarpsAttr = "tile.num_warps";

struct ConvertTileToTileGPUPass
    : tilec::impl::ConvertTileToTileGPUBase<ConvertTileToTileGPUPass> {
  using ConvertTileToTileGPUBase::ConvertTileToTileGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    Builder builder(context);
    module->setAttr(TileGPUDialect::kThreadsPerWarpAttr,
                    builder.getI32IntegerAttr(threadsPerWarp));
    WalkResult result = module.walk([&](func::FuncOp func) {
      unsigned warps = numWarps;
      if (auto attr = func->getAttrOfType<IntegerAttr>(kFuncNumWarpsAttr))
        warps = attr.getInt();
      if (warps == 0 || warps > 32 || !llvm::isPowerOf2_32(warps)) {
        func.emitError("num_warps must be a power of two from 1 to 32, got ")
            << warps;
        return WalkResult::interrupt();
      }
      func->setAttr(TileGPUDialect::kNumWarpsAttr,
                    builder.getI32IntegerAttr(warps));
      rewriteTensorEncodings(func, [&](RankedTensorType type) -> Attribute {
        if (type.getEncoding())
          return {};
        return BlockedEncodingAttr::getDefault(context, type.getShape(), warps,
                                               threadsPerWarp);
      });
      assignShapeOpLayouts(func);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
