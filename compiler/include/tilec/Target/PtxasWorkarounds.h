//===- PtxasWorkarounds.h - LLVM IR that avoids known ptxas bugs -*- C++ -*-===//
//
// Rewrites of optimized LLVM IR, just before PTX emission, that keep ptxas
// away from code it is known to miscompile.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PTXASWORKAROUNDS_H
#define TILEC_TARGET_PTXASWORKAROUNDS_H

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::tilec {

/// Replaces every integer negation (sub 0, x) whose value reaches an integer
/// min or max (through casts) by an inline-asm `not` and `add 1`. ptxas
/// (12.8 and 13.0, sm_90) folds such a negation into a three-input VIMNMX3
/// and drops it for the middle operand: the row minimum of `-x.to(tl.int32)`
/// over [64, 32] came out wrong in about one row in 40, in tilec and in
/// Triton 3.6 alike. Returns how many negations it replaced.
unsigned hideNegationsFromIntegerMinMax(llvm::Module &module);

} // namespace mlir::tilec

#endif // TILEC_TARGET_PTXASWORKAROUNDS_H
