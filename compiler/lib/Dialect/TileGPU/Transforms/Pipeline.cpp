//===- Pipeline.cpp - tilegpu-pipeline ------------------------------------===//
//
// Software pipelining of the global loads that feed tensor-core dots in
// loops: each such load becomes a cp.async copy into one of num_stages
// shared-memory slots, issued num_stages - 1 iterations ahead of the dot
// that reads it (docs/architecture.md, "Software pipelining"). On sm_90 a
// load with a tensor map (a host descriptor's, or one the kernel makes on
// sm_90a) that matches the slot's layout is copied by the tensor memory
// accelerator instead: thread 0 issues the copy, and an mbarrier per slot
// (its phase flipping at each use) says when it has landed. The other
// loads lose their maps.
//
// The analysis decides per loop which loads qualify and which ops compute
// their pointers and masks (stage 0: they run ahead with the copies); the
// rewrite then builds the prologue, the new loop and the drain.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/Allocation.h"
#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Analysis/RegisterFootprint.h"
#include "tilec/Analysis/TensorMap.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUPIPELINE
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// The most slots per load: more stages than this add shared memory and
/// prologue code without hiding more latency.
constexpr unsigned kMaxStages = 8;

/// Shared memory the driver reserves for each program on an SM (sm_80+).
constexpr int64_t kDriverSharedPerProgram = 1024;

/// A load that becomes asynchronous copies into slots.
struct PipelinedLoad {
  tile::LoadOp load;
  tile::DotOp dot;
  unsigned opIdx = 0; ///< Which operand of `dot` it is.
  /// The 2-D transpose between the load and a b operand (attention's
  /// `tl.dot(q, k.T)`), or null: the slot holds the operand [K, N]
  /// transposed, which is the loaded [N, K] tile row-major.
  tile::TransOp trans;
  /// The dot operand the slot holds: the load's tile, or its transpose.
  Value getOperand() const {
    return trans ? trans->getResult(0) : load->getResult(0);
  }
  RankedTensorType getOperandType() const {
    return cast<RankedTensorType>(getOperand().getType());
  }
  int64_t vec = 1;    ///< Elements per cp.async.
  /// Whether the copies run along dimension 0 (K of a b operand), into
  /// slots that store the tile transposed.
  bool transposed = false;
  /// Whether the tensor memory accelerator copies the tile (tma_copy with
  /// the load's tensor map) instead of cp.async.
  bool tma = false;
};

/// What the analysis found in one loop.
struct LoopPlan {
  scf::ForOp loop;
  unsigned numStages = 0;
  SmallVector<PipelinedLoad> loads;
  /// Ops of the body that run ahead with the copies (loads included).
  llvm::SetVector<Operation *> stage0;
  /// Iteration arguments (by number) that only stage 0 reads.
  llvm::SmallDenseSet<unsigned> stage0Args;
  /// Stage-0 ops computed from those arguments: they run only ahead (the
  /// other stage-0 ops, computed from the induction variable and
  /// invariants, also run for the current iteration when it needs them).
  llvm::SmallPtrSet<Operation *, 16> aheadOps;
  /// The wgmma dots whose group stays in flight into the next iteration
  /// (their result is only carried to it).
  llvm::SmallPtrSet<Operation *, 2> inFlightDots;

  /// Slots per load: one more than the stages when the previous iteration's
  /// wgmma may still read its slot while this iteration's copies are issued.
  unsigned getNumSlots() const {
    return numStages + (inFlightDots.empty() ? 0 : 1);
  }
  /// Iterations between a load's copy and the dot that reads it.
  unsigned getDistance() const { return numStages - 1; }
  /// Whether some loads are copied with cp.async / with the tensor memory
  /// accelerator.
  bool hasAsyncCopies() const {
    return llvm::any_of(loads, [](const PipelinedLoad &l) { return !l.tma; });
  }
  unsigned getNumTmaCopies() const {
    return llvm::count_if(loads, [](const PipelinedLoad &l) { return l.tma; });
  }
  /// Whether `op` is the transpose between a pipelined load and its dot.
  bool isPipelinedTrans(Operation *op) {
    return llvm::any_of(loads, [&](PipelinedLoad &l) {
      return l.trans && l.trans.getOperation() == op;
    });
  }
  /// Whether the dots run on wgmma (read the slots through the async proxy).
  bool hasWgmma() {
    return llvm::any_of(loads, [](PipelinedLoad &pipelined) {
      return cast<MmaEncodingAttr>(getLayout(pipelined.dot.getC().getType()))
                 .getVersion() == 3;
    });
  }
};

/// Whether `value` is a constant whose every element is +0.0.
bool isPositiveZero(Value value) {
  return matchPattern(value, m_PosZeroFloat());
}

/// Fills in the copy width of `pipelined` (elements per cp.async) and the
/// direction of its copies; false when its load cannot be copied
/// asynchronously. The copies run along the load layout's fastest
/// dimension: 1 (the slot stores the tile row-major), or 0 for a b operand
/// (the slot stores it transposed, as [N, K], which ldmatrix reads without
/// .trans and wgmma as a K-major b).
bool setCopyWidth(PipelinedLoad &pipelined,
                  const tilec::ModuleAxisInfo &axisInfo) {
  tile::LoadOp load = pipelined.load;
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2 ||
      type.getElementType().getIntOrFloatBitWidth() != 16)
    return false;
  if (load.getOther() && !isPositiveZero(load.getOther()))
    return false;
  auto layout = getBlockedEncoding(type);
  if (!layout || isReplicated(layout, type.getShape()))
    return false;
  unsigned dim = layout.getOrder()[0];
  // Through a transpose, only rows of the loaded tile: they are the
  // operand's columns of K, a transposed slot.
  if (pipelined.trans ? dim != 1 : dim != 1 && !(dim == 0 && pipelined.opIdx == 1))
    return false;
  int64_t run = getContigPerThread(layout, type.getShape())[dim];
  int64_t vec = axisInfo.getVectorWidth(load.getPtr(), dim, run);
  vec = std::min<int64_t>(vec, 8); // the 16-byte vectors of the swizzle
  if (Value mask = load.getMask())
    if (axisInfo.lookup(mask).getConstancy(dim) % vec != 0)
      return false;
  pipelined.vec = vec;
  pipelined.transposed = pipelined.trans || dim == 0;
  return vec * 2 >= 4;
}

/// Whether the tensor memory accelerator can copy `pipelined`'s tile in
/// `loop` (`tma_copy`): the load names a tensor map (getTensorMapInfo;
/// made in the kernel before the loop, only with `deviceMaps`) that fills
/// the tile's slot (fitsSlotPanels; transposed only for a b operand).
/// Out of bounds the map reads zeros, as the load's `other` must. Sets the
/// load's direction.
bool canCopyWithTma(PipelinedLoad &pipelined, scf::ForOp loop,
                    const tilec::ModuleAxisInfo &axisInfo, bool deviceMaps) {
  tile::LoadOp load = pipelined.load;
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!load.getTensormap() || !type ||
      (load.getOther() && !isPositiveZero(load.getOther())))
    return false;
  std::optional<tilec::TensorMapInfo> map =
      tilec::getTensorMapInfo(load.getTensormap(), load.getTmaParts(),
                              tilec::getElementBytes(type), loop, axisInfo, deviceMaps);
  if (!map)
    return false;
  // Through a transpose the slot holds the operand, the other way round.
  if (pipelined.trans) {
    map->transposed = !map->transposed;
    type = pipelined.trans.getType();
  }
  if (!tilec::fitsSlotPanels(*map, type) || (map->transposed && pipelined.opIdx != 1))
    return false;
  pipelined.transposed = map->transposed;
  return true;
}

/// Adds to `plan` the ops of the loop body that compute `values`, and the
/// iteration arguments they read (with what the previous iteration yields
/// for them). False when one of them cannot run ahead: it has regions or
/// side effects, or reads what a pipelined load loaded.
bool collectStage0(LoopPlan &plan, ArrayRef<Value> values) {
  Block *body = plan.loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Value> worklist(values);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != body || arg == plan.loop.getInductionVar())
        continue;
      unsigned number = arg.getArgNumber() - 1;
      if (plan.stage0Args.insert(number).second)
        worklist.push_back(yield.getOperand(number));
      continue;
    }
    Operation *op = value.getDefiningOp();
    if (op->getBlock() != body)
      continue;
    // A pipelined load's value exists only in its own iteration's slot.
    if (isa<tile::LoadOp>(op) && plan.stage0.contains(op))
      return false;
    if (plan.stage0.contains(op))
      continue;
    // Stage 0 runs for iterations that may not exist (before the loop, and
    // past its end): only ops that can run anywhere (no division by a value
    // that may be zero, no side effects).
    if (op->getNumRegions() != 0 || !isPure(op))
      return false;
    plan.stage0.insert(op);
    worklist.append(op->operand_begin(), op->operand_end());
  }
  return true;
}

/// Whether what stage 0 computes ahead stays its own: its iteration
/// arguments are unused after the loop, and nothing computed from them
/// reaches an op outside stage 0 or the yield of another argument
/// (stage-0 ops that read only the induction variable and invariants may
/// also serve the rest of the body).
bool isSelfContained(LoopPlan &plan) {
  Block *body = plan.loop.getBody();
  Operation *yield = body->getTerminator();
  SmallVector<Value> worklist;
  for (unsigned number : plan.stage0Args) {
    if (!plan.loop.getResult(number).use_empty())
      return false;
    worklist.push_back(plan.loop.getRegionIterArg(number));
  }
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = body->findAncestorOpInBlock(*use.getOwner());
      if (user == yield) {
        if (!plan.stage0Args.contains(use.getOperandNumber()))
          return false;
        continue;
      }
      if (!user || !plan.stage0.contains(user))
        return false;
      // A pipelined load's value comes from its slot, in its own iteration.
      if (!isa<tile::LoadOp>(user) && plan.aheadOps.insert(user).second)
        worklist.append(user->result_begin(), user->result_end());
    }
  }
  return true;
}

/// 32-bit registers per thread that a tile of `type` takes (at least 1).
int64_t getTileRegisters(Type type, int64_t threads) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 0;
  return std::max<int64_t>(1, tensor.getNumElements() *
                                  tilec::getElementBytes(tensor) / 4 / threads);
}

/// A rough count of the 32-bit registers each of `threads` threads needs
/// for the tiles `loop` holds at once: its dots' products and register
/// operands, and the carried tiles that are not products (attention's row
/// maxima and sums).
int64_t estimateTileRegisters(scf::ForOp loop, int64_t threads) {
  int64_t total = 0;
  loop.getBody()->walk([&](tile::DotOp dot) {
    total += getTileRegisters(dot.getType(), threads);
    if (isa_and_nonnull<DotOperandEncodingAttr>(
            getLayout(dot.getA().getType())))
      total += getTileRegisters(dot.getA().getType(), threads);
  });
  for (Value carried : loop.getYieldedValues())
    if (!carried.getDefiningOp<tile::DotOp>())
      total += getTileRegisters(carried.getType(), threads);
  return total;
}

/// Whether the accumulator that `dot` (in `body`, its result only yielded)
/// carries to the next iteration is read there only as `dot`'s own
/// accumulator or by ops before `dot`: a read after it would wait for the
/// group it just issued, and a copy forwarded through the yield would read
/// registers the next group writes.
bool isReadOnlyBefore(tile::DotOp dot, Block *body) {
  unsigned number = dot->getUses().begin()->getOperandNumber();
  for (OpOperand &use : body->getArgument(number + 1).getUses()) {
    Operation *user = body->findAncestorOpInBlock(*use.getOwner());
    if (&use == &dot.getCMutable())
      continue;
    if (!user || user == body->getTerminator() || user == dot ||
        !user->isBeforeInBlock(dot))
      return false;
  }
  return true;
}

/// The dots of `plan`'s loop that can leave their wgmma group in flight
/// into the next iteration: every dot of the loop is a wgmma (the others
/// wait for all groups, in flight or not, when they wait for their own), and
/// such a dot reads b from a slot and a from a slot or from registers, and
/// its result is only carried to the next iteration (flash attention's
/// `acc = dot(p, v, acc * alpha)`, a matmul's `acc = dot(a, b, acc)`).
/// Registers read by a group in flight stay allocated until it is done
/// (attention's p, 16 to 32 more per thread), which can halve how many
/// programs an SM holds: such a dot stays in flight only when the loop's
/// tiles already need more registers than two programs per SM leave each
/// thread (H100: head dim 128 on 8 warps, not head dim 64: measured in
/// bench/results/2026-11-25-h100-wgmma-attention).
llvm::SmallPtrSet<Operation *, 2> findInFlightDots(LoopPlan &plan) {
  Block *body = plan.loop.getBody();
  int64_t threads = TileGPUDialect::getThreadsPerProgram(plan.loop);
  bool registersBound = estimateTileRegisters(plan.loop, threads) >
                        tilec::kRegistersPerSM / (2 * threads);
  llvm::SmallPtrSet<Operation *, 2> dots;
  for (Operation &op : body->without_terminator()) {
    auto dot = dyn_cast<tile::DotOp>(op);
    if (!dot)
      continue;
    auto mma =
        dyn_cast_or_null<MmaEncodingAttr>(getLayout(dot.getC().getType()));
    if (!mma || mma.getVersion() != 3)
      return {};
    auto fromSlot = [&](unsigned opIdx) {
      return llvm::any_of(plan.loads, [&](PipelinedLoad &pipelined) {
        return pipelined.dot == dot && pipelined.opIdx == opIdx;
      });
    };
    bool aInRegisters = isa_and_nonnull<DotOperandEncodingAttr>(
        getLayout(dot.getA().getType()));
    if ((fromSlot(0) || (aInRegisters && registersBound)) && fromSlot(1) &&
        dot->hasOneUse() &&
        dot->getUses().begin()->getOwner() == body->getTerminator() &&
        isReadOnlyBefore(dot, body))
      dots.insert(dot);
  }
  return dots;
}

/// Whether anything in `loop`'s body may write memory (a store, an atomic,
/// a barrier, a debug print...): loads issued iterations ahead would then
/// pass writes of the iterations in between, which may alias them.
bool writesMemory(scf::ForOp loop) {
  WalkResult result = loop.getBody()->walk([](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (effects ? effects.hasEffect<MemoryEffects::Write>()
                : !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
                      !isa<scf::YieldOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Whether `loop` contains another loop. Only innermost loops are
/// pipelined: an outer loop's slots would add to its inner loops' (often
/// past the shared-memory limit), and the inner loops' waits would count the
/// outer loop's copies too.
bool containsLoop(scf::ForOp loop) {
  return loop.getBody()
      ->walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// The loads of `loop` to pipeline with `numStages` stages, or nothing.
std::optional<LoopPlan> analyzeLoop(scf::ForOp loop, unsigned numStages,
                                    const tilec::ModuleAxisInfo &axisInfo,
                                    StringRef target) {
  // The tensor memory accelerator (sm_90); maps made in the kernel need
  // tensormap.replace (sm_90a).
  bool hasTma = getComputeCapability(target) >= 90;
  bool deviceMaps = hasTma && target.ends_with("a");
  if (loop.getUnsignedCmp() || writesMemory(loop) || containsLoop(loop))
    return std::nullopt;
  LoopPlan plan;
  plan.loop = loop;
  plan.numStages = numStages;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto dot = dyn_cast<tile::DotOp>(op);
    if (!dot ||
        !isa_and_nonnull<MmaEncodingAttr>(getLayout(dot.getC().getType())))
      continue;
    for (unsigned opIdx : {0u, 1u}) {
      Value operand = dot->getOperand(opIdx);
      auto trans = operand.getDefiningOp<tile::TransOp>();
      if (trans && (opIdx != 1 || !trans->hasOneUse() ||
                    trans->getBlock() != loop.getBody()))
        continue;
      auto load = (trans ? trans.getSrc() : operand).getDefiningOp<tile::LoadOp>();
      if (!load || load->getBlock() != loop.getBody() || !load->hasOneUse() ||
          !load->getDiscardableAttrs().empty())
        continue;
      PipelinedLoad pipelined{load, dot, opIdx, trans};
      pipelined.tma = hasTma && canCopyWithTma(pipelined, loop, axisInfo, deviceMaps);
      if (pipelined.tma || setCopyWidth(pipelined, axisInfo))
        plan.loads.push_back(pipelined);
    }
  }
  if (plan.loads.empty())
    return std::nullopt;
  // A loop copies one way when it can: with some operands through the
  // tensor memory accelerator and others through cp.async, each iteration
  // waits for both (on the H200, causal attention with V through maps and
  // K^T through cp.async ran at 0.65 of Triton, 0.78 with both through
  // cp.async: bench/results/2026-11-28-h200-device-tma).
  if (llvm::any_of(plan.loads, [](const PipelinedLoad &p) { return !p.tma; }))
    for (PipelinedLoad &pipelined : plan.loads) {
      PipelinedLoad async{pipelined.load, pipelined.dot, pipelined.opIdx, pipelined.trans};
      if (pipelined.tma && setCopyWidth(async, axisInfo))
        pipelined = async;
    }
  for (PipelinedLoad &pipelined : plan.loads)
    plan.stage0.insert(pipelined.load);
  for (PipelinedLoad &pipelined : plan.loads) {
    // A copy by the tensor memory accelerator needs only the coordinates;
    // the pointers and the mask run ahead all the same (unused, they fold
    // away), so that what they read stays stage 0's.
    SmallVector<Value> operands{pipelined.load.getPtr()};
    if (Value mask = pipelined.load.getMask())
      operands.push_back(mask);
    if (pipelined.tma)
      llvm::append_range(operands, pipelined.load.getTmaCoords());
    if (!collectStage0(plan, operands))
      return std::nullopt;
  }
  if (!isSelfContained(plan))
    return std::nullopt;
  plan.inFlightDots = findInFlightDots(plan);
  return plan;
}

/// Bytes one slot of `load`'s tile takes.
int64_t getSlotBytes(tile::LoadOp load) {
  auto type = cast<RankedTensorType>(load.getType());
  return type.getNumElements() * tilec::getElementBytes(type);
}

/// Builds the prologue, the pipelined loop and the drain for `plan`.
class LoopPipeliner {
public:
  explicit LoopPipeliner(LoopPlan &plan) : plan(plan), loop(plan.loop) {}

  void run() {
    OpBuilder builder(loop);
    Location loc = loop.getLoc();
    for (PipelinedLoad &pipelined : plan.loads) {
      RankedTensorType type = pipelined.getOperandType();
      SmallVector<int64_t> shape{plan.getNumSlots()};
      shape.append(type.getShape().begin(), type.getShape().end());
      SmallVector<unsigned> order{1, 0};
      if (pipelined.transposed)
        order = {0, 1};
      auto shared = SwizzledSharedEncodingAttr::getForLdmatrix(
          builder.getContext(), type.getShape(), 16, order);
      auto memdesc = MemDescType::get(builder.getContext(), shape,
                                      type.getElementType(), shared);
      buffers.push_back(
          LocalAllocOp::create(builder, pipelined.load.getLoc(), memdesc));
    }
    // One mbarrier per slot, on which every copy of the tensor memory
    // accelerator into that slot's iteration arrives.
    if (unsigned copies = plan.getNumTmaCopies()) {
      auto i64 = builder.getI64Type();
      auto memdesc = MemDescType::get(
          builder.getContext(), {plan.getNumSlots(), 1, 1}, i64,
          SwizzledSharedEncodingAttr::get(builder.getContext(), 1, 1, 1,
                                          {1, 0}));
      barriers = LocalAllocOp::create(builder, loc, memdesc);
      InitBarriersOp::create(builder, loc, barriers, copies);
      tile::BarrierOp::create(builder, loc);
    }

    // Prologue: iterations 0 .. distance-1 into slots 0 .. distance-1.
    IRMapping prologue;
    for (unsigned number : plan.stage0Args)
      prologue.map(loop.getRegionIterArg(number), loop.getInitArgs()[number]);
    for (unsigned j = 0; j < plan.getDistance(); ++j)
      for (auto [arg, value] :
           emitStage0(builder, prologue, loop.getLowerBound(), j,
                      constant(builder, builder.getI32Type(), j)))
        prologue.map(arg, value);

    // The loop: the stage-0 arguments start `distance` iterations ahead;
    // one more argument counts the slot to read.
    SmallVector<Value> inits(loop.getInitArgs());
    for (unsigned number : plan.stage0Args)
      inits[number] = prologue.lookupOrDefault(loop.getRegionIterArg(number));
    inits.push_back(constant(builder, builder.getI32Type(), 0));
    // With mbarriers, one more: the parity of the slot's phase to wait for.
    if (barriers)
      inits.push_back(constant(builder, builder.getI32Type(), 0));
    SmallVector<Value> results = emitLoop(builder, inits);

    // Drain: the last copies (all masked off) complete, and a barrier
    // passes, before the slots' bytes are reused.
    if (plan.hasAsyncCopies())
      AsyncWaitOp::create(builder, loc, 0);
    // Every thread's copies have landed and every read of the slots is done
    // before anything reuses their bytes.
    tile::BarrierOp::create(builder, loc);
    // Every wait on the mbarriers is over: they may be invalidated, and
    // their bytes reused after another barrier.
    if (barriers) {
      InvalBarriersOp::create(builder, loc, barriers);
      tile::BarrierOp::create(builder, loc);
    }
    for (auto [oldResult, newResult] : llvm::zip(loop.getResults(), results))
      oldResult.replaceAllUsesWith(newResult);
    loop.erase();
  }

private:
  /// The pipelined loop from `inits`, and its results. With dots kept in
  /// flight, a wait for every group after it makes their accumulators
  /// final, and the loop and that wait run only when the loop has
  /// iterations (an scf.if): otherwise a path would reach the wait, or a
  /// copy of the loop's results, with registers that no wgmma wrote, and
  /// ptxas would serialize every wgmma of the function (C7514, C7515).
  SmallVector<Value> emitLoop(OpBuilder &builder, ArrayRef<Value> inits) {
    Location loc = loop.getLoc();
    auto create = [&](OpBuilder &at) {
      auto newLoop = scf::ForOp::create(at, loc, loop.getLowerBound(),
                                        loop.getUpperBound(), loop.getStep(),
                                        inits);
      buildBody(newLoop);
      return newLoop;
    };
    if (plan.inFlightDots.empty())
      return create(builder)->getResults();
    Value ran = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                      loop.getLowerBound(),
                                      loop.getUpperBound());
    auto ifRan = scf::IfOp::create(builder, loc, ValueRange(inits).getTypes(),
                                   ran, /*withElseRegion=*/true);
    OpBuilder thenBuilder = ifRan.getThenBodyBuilder();
    scf::ForOp newLoop = create(thenBuilder);
    SmallVector<Value> results(newLoop.getResults());
    for (Operation *dot : plan.inFlightDots) {
      unsigned number = dot->getUses().begin()->getOperandNumber();
      results[number] =
          WgmmaWaitOp::create(thenBuilder, dot->getLoc(),
                              results[number].getType(), results[number], 0);
    }
    scf::YieldOp::create(thenBuilder, loc, results);
    OpBuilder elseBuilder = ifRan.getElseBodyBuilder();
    scf::YieldOp::create(elseBuilder, loc, inits);
    return ifRan.getResults();
  }

  static Value constant(OpBuilder &builder, Type type, int64_t value) {
    return arith::ConstantOp::create(builder, builder.getUnknownLoc(),
                                     builder.getIntegerAttr(type, value));
  }

  /// Clones stage 0 for the iteration `offset` steps after induction value
  /// `base` (the arguments it reads mapped in `mapping`), turns its loads
  /// into copies into `slot`, masked off past the loop's end (decided in 64
  /// bits, so that an induction value wrapping around cannot pass), commits
  /// them as one group, and returns the values this iteration yields for
  /// the stage-0 arguments (the caller maps them for the next one).
  SmallVector<std::pair<Value, Value>> emitStage0(OpBuilder &builder,
                                                  IRMapping &mapping,
                                                  Value base, int64_t offset,
                                                  Value slot) {
    Location loc = loop.getLoc();
    Value step = loop.getStep();
    Value iv = base;
    if (offset != 0)
      iv = arith::AddIOp::create(
          builder, loc, base,
          arith::MulIOp::create(builder, loc, step,
                                constant(builder, step.getType(), offset)));
    mapping.map(loop.getInductionVar(), iv);
    Value inRange;
    if (step.getType().isIndex() ||
        step.getType().getIntOrFloatBitWidth() >= 64) {
      inRange = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                      iv, loop.getUpperBound());
    } else {
      Type i64 = builder.getI64Type();
      auto wide = [&](Value v) -> Value {
        return arith::ExtSIOp::create(builder, loc, i64, v);
      };
      Value wideIv = arith::AddIOp::create(
          builder, loc, wide(base),
          arith::MulIOp::create(builder, loc, wide(step),
                                constant(builder, i64, offset)));
      inRange = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                      wideIv, wide(loop.getUpperBound()));
    }
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (!plan.stage0.contains(&op))
        continue;
      auto load = dyn_cast<tile::LoadOp>(op);
      if (!load) {
        builder.clone(op, mapping);
        continue;
      }
      unsigned index = getLoadIndex(load);
      if (plan.loads[index].tma) {
        // The slot's tile first: through a transpose, the other way round.
        SmallVector<Value> coords;
        for (Value coord : load.getTmaCoords())
          coords.push_back(mapping.lookupOrDefault(coord));
        if (plan.loads[index].trans)
          std::reverse(coords.begin(), coords.end());
        TmaCopyOp::create(builder, load.getLoc(), load.getTensormap(), coords,
                          buffers[index], slot, barriers, inRange);
        continue;
      }
      auto type = cast<RankedTensorType>(load.getType());
      auto maskType = RankedTensorType::get(
          type.getShape(), builder.getI1Type(), type.getEncoding());
      Value mask =
          tile::SplatOp::create(builder, load.getLoc(), maskType, inRange);
      if (Value userMask = load.getMask())
        mask = arith::AndIOp::create(builder, load.getLoc(),
                                     mapping.lookupOrDefault(userMask), mask);
      auto copy = AsyncCopyOp::create(builder, load.getLoc(),
                                      mapping.lookupOrDefault(load.getPtr()),
                                      buffers[index], slot, mask, plan.loads[index].vec);
      if (plan.loads[index].trans)
        copy.setTranspose(true);
    }
    if (plan.hasAsyncCopies())
      AsyncCommitGroupOp::create(builder, loc);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    SmallVector<std::pair<Value, Value>> next;
    for (unsigned number : plan.stage0Args)
      next.push_back({loop.getRegionIterArg(number),
                      mapping.lookupOrDefault(yield.getOperand(number))});
    return next;
  }

  /// The body of the pipelined loop: wait for this iteration's slot, read
  /// it, issue the copies `stages - 1` iterations ahead into a slot whose
  /// readers are done, then the original computation.
  void buildBody(scf::ForOp newLoop) {
    OpBuilder builder = OpBuilder::atBlockBegin(newLoop.getBody());
    Location loc = loop.getLoc();
    unsigned slotArg = loop.getNumRegionIterArgs();
    Value slot = newLoop.getRegionIterArgs()[slotArg];
    Value phase = barriers ? newLoop.getRegionIterArgs()[slotArg + 1] : Value();
    Type i32 = builder.getI32Type();
    unsigned distance = plan.getDistance(), slots = plan.getNumSlots();
    if (plan.hasAsyncCopies())
      AsyncWaitOp::create(builder, loc, distance - 1);
    if (barriers)
      WaitBarrierOp::create(builder, loc, barriers, slot, phase);
    // wgmma reads the slots through the async proxy.
    if (plan.hasWgmma())
      FenceAsyncSharedOp::create(builder, loc);
    tile::BarrierOp::create(builder, loc);

    IRMapping current;
    current.map(loop.getInductionVar(), newLoop.getInductionVar());
    for (auto [oldArg, newArg] :
         llvm::zip(loop.getRegionIterArgs(), newLoop.getRegionIterArgs()))
      current.map(oldArg, newArg);
    for (auto [index, pipelined] : llvm::enumerate(plan.loads)) {
      RankedTensorType type = pipelined.getOperandType();
      auto mma =
          cast<MmaEncodingAttr>(getLayout(pipelined.dot.getC().getType()));
      auto operandType = RankedTensorType::get(
          type.getShape(), type.getElementType(),
          DotOperandEncodingAttr::get(builder.getContext(), pipelined.opIdx,
                                      mma, 2));
      current.map(pipelined.getOperand(),
                  LocalLoadOp::create(builder, pipelined.load.getLoc(),
                                      operandType, buffers[index], slot));
    }

    // Ahead: iteration i + distance into slot (slot + distance) mod slots,
    // the slot last read `slots - distance` iterations ago.
    IRMapping ahead;
    for (unsigned number : plan.stage0Args)
      ahead.map(loop.getRegionIterArg(number),
                newLoop.getRegionIterArgs()[number]);
    Value sum = arith::AddIOp::create(builder, loc, slot,
                                      constant(builder, i32, distance));
    Value wrapsAround =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, sum,
                              constant(builder, i32, slots));
    Value writeSlot = arith::SelectOp::create(
        builder, loc, wrapsAround,
        arith::SubIOp::create(builder, loc, sum, constant(builder, i32, slots)),
        sum);
    SmallVector<std::pair<Value, Value>> next = emitStage0(
        builder, ahead, newLoop.getInductionVar(), distance, writeSlot);

    // The original computation, reading the slots; stage-0 ops that only
    // fed the loads are left behind.
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    // Stage-0 ops that do not depend on the arguments running ahead are
    // cloned too (whatever the rest needs of them; unused ones fold away).
    for (Operation &op : loop.getBody()->without_terminator()) {
      if ((isa<tile::LoadOp>(op) && plan.stage0.contains(&op)) ||
          plan.aheadOps.contains(&op) || plan.isPipelinedTrans(&op))
        continue;
      waitBeforeUse(builder, op, current);
      Operation *clone = builder.clone(op, current);
      // The dot leaves its group in flight; waiting for the previous
      // iteration's group frees that iteration's slots.
      if (plan.inFlightDots.contains(&op)) {
        clone->setAttr(TileGPUDialect::kWgmmaAsyncAttr, builder.getUnitAttr());
        current.map(op.getResult(0),
                    WgmmaWaitOp::create(builder, clone->getLoc(),
                                        clone->getResult(0).getType(),
                                        clone->getResult(0), 1));
      }
    }
    llvm::DenseMap<Value, Value> nextOf(next.begin(), next.end());
    SmallVector<Value> results;
    for (auto [number, value] : llvm::enumerate(yield.getOperands()))
      results.push_back(plan.stage0Args.contains(number)
                            ? nextOf.lookup(loop.getRegionIterArg(number))
                            : current.lookupOrDefault(value));
    Value nextSlot =
        arith::AddIOp::create(builder, loc, slot, constant(builder, i32, 1));
    Value wraps =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, nextSlot,
                              constant(builder, i32, slots));
    results.push_back(arith::SelectOp::create(
        builder, loc, wraps, constant(builder, i32, 0), nextSlot));
    // A slot's next use waits for the other parity.
    if (barriers)
      results.push_back(arith::SelectOp::create(
          builder, loc, wraps,
          arith::XOrIOp::create(builder, loc, phase, constant(builder, i32, 1)),
          phase));
    scf::YieldOp::create(builder, loc, results);
  }

  /// Before `op`, when it is the first to read an accumulator that an
  /// in-flight dot of the previous iteration still writes, other than as
  /// that dot's own accumulator (which wgmma chains in order): a wait for
  /// every group, which `current` maps the accumulator to from then on.
  /// Placed at the first use, the wait lets the group run while the
  /// iteration's first ops (and a dot that waits for its own group) go on.
  void waitBeforeUse(OpBuilder &builder, Operation &op, IRMapping &current) {
    for (Operation *dot : plan.inFlightDots) {
      unsigned number = dot->getUses().begin()->getOperandNumber();
      Value carried = loop.getRegionIterArg(number);
      if (waited.contains(carried) ||
          (&op == dot && cast<tile::DotOp>(dot).getC() == carried))
        continue;
      bool reads = false;
      op.walk([&](Operation *nested) {
        reads |= llvm::is_contained(nested->getOperands(), carried);
      });
      if (!reads)
        continue;
      waited.insert(carried);
      Value value = current.lookup(carried);
      current.map(carried, WgmmaWaitOp::create(builder, dot->getLoc(),
                                               value.getType(), value, 0));
    }
  }

  unsigned getLoadIndex(tile::LoadOp load) const {
    for (auto [index, pipelined] : llvm::enumerate(plan.loads))
      if (pipelined.load == load)
        return index;
    llvm_unreachable("not a pipelined load");
  }

  LoopPlan &plan;
  scf::ForOp loop;
  SmallVector<Value> buffers;
  /// The slots' mbarriers, when the tensor memory accelerator copies.
  Value barriers;
  /// Carried accumulators already waited for in the new loop's body.
  llvm::SmallPtrSet<Value, 2> waited;
};

struct PipelinePass : tilegpu::impl::TileGPUPipelineBase<PipelinePass> {
  using Base::Base;

  void runOnOperation() override {
    if (getComputeCapability(target) >= 80)
      pipelineLoops();
    // The loads left read through their pointers: their maps go, and with
    // them the maps made in the kernel that nothing copies with.
    getOperation().walk([](tile::LoadOp load) {
      if (!load.getTensormap())
        return;
      load.getTensormapMutable().clear();
      load.getTmaCoordsMutable().clear();
      load.getTmaPartsMutable().clear();
    });
  }

  void pipelineLoops() {
    ModuleOp module = getOperation();
    tilec::ModuleAxisInfo axisInfo(module);
    std::vector<LoopPlan> plans;
    module.walk([&](func::FuncOp func) {
      auto funcStages = func->getAttrOfType<IntegerAttr>(tile::kNumStagesAttr);
      func.walk([&](scf::ForOp loop) {
        // tl.range(..., num_stages=) on the loop, else the kernel's.
        auto stagesAttr =
            loop->getAttrOfType<IntegerAttr>(tile::kNumStagesAttr);
        if (!stagesAttr)
          stagesAttr = funcStages;
        if (!stagesAttr || stagesAttr.getInt() < 2)
          return;
        unsigned stages = std::min<int64_t>(stagesAttr.getInt(), kMaxStages);
        std::optional<LoopPlan> plan = analyzeLoop(
            loop, stages, axisInfo, target);
        if (!plan)
          return;
        // The slots live through the loop: beside the largest buffer of an
        // op inside it (buffers of ops elsewhere may reuse their bytes),
        // but for dots whose operands all come from slots (no staging).
        int64_t otherBytes = 0;
        loop->walk([&](Operation *op) {
          auto dot = dyn_cast<tile::DotOp>(op);
          if (dot && llvm::count_if(plan->loads, [&](PipelinedLoad &pipelined) {
                       return pipelined.dot == dot;
                     }) == 2)
            return;
          otherBytes = std::max(otherBytes, tilec::getScratchBytes(op));
        });
        // An mbarrier per slot: 8 bytes, counted as 16.
        int64_t slotBytes = plan->getNumTmaCopies() ? 16 : 0;
        for (PipelinedLoad &pipelined : plan->loads)
          slotBytes += getSlotBytes(pipelined.load);
        auto fits = [&] {
          return sharedMemoryLimit <= 0 ||
                 plan->getNumSlots() * slotBytes + otherBytes <=
                     sharedMemoryLimit;
        };
        if (!fits())
          plan->inFlightDots.clear();
        // Two programs per SM hide the products' latency as well as a
        // group kept in flight does, and overlap one's epilogue with the
        // other's loop: the in-flight slot goes when it alone keeps a second
        // program off the SM (3 stages of 128x128x64 fp16: 96 KB without
        // it, two per SM on an H100; 128 KB with it, one).
        // Only where the registers let two programs share the SM too, and
        // not in a loop nested in another: a persistent kernel's programs
        // (one per SM) walk their tiles in an outer loop. Measured on the
        // H200 (bench/results/2026-11-27-h200-two-per-sm): a 4096^3
        // host-descriptor matmul went from 0.82 to 0.97 of Triton; small
        // grids, which leave SMs with one program anyway, lose (1000^3:
        // 0.62 to 0.53).
        int64_t perSM = getSharedMemoryPerSM(target);
        int64_t threads = TileGPUDialect::getThreadsPerProgram(loop);
        auto twoPerSM = [&](unsigned slots) {
          return 2 * (slots * slotBytes + otherBytes + kDriverSharedPerProgram) <= perSM;
        };
        if (!plan->inFlightDots.empty() && perSM > 0 &&
            !loop->getParentOfType<scf::ForOp>() &&
            estimateTileRegisters(loop, threads) <= tilec::kRegistersPerSM / (2 * threads) &&
            !twoPerSM(plan->getNumSlots()) && twoPerSM(plan->numStages))
          plan->inFlightDots.clear();
        while (plan->numStages > 2 && !fits())
          --plan->numStages;
        if (!fits())
          return;
        plans.push_back(std::move(*plan));
      });
    });
    for (LoopPlan &plan : plans)
      LoopPipeliner(plan).run();
  }
};

} // namespace
