//===- Ops.cpp - Operations of the tilegpu dialect ------------------------===//
//
// Folding of layout conversions.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tilegpu;

#define GET_OP_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  // convert(convert(x)) -> convert(x), or x itself when the layouts match.
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>())
    if (inner.getSrc().getType() == getResult().getType())
      return inner.getSrc();
  return {};
}
