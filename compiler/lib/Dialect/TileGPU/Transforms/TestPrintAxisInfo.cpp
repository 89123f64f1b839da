//===- TestPrintAxisInfo.cpp - Print the axis-info analysis ---------------===//
//
// A test pass: a remark on every integer or pointer value's defining op with
// what the axis-info analysis knows of it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TESTPRINTAXISINFO
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;

namespace {

struct TestPrintAxisInfoPass
    : tilegpu::impl::TestPrintAxisInfoBase<TestPrintAxisInfoPass> {
  void runOnOperation() override {
    tilec::ModuleAxisInfo axisInfo(getOperation());
    getOperation().walk([&](Operation *op) {
      if (op->getNumResults() != 1)
        return;
      Type element = getElementTypeOrSelf(op->getResult(0).getType());
      if (!element.isInteger() && !isa<tile::PointerType>(element))
        return;
      std::string text;
      llvm::raw_string_ostream os(text);
      axisInfo.lookup(op->getResult(0)).print(os);
      op->emitRemark("axis info: ") << text;
    });
  }
};

} // namespace
