//===- TestPrintRegisterFootprint.cpp - Print register footprints ---------===//
//
// A test pass: a remark on every function with its estimated registers per
// thread and blocks per SM, and one at the op that owns its peak block.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/RegisterFootprint.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TESTPRINTREGISTERFOOTPRINT
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;

namespace {

struct TestPrintRegisterFootprintPass
    : tilegpu::impl::TestPrintRegisterFootprintBase<TestPrintRegisterFootprintPass> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      tilec::RegisterFootprint footprint = tilec::estimateRegisterFootprint(func);
      func.emitRemark() << "registers = " << footprint.registers
                        << ", blocks per SM = " << footprint.blocksPerSM;
      if (Operation *owner = footprint.peak->getParentOp(); owner != func)
        owner->emitRemark() << "register footprint peaks here";
    });
  }
};

} // namespace
