//===- SharedEncoding.cpp - Tiles in shared memory ------------------------===//
//
// The swizzled shared-memory layout that tensor-core operands are staged in:
// its verification and the layout ldmatrix reads without bank conflicts.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

LogicalResult SwizzledSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned vec,
    unsigned perPhase, unsigned maxPhase, ArrayRef<unsigned> order) {
  if (vec == 0 || perPhase == 0 || maxPhase == 0)
    return emitError() << "vec, perPhase and maxPhase must be positive";
  if (order != ArrayRef<unsigned>{1, 0} && order != ArrayRef<unsigned>{0, 1})
    return emitError() << "a swizzled shared tile is 2-D: order is [1, 0] "
                          "(row-major) or [0, 1] (transposed)";
  return success();
}

SwizzledSharedEncodingAttr SwizzledSharedEncodingAttr::getForLdmatrix(
    MLIRContext *context, ArrayRef<int64_t> shape, unsigned elementBits,
    ArrayRef<unsigned> order) {
  // 16-byte vectors; a 128-byte line of the 32 banks holds perPhase rows, and
  // the eight rows an ldmatrix reads at one column must cover the line's
  // eight 16-byte slots: rows of one phase differ in their line offset,
  // rows of different phases in the swizzle. A stored row runs along
  // order[0].
  unsigned bytes = std::max(1u, elementBits / 8);
  unsigned vec = 16 / bytes;
  int64_t rowBytes = shape[order.front()] * bytes;
  int64_t vectorsPerRow = std::max<int64_t>(1, rowBytes / 16);
  unsigned perPhase =
      std::max<int64_t>(1, 128 / std::max<int64_t>(1, rowBytes));
  unsigned maxPhase =
      std::min<int64_t>(vectorsPerRow, 8 / std::min(8u, perPhase));
  return get(context, vec, perPhase, maxPhase, order);
}
