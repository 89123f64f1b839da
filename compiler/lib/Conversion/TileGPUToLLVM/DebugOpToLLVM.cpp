//===- DebugOpToLLVM.cpp - device_print and device_assert -----------------===//
//
// tile.print calls the CUDA device runtime's `vprintf` once per element a
// thread owns (replicas print nothing), one line each:
//   pid (X, Y, Z) idx (I, J) <prefix><value>
// scalars print once per program, from thread 0. tile.assert calls
// `__assertfail` when the condition is false for an element the thread
// owns, with the op's file and line. The CUDA driver's JIT resolves vprintf
// and __assertfail. (tile.barrier is in BarrierOpToLLVM.cpp.)
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/ExternalFunctions.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// The file, line and function to report for `op`.
struct SourcePosition {
  std::string file = "<unknown>";
  unsigned line = 0;
  std::string function = "<unknown>";
};

SourcePosition positionOf(Operation *op) {
  SourcePosition position;
  Location loc = op->getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (isa<FileLineColLoc>(inner)) {
        loc = inner;
        break;
      }
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
    position.file = fileLoc.getFilename().str();
    position.line = fileLoc.getLine();
  }
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    position.function = func.getName().str();
  return position;
}

/// An i1 that is true in thread 0 of the program.
Value isThreadZero(Location loc, RewriterBase &rewriter) {
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, tid,
                              i32Constant(loc, rewriter, 0));
}

/// Runs `body` only where `cond` is true: splits the current block and
/// leaves the insertion point after the conditional part.
void emitIf(Location loc, ConversionPatternRewriter &rewriter, Value cond,
            function_ref<void()> body) {
  Block *current = rewriter.getInsertionBlock();
  Block *rest = rewriter.splitBlock(current, rewriter.getInsertionPoint());
  Block *then = rewriter.createBlock(rest);
  rewriter.setInsertionPointToEnd(current);
  LLVM::CondBrOp::create(rewriter, loc, cond, then, rest);
  rewriter.setInsertionPointToStart(then);
  body();
  LLVM::BrOp::create(rewriter, loc, rest);
  rewriter.setInsertionPointToStart(rest);
}

/// One printed value: the format directive and the value as vprintf's
/// variadic convention wants it (ints widened to 32 bits, floats to double).
std::pair<std::string, Value> formatValue(Location loc, Value value, bool hex,
                                          RewriterBase &rewriter) {
  Type type = value.getType();
  MLIRContext *context = rewriter.getContext();
  if (isa<LLVM::LLVMPointerType>(type))
    return {"%p", value};
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (hex) {
      unsigned bits = floatType.getWidth();
      Value asInt = LLVM::BitcastOp::create(
          rewriter, loc, IntegerType::get(context, bits), value);
      if (bits < 32)
        asInt =
            LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), asInt);
      return {bits == 64 ? "0x%llx" : "0x%x", asInt};
    }
    if (!type.isF64())
      value = extendFloat(loc, rewriter, value, rewriter.getF64Type());
    return {"%f", value};
  }
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits < 32) {
    // i1 prints as 0/1; narrower ints keep their sign.
    value =
        bits == 1 || hex
            ? LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), value)
                  .getResult()
            : LLVM::SExtOp::create(rewriter, loc, rewriter.getI32Type(), value)
                  .getResult();
    bits = 32;
  }
  if (hex)
    return {bits == 64 ? "0x%llx" : "0x%x", value};
  return {bits == 64 ? "%lld" : "%d", value};
}

/// Escapes `%` so that `text` prints literally through printf.
std::string escapePercent(StringRef text) {
  std::string escaped;
  for (char c : text) {
    escaped.push_back(c);
    if (c == '%')
      escaped.push_back('%');
  }
  return escaped;
}

/// Calls vprintf(format, args) with the arguments in a stack buffer.
void emitPrintf(Location loc, ConversionPatternRewriter &rewriter,
                Operation *anchor, StringRef format, ValueRange args) {
  MLIRContext *context = rewriter.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  Value formatPtr =
      getGlobalString(loc, rewriter, anchor, "printf_format", format);
  Value buffer;
  if (args.empty()) {
    buffer = LLVM::ZeroOp::create(rewriter, loc, ptrType);
  } else {
    auto structType = LLVM::LLVMStructType::getLiteral(
        context, llvm::to_vector(args.getTypes()));
    // A static stack slot: allocated in the function's entry block.
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(
          &rewriter.getInsertionBlock()->getParent()->front());
      Value one = LLVM::ConstantOp::create(
          rewriter, loc, rewriter.getI64Type(), rewriter.getI64IntegerAttr(1));
      buffer = LLVM::AllocaOp::create(rewriter, loc, ptrType, structType, one,
                                      /*alignment=*/8);
    }
    for (auto [i, arg] : llvm::enumerate(args)) {
      Value field = LLVM::GEPOp::create(
          rewriter, loc, ptrType, structType, buffer,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(rewriter, loc, arg, field);
    }
  }
  callExternalFunction(loc, rewriter, anchor, "vprintf", rewriter.getI32Type(),
                       ValueRange{formatPtr, buffer});
}

struct PrintOpConversion : OpConversionPattern<tile::PrintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    SmallVector<Value> pid{NVVM::BlockIdXOp::create(rewriter, loc, i32),
                           NVVM::BlockIdYOp::create(rewriter, loc, i32),
                           NVVM::BlockIdZOp::create(rewriter, loc, i32)};
    std::string prefix = escapePercent(op.getPrefix());
    size_t numArgs = op.getArgs().size();

    // Scalars (and a print of nothing but the prefix): thread 0, one line.
    SmallVector<Value> scalarArgs(pid);
    std::string scalarFormat = "pid (%d, %d, %d) " + prefix;
    bool anyScalar = numArgs == 0;
    for (auto [i, arg] : llvm::enumerate(op.getArgs())) {
      if (isa<RankedTensorType>(arg.getType()))
        continue;
      auto [directive, value] =
          formatValue(loc, adaptor.getArgs()[i], op.getHex(), rewriter);
      if (anyScalar)
        scalarFormat += " ";
      anyScalar = true;
      if (numArgs > 1)
        scalarFormat += "(operand " + std::to_string(i) + ") ";
      scalarFormat += directive;
      scalarArgs.push_back(value);
    }
    if (anyScalar) {
      scalarFormat += "\n";
      emitIf(loc, rewriter, isThreadZero(loc, rewriter),
             [&] { emitPrintf(loc, rewriter, op, scalarFormat, scalarArgs); });
    }

    // Tiles: one line per owned element.
    for (auto [i, arg] : llvm::enumerate(op.getArgs())) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type)
        continue;
      Attribute layout = type.getEncoding();
      SmallVector<Value> elements =
          unpackElements(loc, adaptor.getArgs()[i], rewriter);
      auto indices = emitIndices(loc, rewriter, layout, type.getShape());
      Value owner = emitOwnerPredicate(loc, rewriter, layout, type.getShape());
      auto printAll = [&] {
        for (auto [element, index] : llvm::zip(elements, indices)) {
          SmallVector<Value> args(pid);
          std::string format = "pid (%d, %d, %d) idx (";
          for (auto [d, value] : llvm::enumerate(index)) {
            format += d ? ", %d" : "%d";
            args.push_back(value);
          }
          format += ") " + prefix;
          if (numArgs > 1)
            format += "(operand " + std::to_string(i) + ") ";
          auto [directive, value] =
              formatValue(loc, element, op.getHex(), rewriter);
          format += directive + "\n";
          args.push_back(value);
          emitPrintf(loc, rewriter, op, format, args);
        }
      };
      if (owner)
        emitIf(loc, rewriter, owner, printAll);
      else
        printAll();
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertOpConversion : OpConversionPattern<tile::AssertOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> conditions =
        unpackElements(loc, adaptor.getCondition(), rewriter);
    // Any element of this thread false?
    Value anyFalse;
    Value trueValue = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true));
    for (Value condition : conditions) {
      Value isFalse = LLVM::XOrOp::create(rewriter, loc, condition, trueValue);
      anyFalse =
          anyFalse
              ? LLVM::OrOp::create(rewriter, loc, anyFalse, isFalse).getResult()
              : isFalse;
    }
    if (auto type = dyn_cast<RankedTensorType>(op.getCondition().getType()))
      if (Value owner = emitOwnerPredicate(loc, rewriter, type.getEncoding(),
                                           type.getShape()))
        anyFalse = LLVM::AndOp::create(rewriter, loc, anyFalse, owner);

    SourcePosition position = positionOf(op);
    std::string message = position.file + ":" + std::to_string(position.line) +
                          ": device_assert failed: " + op.getMessage().str();
    emitIf(loc, rewriter, anyFalse, [&] {
      Value messagePtr =
          getGlobalString(loc, rewriter, op, "assert_message", message);
      Value filePtr =
          getGlobalString(loc, rewriter, op, "assert_file", position.file);
      Value functionPtr = getGlobalString(loc, rewriter, op, "assert_function",
                                          position.function);
      Value line = i32Constant(loc, rewriter, position.line);
      Value charSize = LLVM::ConstantOp::create(
          rewriter, loc, rewriter.getI64Type(), rewriter.getI64IntegerAttr(1));
      callExternalFunction(
          loc, rewriter, op, "__assertfail", Type(),
          ValueRange{messagePtr, filePtr, line, functionPtr, charSize});
    });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tilec::populateDebugOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<PrintOpConversion, AssertOpConversion>(
      converter, patterns.getContext(), kTilePatternBenefit);
}
