//===- TileGPUToLLVM.cpp - Lower the tilegpu stage to LLVM and NVVM -------===//
//
// Runs the axis-info analysis, then one full dialect conversion with tilec's
// patterns beside the upstream arith, math, func and control-flow ones, and
// marks the kernels for the NVPTX backend. Structured control flow must have
// become branches first (convert-scf-to-cf): the cf patterns convert the
// blocks' tensor arguments to the lowered structs through the type
// converter, so loop-carried tiles stay in registers. A kernel's tensor-map
// parameters become byval grid_constant parameters; a kernel that makes
// tensor maps takes its global scratch as a last parameter
// (GlobalScratch.h).
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/ThreadWork.h"
#include "tilec/Conversion/Passes.h"
#include "tilec/Conversion/TileGPUToLLVM/ExternalFunctions.h"
#include "tilec/Conversion/TileGPUToLLVM/GlobalScratch.h"
#include "tilec/Conversion/TileGPUToLLVM/Patterns.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tilec {
#define GEN_PASS_DEF_CONVERTTILEGPUTOLLVM
#include "tilec/Conversion/Passes.h.inc"
} // namespace mlir::tilec

using namespace mlir;
using namespace mlir::tilec;

namespace {

struct ConvertTileGPUToLLVMPass
    : tilec::impl::ConvertTileGPUToLLVMBase<ConvertTileGPUToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    // Kernels whose straight-line code would take LLVM minutes to compile
    // stop here with a located error.
    if (failed(checkThreadWork(module, maxThreadWork)))
      return signalPassFailure();
    // Analyse before anything changes; the patterns query it by the
    // original values.
    ModuleAxisInfo axisInfo(module);
    // Threads per program of each kernel.
    llvm::StringMap<int> kernels;
    module.walk([&](func::FuncOp func) {
      // A kernel may not take the symbol of an external function it calls
      // (nothing refers to a kernel, so renaming it changes no use).
      if (func->hasAttr(tile::kKernelAttr) && isExternalFunctionName(func.getSymName()))
        SymbolTable::setSymbolName(func, (func.getSymName() + kRenamedKernelSuffix).str());
      if (func->hasAttr(tile::kKernelAttr)) {
        kernels[func.getSymName()] = tilegpu::TileGPUDialect::getThreadsPerProgram(func);
        assignGlobalScratch(func);
      }
      for (unsigned i = 0; i < func.getNumArguments(); ++i) {
        func.removeArgAttr(i, kDivisibilityAttr);
        func.removeArgAttr(i, tile::kTensorMapBoxAttr);
        func.removeArgAttr(i, tile::kTensorMapSwizzleAttr);
      }
    });

    TileGPUToLLVMTypeConverter converter(context);
    RewritePatternSet patterns(context);
    populateGridOpToLLVMPatterns(converter, patterns);
    populateElementwiseOpToLLVMPatterns(converter, patterns, axisInfo);
    populateViewOpToLLVMPatterns(converter, patterns);
    populateConvertLayoutOpToLLVMPatterns(converter, patterns);
    populateFloatNarrowingOpToLLVMPatterns(converter, patterns);
    populateFP8OpToLLVMPatterns(converter, patterns);
    populateMathOpToLLVMPatterns(converter, patterns);
    populateInlineAsmOpToLLVMPatterns(converter, patterns);
    populateAtomicOpToLLVMPatterns(converter, patterns, axisInfo,
                                   tilegpu::getComputeCapability(target));
    populateDebugOpToLLVMPatterns(converter, patterns);
    populateReduceOpToLLVMPatterns(converter, patterns);
    populateScanOpToLLVMPatterns(converter, patterns);
    populateHistogramOpToLLVMPatterns(converter, patterns);
    populateDotOpToLLVMPatterns(converter, patterns);
    populateMmaDotOpToLLVMPatterns(converter, patterns);
    populateWgmmaDotOpToLLVMPatterns(converter, patterns);
    populateLoadMatrixToLLVMPatterns(converter, patterns);
    populateAsyncCopyOpToLLVMPatterns(converter, patterns);
    populateTmaOpToLLVMPatterns(converter, patterns);
    populateHintOpToLLVMPatterns(converter, patterns);
    populateBarrierOpToLLVMPatterns(converter, patterns);
    populateMemoryOpToLLVMPatterns(converter, patterns, axisInfo);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);

    ConversionTarget target(*context);
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect>();
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // Only LLVM's and NVVM's attributes go on to LLVM IR.
    auto dropTileAttrs = [](Operation *op) {
      for (NamedAttribute attr : llvm::to_vector(op->getDiscardableAttrs()))
        if (attr.getName().strref().starts_with("tile"))
          op->removeDiscardableAttr(attr.getName());
    };
    dropTileAttrs(module);
    Builder builder(context);
    module.walk([&](LLVM::LLVMFuncOp func) {
      recordSharedBytes(func);
      recordGlobalScratchBytes(func);
      moveToPassthrough(func, kMinPtxAttr, kMinPtxFnAttr);
      dropTileAttrs(func);
      auto kernel = kernels.find(func.getSymName());
      if (kernel == kernels.end())
        return;
      int threads = kernel->second;
      func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                    builder.getUnitAttr());
      // .reqntid: the driver refuses a launch with any other block size, and
      // the runtime checks the metadata's num_warps against it.
      func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                    builder.getDenseI32ArrayAttr({threads, 1, 1}));
      // A tensor map (the only generic pointer a kernel takes) arrives by
      // value, 64-byte aligned, and its address is that of the parameter
      // itself (cvta.param), as cp.async.bulk.tensor reads it.
      for (unsigned i = 0; i < func.getNumArguments(); ++i) {
        auto pointer = dyn_cast<LLVM::LLVMPointerType>(func.getArgument(i).getType());
        if (!pointer || pointer.getAddressSpace() != 0)
          continue;
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(LLVM::LLVMArrayType::get(
                            builder.getI8Type(), tile::kTensorMapBytes)));
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        builder.getI64IntegerAttr(tile::kTensorMapAlignment));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        builder.getUnitAttr());
      }
    });
  }
};

} // namespace
