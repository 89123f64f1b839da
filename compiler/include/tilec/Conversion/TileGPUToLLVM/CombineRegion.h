//===- CombineRegion.h - Applying a reduce/scan combining region -*- C++
//-*-===//
//
// tile.reduce and tile.scan carry their combination as a region; the
// lowering applies it to scalars by cloning the region's ops.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_TILEGPUTOLLVM_COMBINEREGION_H
#define TILEC_CONVERSION_TILEGPUTOLLVM_COMBINEREGION_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::tilec {

/// Clones the ops of `combine` (a single block taking (lhs..., rhs...) and
/// ending in tile.reduce.return) at the insertion point, with `lhs` and
/// `rhs` for its arguments, and returns the values it yields. The clones
/// are ordinary arith ops that the ongoing conversion then lowers.
SmallVector<Value> emitCombine(RewriterBase &rewriter, Region &combine,
                               ValueRange lhs, ValueRange rhs);

} // namespace mlir::tilec

#endif // TILEC_CONVERSION_TILEGPUTOLLVM_COMBINEREGION_H
