//===- Pipeline.cpp - tilec's pass pipelines and registry -----------------===//
//
// Which passes run between the stages, in which order, and what a tool must
// register to parse and lower tilec's IR.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/Pipeline.h"

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

void mlir::tilec::buildTileLegalizationPipeline(OpPassManager &pm, StringRef arch) {
  tile::TileLegalizeFP8Options fp8;
  fp8.target = arch.str();
  pm.addPass(tile::createTileLegalizeFP8(fp8));
}

void mlir::tilec::buildTileToTileGPUPipeline(OpPassManager &pm,
                                             unsigned numWarps,
                                             StringRef arch, bool tmaStores) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  ConvertTileToTileGPUOptions options;
  options.numWarps = numWarps;
  pm.addPass(createConvertTileToTileGPU(options));
  // Cleanup before coalescing lets the address arithmetic share the layout of
  // the access it feeds, so the coalesced layout reaches all of it; cleanup
  // after removes what coalescing made redundant.
  pm.addPass(tilegpu::createTileGPURemoveLayoutConversions());
  pm.addPass(tilegpu::createTileGPUCoalesce());
  pm.addPass(tilegpu::createTileGPURemoveLayoutConversions());
  // Products move to the tensor cores once the accesses have their layouts;
  // the cleanup after keeps accumulators in the MMA layout across loops.
  tilegpu::TileGPUAccelerateDotOptions accelerate;
  accelerate.target = arch.str();
  pm.addPass(tilegpu::createTileGPUAccelerateDot(accelerate));
  pm.addPass(tilegpu::createTileGPURemoveLayoutConversions());
  // Loop-invariant tiles (masks, splats, conversions) are computed once,
  // before their loop.
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // The operand loads of tensor-core dots in loops run num_stages - 1
  // iterations ahead as cp.async copies into shared-memory slots.
  tilegpu::TileGPUPipelineOptions pipeline;
  pipeline.target = arch.str();
  pipeline.sharedMemoryLimit = getSharedMemoryLimit(arch);
  pm.addPass(tilegpu::createTileGPUPipeline(pipeline));
  // Descriptors' stores go through one slot and the tensor memory
  // accelerator (sm_90) when asked; otherwise their maps go.
  tilegpu::TileGPUTmaStoreOptions tmaStore;
  tmaStore.target = arch.str();
  tmaStore.enabled = tmaStores;
  tmaStore.sharedMemoryLimit = getSharedMemoryLimit(arch);
  pm.addPass(tilegpu::createTileGPUTmaStore(tmaStore));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

int64_t mlir::tilec::getSharedMemoryLimit(StringRef arch) {
  // The most dynamic shared memory one block may opt in to
  // (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN): 163 KB on
  // A100 and Orin (sm_80, sm_87), 99 KB on the other Ampere and Ada GPUs
  // (sm_86, sm_89), 227 KB on H100/H200 (sm_90).
  return llvm::StringSwitch<int64_t>(arch)
      .Cases({"sm_80", "sm_87"}, 166912)
      .Cases({"sm_86", "sm_89"}, 101376)
      .Cases({"sm_90", "sm_90a"}, 232448)
      .Default(0);
}

void mlir::tilec::buildTileGPUToLLVMPipeline(OpPassManager &pm, StringRef arch,
                                             int64_t maxThreadWork) {
  // Shared memory is placed while loops are still structured (barriers go
  // inside them); then loops become branches whose block arguments the
  // LLVM conversion converts like any other tile value.
  tilegpu::TileGPUAllocateSharedMemoryOptions allocation;
  allocation.sharedMemoryLimit = getSharedMemoryLimit(arch);
  allocation.targetName = arch.str();
  pm.addPass(tilegpu::createTileGPUAllocateSharedMemory(allocation));
  // Reads the shared bytes the allocation recorded and the loops' carried
  // tiles, so it runs between the two.
  pm.addPass(tilegpu::createTileGPUOccupancy());
  pm.addPass(createSCFToControlFlowPass());
  ConvertTileGPUToLLVMOptions lowering;
  lowering.target = arch.str();
  lowering.maxThreadWork = maxThreadWork;
  pm.addPass(createConvertTileGPUToLLVM(lowering));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Directives only: `.loc` lines in the PTX without DWARF sections, which
  // would mark the target `debug` for the JIT.
  LLVM::DIScopeForLLVMFuncOpPassOptions scopes;
  scopes.emissionKind = LLVM::DIEmissionKind::DebugDirectivesOnly;
  pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(scopes));
}

void mlir::tilec::registerTilecDialects(DialectRegistry &registry) {
  registry.insert<tile::TileDialect, tilegpu::TileGPUDialect,
                  arith::ArithDialect, math::MathDialect, scf::SCFDialect,
                  cf::ControlFlowDialect, func::FuncDialect,
                  LLVM::LLVMDialect, NVVM::NVVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void mlir::tilec::registerTilecPasses() {
  registerTilecConversionPasses();
  registerSCFToControlFlowPass();
  tile::registerTilePasses();
  tilegpu::registerTileGPUPasses();
}
