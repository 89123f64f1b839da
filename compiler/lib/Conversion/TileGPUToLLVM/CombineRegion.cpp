//===- CombineRegion.cpp - Applying a reduce/scan combining region --------===//
//
// Clones the combining region's ops with its arguments mapped to scalars.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/CombineRegion.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tilec;

SmallVector<Value> mlir::tilec::emitCombine(RewriterBase &rewriter,
                                            Region &combine, ValueRange lhs,
                                            ValueRange rhs) {
  Block &block = combine.front();
  IRMapping mapping;
  SmallVector<Value> args(lhs);
  args.append(rhs.begin(), rhs.end());
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    mapping.map(arg, value);
  for (Operation &op : block.without_terminator())
    rewriter.clone(op, mapping);
  SmallVector<Value> results;
  for (Value yielded : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(yielded));
  return results;
}
