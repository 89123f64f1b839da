//===- SliceEncoding.cpp - The slice layout -------------------------------===//
//
// Verification and shape arithmetic of #tilegpu.slice, the layout of a
// tensor that lost one dimension of its parent layout (reductions) or will
// gain it (expand_dims).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

LogicalResult SliceEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned dim,
    Attribute parent) {
  unsigned parentRank = getLayoutRank(parent);
  if (parentRank == 0)
    return emitError() << "the parent of a slice layout must be a blocked "
                          "or slice layout";
  if (dim >= parentRank)
    return emitError() << "slice dimension " << dim
                       << " is out of range for a rank-" << parentRank
                       << " parent";
  return success();
}

unsigned SliceEncodingAttr::getRank() const {
  return getLayoutRank(getParent()) - 1;
}

SmallVector<int64_t>
SliceEncodingAttr::getParentShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + getDim(), 1);
  return parentShape;
}
