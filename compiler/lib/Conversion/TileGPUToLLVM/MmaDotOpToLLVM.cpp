//===- MmaDotOpToLLVM.cpp - Matrix products on the tensor cores -----------===//
//
// tile.dot whose accumulator has an MMA layout: for every K step and every
// 16x8 tile of its accumulator, each warp runs one mma.sync (row-major a,
// column-major b): m16n8k16 on fp16 or bf16 inputs and m16n8k8 on fp32
// inputs as tf32 (input_precision "tf32"), accumulating in fp32, and
// m16n8k32 on i8 inputs accumulating in i32. tf32 and i8 operands always
// arrive in their dot operand registers (1 and 4 elements per register). An
// operand that a local_load reads from a pipelined shared-memory slot is read
// from that slot; one already in its dot operand layout is read from registers;
// any other operand is staged by the dot itself in its shared-memory scratch (a
// at the start, b after it). Operands in shared memory are read one K step at a
// time with ldmatrix just before its products, so that only one step's operands
// are live at a time.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/LoadMatrix.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// Where one operand's registers come from: its converted value in a dot
/// operand layout, or its staged copy in shared memory.
struct OperandSource {
  tilegpu::DotOperandEncodingAttr layout;
  SmallVector<Value> registerElements; ///< When in registers.
  std::optional<StagedOperand> staged; ///< When staged.

  /// The elements of K step `k` (8 per M repetition for a, 4 per N
  /// repetition for b).
  SmallVector<Value> step(Location loc, RewriterBase &rewriter,
                          const MmaThread &thread, ArrayRef<int64_t> shape,
                          int64_t k) const {
    if (staged)
      return loadOperandStep(loc, rewriter, *staged, thread, k);
    SmallVector<Value> elements;
    for (int64_t position : getStepPositions(layout, shape, k))
      elements.push_back(registerElements[position]);
    return elements;
  }
};

struct MmaDotOpConversion : OpConversionPattern<tile::DotOp> {
  MmaDotOpConversion(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, kTilePatternBenefit + 1) {}

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    tilegpu::MmaEncodingAttr mma = getTensorCoreLayout(op, 2);
    if (!mma)
      return failure();
    Type input = aType.getElementType();
    Location loc = op.getLoc();
    Type element = getTypeConverter()->convertType(input);
    // Elements per 32-bit register: 2 for 16-bit types, 1 for tf32, 4 for i8.
    unsigned kWidth = 32 / input.getIntOrFloatBitWidth();

    // Operands in registers, or staged here (a first, b after it).
    SmallVector<OperandSource, 2> sources;
    int64_t stagedElements = 0;
    Value values[] = {op.getA(), op.getB()};
    Value packedValues[] = {adaptor.getA(), adaptor.getB()};
    for (auto [index, value, packed] : llvm::enumerate(values, packedValues)) {
      auto type = cast<RankedTensorType>(value.getType());
      OperandSource source;
      source.layout =
          dyn_cast<tilegpu::DotOperandEncodingAttr>(type.getEncoding());
      if (auto slot = value.getDefiningOp<tilegpu::LocalLoadOp>()) {
        // A pipelined slot: read each K step from it just before its
        // products (the local_load itself emits nothing).
        source.staged = StagedOperand{
            getLocalLoadAddress(loc, rewriter, slot, element),
            cast<tilegpu::SwizzledSharedEncodingAttr>(
                slot.getBuffer().getType().getEncoding()),
            source.layout, SmallVector<int64_t>(type.getShape()), element};
      } else if (source.layout) {
        if (source.layout.getParent() != mma ||
            source.layout.getOpIdx() != index ||
            source.layout.getKWidth() != kWidth)
          return op.emitOpError("operand ")
                 << index
                 << " has a dot operand layout of another product: " << type;
        source.registerElements = unpackElements(loc, packed, rewriter);
      } else if (kWidth != 2) {
        return op.emitOpError("operand ")
               << index << " of a tf32 or i8 product must arrive in its dot "
               << "operand layout, got " << type;
      } else {
        source.staged = stageDotOperand(loc, rewriter, op, index, packed, mma,
                                        element, stagedElements);
        if (!source.staged)
          return failure();
        source.layout = source.staged->layout;
      }
      sources.push_back(std::move(source));
    }
    if (stagedElements)
      emitBarrier(loc, rewriter);

    MmaThread thread = emitMmaThread(loc, rewriter, mma);
    SmallVector<Value> acc = unpackElements(loc, adaptor.getC(), rewriter);
    SmallVector<int64_t> reps = mma.getRepetitions(cType.getShape());
    int64_t repK = sources[0].layout.getRepetitions(aType.getShape())[1];
    bool isInt = input.isInteger(8);
    StringRef inputName = input.isF16()    ? "f16"
                          : input.isBF16() ? "bf16"
                          : isInt          ? "s8"
                                           : "tf32";
    std::string text =
        llvm::formatv("mma.sync.aligned.m16n8k{0}.row.col.{2}.{1}.{1}.{2} "
                      "{{$0, $1, $2, $3}, {{$4, $5, $6, $7}, {{$8, $9}, "
                      "{{$10, $11, $12, $13};\n",
                      8 * kWidth, inputName, isInt ? "s32" : "f32");
    std::string out = isInt ? "=r" : "=f";
    SmallVector<std::string> constraints{out, out, out, out, "r", "r", "r",
                                         "r", "r", "r", "0", "1", "2", "3"};
    Type accType = getTypeConverter()->convertType(cType.getElementType());
    for (int64_t k = 0; k < repK; ++k) {
      SmallVector<Value> a =
          sources[0].step(loc, rewriter, thread, aType.getShape(), k);
      SmallVector<Value> b =
          sources[1].step(loc, rewriter, thread, bType.getShape(), k);
      for (int64_t m = 0; m < reps[0]; ++m) {
        SmallVector<Value> aRegs =
            packRegisters(loc, rewriter, a, m * 4 * kWidth, 4, kWidth);
        for (int64_t n = 0; n < reps[1]; ++n) {
          SmallVector<Value> operands(aRegs);
          operands.append(
              packRegisters(loc, rewriter, b, n * 2 * kWidth, 2, kWidth));
          size_t first = (m * reps[1] + n) * 4;
          operands.append(acc.begin() + first, acc.begin() + first + 4);
          Operation *asmOp =
              emitAsm(loc, rewriter, {accType, accType, accType, accType},
                      operands, text, constraints,
                      /*hasSideEffects=*/false);
          for (unsigned i = 0; i < 4; ++i)
            acc[first + i] = LLVM::ExtractValueOp::create(
                rewriter, loc, asmOp->getResult(0), i);
        }
      }
    }
    rewriter.replaceOp(
        op,
        packElements(loc, acc, getTypeConverter()->convertType(op.getType()),
                     rewriter));
    return success();
  }
};

} // namespace

void mlir::tilec::populateMmaDotOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MmaDotOpConversion>(converter, patterns.getContext());
}
