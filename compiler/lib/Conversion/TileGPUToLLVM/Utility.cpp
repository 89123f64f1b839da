//===- Utility.cpp - Helpers of the tilegpu-to-LLVM lowering --------------===//
//
// Struct packing, and the index arithmetic of the distributed layouts
// (blocked, the tensor-core MMA and dot operand layouts, and slices through
// their parent): which element of the tile each of a thread's elements is,
// and which thread owns it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilec;
using tilegpu::BlockedEncodingAttr;

SmallVector<Value> mlir::tilec::unpackElements(Location loc, Value packed,
                                               RewriterBase &rewriter) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(packed.getType());
  if (!structType)
    return {packed};
  SmallVector<Value> elements;
  for (int64_t i = 0, e = structType.getBody().size(); i < e; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(rewriter, loc, packed, i));
  return elements;
}

Value mlir::tilec::packElements(Location loc, ValueRange elements, Type type,
                                RewriterBase &rewriter) {
  if (!isa<LLVM::LLVMStructType>(type))
    return elements.front();
  Value packed = LLVM::UndefOp::create(rewriter, loc, type);
  for (auto [i, element] : llvm::enumerate(elements))
    packed = LLVM::InsertValueOp::create(rewriter, loc, packed, element, i);
  return packed;
}

Value mlir::tilec::i32Constant(Location loc, RewriterBase &rewriter,
                               int64_t value) {
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                  rewriter.getI32IntegerAttr(value));
}

Value mlir::tilec::extendFloat(Location loc, RewriterBase &rewriter, Value x,
                               Type to) {
  if (x.getType() == to)
    return x;
  if (x.getType().isBF16()) {
    Type i32 = rewriter.getI32Type();
    Value bits = LLVM::BitcastOp::create(rewriter, loc, rewriter.getI16Type(), x);
    Value high = LLVM::ShlOp::create(rewriter, loc,
                                     LLVM::ZExtOp::create(rewriter, loc, i32, bits),
                                     i32Constant(loc, rewriter, 16));
    x = LLVM::BitcastOp::create(rewriter, loc, rewriter.getF32Type(), high);
    if (to.isF32())
      return x;
  }
  return LLVM::FPExtOp::create(rewriter, loc, to, x);
}

MmaThread mlir::tilec::emitMmaThread(Location loc, RewriterBase &rewriter,
                                     tilegpu::MmaEncodingAttr mma) {
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  Value warpSize = i32Constant(loc, rewriter, 32);
  Value warp = LLVM::UDivOp::create(rewriter, loc, tid, warpSize);
  Value warpsN = i32Constant(loc, rewriter, mma.getWarpsPerCTA()[1]);
  Value warpsM = i32Constant(loc, rewriter, mma.getWarpsPerCTA()[0]);
  Value four = i32Constant(loc, rewriter, 4);
  MmaThread thread;
  thread.lane = LLVM::URemOp::create(rewriter, loc, tid, warpSize);
  thread.warpN = LLVM::URemOp::create(rewriter, loc, warp, warpsN);
  thread.warpM = LLVM::URemOp::create(
      rewriter, loc, LLVM::UDivOp::create(rewriter, loc, warp, warpsN), warpsM);
  thread.group = LLVM::UDivOp::create(rewriter, loc, thread.lane, four);
  thread.inGroup = LLVM::URemOp::create(rewriter, loc, thread.lane, four);
  return thread;
}

Operation *mlir::tilec::emitAsm(Location loc, RewriterBase &rewriter,
                                TypeRange results, ValueRange operands,
                                StringRef text,
                                ArrayRef<std::string> constraints,
                                bool hasSideEffects) {
  Type resultType;
  if (results.size() == 1)
    resultType = results.front();
  else if (!results.empty())
    resultType = LLVM::LLVMStructType::getLiteral(rewriter.getContext(),
                                                  SmallVector<Type>(results));
  return LLVM::InlineAsmOp::create(
      rewriter, loc, resultType ? TypeRange(resultType) : TypeRange(), operands,
      ("{\n" + text + "}").str(), llvm::join(constraints, ","), hasSideEffects,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(rewriter.getContext(),
                                LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

namespace {

/// Per-dimension facts of a layout applied to one shape.
struct LayoutGeometry {
  SmallVector<int64_t> reps;     ///< CTA tiles along each dimension.
  SmallVector<Value> lane, warp; ///< This thread's coordinates.
};

/// Splits `linear` into coordinates over the dimensions in `order` (fastest
/// first), each ranging over `sizes[d]`.
SmallVector<Value> delinearize(Location loc, RewriterBase &rewriter,
                               Value linear, ArrayRef<unsigned> sizes,
                               ArrayRef<unsigned> order) {
  SmallVector<Value> coords(sizes.size());
  for (unsigned dim : order) {
    Value size = i32Constant(loc, rewriter, sizes[dim]);
    coords[dim] = LLVM::URemOp::create(rewriter, loc, linear, size);
    linear = LLVM::UDivOp::create(rewriter, loc, linear, size);
  }
  return coords;
}

LayoutGeometry getGeometry(Location loc, RewriterBase &rewriter,
                           BlockedEncodingAttr layout,
                           ArrayRef<int64_t> shape) {
  LayoutGeometry geometry;
  for (unsigned d = 0; d < shape.size(); ++d)
    geometry.reps.push_back(
        std::max<int64_t>(1, shape[d] / layout.getCTATileSize(d)));
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  unsigned warpSize = 1;
  for (unsigned t : layout.getThreadsPerWarp())
    warpSize *= t;
  Value warpSizeValue = i32Constant(loc, rewriter, warpSize);
  Value laneId = LLVM::URemOp::create(rewriter, loc, tid, warpSizeValue);
  Value warpId = LLVM::UDivOp::create(rewriter, loc, tid, warpSizeValue);
  geometry.lane = delinearize(loc, rewriter, laneId, layout.getThreadsPerWarp(),
                              layout.getOrder());
  geometry.warp = delinearize(loc, rewriter, warpId, layout.getWarpsPerCTA(),
                              layout.getOrder());
  return geometry;
}

/// This thread's first element along `dim` within a CTA tile.
Value threadBase(Location loc, RewriterBase &rewriter,
                 BlockedEncodingAttr layout, const LayoutGeometry &geometry,
                 unsigned dim) {
  Value threads = i32Constant(loc, rewriter, layout.getThreadsPerWarp()[dim]);
  Value perThread = i32Constant(loc, rewriter, layout.getSizePerThread()[dim]);
  Value thread = LLVM::AddOp::create(
      rewriter, loc,
      LLVM::MulOp::create(rewriter, loc, geometry.warp[dim], threads),
      geometry.lane[dim]);
  return LLVM::MulOp::create(rewriter, loc, thread, perThread);
}

/// The MMA layout behind a tensor-core layout (itself or a dot operand's
/// parent), or null for other layouts.
tilegpu::MmaEncodingAttr getMmaLayout(Attribute layout) {
  if (auto dot = dyn_cast<tilegpu::DotOperandEncodingAttr>(layout))
    return dot.getMmaParent();
  return dyn_cast<tilegpu::MmaEncodingAttr>(layout);
}

/// The index of this thread's first element of a tensor-core layout, before
/// wrapping: (warpM * 16 + g, warpN * 8 + 2t) for the accumulator,
/// (warpM * 16 + g, t * kWidth) for a and (t * kWidth, warpN * 8 + g) for b.
SmallVector<Value> tensorCoreBase(Location loc, RewriterBase &rewriter,
                                  Attribute layout) {
  tilegpu::MmaEncodingAttr mma = getMmaLayout(layout);
  MmaThread thread = emitMmaThread(loc, rewriter, mma);
  auto mulAdd = [&](Value x, int64_t scale, Value y) -> Value {
    Value product = LLVM::MulOp::create(rewriter, loc, x,
                                        i32Constant(loc, rewriter, scale));
    return y ? LLVM::AddOp::create(rewriter, loc, product, y).getResult()
             : product;
  };
  Value row = mulAdd(thread.warpM, 16, thread.group);
  Value col = mulAdd(thread.warpN, 8, thread.group);
  auto dot = dyn_cast<tilegpu::DotOperandEncodingAttr>(layout);
  if (!dot)
    return {row, mulAdd(thread.warpN, 8, mulAdd(thread.inGroup, 2, Value()))};
  Value k = mulAdd(thread.inGroup, dot.getKWidth(), Value());
  if (dot.getOpIdx() == 0)
    return {row, k};
  return {k, col};
}

/// getElemOffsets for the tensor-core layouts (see the encodings' docs).
SmallVector<SmallVector<int64_t>>
getTensorCoreOffsets(Attribute layout, ArrayRef<int64_t> shape) {
  SmallVector<SmallVector<int64_t>> offsets;
  if (auto mma = dyn_cast<tilegpu::MmaEncodingAttr>(layout)) {
    SmallVector<int64_t> reps = mma.getRepetitions(shape);
    for (int64_t m = 0; m < reps[0]; ++m)
      for (int64_t n = 0; n < reps[1]; ++n)
        for (int64_t i = 0; i < 4; ++i)
          offsets.push_back({m * mma.getCTATileSize(0) + (i / 2) * 8,
                             n * mma.getCTATileSize(1) + i % 2});
    return offsets;
  }
  auto dot = cast<tilegpu::DotOperandEncodingAttr>(layout);
  tilegpu::MmaEncodingAttr mma = dot.getMmaParent();
  SmallVector<int64_t> reps = dot.getRepetitions(shape);
  int64_t kWidth = dot.getKWidth(), instrK = dot.getInstrK();
  if (dot.getOpIdx() == 0) {
    for (int64_t m = 0; m < reps[0]; ++m)
      for (int64_t k = 0; k < reps[1]; ++k)
        for (int64_t r = 0; r < 4; ++r)
          for (int64_t j = 0; j < kWidth; ++j)
            offsets.push_back({m * mma.getCTATileSize(0) + (r % 2) * 8,
                               k * instrK + (r / 2) * 4 * kWidth + j});
    return offsets;
  }
  for (int64_t n = 0; n < reps[1]; ++n)
    for (int64_t k = 0; k < reps[0]; ++k)
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t j = 0; j < kWidth; ++j)
          offsets.push_back(
              {k * instrK + r * 4 * kWidth + j, n * mma.getCTATileSize(1)});
  return offsets;
}

/// emitOwnerPredicate for the tensor-core layouts: the thread's first
/// element lies inside the tile along every wrapped dimension, and for a dot
/// operand its warp is the first of those reading the same elements.
/// Registers that wrap within the owner repeat elements it also holds.
Value emitTensorCoreOwner(Location loc, RewriterBase &rewriter,
                          Attribute layout, ArrayRef<int64_t> shape) {
  Value owner;
  auto addCondition = [&](Value condition) {
    owner =
        owner ? LLVM::AndOp::create(rewriter, loc, owner, condition).getResult()
              : condition;
  };
  SmallVector<int64_t> extent = tilegpu::getTileExtent(layout);
  SmallVector<Value> base;
  for (unsigned d = 0; d < 2; ++d) {
    if (shape[d] >= extent[d])
      continue;
    if (base.empty())
      base = tensorCoreBase(loc, rewriter, layout);
    addCondition(LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult,
                                      base[d],
                                      i32Constant(loc, rewriter, shape[d])));
  }
  if (auto dot = dyn_cast<tilegpu::DotOperandEncodingAttr>(layout)) {
    tilegpu::MmaEncodingAttr mma = dot.getMmaParent();
    if (mma.getWarpsPerCTA()[1 - dot.getOpIdx()] > 1) {
      MmaThread thread = emitMmaThread(loc, rewriter, mma);
      Value other = dot.getOpIdx() == 0 ? thread.warpN : thread.warpM;
      addCondition(LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                        other, i32Constant(loc, rewriter, 0)));
    }
  }
  return owner;
}

} // namespace

SmallVector<SmallVector<int64_t>>
mlir::tilec::getElemOffsets(Attribute layout, ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<tilegpu::SliceEncodingAttr>(layout)) {
    SmallVector<SmallVector<int64_t>> offsets =
        getElemOffsets(slice.getParent(), slice.getParentShape(shape));
    for (SmallVector<int64_t> &offset : offsets)
      offset.erase(offset.begin() + slice.getDim());
    return offsets;
  }
  if (getMmaLayout(layout))
    return getTensorCoreOffsets(layout, shape);
  auto blocked = cast<BlockedEncodingAttr>(layout);
  unsigned rank = shape.size();
  SmallVector<int64_t> perThread = tilegpu::getContigPerThread(blocked, shape);
  SmallVector<int64_t> reps;
  int64_t inTile = 1;
  for (unsigned d = 0; d < rank; ++d) {
    inTile *= perThread[d];
    reps.push_back(std::max<int64_t>(1, shape[d] / blocked.getCTATileSize(d)));
  }
  SmallVector<SmallVector<int64_t>> offsets;
  for (int64_t e = 0, total = blocked.getElemsPerThread(shape); e < total;
       ++e) {
    // Element e is element `k` of the thread's block in CTA tile `rep`.
    int64_t k = e % inTile, rep = e / inTile;
    SmallVector<int64_t> offset(rank);
    for (unsigned dim : blocked.getOrder()) {
      offset[dim] =
          (rep % reps[dim]) * blocked.getCTATileSize(dim) + k % perThread[dim];
      k /= perThread[dim];
      rep /= reps[dim];
    }
    offsets.push_back(std::move(offset));
  }
  return offsets;
}

SmallVector<SmallVector<Value>>
mlir::tilec::emitIndices(Location loc, RewriterBase &rewriter, Attribute layout,
                         ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<tilegpu::SliceEncodingAttr>(layout)) {
    SmallVector<SmallVector<Value>> indices = emitIndices(
        loc, rewriter, slice.getParent(), slice.getParentShape(shape));
    for (SmallVector<Value> &index : indices)
      index.erase(index.begin() + slice.getDim());
    return indices;
  }
  unsigned rank = shape.size();
  SmallVector<Value> base;
  if (getMmaLayout(layout)) {
    base = tensorCoreBase(loc, rewriter, layout);
  } else {
    auto blocked = cast<BlockedEncodingAttr>(layout);
    LayoutGeometry geometry = getGeometry(loc, rewriter, blocked, shape);
    for (unsigned d = 0; d < rank; ++d)
      base.push_back(threadBase(loc, rewriter, blocked, geometry, d));
  }
  SmallVector<int64_t> extent = tilegpu::getTileExtent(layout);

  SmallVector<SmallVector<Value>> indices;
  for (ArrayRef<int64_t> offset : getElemOffsets(layout, shape)) {
    SmallVector<Value> index(rank);
    for (unsigned dim = 0; dim < rank; ++dim) {
      Value value = LLVM::AddOp::create(
          rewriter, loc, base[dim], i32Constant(loc, rewriter, offset[dim]));
      // A tile smaller than the layout's tile wraps around (replication).
      if (shape[dim] < extent[dim])
        value = LLVM::URemOp::create(rewriter, loc, value,
                                     i32Constant(loc, rewriter, shape[dim]));
      index[dim] = value;
    }
    indices.push_back(std::move(index));
  }
  return indices;
}

Value mlir::tilec::emitLinearIndex(Location loc, RewriterBase &rewriter,
                                   ArrayRef<Value> index,
                                   ArrayRef<int64_t> shape) {
  Value linear;
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    // A dimension of size 1 contributes nothing (its index is always 0).
    if (shape[d] != 1) {
      Value term = index[d];
      if (stride != 1)
        term = LLVM::MulOp::create(rewriter, loc, term,
                                   i32Constant(loc, rewriter, stride));
      linear = linear ? LLVM::AddOp::create(rewriter, loc, linear, term) : term;
    }
    stride *= shape[d];
  }
  return linear ? linear : i32Constant(loc, rewriter, 0);
}

Value mlir::tilec::emitOwnerPredicate(Location loc, RewriterBase &rewriter,
                                      Attribute layout,
                                      ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<tilegpu::SliceEncodingAttr>(layout))
    return emitOwnerPredicate(loc, rewriter, slice.getParent(),
                              slice.getParentShape(shape));
  if (getMmaLayout(layout))
    return emitTensorCoreOwner(loc, rewriter, layout, shape);
  auto blocked = cast<BlockedEncodingAttr>(layout);
  Value owner;
  std::optional<LayoutGeometry> geometry;
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (shape[d] >= blocked.getCTATileSize(d))
      continue;
    if (!geometry)
      geometry = getGeometry(loc, rewriter, blocked, shape);
    Value base = threadBase(loc, rewriter, blocked, *geometry, d);
    Value inside =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, base,
                             i32Constant(loc, rewriter, shape[d]));
    owner = owner ? LLVM::AndOp::create(rewriter, loc, owner, inside) : inside;
  }
  return owner;
}

Value mlir::tilec::emitShuffle(Location loc, RewriterBase &rewriter,
                               Value value, Value lane, NVVM::ShflKind kind) {
  MLIRContext *context = rewriter.getContext();
  Type type = value.getType();
  Type i32 = rewriter.getI32Type();
  unsigned bits = type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 64;
  auto shuffle32 = [&](Value word) -> Value {
    return NVVM::ShflOp::create(
        rewriter, loc, i32, i32Constant(loc, rewriter, -1), word, lane,
        i32Constant(loc, rewriter, 0x1f), kind, UnitAttr());
  };
  if (bits == 64) {
    Type i64 = rewriter.getI64Type();
    Value whole =
        isa<LLVM::LLVMPointerType>(type)
            ? LLVM::PtrToIntOp::create(rewriter, loc, i64, value).getResult()
            : LLVM::BitcastOp::create(rewriter, loc, i64, value).getResult();
    Value low = shuffle32(LLVM::TruncOp::create(rewriter, loc, i32, whole));
    Value high = shuffle32(LLVM::TruncOp::create(
        rewriter, loc, i32,
        LLVM::LShrOp::create(
            rewriter, loc, whole,
            LLVM::ConstantOp::create(rewriter, loc, i64,
                                     rewriter.getI64IntegerAttr(32)))));
    Value joined = LLVM::OrOp::create(
        rewriter, loc, LLVM::ZExtOp::create(rewriter, loc, i64, low),
        LLVM::ShlOp::create(
            rewriter, loc, LLVM::ZExtOp::create(rewriter, loc, i64, high),
            LLVM::ConstantOp::create(rewriter, loc, i64,
                                     rewriter.getI64IntegerAttr(32))));
    if (isa<LLVM::LLVMPointerType>(type))
      return LLVM::IntToPtrOp::create(rewriter, loc, type, joined);
    return LLVM::BitcastOp::create(rewriter, loc, type, joined);
  }
  Type bitsType = IntegerType::get(context, bits);
  Value word =
      bits == 32
          ? LLVM::BitcastOp::create(rewriter, loc, i32, value).getResult()
          : LLVM::ZExtOp::create(
                rewriter, loc, i32,
                LLVM::BitcastOp::create(rewriter, loc, bitsType, value))
                .getResult();
  Value result = shuffle32(word);
  if (bits != 32)
    result = LLVM::TruncOp::create(rewriter, loc, bitsType, result);
  return LLVM::BitcastOp::create(rewriter, loc, type, result);
}

void mlir::tilec::moveToPassthrough(LLVM::LLVMFuncOp func, StringRef from, StringRef to) {
  auto value = func->getAttrOfType<IntegerAttr>(from);
  if (!value)
    return;
  MLIRContext *context = func.getContext();
  SmallVector<Attribute> passthrough;
  if (ArrayAttr existing = func.getPassthroughAttr())
    passthrough.append(existing.begin(), existing.end());
  passthrough.push_back(ArrayAttr::get(
      context, {StringAttr::get(context, to),
                StringAttr::get(context, std::to_string(value.getInt()))}));
  func.setPassthroughAttr(ArrayAttr::get(context, passthrough));
  func->removeAttr(from);
}

void mlir::tilec::requirePtxVersion(Operation *func, int64_t version) {
  auto current = func->getAttrOfType<IntegerAttr>(kMinPtxAttr);
  if (!current || current.getInt() < version)
    func->setAttr(kMinPtxAttr, IntegerAttr::get(IntegerType::get(func->getContext(), 64),
                                                version));
}

int64_t mlir::tilec::getRequiredPtxVersion(ModuleOp module) {
  int64_t version = 0;
  module.walk([&](LLVM::LLVMFuncOp func) {
    if (ArrayAttr passthrough = func.getPassthroughAttr())
      for (Attribute entry : passthrough) {
        auto pair = dyn_cast<ArrayAttr>(entry);
        if (!pair || pair.size() != 2 || pair[0] != StringAttr::get(func.getContext(),
                                                                      kMinPtxFnAttr))
          continue;
        int64_t value = 0;
        if (auto text = dyn_cast<StringAttr>(pair[1]);
            text && !text.getValue().getAsInteger(10, value))
          version = std::max(version, value);
      }
  });
  return version;
}
