//===- SharedEncoding.cpp - Tiles in shared memory ------------------------===//
//
// The swizzled shared-memory layout that tensor-core operands are staged in.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

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
