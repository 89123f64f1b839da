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

struct ConvertTileToTileGPUPass
    : tilec::impl::ConvertTileToTileGPUBase<ConvertTileToTileGPUPass> {
  using ConvertTileToTileGPUBase::ConvertTileToTileGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (numWarps == 0 || !llvm::isPowerOf2_32(numWarps)) {
      module.emitError("num-warps must be a power of two, got ") << numWarps;
      return signalPassFailure();
    }
    Builder builder(context);
    module->setAttr(TileGPUDialect::kNumWarpsAttr,
                    builder.getI32IntegerAttr(numWarps));
    module->setAttr(TileGPUDialect::kThreadsPerWarpAttr,
                    builder.getI32IntegerAttr(threadsPerWarp));
    rewriteTensorEncodings(module, [&](RankedTensorType type) -> Attribute {
      if (type.getEncoding())
        return {};
      return BlockedEncodingAttr::getDefault(context, type.getShape(), numWarps,
                                             threadsPerWarp);
    });
  }
};

} // namespace
