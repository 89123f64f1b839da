//===- PtxasWorkarounds.cpp - LLVM IR that avoids known ptxas bugs --------===//
//
// ptxas folds an integer negation into the three-input min/max it forms on
// sm_90 (VIMNMX3) and loses it for the middle operand. The same PTX with the
// negation written as `not` and `add 1` is translated correctly (measured on
// an H200: bench/results/2026-11-26-h200-differential/min-of-negated). LLVM
// canonicalizes that form back to `sub 0, x`, so the rewrite runs after the
// optimization pipeline and hides it in inline asm.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PtxasWorkarounds.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

#include <string>

using namespace llvm;

namespace {

/// Whether `value` reaches an integer min, max or select, directly or
/// through integer casts.
bool reachesMinMax(Value *value, unsigned depth = 0) {
  for (User *user : value->users()) {
    if (auto *intrinsic = dyn_cast<IntrinsicInst>(user)) {
      switch (intrinsic->getIntrinsicID()) {
      case Intrinsic::smin:
      case Intrinsic::smax:
      case Intrinsic::umin:
      case Intrinsic::umax:
        return true;
      default:
        break;
      }
    } else if (isa<SelectInst>(user)) {
      return true;
    } else if (isa<CastInst>(user) && user->getType()->isIntegerTy() &&
               depth < 4 && reachesMinMax(user, depth + 1)) {
      return true;
    }
  }
  return false;
}

/// -x as inline asm (`not`, `add 1`) on the 16-, 32- or 64-bit register
/// holding `x` (narrower or odd widths are widened to the next one and back).
Value *opaqueNegation(IRBuilder<> &builder, Value *x) {
  Type *type = x->getType();
  unsigned bits = type->getIntegerBitWidth();
  unsigned width = bits <= 16 ? 16 : bits <= 32 ? 32 : 64;
  Type *wide = builder.getIntNTy(width);
  if (width != bits)
    x = builder.CreateZExt(x, wide);
  const char *reg = width == 16 ? "h" : width == 32 ? "r" : "l";
  std::string text = "not.b" + std::to_string(width) + " $0, $1;\n\tadd.s" +
                     std::to_string(width) + " $0, $0, 1;";
  auto *negate =
      InlineAsm::get(FunctionType::get(wide, {wide}, false), text,
                     std::string("=") + reg + "," + reg, /*hasSideEffects=*/false);
  Value *result = builder.CreateCall(negate, {x});
  return width != bits ? builder.CreateTrunc(result, type) : result;
}

} // namespace

unsigned mlir::tilec::hideNegationsFromIntegerMinMax(Module &module) {
  SmallVector<Instruction *> negations;
  for (Function &function : module)
    for (Instruction &inst : instructions(&function)) {
      Value *x;
      if (PatternMatch::match(&inst, PatternMatch::m_Neg(PatternMatch::m_Value(x))) &&
          inst.getType()->isIntegerTy() && inst.getType()->getIntegerBitWidth() <= 64 &&
          reachesMinMax(&inst))
        negations.push_back(&inst);
    }
  for (Instruction *negation : negations) {
    IRBuilder<> builder(negation);
    Value *result = opaqueNegation(builder, negation->getOperand(1));
    negation->replaceAllUsesWith(result);
    negation->eraseFromParent();
  }
  return negations.size();
}
