//===- Passes.h - Passes over the tilegpu stage -----------------*- C++ -*-===//
//
// Declarations and registration of the tilegpu passes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_H
#define TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_H

#include "tilec/Dialect/TileGPU/IR/Dialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tilegpu {

/// The compute capability a target names ("sm_90a" -> 90), or 0 when it
/// names none.
inline unsigned getComputeCapability(llvm::StringRef target) {
  unsigned capability = 0;
  if (!target.consume_front("sm_"))
    return 0;
  target.consume_back("a");
  return target.getAsInteger(10, capability) ? 0 : capability;
}

/// Shared memory one SM holds for its programs, in bytes (the driver keeps
/// 1 KB of it per program): 164 KB on A100 and Orin (sm_80, sm_87), 100 KB
/// on the other Ampere and Ada GPUs (sm_86, sm_89), 228 KB on H100/H200
/// (sm_90); 0 for other targets.
inline int64_t getSharedMemoryPerSM(llvm::StringRef target) {
  switch (getComputeCapability(target)) {
  case 80:
  case 87:
    return 167936;
  case 86:
  case 89:
    return 102400;
  case 90:
    return 233472;
  default:
    return 0;
  }
}

#define GEN_PASS_DECL
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"

} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_H
