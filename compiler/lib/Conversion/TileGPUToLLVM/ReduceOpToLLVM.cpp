//===- ReduceOpToLLVM.cpp - Reductions along one axis ---------------------===//
//
// tile.reduce on a blocked or MMA accumulator operand (the softmax of
// flash attention reduces the product of a dot where it is computed), in up
// to three steps, each combining
// only distinct elements (a tile smaller than the layout's CTA tile holds
// replicas in lanes and warps, which must not count twice):
//  1. within a thread, the registers that differ only along the axis;
//  2. across the lanes that split the axis, by butterfly shuffles over
//     exactly the lane bits that hold distinct elements;
//  3. when warps split the axis too, through the op's scratch: every thread
//     writes its warp's partial to slot (result element, warp), a barrier,
//     and every thread combines the slots of its result elements.
// Every thread then holds the full result for each of its registers of the
// result's slice layout (a 1-D source gives scalars that all threads hold).
// Scratch: for each source, elemBytes * max(1, result elements) * numWarps,
// rounded up to kScratchSourceAlignment bytes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/Allocation.h"
#include "tilec/Conversion/TileGPUToLLVM/CombineRegion.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace mlir;
using namespace mlir::tilec;
using tilegpu::DimDistribution;

namespace {

/// Registers of a thread that hold one row along the reduced axis: the
/// registers whose offsets agree off the axis, in register order.
struct Groups {
  SmallVector<SmallVector<unsigned>> regs;
  /// Offsets with the axis entry zeroed -> group number.
  std::map<SmallVector<int64_t>, unsigned> byKey;
};

struct ReduceOpConversion : OpConversionPattern<tile::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    Attribute layout = srcType.getEncoding();
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned axis = op.getAxis();
    std::optional<DimDistribution> along =
        tilegpu::getDimDistribution(layout, axis);
    // An MMA tile smaller than one instruction tile repeats elements within
    // a thread, which the steps below would count twice.
    auto mma = dyn_cast<tilegpu::MmaEncodingAttr>(layout);
    if (!along || (mma && (shape[0] < mma.getInstrShape()[0] ||
                           shape[1] < mma.getInstrShape()[1])))
      return op.emitOpError("is not supported by the GPU lowering for an "
                            "operand in the layout ")
             << layout;
    unsigned rank = shape.size();
    unsigned numSrcs = op.getSrcs().size();

    // Result layout: slice(layout, axis), or scalars for a 1-D source.
    Attribute resultLayout;
    if (rank > 1) {
      auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
      auto slice =
          dyn_cast<tilegpu::SliceEncodingAttr>(resultType.getEncoding());
      if (!slice || slice.getDim() != axis || slice.getParent() != layout)
        return op.emitOpError("result layout must be the slice of the "
                              "operand's layout along the reduced axis");
      resultLayout = slice;
    }

    SmallVector<SmallVector<Value>> elements;
    for (Value src : adaptor.getSrcs())
      elements.push_back(unpackElements(loc, src, rewriter));

    // 1. Within the thread: group the registers by their offsets off the
    // axis (registers are distinct along the axis).
    SmallVector<SmallVector<int64_t>> offsets = getElemOffsets(layout, shape);
    Groups groups;
    for (auto [reg, offset] : llvm::enumerate(offsets)) {
      SmallVector<int64_t> key(offset);
      key[axis] = 0;
      auto [it, inserted] = groups.byKey.try_emplace(key, groups.regs.size());
      if (inserted)
        groups.regs.emplace_back();
      groups.regs[it->second].push_back(reg);
    }
    Region &combine = op.getCombineOp();
    SmallVector<SmallVector<Value>> acc; // [group][source]
    for (ArrayRef<unsigned> regs : groups.regs) {
      SmallVector<Value> value;
      for (unsigned s = 0; s < numSrcs; ++s)
        value.push_back(elements[s][regs[0]]);
      for (unsigned reg : regs.drop_front()) {
        SmallVector<Value> rhs;
        for (unsigned s = 0; s < numSrcs; ++s)
          rhs.push_back(elements[s][reg]);
        value = emitCombine(rewriter, combine, value, rhs);
      }
      acc.push_back(std::move(value));
    }

    // 2. Across the lanes along the axis that hold distinct elements.
    int64_t distinctLanes = along->getDistinctLanes(shape[axis]);
    int64_t distinctWarps = along->getDistinctWarps(shape[axis]);
    for (int64_t step = 1; step < distinctLanes; step *= 2)
      for (SmallVector<Value> &value : acc) {
        SmallVector<Value> other;
        for (Value v : value)
          other.push_back(
              emitShuffle(loc, rewriter, v,
                          i32Constant(loc, rewriter, step * along->laneStride),
                          NVVM::ShflKind::bfly));
        value = emitCombine(rewriter, combine, value, other);
      }

    // 3. Across the warps along the axis, through scratch.
    if (distinctWarps > 1 &&
        failed(combineAcrossWarps(op, rewriter, layout, *along, shape, groups,
                                  acc, distinctWarps)))
      return failure();

    // Every thread now holds, for each group, the combination of its row.
    if (rank == 1) {
      rewriter.replaceOp(op, acc.front());
      return success();
    }
    auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
    SmallVector<SmallVector<int64_t>> resultOffsets =
        getElemOffsets(resultLayout, resultType.getShape());
    SmallVector<Value> results;
    for (unsigned s = 0; s < numSrcs; ++s) {
      SmallVector<Value> values;
      for (ArrayRef<int64_t> offset : resultOffsets) {
        SmallVector<int64_t> key(offset);
        key.insert(key.begin() + axis, 0);
        auto it = groups.byKey.find(key);
        if (it == groups.byKey.end())
          return op.emitOpError("internal error: result register without a "
                                "reduced row");
        values.push_back(acc[it->second][s]);
      }
      results.push_back(packElements(
          loc, values,
          getTypeConverter()->convertType(op.getResult(s).getType()),
          rewriter));
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  /// Step 3: each thread writes its warp's partial of each group to slot
  /// (result element, warp along the axis) of each source's scratch, and
  /// after a barrier combines the `distinctWarps` slots of each group.
  LogicalResult
  combineAcrossWarps(tile::ReduceOp op, ConversionPatternRewriter &rewriter,
                     Attribute layout, const DimDistribution &along,
                     ArrayRef<int64_t> shape,
                     const Groups &groups, SmallVector<SmallVector<Value>> &acc,
                     int64_t distinctWarps) const {
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    Value base = getScratchBase(loc, rewriter, op);
    if (!base)
      return failure();
    int64_t numWarps = tilegpu::TileGPUDialect::getNumWarps(op);
    int64_t numResults = 1;
    SmallVector<int64_t> resultShape;
    for (unsigned d = 0; d < shape.size(); ++d)
      if (d != axis) {
        resultShape.push_back(shape[d]);
        numResults *= shape[d];
      }

    // This thread's warp coordinate along the axis.
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value warpId =
        LLVM::UDivOp::create(rewriter, loc, tid, i32Constant(loc, rewriter, 32));
    Value warpAlongAxis = LLVM::URemOp::create(
        rewriter, loc,
        LLVM::UDivOp::create(rewriter, loc, warpId,
                             i32Constant(loc, rewriter, along.warpStride)),
        i32Constant(loc, rewriter, along.warps));

    // The result element of each group, from the indices of its first
    // register.
    auto indices = emitIndices(loc, rewriter, layout, shape);
    SmallVector<Value> slots; // group -> result element * numWarps
    for (ArrayRef<unsigned> regs : groups.regs) {
      SmallVector<Value> index(indices[regs[0]]);
      index.erase(index.begin() + axis);
      Value linear = emitLinearIndex(loc, rewriter, index, resultShape);
      slots.push_back(LLVM::MulOp::create(
          rewriter, loc, linear, i32Constant(loc, rewriter, numWarps)));
    }

    // Each source's buffer follows the previous one, aligned for any type
    // (the allocation counted the same padding).
    MLIRContext *context = rewriter.getContext();
    auto sharedPtr = LLVM::LLVMPointerType::get(context, 3);
    SmallVector<Value> buffers;
    int64_t byteOffset = 0;
    for (Value src : op.getSrcs()) {
      Type elementType = getElementTypeOrSelf(src.getType());
      buffers.push_back(LLVM::GEPOp::create(
          rewriter, loc, sharedPtr, rewriter.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(byteOffset)}));
      byteOffset += llvm::alignTo(getElementBytes(elementType) *
                                      std::max<int64_t>(1, numResults) * numWarps,
                                  kScratchSourceAlignment);
    }
    auto slotPtr = [&](unsigned s, Value slot) -> Value {
      Type type = getTypeConverter()->convertType(
          getElementTypeOrSelf(op.getSrcs()[s].getType()));
      return LLVM::GEPOp::create(rewriter, loc, sharedPtr, type, buffers[s],
                                 ArrayRef<LLVM::GEPArg>{slot});
    };
    // Every lane along the axis, and every replica, holds the same partial:
    // their identical writes to one slot are harmless.
    for (auto [g, value] : llvm::enumerate(acc))
      for (unsigned s = 0; s < value.size(); ++s)
        LLVM::StoreOp::create(
            rewriter, loc, value[s],
            slotPtr(s, LLVM::AddOp::create(rewriter, loc, slots[g],
                                           warpAlongAxis)));
    emitBarrier(loc, rewriter);
    for (auto [g, value] : llvm::enumerate(acc)) {
      SmallVector<Value> combined;
      for (int64_t w = 0; w < distinctWarps; ++w) {
        SmallVector<Value> loaded;
        for (unsigned s = 0; s < value.size(); ++s) {
          Value slot = LLVM::AddOp::create(rewriter, loc, slots[g],
                                           i32Constant(loc, rewriter, w));
          loaded.push_back(LLVM::LoadOp::create(
              rewriter, loc, value[s].getType(), slotPtr(s, slot)));
        }
        combined =
            w == 0 ? loaded
                   : emitCombine(rewriter, op.getCombineOp(), combined, loaded);
      }
      value = std::move(combined);
    }
    return success();
  }
};

} // namespace

void mlir::tilec::populateReduceOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReduceOpConversion>(converter, patterns.getContext(),
                                   kTilePatternBenefit);
}
