//===- Allocation.cpp - Shared-memory buffers and their offsets -----------===//
//
// How many bytes of shared-memory scratch each operation's lowering needs.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/Allocation.h"

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilec;

int64_t mlir::tilec::getElementBytes(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    type = tensor.getElementType();
  if (isa<tile::PointerType>(type))
    return 8;
  if (type.isIntOrIndexOrFloat() && !type.isIndex())
    return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
  return 8;
}

/// Elements of a tile (1 for a scalar).
static int64_t numElements(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getNumElements();
  return 1;
}

/// Bytes to hold every element of `value`.
static int64_t tileBytes(Value value) {
  return numElements(value.getType()) * getElementBytes(value.getType());
}

/// Scratch of an atomic: a scalar one broadcasts its old value through
/// shared memory, a tiled one needs none.
static int64_t atomicBytes(Value ptr) {
  return isa<RankedTensorType>(ptr.getType()) ? 0 : 8;
}

int64_t mlir::tilec::getScratchBytes(Operation *op) {
  int64_t bytes =
      llvm::TypeSwitch<Operation *, int64_t>(op)
          .Case([](tilegpu::ConvertLayoutOp convert) -> int64_t {
            if (convert.getSrc().getType() == convert.getResult().getType())
              return 0;
            return tileBytes(convert.getSrc());
          })
          .Case([](tile::TransOp trans) { return tileBytes(trans.getSrc()); })
          .Case([](tile::ReshapeOp reshape) {
            return tileBytes(reshape.getSrc());
          })
          .Case([](tile::ReduceOp reduce) {
            int64_t numWarps = tilegpu::TileGPUDialect::getNumWarps(reduce);
            int64_t total = 0;
            for (auto [src, result] :
                 llvm::zip(reduce.getSrcs(), reduce.getResults()))
              total += getElementBytes(src.getType()) *
                       std::max<int64_t>(1, numElements(result.getType())) *
                       numWarps;
            return total;
          })
          .Case([](tile::ScanOp scan) {
            int64_t total = 0;
            for (Value src : scan.getSrcs())
              total += tileBytes(src);
            return total;
          })
          .Case([](tile::DotOp dot) {
            auto a = cast<RankedTensorType>(dot.getA().getType());
            auto b = cast<RankedTensorType>(dot.getB().getType());
            return (a.getNumElements() + b.getNumElements()) *
                   getElementBytes(a);
          })
          .Case([](tile::AtomicRMWOp rmw) { return atomicBytes(rmw.getPtr()); })
          .Case([](tile::AtomicCASOp cas) { return atomicBytes(cas.getPtr()); })
          .Default([](Operation *) -> int64_t { return 0; });
  return llvm::alignTo(bytes, kSharedBufferAlignment);
}
