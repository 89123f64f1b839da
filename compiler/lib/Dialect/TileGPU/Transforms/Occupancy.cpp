//===- Occupancy.cpp - Blocks per SM for ptxas's register allocation ------===//
//
// Sets nvvm.minctasm on kernels without a dot or a scan from their register
// footprint and shared memory (see RegisterFootprint.h for why ptxas needs
// it).
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/RegisterFootprint.h"
#include "tilec/Dialect/Tile/IR/Dialect.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUOCCUPANCY
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;

namespace {

struct TileGPUOccupancyPass
    : tilegpu::impl::TileGPUOccupancyBase<TileGPUOccupancyPass> {
  void runOnOperation() override {
    Builder builder(&getContext());
    getOperation().walk([&](func::FuncOp func) {
      if (!func->hasAttr(tile::kKernelAttr) || func.isExternal())
        return;
      // Dots and scans hold more than their tiles (accumulator fragments,
      // partial sums): ptxas spilled row_cumsum under the directive with a
      // budget above the registers it uses without one.
      if (func.walk([](Operation *op) {
                return isa<tile::DotOp, tile::ScanOp>(op) ? WalkResult::interrupt()
                                                          : WalkResult::advance();
              })
              .wasInterrupted())
        return;
      tilec::RegisterFootprint footprint = tilec::estimateRegisterFootprint(func);
      func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    builder.getI32IntegerAttr(footprint.blocksPerSM));
    });
  }
};

} // namespace
