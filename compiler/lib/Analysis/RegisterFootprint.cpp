//===- RegisterFootprint.cpp - Registers a kernel's tiles need ------------===//
//
// A liveness estimate over each block's ops, counting per-thread registers
// of the tiles that exist in full:
// - data tiles only: those computed from memory, from loop-carried state or
//   from the results of loops and reductions (constants and index tiles
//   from program ids and ranges become immediates and constant offsets;
//   pointer tiles become one base and offsets; masks become predicates);
// - a splat, broadcast or expand_dims reuses its operand's registers, and an
//   elementwise result whose users are all elementwise ops or stores in the
//   same block is lowered element by element into its users: neither
//   exists whole, and its operands live until its users;
// - an elementwise op frees its dying operands before its results exist
//   (element by element); any other op (a reduction, a scan, a layout
//   conversion) holds both.
// Nested blocks add to what is live around their op. Tiles carried by a
// loop are its body's block arguments.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/RegisterFootprint.h"

#include "tilec/Analysis/Allocation.h"
#include "tilec/Dialect/Tile/IR/Dialect.h"
#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilec;

/// 32-bit registers per thread that `type` takes when it is a tile (64-bit
/// elements take two, 16-bit elements half; at least one); 0 otherwise.
static int64_t registersPerThread(Type type, int64_t threads) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 0;
  Type element = tensor.getElementType();
  int64_t bits = isa<tile::PointerType>(element) ? 64
                 : element.isIntOrFloat()         ? element.getIntOrFloatBitWidth()
                                                  : 32;
  int64_t elements =
      tensor.getEncoding()
          ? tilegpu::getTotalElemsPerThread(tensor.getEncoding(), tensor.getShape())
          : llvm::divideCeil(tensor.getNumElements(), std::max<int64_t>(1, threads));
  return std::max<int64_t>(1, llvm::divideCeil(elements * bits, 32));
}

namespace {

/// The liveness walk of one kernel.
class FootprintEstimator {
public:
  FootprintEstimator(Operation *func, int64_t threads) : func(func), threads(threads) {}

  /// The most registers live at once in `block` and the blocks it holds,
  /// with `outside` registers live around it; records the peak block.
  int64_t peakIn(Block &block, int64_t outside);

  /// The block whose own ops hold the most registers.
  Block *peakBlock = nullptr;

private:
  /// Whether `value` is computed from memory or from loop-carried state.
  bool isData(Value value) { return derivesFrom(value, /*loadsOnly=*/false); }
  /// Whether `value` is computed from loaded values (a gather's pointers).
  bool isLoaded(Value value) { return derivesFrom(value, /*loadsOnly=*/true); }
  /// Whether `value` is, or is computed from, a load or an atomic's result,
  /// or (unless `loadsOnly`) a loop-carried block argument or a loop's or
  /// reduction's result.
  bool derivesFrom(Value value, bool loadsOnly);
  /// Registers `value` takes while it exists whole (0 for non-data tiles).
  int64_t cost(Value value);
  /// Whether `op` is lowered element by element into its users.
  static bool isForwarding(Operation *op);
  /// Whether `value` never exists whole (see the file comment).
  bool isVirtual(Value value);
  /// Records a use of `value` at `index`, through virtual values to their
  /// operands.
  void markUse(Value value, unsigned index, Block &block,
               llvm::DenseMap<Value, unsigned> &lastUse);

  Operation *func;
  int64_t threads;
  /// The largest own peak recorded so far (peakBlock's).
  int64_t peak = -1;
  /// derivesFrom's answers, by loadsOnly.
  llvm::DenseMap<Value, bool> derivesMemo[2];
  llvm::DenseMap<Value, bool> virtualMemo;
};

} // namespace

bool FootprintEstimator::derivesFrom(Value value, bool loadsOnly) {
  llvm::DenseMap<Value, bool> &memo = derivesMemo[loadsOnly];
  if (auto it = memo.find(value); it != memo.end())
    return it->second;
  bool result = false;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    result = !loadsOnly && argument.getOwner()->getParentOp() != func;
  } else {
    Operation *op = value.getDefiningOp();
    result = isa<tile::LoadOp, tile::AtomicRMWOp, tile::AtomicCASOp>(op) ||
             (!loadsOnly && op->getNumRegions() > 0) ||
             llvm::any_of(op->getOperands(),
                          [&](Value v) { return derivesFrom(v, loadsOnly); });
  }
  return derivesMemo[loadsOnly][value] = result;
}

int64_t FootprintEstimator::cost(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor || !isData(value))
    return 0;
  Type element = tensor.getElementType();
  if (element.isInteger(1) || (isa<tile::PointerType>(element) &&
                               !isa<BlockArgument>(value) && !isLoaded(value)))
    return 0;
  return registersPerThread(tensor, threads);
}

bool FootprintEstimator::isForwarding(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp>(op);
}

bool FootprintEstimator::isVirtual(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || !isForwarding(op))
    return false;
  if (isa<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp>(op))
    return true;
  if (auto it = virtualMemo.find(value); it != virtualMemo.end())
    return it->second;
  bool result = llvm::all_of(value.getUsers(), [&](Operation *user) {
    return user->getBlock() == op->getBlock() &&
           (isForwarding(user) || isa<tile::StoreOp>(user));
  });
  return virtualMemo[value] = result;
}

void FootprintEstimator::markUse(Value value, unsigned index, Block &block,
                                 llvm::DenseMap<Value, unsigned> &lastUse) {
  Block *owner = isa<BlockArgument>(value) ? cast<BlockArgument>(value).getOwner()
                                           : value.getDefiningOp()->getBlock();
  if (owner != &block)
    return;
  // Indices only grow: a value already used at `index` has had its
  // operands extended too (a chain of squares stays linear).
  auto [it, inserted] = lastUse.try_emplace(value, index);
  if (!inserted) {
    if (it->second >= index)
      return;
    it->second = index;
  }
  if (isVirtual(value))
    for (Value operand : value.getDefiningOp()->getOperands())
      markUse(operand, index, block, lastUse);
}

int64_t FootprintEstimator::peakIn(Block &block, int64_t outside) {
  llvm::DenseMap<Value, unsigned> lastUse;
  unsigned index = 0;
  for (Operation &op : block) {
    op.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        markUse(operand, index, block, lastUse);
    });
    ++index;
  }
  // Registers freed after each op: the values whose last use it is.
  SmallVector<int64_t> dyingAt(index, 0);
  for (auto &[value, last] : lastUse)
    if (!isVirtual(value))
      dyingAt[last] += cost(value);
  int64_t live = outside;
  for (BlockArgument argument : block.getArguments())
    if (lastUse.count(argument))
      live += cost(argument);
  // The most live in this block's own ops, and with its nested blocks.
  int64_t ownPeak = live, blockPeak = live;
  index = 0;
  for (Operation &op : block) {
    int64_t results = 0;
    for (Value result : op.getResults())
      if (!result.use_empty() && !isVirtual(result))
        results += cost(result);
    // A loop's initial values that die here live on as its body's
    // arguments, counted there.
    int64_t around = live;
    if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
      llvm::SmallDenseSet<Value> inits;
      for (Value init : loop.getInits())
        if (inits.insert(init).second && lastUse.lookup(init) == index && !isVirtual(init))
          around -= cost(init);
    }
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        blockPeak = std::max(blockPeak, peakIn(nested, around));
    int64_t dying = dyingAt[index];
    if (isForwarding(&op)) {
      live += results - dying;
      ownPeak = std::max(ownPeak, live);
    } else {
      ownPeak = std::max(ownPeak, live + results);
      live += results - dying;
    }
    ++index;
  }
  // A nested block that adds nothing to what is live around it (a
  // reduction's combiner) leaves the peak to its parent's block.
  bool adds = ownPeak > outside || !block.getParentOp() ||
              block.getParentOp() == func;
  if (adds && ownPeak > peak) {
    peak = ownPeak;
    peakBlock = &block;
  }
  return std::max(blockPeak, ownPeak);
}

RegisterFootprint mlir::tilec::estimateRegisterFootprint(Operation *func) {
  int64_t threads = std::max(1, tilegpu::TileGPUDialect::getThreadsPerProgram(func));
  RegisterFootprint result;
  FootprintEstimator estimator(func, threads);
  int64_t peak = 0;
  for (Region &region : func->getRegions())
    for (Block &block : region)
      peak = std::max(peak, estimator.peakIn(block, 0));
  result.peak = estimator.peakBlock;
  result.registers = peak + kScalarRegisters;
  int64_t allocated = llvm::alignTo(result.registers, 8);
  int64_t blocks = std::min({kRegistersPerSM / (allocated * threads),
                             kThreadsPerSM / threads, kBlocksPerSM});
  auto shared = func->getAttrOfType<IntegerAttr>(kSharedBytesAttr);
  if (shared && shared.getInt() > 0)
    blocks = std::min(blocks, kSharedBytesPerSM /
                                  (shared.getInt() + kSharedBytesReservedPerBlock));
  result.blocksPerSM = std::max<int64_t>(1, blocks);
  return result;
}
