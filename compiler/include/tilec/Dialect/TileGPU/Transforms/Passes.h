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

#define GEN_PASS_DECL
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"

} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_H
