//===- ScanOpToLLVM.cpp - Inclusive scans along one axis (cumsum) ---------===//
//
// tile.scan in one of two ways. The earlier segment of the axis (lower
// indices) is always the combine region's left operand, so an associative
// but not commutative combination is applied in order, forward or reversed.
//
// A blocked source, in work linear in the elements: each row along the
// axis is cut into segments (the layout's CTA tile repeats along the axis;
// within a repetition, the warps along it), and each segment into the
// threads' runs of consecutive elements.
//  1. Each thread scans its runs in registers.
//  2. The lanes along the axis scan their runs' totals with shuffles
//     (Hillis-Steele over the lanes that hold distinct elements); each
//     thread gets the combination of the runs before its own in the segment.
//  3. With more than one segment per row, every lane writes its segment's
//     total to scratch (one slot per row and segment), a barrier, and each
//     thread combines the totals of the segments before its own, in order.
// Each thread then combines its prefix into each element of its runs.
// Scratch: per source, elemBytes * rows * segments, rounded up to 8 bytes
// (Allocation.h).
//
// Any other layout (MMA accumulators, slices) goes through scratch holding
// the whole tile, as a Hillis-Steele scan over elements: for d = 1, 2, 4, ...
// below the axis length, every thread writes its values, a barrier, and each
// element at axis index i combines the value at i - d (i + d reversed).
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/Allocation.h"
#include "tilec/Conversion/TileGPUToLLVM/CombineRegion.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// The values of all sources at one element (or a combination of elements).
using Values = SmallVector<Value>;

/// A combination that may still be empty: `valid` (an i1, or null when
/// known true) says whether `values` holds anything yet.
struct Partial {
  Values values;
  Value valid;
  bool empty = true; ///< Known empty at compile time.
};

struct ScanOpConversion : OpConversionPattern<tile::ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    SmallVector<Values> values; // [source][register]
    for (Value src : adaptor.getSrcs())
      values.push_back(unpackElements(op.getLoc(), src, rewriter));
    if (srcType.getDimSize(op.getAxis()) == 1) {
      rewriter.replaceOp(op, adaptor.getSrcs());
      return success();
    }
    LogicalResult lowered =
        isa<tilegpu::BlockedEncodingAttr>(srcType.getEncoding())
            ? scanBlocked(op, rewriter, values)
            : scanThroughScratch(op, rewriter, values);
    if (failed(lowered))
      return failure();
    SmallVector<Value> results;
    for (unsigned s = 0; s < values.size(); ++s)
      results.push_back(packElements(
          op.getLoc(), values[s],
          getTypeConverter()->convertType(op.getResult(s).getType()),
          rewriter));
    rewriter.replaceOp(op, results);
    return success();
  }

private:
  /// `lower` then `higher` through the combine region (lower indices left).
  static Values combine(ConversionPatternRewriter &rewriter, tile::ScanOp op,
                        ArrayRef<Value> lower, ArrayRef<Value> higher) {
    return emitCombine(rewriter, op.getCombineOp(), lower, higher);
  }

  /// Adds `next` to `partial` on the side the scan's direction says (after
  /// it forward, before it reversed), where `when` (null: always) holds.
  static void accumulate(ConversionPatternRewriter &rewriter, tile::ScanOp op,
                         Partial &partial, ArrayRef<Value> next, Value when) {
    Location loc = op.getLoc();
    Values updated(next.begin(), next.end());
    if (!partial.empty) {
      updated = op.getReverse() ? combine(rewriter, op, next, partial.values)
                                : combine(rewriter, op, partial.values, next);
      for (unsigned s = 0; s < updated.size(); ++s) {
        // A partial that may hold nothing yet gives `next` alone.
        if (partial.valid)
          updated[s] = LLVM::SelectOp::create(rewriter, loc, partial.valid,
                                              updated[s], next[s]);
        if (when)
          updated[s] = LLVM::SelectOp::create(rewriter, loc, when, updated[s],
                                              partial.values[s]);
      }
    }
    if (!when)
      partial.valid = Value();
    else if (partial.empty)
      partial.valid = when;
    else if (partial.valid)
      partial.valid = LLVM::OrOp::create(rewriter, loc, partial.valid, when);
    partial.values = std::move(updated);
    partial.empty = false;
  }

  /// The scan of a blocked source (the file comment's steps 1-3), in place
  /// in `values`.
  LogicalResult scanBlocked(tile::ScanOp op,
                            ConversionPatternRewriter &rewriter,
                            SmallVector<Values> &values) const {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    Attribute layout = srcType.getEncoding();
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned axis = op.getAxis();
    bool reverse = op.getReverse();
    unsigned numSrcs = values.size();
    int64_t size = shape[axis];
    tilegpu::DimDistribution along =
        *tilegpu::getDimDistribution(layout, axis);
    int64_t lanes = along.getDistinctLanes(size);
    int64_t segments = getScanSegments(op);
    int64_t warps = along.getDistinctWarps(size);
    int64_t tileExtent = along.warpExtent * along.warps;

    // The registers of each row along the axis, by repetition, each run in
    // the order of its elements.
    SmallVector<SmallVector<int64_t>> offsets = getElemOffsets(layout, shape);
    std::map<SmallVector<int64_t>, unsigned> rowOf;
    SmallVector<std::map<int64_t, SmallVector<unsigned>>> rows;
    for (auto [reg, offset] : llvm::enumerate(offsets)) {
      SmallVector<int64_t> key(offset);
      key[axis] = 0;
      auto [it, inserted] = rowOf.try_emplace(key, rows.size());
      if (inserted)
        rows.emplace_back();
      rows[it->second][offset[axis] / tileExtent].push_back(reg);
    }
    for (auto &runs : rows)
      for (auto &[rep, regs] : runs)
        llvm::stable_sort(regs, [&](unsigned a, unsigned b) {
          return offsets[a][axis] < offsets[b][axis];
        });
    auto valuesAt = [&](unsigned reg) {
      Values at;
      for (unsigned s = 0; s < numSrcs; ++s)
        at.push_back(values[s][reg]);
      return at;
    };

    // Where this thread sits along the axis.
    Type i32 = rewriter.getI32Type();
    auto constant = [&](int64_t v) { return i32Constant(loc, rewriter, v); };
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
    Value laneId = LLVM::URemOp::create(rewriter, loc, tid, constant(32));
    Value warpId = LLVM::UDivOp::create(rewriter, loc, tid, constant(32));
    Value laneAlong = LLVM::URemOp::create(
        rewriter, loc,
        LLVM::UDivOp::create(rewriter, loc, laneId, constant(along.laneStride)),
        constant(lanes));
    Value warpAlong = LLVM::URemOp::create(
        rewriter, loc,
        LLVM::UDivOp::create(rewriter, loc, warpId, constant(along.warpStride)),
        constant(warps));
    auto shuffle = [&](ArrayRef<Value> from, Value lane) {
      Values moved;
      for (Value v : from)
        moved.push_back(
            emitShuffle(loc, rewriter, v, lane, NVVM::ShflKind::idx));
      return moved;
    };
    // The lane `steps` lanes along the axis earlier in the scan's order
    // (later indices when reversed), and whether it exists.
    auto earlierLane = [&](int64_t steps) -> std::pair<Value, Value> {
      Value exists, lane;
      Value distance = constant(steps * along.laneStride);
      if (reverse) {
        exists = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::ult,
            LLVM::AddOp::create(rewriter, loc, laneAlong, constant(steps)),
            constant(lanes));
        lane = LLVM::AddOp::create(rewriter, loc, laneId, distance);
      } else {
        exists = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::uge,
                                      laneAlong, constant(steps));
        lane = LLVM::SubOp::create(rewriter, loc, laneId, distance);
      }
      return {exists, LLVM::SelectOp::create(rewriter, loc, exists, lane, laneId)};
    };

    // Steps 1 and 2, per row and repetition: the run's scan in registers,
    // the lanes' inclusive scan of the runs' totals, then each thread's
    // prefix within its segment (the totals of the lanes before it).
    // prefixes[row][rep]: that prefix; totals[row][rep]: the segment's.
    SmallVector<SmallVector<Partial>> prefixes(rows.size());
    SmallVector<SmallVector<Values>> totals(rows.size());
    for (auto [row, runs] : llvm::enumerate(rows))
      for (auto &[rep, regs] : runs) {
        Partial run;
        SmallVector<unsigned> order(regs);
        if (reverse)
          std::reverse(order.begin(), order.end());
        for (unsigned reg : order) {
          accumulate(rewriter, op, run, valuesAt(reg), Value());
          for (unsigned s = 0; s < numSrcs; ++s)
            values[s][reg] = run.values[s];
        }
        Values inclusive = run.values;
        for (int64_t step = 1; step < lanes; step *= 2) {
          auto [exists, lane] = earlierLane(step);
          Values other = shuffle(inclusive, lane);
          Values combined = reverse ? combine(rewriter, op, inclusive, other)
                                    : combine(rewriter, op, other, inclusive);
          for (unsigned s = 0; s < numSrcs; ++s)
            inclusive[s] = LLVM::SelectOp::create(rewriter, loc, exists,
                                                  combined[s], inclusive[s]);
        }
        Partial prefix;
        if (lanes > 1) {
          auto [exists, lane] = earlierLane(1);
          accumulate(rewriter, op, prefix, shuffle(inclusive, lane), exists);
        }
        prefixes[row].push_back(std::move(prefix));
        if (segments > 1) {
          // The segment's total: the inclusive scan of its last lane in the
          // scan's order.
          Value last = LLVM::AddOp::create(
              rewriter, loc, laneId,
              LLVM::MulOp::create(
                  rewriter, loc,
                  reverse ? LLVM::SubOp::create(rewriter, loc, constant(0),
                                                laneAlong)
                                .getResult()
                          : LLVM::SubOp::create(rewriter, loc,
                                                constant(lanes - 1), laneAlong)
                                .getResult(),
                  constant(along.laneStride)));
          totals[row].push_back(shuffle(inclusive, last));
        }
      }

    // Step 3: the segments before this thread's, through scratch.
    if (segments > 1 &&
        failed(addEarlierSegments(op, rewriter, rows, totals, warpAlong,
                                  warps, segments, prefixes)))
      return failure();

    for (auto [row, runs] : llvm::enumerate(rows))
      for (auto [index, entry] : llvm::enumerate(runs)) {
        Partial &prefix = prefixes[row][index];
        if (prefix.empty)
          continue;
        for (unsigned reg : entry.second) {
          Values mine = valuesAt(reg);
          Values combined = reverse ? combine(rewriter, op, mine, prefix.values)
                                    : combine(rewriter, op, prefix.values, mine);
          for (unsigned s = 0; s < numSrcs; ++s)
            values[s][reg] =
                prefix.valid ? LLVM::SelectOp::create(rewriter, loc,
                                                      prefix.valid,
                                                      combined[s], mine[s])
                                   .getResult()
                             : combined[s];
        }
      }
    return success();
  }

  /// Each source's part of the op's scratch at `base`
  /// (getScanScratchElements elements each, one after another, each part
  /// rounded up to kScratchSourceAlignment bytes) and the sources' converted
  /// element types.
  void splitScratch(tile::ScanOp op, ConversionPatternRewriter &rewriter,
                    Value base, SmallVector<Value> &buffers,
                    SmallVector<Type> &types) const {
    auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    int64_t elements = getScanScratchElements(op), byteOffset = 0;
    for (Value src : op.getSrcs()) {
      Type elementType = getElementTypeOrSelf(src.getType());
      types.push_back(getTypeConverter()->convertType(elementType));
      buffers.push_back(LLVM::GEPOp::create(
          rewriter, op.getLoc(), sharedPtr, rewriter.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(byteOffset)}));
      byteOffset += llvm::alignTo(getElementBytes(elementType) * elements,
                                  kScratchSourceAlignment);
    }
  }

  /// Step 3: every lane writes each of its segments' totals to the slot
  /// (row, repetition * warps + warp along the axis) of each source's
  /// scratch, a barrier, and each thread accumulates into each of its
  /// prefixes the totals of the segments before its own, in the scan's
  /// order.
  LogicalResult addEarlierSegments(
      tile::ScanOp op, ConversionPatternRewriter &rewriter,
      ArrayRef<std::map<int64_t, SmallVector<unsigned>>> rows,
      ArrayRef<SmallVector<Values>> totals, Value warpAlong, int64_t warps,
      int64_t segments, SmallVector<SmallVector<Partial>> &prefixes) const {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned axis = op.getAxis();
    bool reverse = op.getReverse();
    Value base = getScratchBase(loc, rewriter, op);
    if (!base)
      return failure();
    auto constant = [&](int64_t v) { return i32Constant(loc, rewriter, v); };

    SmallVector<int64_t> rowShape(shape);
    rowShape.erase(rowShape.begin() + axis);
    auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    SmallVector<Value> buffers;
    SmallVector<Type> types;
    splitScratch(op, rewriter, base, buffers, types);
    auto slotPtr = [&](unsigned s, Value slot) -> Value {
      return LLVM::GEPOp::create(rewriter, loc, sharedPtr, types[s], buffers[s],
                                 ArrayRef<LLVM::GEPArg>{slot});
    };

    // Each row's first slot, from the index of its first register.
    auto indices =
        emitIndices(loc, rewriter, srcType.getEncoding(), shape);
    SmallVector<Value> rowSlots;
    for (const auto &runs : rows) {
      SmallVector<Value> index(indices[runs.begin()->second.front()]);
      index.erase(index.begin() + axis);
      rowSlots.push_back(LLVM::MulOp::create(
          rewriter, loc, emitLinearIndex(loc, rewriter, index, rowShape),
          constant(segments)));
    }
    auto segmentSlot = [&](unsigned row, int64_t rep, Value warp) -> Value {
      return LLVM::AddOp::create(
          rewriter, loc, rowSlots[row],
          LLVM::AddOp::create(rewriter, loc, constant(rep * warps), warp));
    };
    // Lanes along the axis and replicas write identical totals to a slot.
    for (auto [row, runs] : llvm::enumerate(rows))
      for (auto [index, entry] : llvm::enumerate(runs))
        for (auto [s, value] : llvm::enumerate(totals[row][index]))
          LLVM::StoreOp::create(rewriter, loc, value,
                                slotPtr(s, segmentSlot(row, entry.first,
                                                       warpAlong)));
    emitBarrier(loc, rewriter);

    // In the scan's order: the repetitions, and within each the warps.
    for (auto [row, runs] : llvm::enumerate(rows)) {
      int64_t reps = segments / warps;
      Partial carry; // The segments of the repetitions already passed.
      for (int64_t i = 0; i < reps; ++i) {
        int64_t rep = reverse ? reps - 1 - i : i;
        auto run = runs.find(rep);
        unsigned index = std::distance(runs.begin(), run);
        Partial before = carry; // This repetition's earlier warps added.
        for (int64_t j = 0; j < warps; ++j) {
          int64_t warp = reverse ? warps - 1 - j : j;
          Values total;
          for (unsigned s = 0; s < types.size(); ++s)
            total.push_back(LLVM::LoadOp::create(
                rewriter, loc, types[s],
                slotPtr(s, segmentSlot(row, rep, constant(warp)))));
          Value earlier = LLVM::ICmpOp::create(
              rewriter, loc,
              reverse ? LLVM::ICmpPredicate::ugt : LLVM::ICmpPredicate::ult,
              constant(warp), warpAlong);
          accumulate(rewriter, op, before, total, earlier);
          accumulate(rewriter, op, carry, total, Value());
        }
        // The thread's prefix: the earlier segments, then its lanes'.
        Partial &prefix = prefixes[row][index];
        Partial combined = before;
        if (!prefix.empty)
          accumulate(rewriter, op, combined, prefix.values, prefix.valid);
        prefix = std::move(combined);
      }
    }
    return success();
  }

  /// The scan of a source in any other layout, through scratch holding the
  /// whole tile (the file comment's last paragraph), in place in `values`.
  LogicalResult scanThroughScratch(tile::ScanOp op,
                                   ConversionPatternRewriter &rewriter,
                                   SmallVector<Values> &values) const {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned axis = op.getAxis();
    int64_t length = shape[axis];
    bool reverse = op.getReverse();
    unsigned numSrcs = values.size();
    Value base = getScratchBase(loc, rewriter, op);
    if (!base)
      return failure();

    auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    SmallVector<Value> buffers;
    SmallVector<Type> types;
    splitScratch(op, rewriter, base, buffers, types);

    int64_t axisStride = 1;
    for (unsigned d = axis + 1; d < shape.size(); ++d)
      axisStride *= shape[d];
    auto indices = emitIndices(loc, rewriter, srcType.getEncoding(), shape);
    SmallVector<Value> linear;
    for (ArrayRef<Value> index : indices)
      linear.push_back(emitLinearIndex(loc, rewriter, index, shape));
    auto elementPtr = [&](unsigned s, Value position) -> Value {
      return LLVM::GEPOp::create(rewriter, loc, sharedPtr, types[s], buffers[s],
                                 ArrayRef<LLVM::GEPArg>{position});
    };

    for (int64_t step = 1; step < length; step *= 2) {
      // The previous step's reads finish before this step's writes.
      if (step > 1)
        emitBarrier(loc, rewriter);
      for (unsigned s = 0; s < numSrcs; ++s)
        for (auto [reg, value] : llvm::enumerate(values[s]))
          LLVM::StoreOp::create(rewriter, loc, value,
                                elementPtr(s, linear[reg]));
      emitBarrier(loc, rewriter);
      Value stepValue = i32Constant(loc, rewriter, step);
      Value distance = i32Constant(loc, rewriter, step * axisStride);
      for (size_t reg = 0; reg < linear.size(); ++reg) {
        Value position = indices[reg][axis];
        // Whether the element `step` before (after) this one exists, and
        // where it is; a clamped position keeps the load in bounds.
        Value exists, partner;
        if (reverse) {
          exists = LLVM::ICmpOp::create(
              rewriter, loc, LLVM::ICmpPredicate::ult,
              LLVM::AddOp::create(rewriter, loc, position, stepValue),
              i32Constant(loc, rewriter, length));
          partner = LLVM::AddOp::create(rewriter, loc, linear[reg], distance);
        } else {
          exists = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::uge,
                                        position, stepValue);
          partner = LLVM::SubOp::create(rewriter, loc, linear[reg], distance);
        }
        partner =
            LLVM::SelectOp::create(rewriter, loc, exists, partner, linear[reg]);
        Values mine, other;
        for (unsigned s = 0; s < numSrcs; ++s) {
          mine.push_back(values[s][reg]);
          other.push_back(LLVM::LoadOp::create(rewriter, loc, types[s],
                                               elementPtr(s, partner)));
        }
        Values combined = reverse ? combine(rewriter, op, mine, other)
                                  : combine(rewriter, op, other, mine);
        for (unsigned s = 0; s < numSrcs; ++s)
          values[s][reg] = LLVM::SelectOp::create(rewriter, loc, exists,
                                                  combined[s], mine[s]);
      }
    }
    return success();
  }
};

} // namespace

void mlir::tilec::populateScanOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ScanOpConversion>(converter, patterns.getContext(),
                                 kTilePatternBenefit);
}
