//===- AllocateSharedMemory.cpp - tilegpu-allocate-shared-memory ----------===//
//
// Places every function's shared-memory buffers (SharedMemoryAllocation),
// records the offsets and totals the LLVM lowering reads, checks the
// target's per-program limit, and inserts the barriers between scratch ops
// that reuse each other's bytes (the contract in Allocation.h).
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/Allocation.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUALLOCATESHAREDMEMORY
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// Byte ranges [begin, end) of scratch buffers that may still be read.
using ByteRanges = SmallVector<std::pair<int64_t, int64_t>>;

/// The bytes of `op`'s scratch buffer, or nothing when it has none.
std::optional<std::pair<int64_t, int64_t>> scratchRange(Operation *op) {
  auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr);
  int64_t bytes = getScratchBytes(op);
  if (!offset || bytes == 0)
    return std::nullopt;
  return std::make_pair(offset.getInt(), offset.getInt() + bytes);
}

/// Appends the scratch ranges of `op` and of every op nested in it.
void collectRanges(Operation *op, ByteRanges &ranges) {
  op->walk([&](Operation *nested) {
    if (auto range = scratchRange(nested))
      ranges.push_back(*range);
  });
}

/// True when `range` overlaps one of `pending`.
bool overlapsAny(const ByteRanges &pending, std::pair<int64_t, int64_t> range) {
  return llvm::any_of(pending, [&](const auto &other) {
    return other.first < range.second && range.first < other.second;
  });
}

/// True when the ops of `op`'s regions may run more than once per run of
/// `op`, or in an order the region structure does not show.
bool mayRepeat(Operation *op) {
  if (isa<LoopLikeOpInterface>(op))
    return true;
  return llvm::any_of(op->getRegions(), [](Region &region) {
    return !region.hasOneBlock() && !region.empty();
  });
}

/// Walks a function in program order with the byte ranges that scratch ops
/// since the last barrier may still be reading, and inserts a tile.barrier
/// before each scratch op that would overwrite them.
class BarrierInserter {
public:
  /// Visits `block` starting with `pending`; leaves in it the ranges still
  /// pending at the block's end.
  void visitBlock(Block &block, ByteRanges &pending) {
    for (Operation &op : llvm::make_early_inc_range(block))
      visitOp(&op, pending);
  }

private:
  void visitOp(Operation *op, ByteRanges &pending) {
    if (isa<tile::BarrierOp>(op)) {
      pending.clear();
      return;
    }
    if (auto range = scratchRange(op)) {
      // The op's own regions (combining functions) use no shared memory.
      if (overlapsAny(pending, *range)) {
        OpBuilder builder(op);
        tile::BarrierOp::create(builder, op->getLoc());
        pending.clear();
      }
      pending.push_back(*range);
      return;
    }
    if (op->getNumRegions() == 0)
      return;
    ByteRanges entry = pending;
    if (mayRepeat(op))
      // A previous iteration's scratch ops may still be reading.
      collectRanges(op, entry);
    ByteRanges exit;
    bool mayBypass = false;
    for (Region &region : op->getRegions()) {
      if (region.empty()) {
        mayBypass = true;
        continue;
      }
      ByteRanges inRegion = entry;
      for (Block &block : region)
        visitBlock(block, inRegion);
      exit.append(inRegion);
    }
    if (mayBypass || mayRepeat(op))
      exit.append(entry);
    pending = std::move(exit);
  }
};

/// How the user wrote the op that owns a buffer, for the limit error.
std::string describeOwner(Operation *op) {
  auto shape = [](Value value) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (auto tensor = dyn_cast<RankedTensorType>(value.getType())) {
      for (int64_t dim : tensor.getShape())
        os << dim << "x";
      os << tensor.getElementType();
    } else {
      os << value.getType();
    }
    return text;
  };
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case([&](tile::DotOp dot) {
        return "tl.dot (" + shape(dot.getA()) + " * " + shape(dot.getB()) + ")";
      })
      .Case([&](tile::ReduceOp reduce) {
        return "reduction (of " + shape(reduce.getSrcs()[0]) + " along axis " +
               std::to_string(reduce.getAxis()) + ")";
      })
      .Case([&](tile::ScanOp scan) {
        return "scan (of " + shape(scan.getSrcs()[0]) + ")";
      })
      .Case([&](tile::TransOp trans) {
        return "tl.trans (of " + shape(trans.getSrc()) + ")";
      })
      .Case([&](tile::ReshapeOp reshape) {
        return "tl.reshape (of " + shape(reshape.getSrc()) + ")";
      })
      .Case([&](tilegpu::LocalAllocOp alloc) {
        tilegpu::MemDescType buffer = alloc.getType();
        bool stores = llvm::any_of(alloc->getUsers(), [](Operation *user) {
          return isa<tilegpu::TmaStoreOp>(user);
        });
        std::string text = std::string(stores ? "a tensor descriptor's store" : "tl.load") +
                           ", staged in " +
                           std::to_string(buffer.getNumSlots()) +
                           " slots of ";
        for (int64_t dim : buffer.getSlotShape())
          text += std::to_string(dim) + "x";
        llvm::raw_string_ostream os(text);
        os << buffer.getElementType() << (stores ? "" : " (num_stages)");
        return text;
      })
      .Case([&](tilegpu::ConvertLayoutOp convert) {
        return "layout conversion (of " + shape(convert.getSrc()) + ")";
      })
      .Default([](Operation *other) {
        return other->getName().getStringRef().str();
      });
}

struct AllocateSharedMemoryPass
    : tilegpu::impl::TileGPUAllocateSharedMemoryBase<AllocateSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    Builder builder(&getContext());
    bool failed = false;
    getOperation().walk([&](func::FuncOp func) {
      SharedMemoryAllocation allocation(func);
      for (const SharedBuffer &buffer : allocation.getBuffers())
        buffer.owner->setAttr(kScratchOffsetAttr,
                              builder.getI64IntegerAttr(buffer.offset));
      func->setAttr(kSharedBytesAttr,
                    builder.getI64IntegerAttr(allocation.getSharedBytes()));
      if (sharedMemoryLimit > 0 &&
          allocation.getSharedBytes() > sharedMemoryLimit) {
        reportLimit(func, allocation);
        failed = true;
        return;
      }
      // Unstructured control flow may loop back to any block: then every
      // scratch op may follow any other.
      ByteRanges pending;
      if (!func.getBody().empty() && !func.getBody().hasOneBlock())
        collectRanges(func, pending);
      for (Block &block : func.getBody())
        BarrierInserter().visitBlock(block, pending);
    });
    if (failed)
      signalPassFailure();
  }

  void reportLimit(func::FuncOp func,
                   const SharedMemoryAllocation &allocation) {
    const SharedBuffer *largest = allocation.getLargestBuffer();
    // At the kernel's location, without the IR that Operation::emitError
    // would attach.
    InFlightDiagnostic diag = mlir::emitError(func.getLoc())
                              << "kernel '" << func.getSymName() << "' needs "
                              << allocation.getSharedBytes()
                              << " bytes of shared memory but "
                              << StringRef(targetName) << " allows at most "
                              << int64_t(sharedMemoryLimit) << " per program";
    diag.attachNote(largest->owner->getLoc())
        << "the largest buffer is " << largest->bytes << " bytes for this "
        << describeOwner(largest->owner) << "; smaller block sizes need less";
  }
};

} // namespace
