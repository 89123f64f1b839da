//===- AtomicOpToLLVM.cpp - Atomic read-modify-write and compare-and-swap -===//
//
// Each element of an atomic on a pointer tile becomes one predicated PTX
// `atom.<sem>.<scope>.global` instruction in the thread that owns it (threads
// holding replicas, and masked-off elements, access nothing). An atomic on a
// scalar pointer runs in thread 0 only. When the old values are used, the
// threads that ran the atomics pass them on through scratch shared memory:
// 8 bytes for a scalar, one slot per element for a replicated tile. Float max/min use two integer atomics chosen by the sign of
// the operand, as Triton does: signed max for non-negative values and
// unsigned min for negative ones (and the reverse for min). 16-bit kinds
// without a PTX instruction (bf16 add, f16/bf16 max/min, exchange) are
// compare-and-swap loops. On sm_90 and later an fp32 add along a run of 2
// or 4 contiguous, aligned elements of a thread (with one mask value) is one
// vector atomic (`.v2.f32`/`.v4.f32`, PTX 8.1), as Triton emits on Hopper.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// The PTX of one element's atomic: `prefix` (`atom.<sem>.<scope>.global`)
/// then `op` (e.g. `add.f32`), or for float max/min `op` on non-negative
/// operands and `negOp` on negative ones. What PTX has no 16-bit atomic for
/// (bf16 add, f16/bf16 max and min, 16-bit exchange) is a compare-and-swap
/// loop whose `casUpdate` computes %new from the current value %cur and the
/// operand $2.
struct AtomPlan {
  std::string prefix, op, negOp, casUpdate;
  unsigned bits = 32; ///< Register width of the value.
};

/// `atom.<sem>.<scope>.global`: the op's memory ordering, in PTX's words
/// (which are Triton's).
std::string atomPrefix(tile::MemSemantic sem, tile::MemScope scope) {
  return ("atom." + tile::stringifyMemSemantic(sem) + "." +
          tile::stringifyMemScope(scope) + ".global")
      .str();
}

/// PTX that sets the b16 register %new to `f32Op`(%cur, $2) for 16-bit
/// floats (computed in f32).
std::string casFloatUpdate(Type type, StringRef f32Op) {
  std::string widen, narrow;
  if (type.isBF16()) {
    // bf16 is the high half of an f32.
    widen = "mov.b32 %ia, {%zero, %cur};\nmov.b32 %ib, {%zero, $2};\n"
            "mov.b32 %fa, %ia;\nmov.b32 %fb, %ib;\n";
    narrow = "cvt.rn.bf16.f32 %new, %fa;\n";
  } else {
    widen = "cvt.f32.f16 %fa, %cur;\ncvt.f32.f16 %fb, $2;\n";
    narrow = "cvt.rn.f16.f32 %new, %fa;\n";
  }
  return widen + f32Op.str() + " %fa, %fa, %fb;\n" + narrow;
}

/// PTX register constraint for a value of `bits` bits.
StringRef constraintFor(unsigned bits) {
  return bits == 64 ? "l" : bits == 32 ? "r" : "h";
}

/// The instruction(s) for `kind` on `type`, or failure with a reason.
FailureOr<AtomPlan> planRMW(tile::RMWKind kind, Type type, std::string &why) {
  AtomPlan plan;
  unsigned bits = type.getIntOrFloatBitWidth();
  plan.bits = bits;
  bool isFloat = isa<FloatType>(type);
  std::string width = std::to_string(bits);
  auto unsupported = [&]() -> FailureOr<AtomPlan> {
    why = "atomic " + tile::stringifyRMWKind(kind).str() + " on this type";
    return failure();
  };
  if (bits != 16 && bits != 32 && bits != 64)
    return unsupported();
  if (bits == 16 && kind == tile::RMWKind::Xchg) {
    plan.casUpdate = "mov.b16 %new, $2;\n";
    return plan;
  }
  if (bits == 16 && isFloat && kind != tile::RMWKind::Add) {
    if (kind != tile::RMWKind::Max && kind != tile::RMWKind::Min)
      return unsupported();
    plan.casUpdate = casFloatUpdate(
        type, kind == tile::RMWKind::Max ? "max.f32" : "min.f32");
    return plan;
  }
  if (bits == 16 && type.isBF16()) {
    plan.casUpdate = casFloatUpdate(type, "add.f32");
    return plan;
  }
  if (bits == 16 && !type.isF16())
    return unsupported();
  std::string op;
  switch (kind) {
  case tile::RMWKind::Add:
    op = type.isF16() ? "add.noftz.f16"
         : isFloat    ? "add.f" + width
                      : "add.u" + width;
    break;
  case tile::RMWKind::Max:
  case tile::RMWKind::Min: {
    bool max = kind == tile::RMWKind::Max;
    op = (max ? "max.s" : "min.s") + width;
    if (isFloat)
      plan.negOp = (max ? "min.u" : "max.u") + width;
    break;
  }
  case tile::RMWKind::UMax:
  case tile::RMWKind::UMin:
    if (isFloat)
      return unsupported();
    op = (kind == tile::RMWKind::UMax ? "max.u" : "min.u") + width;
    break;
  case tile::RMWKind::Xchg:
    op = "exch.b" + width;
    break;
  case tile::RMWKind::And:
  case tile::RMWKind::Or:
  case tile::RMWKind::Xor:
    if (isFloat)
      return unsupported();
    op = tile::stringifyRMWKind(kind).str() + ".b" + width;
    break;
  }
  plan.op = op;
  return plan;
}

/// Emits one element's atomic at `ptr` with `operands` (the value, or cmp and
/// value): returns the old value (0 where `pred` is false). `pred` may be
/// null (always performed).
Value emitAtom(Location loc, RewriterBase &rewriter, const AtomPlan &plan,
               Value ptr, ValueRange operands, Value pred, Type valueType) {
  MLIRContext *context = rewriter.getContext();
  Type bitsType = IntegerType::get(context, plan.bits);
  SmallVector<Value> asmOperands{ptr};
  std::string constraint = ("=" + constraintFor(plan.bits) + ",l").str();
  for (Value operand : operands) {
    asmOperands.push_back(
        LLVM::BitcastOp::create(rewriter, loc, bitsType, operand));
    constraint += ("," + constraintFor(plan.bits)).str();
  }
  unsigned predIndex = 1 + asmOperands.size();
  if (pred) {
    asmOperands.push_back(pred);
    constraint += ",b";
  }
  std::string text = llvm::formatv("mov.b{0} $0, 0;\n", plan.bits).str();
  std::string args = " $0, [ $1 ], $2";
  if (operands.size() == 2)
    args += ", $3";
  auto atom = [&](StringRef guard, StringRef op) {
    text += (guard + plan.prefix + "." + op + args + ";\n").str();
  };
  if (!plan.casUpdate.empty()) {
    // Read, compute, and swap in until no other thread came in between.
    text += ".reg .pred %again;\n.reg .b16 %cur, %new, %zero;\n"
            ".reg .b32 %ia, %ib;\n.reg .f32 %fa, %fb;\nmov.b16 %zero, 0;\n";
    if (pred)
      text += llvm::formatv("@!${0} bra DONE_${{:uid};\n", predIndex).str();
    text += "ld.global.b16 %cur, [ $1 ];\nLOOP_${:uid}:\n" + plan.casUpdate;
    text += plan.prefix + ".cas.b16 $0, [ $1 ], %cur, %new;\n";
    text += "setp.ne.b16 %again, $0, %cur;\nmov.b16 %cur, $0;\n"
            "@%again bra LOOP_${:uid};\nDONE_${:uid}:\n";
  } else if (plan.negOp.empty()) {
    atom(pred ? llvm::formatv("@${0} ", predIndex).str() : "", plan.op);
  } else {
    // The sign of the operand ($2) picks the instruction.
    text += ".reg .pred %pos, %neg;\n";
    text += llvm::formatv("setp.ge.s{0} %pos, $2, 0;\n"
                          "setp.lt.s{0} %neg, $2, 0;\n",
                          plan.bits)
                .str();
    if (pred)
      text += llvm::formatv("and.pred %pos, %pos, ${0};\n"
                            "and.pred %neg, %neg, ${0};\n",
                            predIndex)
                  .str();
    atom("@%pos ", plan.op);
    atom("@%neg ", plan.negOp);
  }
  auto asmOp = LLVM::InlineAsmOp::create(
      rewriter, loc, TypeRange(bitsType), asmOperands, "{\n" + text + "}",
      constraint, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(context, LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return LLVM::BitcastOp::create(rewriter, loc, valueType, asmOp.getResult(0));
}

/// Emits one vector fp32 add of `values` (f32) at `ptr`, predicated on
/// `pred`: returns the old values (0 where `pred` is false).
SmallVector<Value> emitVectorAdd(Location loc, RewriterBase &rewriter, StringRef prefix,
                                 Value ptr, ArrayRef<Value> values, Value pred) {
  Type i32 = rewriter.getI32Type();
  unsigned vec = values.size();
  // $0.. the old values, then the address, the new values, the predicate.
  SmallVector<Value> operands{ptr};
  SmallVector<std::string> constraints(vec, "=r");
  constraints.push_back("l");
  std::string olds, news, text;
  for (unsigned i = 0; i < vec; ++i) {
    olds += (i ? ", $" : "$") + std::to_string(i);
    news += (i ? ", $" : "$") + std::to_string(vec + 1 + i);
    text += "mov.b32 $" + std::to_string(i) + ", 0;\n";
    operands.push_back(LLVM::BitcastOp::create(rewriter, loc, i32, values[i]));
    constraints.push_back("r");
  }
  if (pred) {
    operands.push_back(pred);
    constraints.push_back("b");
    text += "@$" + std::to_string(2 * vec + 1) + " ";
  }
  text += prefix.str() + ".add.v" + std::to_string(vec) + ".f32 {" + olds + "}, [ $" +
          std::to_string(vec) + " ], {" + news + "};\n";
  Operation *asmOp =
      emitAsm(loc, rewriter, SmallVector<Type>(vec, i32), operands, text, constraints);
  SmallVector<Value> results;
  for (unsigned i = 0; i < vec; ++i)
    results.push_back(LLVM::BitcastOp::create(
        rewriter, loc, rewriter.getF32Type(),
        LLVM::ExtractValueOp::create(rewriter, loc, asmOp->getResult(0), i)));
  return results;
}

/// Lowers an atomic whose per-element instruction is `plan`, with converted
/// operands `operands` (each unpacked like the pointer); with `vec` > 1 (an
/// fp32 add), `vec` consecutive elements at a time as one vector atomic.
LogicalResult lowerAtomic(Operation *op, const AtomPlan &plan, Value origPtr,
                          Value ptr, ArrayRef<Value> operands, Value mask,
                          const TypeConverter &converter,
                          ConversionPatternRewriter &rewriter, unsigned vec = 1) {
  Location loc = op->getLoc();
  Type resultType = converter.convertType(op->getResult(0).getType());
  Type valueType =
      converter.convertType(getElementTypeOrSelf(op->getResult(0).getType()));
  SmallVector<Value> ptrs = unpackElements(loc, ptr, rewriter);
  SmallVector<SmallVector<Value>> perOperand;
  for (Value operand : operands)
    perOperand.push_back(unpackElements(loc, operand, rewriter));
  SmallVector<Value> masks;
  if (mask)
    masks = unpackElements(loc, mask, rewriter);

  auto tensorType = dyn_cast<RankedTensorType>(origPtr.getType());
  Value owner;
  if (tensorType)
    owner = emitOwnerPredicate(loc, rewriter, tensorType.getEncoding(),
                               tensorType.getShape());
  else
    // A scalar atomic happens once per program: in thread 0.
    owner = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq,
        NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type()),
        i32Constant(loc, rewriter, 0));

  SmallVector<Value> results;
  for (size_t i = 0; i < ptrs.size(); i += vec) {
    Value pred = owner;
    if (!masks.empty())
      pred =
          pred ? LLVM::AndOp::create(rewriter, loc, pred, masks[i]) : masks[i];
    if (vec > 1) {
      llvm::append_range(results,
                         emitVectorAdd(loc, rewriter, plan.prefix, ptrs[i],
                                       ArrayRef<Value>(perOperand[0]).slice(i, vec), pred));
      continue;
    }
    SmallVector<Value> elementOperands;
    for (auto &elements : perOperand)
      elementOperands.push_back(elements[i]);
    results.push_back(emitAtom(loc, rewriter, plan, ptrs[i], elementOperands,
                               pred, valueType));
  }

  // Only owners ran the atomics: pass their old values on through scratch to
  // every thread (thread 0's for a scalar; each element's owner's for a tile
  // whose layout replicates elements).
  if (owner && !op->getResult(0).use_empty()) {
    Value scratch = getScratchBase(loc, rewriter, op);
    if (!scratch)
      return failure();
    SmallVector<Value> slots;
    if (tensorType) {
      for (ArrayRef<Value> index :
           emitIndices(loc, rewriter, tensorType.getEncoding(),
                       tensorType.getShape()))
        slots.push_back(LLVM::GEPOp::create(
            rewriter, loc, scratch.getType(), valueType, scratch,
            ValueRange{emitLinearIndex(loc, rewriter, index,
                                       tensorType.getShape())}));
    } else {
      slots.push_back(scratch);
    }
    auto generic = LLVM::LLVMPointerType::get(rewriter.getContext());
    Type bitsType = rewriter.getIntegerType(plan.bits);
    std::string text =
        llvm::formatv("@$2 st.b{0} [ $0 ], $1;", plan.bits).str();
    for (auto [slot, result] : llvm::zip(slots, results)) {
      Value address = LLVM::AddrSpaceCastOp::create(rewriter, loc, generic, slot);
      Value bits = LLVM::BitcastOp::create(rewriter, loc, bitsType, result);
      LLVM::InlineAsmOp::create(
          rewriter, loc, TypeRange(), ValueRange{address, bits, owner}, text,
          ("l," + constraintFor(plan.bits) + ",b").str(),
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(rewriter.getContext(),
                                    LLVM::AsmDialect::AD_ATT),
          ArrayAttr());
    }
    emitBarrier(loc, rewriter);
    for (auto [slot, result] : llvm::zip(slots, results))
      result = LLVM::LoadOp::create(rewriter, loc, valueType, slot);
  }
  rewriter.replaceOp(op, packElements(loc, results, resultType, rewriter));
  return success();
}

/// Elements of an fp32 add `op` that one vector atomic may cover (sm_90):
/// the pointers' contiguous, aligned run in a thread (up to 16 bytes), where
/// the mask has one value; 1 when not so.
unsigned getAtomicVectorWidth(tile::AtomicRMWOp op, const ModuleAxisInfo &axisInfo,
                              int computeCapability) {
  auto type = dyn_cast<RankedTensorType>(op.getPtr().getType());
  Attribute layout = tilegpu::getLayout(op.getPtr().getType());
  if (computeCapability < 90 || op.getKind() != tile::RMWKind::Add || !type ||
      !getElementTypeOrSelf(op.getVal().getType()).isF32() ||
      !tilegpu::isDistributedLayout(layout))
    return 1;
  unsigned fastest = tilegpu::getLayoutOrder(layout).front();
  int64_t vec = axisInfo.getVectorWidth(
      op.getPtr(), fastest, tilegpu::getContigPerThread(layout, type.getShape())[fastest]);
  if (Value mask = op.getMask())
    vec = std::gcd<int64_t>(vec, axisInfo.lookup(mask).getConstancy(fastest));
  return vec >= 4 ? 4 : vec >= 2 ? 2 : 1;
}

struct AtomicRMWOpConversion : OpConversionPattern<tile::AtomicRMWOp> {
  AtomicRMWOpConversion(TileGPUToLLVMTypeConverter &converter, MLIRContext *context,
                        const ModuleAxisInfo &axisInfo, int computeCapability)
      : OpConversionPattern(converter, context, kTilePatternBenefit), axisInfo(axisInfo),
        computeCapability(computeCapability) {}

  LogicalResult
  matchAndRewrite(tile::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<AtomPlan> plan =
        planRMW(op.getKind(), getElementTypeOrSelf(op.getVal().getType()), why);
    if (failed(plan))
      return op.emitOpError("is not supported by the GPU lowering: ") << why;
    plan->prefix = atomPrefix(op.getSem(), op.getScope());
    unsigned vec = getAtomicVectorWidth(op, axisInfo, computeCapability);
    if (vec > 1)
      if (Operation *func = op->getParentOfType<LLVM::LLVMFuncOp>())
        rewriter.modifyOpInPlace(func, [&] { requirePtxVersion(func, 81); });
    return lowerAtomic(op, *plan, op.getPtr(), adaptor.getPtr(),
                       {adaptor.getVal()}, adaptor.getMask(),
                       *getTypeConverter(), rewriter, vec);
  }

private:
  const ModuleAxisInfo &axisInfo;
  int computeCapability;
};

struct AtomicCASOpConversion : OpConversionPattern<tile::AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getElementTypeOrSelf(op.getVal().getType());
    unsigned bits = type.getIntOrFloatBitWidth();
    if (bits != 16 && bits != 32 && bits != 64)
      return op.emitOpError(
          "is not supported by the GPU lowering: atomic_cas on this type");
    AtomPlan plan;
    plan.bits = bits;
    plan.prefix = atomPrefix(op.getSem(), op.getScope());
    plan.op = "cas.b" + std::to_string(bits);
    return lowerAtomic(op, plan, op.getPtr(), adaptor.getPtr(),
                       {adaptor.getCmp(), adaptor.getVal()}, Value(),
                       *getTypeConverter(), rewriter);
  }
};

} // namespace

void mlir::tilec::populateAtomicOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const ModuleAxisInfo &axisInfo, int computeCapability) {
  patterns.add<AtomicRMWOpConversion>(converter, patterns.getContext(), axisInfo,
                                      computeCapability);
  patterns.add<AtomicCASOpConversion>(converter, patterns.getContext(),
                                      kTilePatternBenefit);
}
