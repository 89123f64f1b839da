//===- Pipeline.h - tilec's pass pipelines and registry ---------*- C++ -*-===//
//
// The stages between the tile dialect and the LLVM dialect, as pass
// pipelines, and the registration of tilec's dialects and passes for tools.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PIPELINE_H
#define TILEC_TARGET_PIPELINE_H

#include "tilec/Analysis/ThreadWork.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::tilec {

/// tile -> tile, before anything reads the frontend's IR (the interpreter
/// included): fp8 arithmetic moves to fp32 (errors where `arch` cannot
/// convert fp8).
void buildTileLegalizationPipeline(OpPassManager &pm, llvm::StringRef arch);

/// tile -> tilegpu: cleanups, default layouts, coalescing, tensor-core
/// layouts for the products `arch` can run on its tensor cores, pipelining;
/// with `tmaStores`, descriptors' stores through the tensor memory
/// accelerator (tilegpu-tma-store).
void buildTileToTileGPUPipeline(OpPassManager &pm, unsigned numWarps,
                                llvm::StringRef arch, bool tmaStores = true);

/// tilegpu -> LLVM + NVVM dialects: shared-memory allocation (checked
/// against `arch`'s limit), scf -> cf, the LLVM conversion, and line-table
/// debug scopes so that the PTX carries `.loc` lines back into the .tile
/// source. Kernels needing more than `maxThreadWork` operations per thread
/// are errors (Analysis/ThreadWork.h).
void buildTileGPUToLLVMPipeline(OpPassManager &pm, llvm::StringRef arch,
                                int64_t maxThreadWork = kMaxWorkPerThread);

/// Bytes of shared memory one program may use on `arch` (sm_80 and sm_87:
/// 166912, sm_86 and sm_89: 101376, sm_90 and sm_90a: 232448), or 0 for an
/// unknown target.
int64_t getSharedMemoryLimit(llvm::StringRef arch);

/// Adds every dialect tilec's IR can contain, and the translations to LLVM
/// IR that the PTX backend needs.
void registerTilecDialects(DialectRegistry &registry);

/// Registers tilec's passes with the global pass registry (for tile-opt).
void registerTilecPasses();

} // namespace mlir::tilec

#endif // TILEC_TARGET_PIPELINE_H
