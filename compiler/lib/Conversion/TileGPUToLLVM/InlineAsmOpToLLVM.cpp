//===- InlineAsmOpToLLVM.cpp - The user's PTX (tl.inline_asm_elementwise) -===//
//
// tile.inline_asm becomes one LLVM inline-asm statement per `pack` elements
// of each thread: each operand is a register holding `pack` consecutive
// elements of the thread (a vector of them bitcast to one integer, the first
// element in the low bits; with pack 1 a float in an integer register, h, r
// or l, travels as the integer of its bits), and so is each result; several
// results come back as a struct. A thread whose elements do not fill its
// last pack repeats its last element there and drops those results.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"
#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

struct InlineAsmOpConversion : OpConversionPattern<tile::InlineAsmOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::InlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t pack = op.getPack();
    SmallVector<StringRef> constraints;
    op.getConstraints().split(constraints, ',');
    // The register of constraint `index` for `pack` elements of `element`.
    auto registerType = [&](size_t index, Type element) -> Type {
      StringRef constraint = constraints[index].trim().ltrim('=');
      bool integer = constraint.find_first_of("hrl") != StringRef::npos;
      if (pack == 1 && !(integer && isa<FloatType>(element)))
        return element;
      return rewriter.getIntegerType(element.getIntOrFloatBitWidth() * pack);
    };
    auto toRegister = [&](ArrayRef<Value> elements, Type reg) -> Value {
      if (pack == 1)
        return elements[0].getType() == reg
                   ? elements[0]
                   : LLVM::BitcastOp::create(rewriter, loc, reg, elements[0]).getResult();
      auto vectorType = VectorType::get({pack}, elements[0].getType());
      Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
      for (auto [i, element] : llvm::enumerate(elements))
        vector = LLVM::InsertElementOp::create(
            rewriter, loc, vector, element,
            LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                     rewriter.getI32IntegerAttr(i)));
      return LLVM::BitcastOp::create(rewriter, loc, reg, vector);
    };
    auto fromRegister = [&](Value value, Type element) -> SmallVector<Value> {
      if (pack == 1)
        return {value.getType() == element
                    ? value
                    : LLVM::BitcastOp::create(rewriter, loc, element, value).getResult()};
      Value vector = LLVM::BitcastOp::create(
          rewriter, loc, VectorType::get({pack}, element), value);
      SmallVector<Value> elements;
      for (int64_t i = 0; i < pack; ++i)
        elements.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, vector,
            LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                     rewriter.getI32IntegerAttr(i))));
      return elements;
    };

    // Each operand's elements, and each result's converted element type.
    SmallVector<SmallVector<Value>> srcs;
    for (Value src : adaptor.getSrcs())
      srcs.push_back(isa<LLVM::LLVMStructType>(src.getType())
                         ? unpackElements(loc, src, rewriter)
                         : SmallVector<Value>{src});
    size_t numResults = op.getNumResults();
    SmallVector<Type> resultTypes, elementTypes, registers;
    for (auto [index, result] : llvm::enumerate(op.getResults())) {
      Type converted = getTypeConverter()->convertType(result.getType());
      if (!converted)
        return rewriter.notifyMatchFailure(op, "result type not convertible");
      resultTypes.push_back(converted);
      elementTypes.push_back(
          getTypeConverter()->convertType(getElementTypeOrSelf(result.getType())));
      registers.push_back(registerType(index, elementTypes.back()));
    }
    auto structType = dyn_cast<LLVM::LLVMStructType>(resultTypes.front());
    int64_t count = structType ? structType.getBody().size() : 1;
    Type asmType = numResults == 1 ? registers.front()
                                   : LLVM::LLVMStructType::getLiteral(
                                         rewriter.getContext(), registers);

    SmallVector<SmallVector<Value>> results(numResults);
    for (int64_t first = 0; first < count; first += pack) {
      SmallVector<Value> operands;
      for (auto [index, elements] : llvm::enumerate(srcs)) {
        SmallVector<Value> group;
        for (int64_t i = first; i < first + pack; ++i)
          group.push_back(elements[std::min<int64_t>(i, count - 1)]);
        operands.push_back(toRegister(
            group, registerType(numResults + index, group.front().getType())));
      }
      Value value =
          LLVM::InlineAsmOp::create(
              rewriter, loc, asmType, operands, op.getAsmString(), op.getConstraints(),
              /*has_side_effects=*/!op.getPure(), /*is_align_stack=*/false,
              LLVM::tailcallkind::TailCallKind::None,
              LLVM::AsmDialectAttr::get(rewriter.getContext(), LLVM::AsmDialect::AD_ATT),
              ArrayAttr())
              .getResult(0);
      for (size_t j = 0; j < numResults; ++j) {
        Value reg = numResults == 1
                        ? value
                        : LLVM::ExtractValueOp::create(rewriter, loc, value, j).getResult();
        SmallVector<Value> elements = fromRegister(reg, elementTypes[j]);
        elements.resize(std::min<int64_t>(pack, count - first));
        llvm::append_range(results[j], elements);
      }
    }
    SmallVector<Value> replacements;
    for (auto [j, type] : llvm::enumerate(resultTypes))
      replacements.push_back(structType ? packElements(loc, results[j], type, rewriter)
                                        : results[j].front());
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

} // namespace

void mlir::tilec::populateInlineAsmOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<InlineAsmOpConversion>(converter, patterns.getContext(),
                                      kTilePatternBenefit);
}
