//===- TestPrintAllocation.cpp - Print the shared-memory allocation -------===//
//
// A test pass: a remark on every op that owns a shared-memory buffer with its
// offset, size and lifetime, and on every function with its total.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/Allocation.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TESTPRINTALLOCATION
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;

namespace {

struct TestPrintAllocationPass
    : tilegpu::impl::TestPrintAllocationBase<TestPrintAllocationPass> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      tilec::SharedMemoryAllocation allocation(func);
      for (const tilec::SharedBuffer &buffer : allocation.getBuffers())
        buffer.owner->emitRemark()
            << "scratch offset = " << buffer.offset
            << ", bytes = " << buffer.bytes << ", lifetime = ["
            << buffer.lifetime.start << ", " << buffer.lifetime.end << "]";
      func.emitRemark() << "shared bytes = " << allocation.getSharedBytes();
    });
  }
};

} // namespace
