//===- Dialect.h - The tilegpu dialect --------------------------*- C++ -*-===//
//
// Declarations of the tilegpu dialect, its layout encodings and operations.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_DIALECT_H
#define TILEC_DIALECT_TILEGPU_IR_DIALECT_H

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.h.inc"

#define GET_OP_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUOps.h.inc"

namespace mlir::tilegpu {

/// Gives every ranked tensor under `root` (results, block arguments,
/// constants and function signatures) the encoding `encodingFor` returns for
/// it; a null attribute leaves that tensor as it is.
void rewriteTensorEncodings(
    Operation *root, function_ref<Attribute(RankedTensorType)> encodingFor);

/// The blocked layout of a tensor type, or null when it has none.
BlockedEncodingAttr getBlockedEncoding(Type type);

} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_IR_DIALECT_H
