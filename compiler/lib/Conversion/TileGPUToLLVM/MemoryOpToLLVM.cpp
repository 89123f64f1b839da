//===- MemoryOpToLLVM.cpp - Vectorized, predicated loads and stores -------===//
//
// Each thread moves its elements of a tile in aligned vectors of up to 128
// bits (as wide as the axis-info analysis proves contiguous and aligned),
// each vector one predicated PTX instruction. When a mask is not uniform over
// a vector, the vector instruction runs only where the whole vector is in
// bounds and per-element instructions cover the rest, so that the common,
// fully in-bounds case stays one wide access.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// How one op's elements are grouped into vector accesses.
struct AccessPlan {
  unsigned vec = 1;        ///< Elements per vector access.
  unsigned elementBits = 32;
  unsigned wordBits = 32;  ///< Width of each register moved.
  bool uniformMask = true; ///< The mask is equal over each vector.

  unsigned wordsPerVector() const { return vec * elementBits / wordBits; }
  unsigned elementsPerWord() const { return wordBits / elementBits; }
  /// The integer type that holds one word (8-bit words live in 16 bits).
  Type wordType(MLIRContext *context) const {
    return IntegerType::get(context, std::max(16u, wordBits));
  }
  std::string constraint() const {
    return wordBits == 64 ? "l" : wordBits == 32 ? "r" : "h";
  }
  std::string ptxType() const {
    return wordBits == 8 ? "u8" : "b" + std::to_string(wordBits);
  }
};

AccessPlan planAccess(Value ptr, Value mask, const ModuleAxisInfo &axisInfo) {
  AccessPlan plan;
  Type pointee =
      cast<tile::PointerType>(getElementTypeOrSelf(ptr.getType())).getPointeeType();
  plan.elementBits = std::max(8u, pointee.getIntOrFloatBitWidth());
  Attribute layout = tilegpu::getLayout(ptr.getType());
  if (tilegpu::isDistributedLayout(layout)) {
    auto shape = cast<RankedTensorType>(ptr.getType()).getShape();
    unsigned fastest = tilegpu::getLayoutOrder(layout).front();
    plan.vec = axisInfo.getVectorWidth(
        ptr, fastest, tilegpu::getContigPerThread(layout, shape)[fastest]);
    if (mask && plan.vec > 1) {
      int64_t constancy = axisInfo.lookup(mask).getConstancy(fastest);
      plan.uniformMask = constancy % plan.vec == 0;
      // Narrow elements share registers, so they cannot be masked one by
      // one: shrink the vector to the mask's granularity instead.
      if (!plan.uniformMask && plan.elementBits < 32) {
        plan.vec = std::gcd<int64_t>(plan.vec, constancy);
        plan.uniformMask = true;
      }
    }
  }
  unsigned bits = plan.vec * plan.elementBits;
  plan.wordBits = bits >= 32 ? std::max(32u, plan.elementBits) : bits;
  return plan;
}

/// `$i` references of `count` consecutive operands starting at `first`.
std::string operandList(unsigned first, unsigned count) {
  SmallVector<std::string> names;
  for (unsigned i = 0; i < count; ++i)
    names.push_back("$" + std::to_string(first + i));
  return llvm::join(names, ", ");
}

/// The PTX predicate declarations and `and` chain that set %pall to the
/// conjunction of the mask operands `$first..`, and %pnot to its negation.
std::string allOfMasks(unsigned first, unsigned count) {
  std::string text = ".reg .pred %pall, %pnot, %pone;\n";
  text += llvm::formatv("mov.pred %pall, ${0};\n", first).str();
  for (unsigned i = 1; i < count; ++i)
    text += llvm::formatv("and.pred %pall, %pall, ${0};\n", first + i).str();
  return text + "not.pred %pnot, %pall;\n";
}

/// Packs `elements` (one word's worth) into a word register value.
Value packWord(Location loc, ArrayRef<Value> elements, const AccessPlan &plan,
               RewriterBase &rewriter) {
  MLIRContext *context = rewriter.getContext();
  Type elementType = elements.front().getType();
  Type bitsType = IntegerType::get(context, plan.wordBits);
  Value word;
  if (elements.size() == 1) {
    word = LLVM::BitcastOp::create(
        rewriter, loc, IntegerType::get(context, plan.elementBits), elements[0]);
  } else {
    auto vecType = VectorType::get(elements.size(), elementType);
    Value vector = LLVM::UndefOp::create(rewriter, loc, vecType);
    for (auto [i, element] : llvm::enumerate(elements))
      vector = LLVM::InsertElementOp::create(rewriter, loc, vector, element,
                                             i32Constant(loc, rewriter, i));
    word = LLVM::BitcastOp::create(rewriter, loc, bitsType, vector);
  }
  if (plan.wordBits < 16)
    word = LLVM::ZExtOp::create(rewriter, loc, plan.wordType(context), word);
  return word;
}

/// Splits a word register value into its elements of `elementType`.
void unpackWord(Location loc, Value word, Type elementType,
                const AccessPlan &plan, RewriterBase &rewriter,
                SmallVectorImpl<Value> &out) {
  MLIRContext *context = rewriter.getContext();
  if (plan.wordBits < 16)
    word = LLVM::TruncOp::create(rewriter, loc,
                                 IntegerType::get(context, plan.wordBits), word);
  unsigned count = plan.elementsPerWord();
  if (count == 1) {
    out.push_back(LLVM::BitcastOp::create(rewriter, loc, elementType, word));
    return;
  }
  Value vector = LLVM::BitcastOp::create(
      rewriter, loc, VectorType::get(count, elementType), word);
  for (unsigned i = 0; i < count; ++i)
    out.push_back(LLVM::ExtractElementOp::create(rewriter, loc, vector,
                                                 i32Constant(loc, rewriter, i)));
}

/// The converted mask elements, and-ed with `owner` when there is one; none
/// when the op has neither.
SmallVector<Value> predicatesOf(Location loc, Value mask, Value owner,
                                size_t count, RewriterBase &rewriter) {
  SmallVector<Value> preds;
  if (mask)
    preds = unpackElements(loc, mask, rewriter);
  else if (owner)
    preds.assign(count, owner);
  else
    return preds;
  if (mask && owner)
    for (Value &pred : preds)
      pred = LLVM::AndOp::create(rewriter, loc, pred, owner);
  return preds;
}

struct LoadOpConversion : OpConversionPattern<tile::LoadOp> {
  LoadOpConversion(TypeConverter &converter, MLIRContext *context,
                   const ModuleAxisInfo &axisInfo)
      : OpConversionPattern(converter, context, kTilePatternBenefit),
        axisInfo(axisInfo) {}

  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type elementType =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!resultType || elementType.isInteger(1))
      return op.emitOpError("cannot lower a load of this type yet");
    AccessPlan plan = planAccess(op.getPtr(), op.getMask(), axisInfo);
    // volatile=True: every execution reads memory.
    const char *ld = op->hasAttr(tile::kVolatileAttr) ? "ld.volatile.global" : "ld.global";
    SmallVector<Value> ptrs = unpackElements(loc, adaptor.getPtr(), rewriter);
    SmallVector<Value> preds =
        predicatesOf(loc, adaptor.getMask(), Value(), ptrs.size(), rewriter);
    SmallVector<Value> others;
    if (adaptor.getOther())
      others = unpackElements(loc, adaptor.getOther(), rewriter);

    unsigned words = plan.wordsPerVector(), perWord = plan.elementsPerWord();
    SmallVector<Type> wordTypes(words, plan.wordType(context));
    SmallVector<Value> results;
    for (size_t first = 0; first < ptrs.size(); first += plan.vec) {
      SmallVector<Value> operands{ptrs[first]};
      SmallVector<std::string> constraints(words, "=" + plan.constraint());
      constraints.push_back("l");
      unsigned address = words, next = words + 1;
      std::string text;
      std::string guard;
      unsigned firstPred = next;
      if (!preds.empty()) {
        unsigned count = plan.uniformMask ? 1 : plan.vec;
        for (unsigned i = 0; i < count; ++i) {
          operands.push_back(preds[first + i]);
          constraints.push_back("b");
        }
        next += count;
        if (plan.uniformMask) {
          guard = llvm::formatv("@${0} ", firstPred).str();
        } else {
          text += allOfMasks(firstPred, count);
          guard = "@%pall ";
        }
        // Masked-off elements take `other`, or 0.
        for (unsigned w = 0; w < words; ++w) {
          std::string source = "0";
          if (!others.empty()) {
            operands.push_back(packWord(
                loc, ArrayRef(others).slice(first + w * perWord, perWord), plan,
                rewriter));
            constraints.push_back(plan.constraint());
            source = "$" + std::to_string(next++);
          }
          text += llvm::formatv("mov.b{0} ${1}, {2};\n",
                                std::max(16u, plan.wordBits), w, source)
                      .str();
        }
      }
      std::string vecSuffix = words > 1 ? ".v" + std::to_string(words) : "";
      std::string dests = words > 1 ? "{ " + operandList(0, words) + " }" : "$0";
      text += llvm::formatv("{0}{5}{1}.{2} {3}, [ ${4} + 0 ];\n", guard,
                            vecSuffix, plan.ptxType(), dests, address, ld)
                  .str();
      if (!plan.uniformMask)
        for (unsigned w = 0; w < words; ++w)
          text += llvm::formatv("and.pred %pone, %pnot, ${0};\n"
                                "@%pone {5}.{1} ${2}, [ ${3} + {4} ];\n",
                                firstPred + w, plan.ptxType(), w, address,
                                w * plan.wordBits / 8, ld)
                      .str();
      Operation *asmOp =
          emitAsm(loc, rewriter, wordTypes, operands, text, constraints);
      for (unsigned w = 0; w < words; ++w) {
        Value word = words == 1 ? asmOp->getResult(0)
                                : LLVM::ExtractValueOp::create(
                                      rewriter, loc, asmOp->getResult(0), w)
                                      .getResult();
        unpackWord(loc, word, elementType, plan, rewriter, results);
      }
    }
    rewriter.replaceOp(op, packElements(loc, results, resultType, rewriter));
    return success();
  }

  const ModuleAxisInfo &axisInfo;
};

struct StoreOpConversion : OpConversionPattern<tile::StoreOp> {
  StoreOpConversion(TypeConverter &converter, MLIRContext *context,
                    const ModuleAxisInfo &axisInfo)
      : OpConversionPattern(converter, context, kTilePatternBenefit),
        axisInfo(axisInfo) {}

  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elementType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getValue().getType()));
    if (elementType.isInteger(1))
      return op.emitOpError("cannot lower a store of this type yet");
    AccessPlan plan = planAccess(op.getPtr(), op.getMask(), axisInfo);
    SmallVector<Value> ptrs = unpackElements(loc, adaptor.getPtr(), rewriter);
    SmallVector<Value> values = unpackElements(loc, adaptor.getValue(), rewriter);
    Value owner;
    if (auto type = dyn_cast<RankedTensorType>(op.getPtr().getType()))
      owner = emitOwnerPredicate(loc, rewriter, type.getEncoding(),
                                 type.getShape());
    SmallVector<Value> preds =
        predicatesOf(loc, adaptor.getMask(), owner, ptrs.size(), rewriter);

    unsigned words = plan.wordsPerVector(), perWord = plan.elementsPerWord();
    for (size_t first = 0; first < ptrs.size(); first += plan.vec) {
      SmallVector<Value> operands{ptrs[first]};
      SmallVector<std::string> constraints{"l"};
      for (unsigned w = 0; w < words; ++w) {
        operands.push_back(packWord(
            loc, ArrayRef(values).slice(first + w * perWord, perWord), plan,
            rewriter));
        constraints.push_back(plan.constraint());
      }
      unsigned firstPred = 1 + words;
      std::string text, guard;
      if (!preds.empty()) {
        unsigned count = plan.uniformMask ? 1 : plan.vec;
        for (unsigned i = 0; i < count; ++i) {
          operands.push_back(preds[first + i]);
          constraints.push_back("b");
        }
        if (plan.uniformMask) {
          guard = llvm::formatv("@${0} ", firstPred).str();
        } else {
          text += allOfMasks(firstPred, count);
          guard = "@%pall ";
        }
      }
      std::string vecSuffix = words > 1 ? ".v" + std::to_string(words) : "";
      std::string sources = words > 1 ? "{ " + operandList(1, words) + " }" : "$1";
      text += llvm::formatv("{0}st.global{1}.{2} [ $0 + 0 ], {3};\n", guard,
                            vecSuffix, plan.ptxType(), sources)
                  .str();
      if (!plan.uniformMask)
        for (unsigned w = 0; w < words; ++w)
          text += llvm::formatv("and.pred %pone, %pnot, ${0};\n"
                                "@%pone st.global.{1} [ $0 + {2} ], ${3};\n",
                                firstPred + w, plan.ptxType(),
                                w * plan.wordBits / 8, 1 + w)
                      .str();
      emitAsm(loc, rewriter, {}, operands, text, constraints);
    }
    rewriter.eraseOp(op);
    return success();
  }

  const ModuleAxisInfo &axisInfo;
};

} // namespace

void mlir::tilec::populateMemoryOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const ModuleAxisInfo &axisInfo) {
  patterns.add<LoadOpConversion, StoreOpConversion>(
      converter, patterns.getContext(), axisInfo);
}
