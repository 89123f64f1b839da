//===- DotOpToLLVM.cpp - Matrix products on the FMA units -----------------===//
//
// tile.dot (d = a * b + c, c and d fp32 or i32 in a blocked layout) without tensor
// cores: a and b are staged row-major through the op's scratch ((M*K + K*N)
// * elemBytes(a) bytes per batch, a first), a barrier, then each thread runs
// a loop over k that loads a[i][k] for each distinct row i and b[k][j] for
// each distinct column j of its accumulators (a batched dot, [B, M, K] x
// [B, K, N]: rows and columns of each batch its accumulators are in), widens fp16/bf16 to fp32, and
// accumulates with fma (fp32 inputs therefore multiply in full fp32). The
// loop keeps the code size independent of K. i8 inputs are sign-extended
// and accumulate exactly in i32 (mul and add). Tensor-core dots lower
// elsewhere (MmaDotOpToLLVM.cpp, WgmmaDotOpToLLVM.cpp).
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// Stores every element a thread holds of the 2-D tile `value` (converted
/// `converted`) at its row-major position in the shared buffer `buffer`.
/// Replicas store identical values.
void stageOperand(Location loc, ConversionPatternRewriter &rewriter,
                  Value value, Value converted, Value buffer,
                  Type elementType) {
  auto type = cast<RankedTensorType>(value.getType());
  auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
  SmallVector<Value> elements = unpackElements(loc, converted, rewriter);
  auto indices =
      emitIndices(loc, rewriter, type.getEncoding(), type.getShape());
  for (auto [element, index] : llvm::zip(elements, indices)) {
    Value position = emitLinearIndex(loc, rewriter, index, type.getShape());
    Value ptr = LLVM::GEPOp::create(rewriter, loc, sharedPtr, elementType,
                                    buffer, ArrayRef<LLVM::GEPArg>{position});
    LLVM::StoreOp::create(rewriter, loc, element, ptr);
  }
}

/// Loads element `position` of a shared buffer of `elementType`, widened to
/// `accType` (f32, or i32 for i8 elements, sign-extended).
Value loadWidened(Location loc, RewriterBase &rewriter, Value buffer,
                  Type elementType, Type accType, Value position) {
  auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
  Value ptr = LLVM::GEPOp::create(rewriter, loc, sharedPtr, elementType, buffer,
                                  ArrayRef<LLVM::GEPArg>{position});
  Value value = LLVM::LoadOp::create(rewriter, loc, elementType, ptr);
  if (elementType == accType)
    return value;
  if (accType.isInteger(32))
    return LLVM::SExtOp::create(rewriter, loc, accType, value);
  return extendFloat(loc, rewriter, value, accType);
}

struct DotOpConversion : OpConversionPattern<tile::DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto cType = cast<RankedTensorType>(op.getC().getType());
    Type inputType = aType.getElementType();
    Type accType = cType.getElementType();
    bool isFloatDot =
        accType.isF32() &&
        (inputType.isF32() || inputType.isF16() || inputType.isBF16());
    bool isInt8Dot = accType.isInteger(32) && inputType.isInteger(8);
    if (!(isFloatDot || isInt8Dot) || bType.getElementType() != inputType)
      return op.emitOpError("is supported by the GPU lowering for fp16, bf16 "
                            "and fp32 inputs with an fp32 accumulator, and i8 "
                            "inputs with an i32 accumulator");
    if (!isa<tilegpu::BlockedEncodingAttr>(cType.getEncoding()))
      return op.emitOpError("needs its accumulator in a blocked layout");
    // The last two dimensions multiply; a first one (batched) pairs them.
    bool batched = aType.getRank() == 3;
    int64_t m = aType.getShape().end()[-2], k = aType.getShape().back();
    int64_t n = bType.getShape().back();

    // Stage a ([M, K]) and then b ([K, N]) row-major in scratch.
    Value base = getScratchBase(loc, rewriter, op);
    if (!base)
      return failure();
    auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    Value aBuffer = base;
    Value bBuffer = LLVM::GEPOp::create(
        rewriter, loc, sharedPtr, inputType, base,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(aType.getNumElements())});
    stageOperand(loc, rewriter, op.getA(), adaptor.getA(), aBuffer, inputType);
    stageOperand(loc, rewriter, op.getB(), adaptor.getB(), bBuffer, inputType);
    emitBarrier(loc, rewriter);

    // The distinct rows and columns of this thread's accumulators: registers
    // with equal offsets along a dimension (and the batch) share its index.
    SmallVector<SmallVector<int64_t>> offsets =
        getElemOffsets(cType.getEncoding(), cType.getShape());
    auto indices =
        emitIndices(loc, rewriter, cType.getEncoding(), cType.getShape());
    std::map<std::pair<int64_t, int64_t>, unsigned> rowOf, colOf;
    // a's row i of batch p starts at (p * M + i) * K, b's column j of batch
    // p at p * K * N + j.
    SmallVector<Value> rowStarts, cols;
    SmallVector<unsigned> regRow, regCol;
    for (auto [reg, offset] : llvm::enumerate(offsets)) {
      int64_t batchOffset = batched ? offset[0] : 0;
      Value row = indices[reg][batched ? 1 : 0], col = indices[reg][batched ? 2 : 1];
      if (batched) {
        Value batch = indices[reg][0];
        row = LLVM::AddOp::create(
            rewriter, loc,
            LLVM::MulOp::create(rewriter, loc, batch, i32Constant(loc, rewriter, m)), row);
        col = LLVM::AddOp::create(
            rewriter, loc,
            LLVM::MulOp::create(rewriter, loc, batch, i32Constant(loc, rewriter, k * n)),
            col);
      }
      auto [rowIt, newRow] =
          rowOf.try_emplace({batchOffset, offset.end()[-2]}, rowStarts.size());
      if (newRow)
        rowStarts.push_back(
            LLVM::MulOp::create(rewriter, loc, row, i32Constant(loc, rewriter, k)));
      auto [colIt, newCol] = colOf.try_emplace({batchOffset, offset.back()}, cols.size());
      if (newCol)
        cols.push_back(col);
      regRow.push_back(rowIt->second);
      regCol.push_back(colIt->second);
    }
    SmallVector<Value> acc = unpackElements(loc, adaptor.getC(), rewriter);

    // for (kk = 0; kk < K; ++kk), as a loop whose body block carries kk and
    // the accumulators; the op's block continues after it.
    Type i32 = rewriter.getI32Type();
    Block *entry = rewriter.getInsertionBlock();
    Block *rest = rewriter.splitBlock(entry, rewriter.getInsertionPoint());
    SmallVector<Type> carried{i32};
    carried.append(acc.size(), accType);
    Block *body = rewriter.createBlock(
        rest, carried, SmallVector<Location>(carried.size(), loc));
    rewriter.setInsertionPointToEnd(entry);
    SmallVector<Value> initial{i32Constant(loc, rewriter, 0)};
    initial.append(acc);
    LLVM::BrOp::create(rewriter, loc, initial, body);

    rewriter.setInsertionPointToStart(body);
    Value kk = body->getArgument(0);
    SmallVector<Value> aValues, bValues;
    for (Value rowStart : rowStarts)
      aValues.push_back(
          loadWidened(loc, rewriter, aBuffer, inputType, accType,
                      LLVM::AddOp::create(rewriter, loc, rowStart, kk)));
    Value bRow =
        LLVM::MulOp::create(rewriter, loc, kk, i32Constant(loc, rewriter, n));
    for (Value col : cols)
      bValues.push_back(
          loadWidened(loc, rewriter, bBuffer, inputType, accType,
                      LLVM::AddOp::create(rewriter, loc, bRow, col)));
    SmallVector<Value> next{
        LLVM::AddOp::create(rewriter, loc, kk, i32Constant(loc, rewriter, 1))};
    for (size_t reg = 0; reg < acc.size(); ++reg) {
      Value a = aValues[regRow[reg]], b = bValues[regCol[reg]];
      Value sum = body->getArgument(1 + reg);
      next.push_back(
          isInt8Dot
              ? LLVM::AddOp::create(rewriter, loc, sum,
                                    LLVM::MulOp::create(rewriter, loc, a, b))
                    .getResult()
              : LLVM::FMAOp::create(rewriter, loc, a, b, sum).getResult());
    }
    Value more = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt,
                                      next[0], i32Constant(loc, rewriter, k));
    LLVM::CondBrOp::create(rewriter, loc, more, body, next, rest, ValueRange());

    rewriter.setInsertionPointToStart(rest);
    rewriter.replaceOp(
        op,
        packElements(loc, ArrayRef(next).drop_front(),
                     getTypeConverter()->convertType(op.getType()), rewriter));
    return success();
  }
};

} // namespace

void mlir::tilec::populateDotOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotOpConversion>(converter, patterns.getContext(),
                                kTilePatternBenefit);
}
