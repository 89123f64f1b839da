//===- Allocation.cpp - Shared-memory buffers and their offsets -----------===//
//
// How many bytes of shared-memory scratch each operation's lowering needs,
// buffer lifetimes over a linear numbering of a function's ops, and the
// placement of buffers at offsets that let buffers with disjoint lifetimes
// share bytes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/Allocation.h"

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <functional>

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

/// Scratch of an atomic whose old values are used: a scalar one broadcasts
/// thread 0's result (8 bytes); a tile whose layout replicates elements passes
/// each owner's results to the replicas (one slot per element). Otherwise
/// none.
static int64_t atomicBytes(Operation *atomic, Value ptr) {
  Value result = atomic->getResult(0);
  if (result.use_empty())
    return 0;
  auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
  if (!tensor)
    return 8;
  Attribute layout = tensor.getEncoding();
  if (!layout || !tilegpu::isReplicated(layout, tensor.getShape()))
    return 0;
  return tileBytes(result);
}

/// False when the warps of the source's layout do not split the reduced
/// axis (at most one warp holds distinct elements along it), so the lowering
/// combines within warps only and needs no scratch; true otherwise.
static bool reducesAcrossWarps(tile::ReduceOp reduce) {
  auto srcType = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
  unsigned axis = reduce.getAxis();
  std::optional<tilegpu::DimDistribution> along =
      tilegpu::getDimDistribution(srcType.getEncoding(), axis);
  return !along || along->getDistinctWarps(srcType.getShape()[axis]) > 1;
}

/// Whether `dot` runs on wgmma (its accumulator has an MMA version 3 layout).
static bool isWgmmaDot(tile::DotOp dot) {
  auto mma = dyn_cast_or_null<tilegpu::MmaEncodingAttr>(
      cast<RankedTensorType>(dot.getC().getType()).getEncoding());
  return mma && mma.getVersion() == 3;
}

int64_t mlir::tilec::getScanSegments(tile::ScanOp scan) {
  auto type = cast<RankedTensorType>(scan.getSrcs()[0].getType());
  if (!isa_and_nonnull<tilegpu::BlockedEncodingAttr>(type.getEncoding()))
    return 0;
  unsigned axis = scan.getAxis();
  int64_t size = type.getDimSize(axis);
  tilegpu::DimDistribution along =
      *tilegpu::getDimDistribution(type.getEncoding(), axis);
  int64_t repetitions =
      std::max<int64_t>(1, size / (along.warpExtent * along.warps));
  return along.getDistinctWarps(size) * repetitions;
}

int64_t mlir::tilec::getScanScratchElements(tile::ScanOp scan) {
  auto type = cast<RankedTensorType>(scan.getSrcs()[0].getType());
  int64_t segments = getScanSegments(scan);
  if (segments == 0)
    return type.getNumElements();
  if (segments == 1)
    return 0;
  return segments * type.getNumElements() / type.getDimSize(scan.getAxis());
}

int64_t mlir::tilec::getScratchAlignment(Operation *op) {
  // Slots hold swizzled tiles; mbarriers (i64 slots) need 8 bytes.
  if (auto alloc = dyn_cast<tilegpu::LocalAllocOp>(op))
    return alloc.getType().getElementType().isInteger(64)
               ? kSharedBufferAlignment
               : kSwizzleAtomAlignment;
  if (auto dot = dyn_cast<tile::DotOp>(op); dot && isWgmmaDot(dot))
    return kSwizzleAtomAlignment;
  return kSharedBufferAlignment;
}

int64_t mlir::tilec::getScratchBytes(Operation *op) {
  int64_t bytes =
      llvm::TypeSwitch<Operation *, int64_t>(op)
          .Case([](tilegpu::ConvertLayoutOp convert) -> int64_t {
            if (convert.getSrc().getType() == convert.getResult().getType() ||
                tilegpu::isRegisterConversion(convert.getSrc().getType(),
                                              convert.getResult().getType()))
              return 0;
            return tileBytes(convert.getSrc());
          })
          .Case([](tile::TransOp trans) { return tileBytes(trans.getSrc()); })
          .Case([](tile::ReshapeOp reshape) {
            return tileBytes(reshape.getSrc());
          })
          .Case([](tile::ReduceOp reduce) -> int64_t {
            if (!reducesAcrossWarps(reduce))
              return 0;
            int64_t numWarps = tilegpu::TileGPUDialect::getNumWarps(reduce);
            int64_t total = 0;
            for (auto [src, result] :
                 llvm::zip(reduce.getSrcs(), reduce.getResults()))
              total += llvm::alignTo(getElementBytes(src.getType()) *
                                         std::max<int64_t>(1, numElements(result.getType())) *
                                         numWarps,
                                     kScratchSourceAlignment);
            return total;
          })
          .Case([](tile::HistogramOp histogram) {
            return numElements(histogram.getType()) * 4;
          })
          .Case([](tile::ScanOp scan) {
            int64_t elements = getScanScratchElements(scan), total = 0;
            for (Value src : scan.getSrcs())
              total += llvm::alignTo(getElementBytes(src.getType()) * elements,
                                     kScratchSourceAlignment);
            return total;
          })
          .Case([](tile::DotOp dot) -> int64_t {
            // Operands are staged (a, then b) unless they arrive in dot
            // operand registers, which wgmma reads for a only: it stages
            // every other operand but pipelined slots.
            auto a = cast<RankedTensorType>(dot.getA().getType());
            bool wgmma = isWgmmaDot(dot);
            int64_t elements = 0;
            for (Value operand : {dot.getA(), dot.getB()}) {
              auto type = cast<RankedTensorType>(operand.getType());
              bool inRegisters =
                  isa_and_nonnull<tilegpu::DotOperandEncodingAttr>(
                      type.getEncoding());
              bool inSlot = operand.getDefiningOp<tilegpu::LocalLoadOp>();
              bool readInPlace =
                  wgmma ? inSlot || (inRegisters && operand == dot.getA())
                        : inRegisters;
              if (!readInPlace)
                elements += type.getNumElements();
            }
            return elements * getElementBytes(a);
          })
          .Case([](tilegpu::LocalAllocOp alloc) {
            tilegpu::MemDescType buffer = alloc.getType();
            return buffer.getNumSlots() * buffer.getSlotElements() *
                   getElementBytes(buffer.getElementType());
          })
          .Case([](tile::AtomicRMWOp rmw) {
            return atomicBytes(rmw, rmw.getPtr());
          })
          .Case([](tile::AtomicCASOp cas) {
            return atomicBytes(cas, cas.getPtr());
          })
          .Default([](Operation *) -> int64_t { return 0; });
  return llvm::alignTo(bytes, kSharedBufferAlignment);
}

//===----------------------------------------------------------------------===//
// Placement
//===----------------------------------------------------------------------===//

SmallVector<int64_t> mlir::tilec::assignOffsets(ArrayRef<BufferRequest> buffers,
                                                int64_t &total) {
  // Largest first (then earliest), so big buffers take the low offsets and
  // small ones fill the gaps beside them.
  auto order = llvm::to_vector(llvm::seq<unsigned>(0, buffers.size()));
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    if (buffers[a].bytes != buffers[b].bytes)
      return buffers[a].bytes > buffers[b].bytes;
    return buffers[a].lifetime.start < buffers[b].lifetime.start;
  });
  SmallVector<int64_t> offsets(buffers.size(), 0);
  SmallVector<unsigned> placed;
  total = 0;
  for (unsigned index : order) {
    const BufferRequest &buffer = buffers[index];
    int64_t bytes = llvm::alignTo(buffer.bytes, kSharedBufferAlignment);
    // Byte ranges of the placed buffers live at the same time, by offset.
    SmallVector<std::pair<int64_t, int64_t>> busy;
    for (unsigned other : placed)
      if (buffers[other].lifetime.overlaps(buffer.lifetime))
        busy.push_back(
            {offsets[other],
             offsets[other] +
                 llvm::alignTo(buffers[other].bytes, kSharedBufferAlignment)});
    llvm::sort(busy);
    // The lowest aligned gap that fits.
    int64_t offset = 0;
    for (auto [begin, end] : busy) {
      if (offset + bytes <= begin)
        break;
      offset = llvm::alignTo(std::max(offset, end), buffer.alignment);
    }
    offsets[index] = offset;
    if (bytes > 0) {
      placed.push_back(index);
      total = std::max(total, offset + bytes);
    }
  }
  return offsets;
}

//===----------------------------------------------------------------------===//
// Lifetimes
//===----------------------------------------------------------------------===//

OpNumbering::OpNumbering(Operation *root) {
  int64_t next = 0;
  // Pre-order: an op before the ops of its regions.
  std::function<void(Operation *)> visit = [&](Operation *op) {
    position[op] = next++;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          visit(&nested);
    lastWithin[op] = next - 1;
  };
  visit(root);
}

Interval OpNumbering::getLifetime(Operation *def,
                                  ArrayRef<Operation *> users) const {
  Interval lifetime{getPosition(def), getPosition(def)};
  for (Operation *user : users) {
    Interval use{getPosition(user), getPosition(user)};
    // The outermost loop around the user that is not around the definition.
    for (Operation *parent = user->getParentOp(); parent;
         parent = parent->getParentOp()) {
      if (!position.count(parent) || parent->isAncestor(def))
        break;
      if (isa<LoopLikeOpInterface>(parent))
        use = {getPosition(parent), getLastPositionWithin(parent)};
    }
    lifetime.start = std::min(lifetime.start, use.start);
    lifetime.end = std::max(lifetime.end, use.end);
  }
  return lifetime;
}

//===----------------------------------------------------------------------===//
// SharedMemoryAllocation
//===----------------------------------------------------------------------===//

SharedMemoryAllocation::SharedMemoryAllocation(Operation *function) {
  OpNumbering numbering(function);
  function->walk([&](Operation *op) {
    if (op == function)
      return;
    int64_t bytes = getScratchBytes(op);
    if (bytes == 0)
      return;
    // Slots live until their last reader; scratch only during its op.
    SmallVector<Operation *> users{op};
    if (isa<tilegpu::LocalAllocOp>(op))
      users.append(op->user_begin(), op->user_end());
    buffers.push_back(
        {op, bytes, numbering.getLifetime(op, users), /*offset=*/0});
  });
  // Program order, as the numbering counts.
  llvm::stable_sort(buffers, [](const SharedBuffer &a, const SharedBuffer &b) {
    return a.lifetime.start < b.lifetime.start;
  });
  SmallVector<BufferRequest> requests;
  for (const SharedBuffer &buffer : buffers)
    requests.push_back(
        {buffer.bytes, buffer.lifetime, getScratchAlignment(buffer.owner)});
  SmallVector<int64_t> offsets = assignOffsets(requests, sharedBytes);
  for (auto [buffer, offset] : llvm::zip(buffers, offsets))
    buffer.offset = offset;
}

const SharedBuffer *SharedMemoryAllocation::getLargestBuffer() const {
  const SharedBuffer *largest = nullptr;
  for (const SharedBuffer &buffer : buffers)
    if (!largest || buffer.bytes > largest->bytes)
      largest = &buffer;
  return largest;
}
