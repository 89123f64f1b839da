//===- Pipeline.h - tilec's pass pipelines and registry ---------*- C++ -*-===//
//
// The stages between the tile dialect and the LLVM dialect, as pass
// pipelines, and the registration of tilec's dialects and passes for tools.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PIPELINE_H
#define TILEC_TARGET_PIPELINE_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::tilec {

/// tile -> tilegpu: cleanups, default layouts, coalescing.
void buildTileToTileGPUPipeline(OpPassManager &pm, unsigned numWarps);

/// tilegpu -> LLVM + NVVM dialects, with line-table debug scopes so that the
/// PTX carries `.loc` lines back into the .tile source.
void buildTileGPUToLLVMPipeline(OpPassManager &pm);

/// Adds every dialect tilec's IR can contain, and the translations to LLVM
/// IR that the PTX backend needs.
void registerTilecDialects(DialectRegistry &registry);

/// Registers tilec's passes with the global pass registry (for tile-opt).
void registerTilecPasses();

} // namespace mlir::tilec

#endif // TILEC_TARGET_PIPELINE_H
