//===- InlineAsmOpToLLVM.cpp - The user's PTX (tl.inline_asm_elementwise) -===//
//
// tile.inline_asm becomes one LLVM inline-asm statement per `pack` elements
// of each thread. Each operand and result is one or more registers (one
// constraint each): values narrower than 32 bits share registers of at most
// 32 bits (a vector of them bitcast to one integer, the first in the low
// bits: four bytes, or two halves, per `r`), wider ones take one register
// each (a float in an integer register, h, r or l, as the integer of its
// bits). Several output registers come back as a struct. A thread whose
// elements do not fill its last pack repeats its last element there and
// drops those results.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"
#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// Values of a `bits`-bit type that one register holds in a statement on
/// `pack` of them: narrow values share registers of at most 32 bits, wider
/// ones take one each (SemaInlineAsm.cpp checks the constraints so).
int64_t getValuesPerRegister(unsigned bits, int64_t pack) {
  return bits >= 32 ? 1 : std::min<int64_t>(pack, 32 / bits);
}

struct InlineAsmOpConversion : OpConversionPattern<tile::InlineAsmOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::InlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t pack = op.getPack();
    SmallVector<StringRef> constraints;
    op.getConstraints().split(constraints, ',');
    // The registers of `pack` values of `element` whose first constraint is
    // number `first`: a register of one value is the value (a float in an
    // integer register, h, r or l, as its bits); one of several is the
    // integer of their vector.
    auto registerTypes = [&](size_t first, Type element) {
      // A pointer (pack 1 only: Sema checks) is one `l` register as it is.
      if (isa<LLVM::LLVMPointerType>(element))
        return SmallVector<Type>{element};
      unsigned bits = element.getIntOrFloatBitWidth();
      int64_t values = getValuesPerRegister(bits, pack);
      SmallVector<Type> types;
      for (int64_t r = 0; r < pack / values; ++r) {
        StringRef constraint = constraints[first + r].trim().ltrim('=');
        bool integer = constraint.find_first_of("hrl") != StringRef::npos;
        types.push_back(values == 1 && !(integer && isa<FloatType>(element))
                            ? element
                            : rewriter.getIntegerType(bits * values));
      }
      return types;
    };
    auto toRegisters = [&](ArrayRef<Value> values, ArrayRef<Type> types) {
      SmallVector<Value> registers;
      int64_t perRegister = pack / types.size();
      for (auto [r, type] : llvm::enumerate(types)) {
        ArrayRef<Value> group = values.slice(r * perRegister, perRegister);
        if (perRegister == 1) {
          registers.push_back(group[0].getType() == type
                                  ? group[0]
                                  : LLVM::BitcastOp::create(rewriter, loc, type, group[0]));
          continue;
        }
        Value vector = LLVM::UndefOp::create(
            rewriter, loc, VectorType::get({perRegister}, group[0].getType()));
        for (auto [i, value] : llvm::enumerate(group))
          vector = LLVM::InsertElementOp::create(rewriter, loc, vector, value,
                                                 i32Constant(loc, rewriter, i));
        registers.push_back(LLVM::BitcastOp::create(rewriter, loc, type, vector));
      }
      return registers;
    };
    auto fromRegisters = [&](ArrayRef<Value> registers, Type element) {
      SmallVector<Value> values;
      int64_t perRegister = pack / registers.size();
      for (Value reg : registers) {
        if (perRegister == 1) {
          values.push_back(reg.getType() == element
                               ? reg
                               : LLVM::BitcastOp::create(rewriter, loc, element, reg));
          continue;
        }
        Value vector = LLVM::BitcastOp::create(
            rewriter, loc, VectorType::get({perRegister}, element), reg);
        for (int64_t i = 0; i < perRegister; ++i)
          values.push_back(LLVM::ExtractElementOp::create(rewriter, loc, vector,
                                                          i32Constant(loc, rewriter, i)));
      }
      return values;
    };

    // Each result's converted type, element type and registers (the first
    // constraints), then each operand's elements and registers.
    SmallVector<Type> resultTypes, elementTypes;
    SmallVector<SmallVector<Type>> resultRegisters, operandRegisters;
    size_t next = 0;
    for (Value result : op.getResults()) {
      Type converted = getTypeConverter()->convertType(result.getType());
      Type element = getTypeConverter()->convertType(getElementTypeOrSelf(result.getType()));
      if (!converted || !element)
        return rewriter.notifyMatchFailure(op, "result type not convertible");
      resultTypes.push_back(converted);
      elementTypes.push_back(element);
      resultRegisters.push_back(registerTypes(next, element));
      next += resultRegisters.back().size();
    }
    SmallVector<SmallVector<Value>> srcs;
    for (Value src : adaptor.getSrcs()) {
      srcs.push_back(isa<LLVM::LLVMStructType>(src.getType())
                         ? unpackElements(loc, src, rewriter)
                         : SmallVector<Value>{src});
      operandRegisters.push_back(registerTypes(next, srcs.back().front().getType()));
      next += operandRegisters.back().size();
    }
    SmallVector<Type> outputs;
    for (ArrayRef<Type> types : resultRegisters)
      llvm::append_range(outputs, types);
    Type asmType = outputs.size() == 1
                       ? outputs.front()
                       : LLVM::LLVMStructType::getLiteral(rewriter.getContext(), outputs);
    auto structType = dyn_cast<LLVM::LLVMStructType>(resultTypes.front());
    int64_t count = structType ? structType.getBody().size() : 1;

    // One statement per `pack` elements of the thread; a last pack that
    // runs past them repeats the last element, and its extra results are
    // dropped.
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (int64_t first = 0; first < count; first += pack) {
      SmallVector<Value> operands;
      for (auto [elements, types] : llvm::zip(srcs, operandRegisters)) {
        SmallVector<Value> group;
        for (int64_t i = first; i < first + pack; ++i)
          group.push_back(elements[std::min<int64_t>(i, count - 1)]);
        llvm::append_range(operands, toRegisters(group, types));
      }
      Value value =
          LLVM::InlineAsmOp::create(
              rewriter, loc, asmType, operands, op.getAsmString(), op.getConstraints(),
              /*has_side_effects=*/!op.getPure(), /*is_align_stack=*/false,
              LLVM::tailcallkind::TailCallKind::None,
              LLVM::AsmDialectAttr::get(rewriter.getContext(), LLVM::AsmDialect::AD_ATT),
              ArrayAttr())
              .getResult(0);
      size_t output = 0;
      for (auto [j, types] : llvm::enumerate(resultRegisters)) {
        SmallVector<Value> registers;
        for (size_t r = 0; r < types.size(); ++r, ++output)
          registers.push_back(
              outputs.size() == 1
                  ? value
                  : LLVM::ExtractValueOp::create(rewriter, loc, value, output).getResult());
        SmallVector<Value> elements = fromRegisters(registers, elementTypes[j]);
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
