//===- BlockedEncoding.cpp - The blocked layout ---------------------------===//
//
// Verification and arithmetic of #tilegpu.blocked: how many elements each
// thread holds and how a default layout is chosen for a shape.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

LogicalResult BlockedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<unsigned> sizePerThread,
    ArrayRef<unsigned> threadsPerWarp, ArrayRef<unsigned> warpsPerCTA,
    ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "sizePerThread, threadsPerWarp, warpsPerCTA and "
                          "order must all have one entry per dimension";
  SmallVector<bool> seen(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || seen[dim])
      return emitError() << "order must be a permutation of 0.." << rank - 1;
    seen[dim] = true;
  }
  for (size_t d = 0; d < rank; ++d)
    if (!llvm::isPowerOf2_32(sizePerThread[d]) ||
        !llvm::isPowerOf2_32(threadsPerWarp[d]) ||
        !llvm::isPowerOf2_32(warpsPerCTA[d]))
      return emitError() << "layout sizes must be powers of two";
  return success();
}

int64_t BlockedEncodingAttr::getCTATileSize(unsigned dim) const {
  return int64_t(getSizePerThread()[dim]) * getThreadsPerWarp()[dim] *
         getWarpsPerCTA()[dim];
}

int64_t BlockedEncodingAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  int64_t count = 1;
  // A thread never holds two copies of one element: along a dimension
  // smaller than its block it holds the whole dimension once.
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t reps = std::max<int64_t>(1, shape[d] / getCTATileSize(d));
    count *= reps * std::min<int64_t>(getSizePerThread()[d], shape[d]);
  }
  return count;
}

BlockedEncodingAttr BlockedEncodingAttr::getDefault(MLIRContext *context,
                                                    ArrayRef<int64_t> shape,
                                                    unsigned numWarps,
                                                    unsigned threadsPerWarp,
                                                    unsigned vector,
                                                    ArrayRef<unsigned> order,
                                                    uint64_t warpsLast) {
  unsigned rank = shape.size();
  SmallVector<unsigned> sizePerThread(rank, 1), threads(rank, 1),
      warps(rank, 1);
  SmallVector<unsigned> rowMajor;
  for (unsigned d = 0; d < rank; ++d)
    rowMajor.push_back(rank - 1 - d);
  if (order.empty())
    order = rowMajor;
  // Consecutive elements per thread along the fastest dimension, but never
  // more than the tile holds.
  unsigned fastest = order.front();
  sizePerThread[fastest] =
      std::max<unsigned>(1, std::min<int64_t>(vector, shape[fastest]));
  // Spread the lanes of a warp over the fastest dimensions first, then the
  // warps over the room the lanes leave (the dimensions in warpsLast after
  // the others); leftovers go to the slowest dimension (replication).
  unsigned lanesLeft = threadsPerWarp, warpsLeft = numWarps;
  SmallVector<int64_t> room(rank);
  for (unsigned dim : order) {
    int64_t elements = std::max<int64_t>(1, shape[dim] / sizePerThread[dim]);
    threads[dim] = std::min<int64_t>(lanesLeft, elements);
    lanesLeft /= threads[dim];
    room[dim] = std::max<int64_t>(1, elements / threads[dim]);
  }
  for (bool last : {false, true})
    for (unsigned dim : order) {
      if (bool(warpsLast >> dim & 1) != last)
        continue;
      warps[dim] = std::min<int64_t>(warpsLeft, room[dim]);
      warpsLeft /= warps[dim];
    }
  threads[order.back()] *= lanesLeft;
  warps[order.back()] *= warpsLeft;
  return BlockedEncodingAttr::get(context, sizePerThread, threads, warps,
                                  order);
}
