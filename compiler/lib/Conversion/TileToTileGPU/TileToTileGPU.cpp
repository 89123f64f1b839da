//===- TileToTileGPU.cpp - Give every tile a GPU layout -------------------===//
//
// The entry into the tilegpu stage: every tensor gets the default blocked
// layout for its shape; later passes refine the layouts.
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
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
