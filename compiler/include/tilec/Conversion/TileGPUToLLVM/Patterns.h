//===- Patterns.h - Patterns lowering tilegpu to LLVM -----------*- C++ -*-===//
//
// One populate function per op family; the pass gathers them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_TILEGPUTOLLVM_PATTERNS_H
#define TILEC_CONVERSION_TILEGPUTOLLVM_PATTERNS_H

#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Conversion/TileGPUToLLVM/TypeConverter.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tilec {

/// Benefit of tilec's patterns, above the upstream ones they coexist with.
constexpr unsigned kTilePatternBenefit = 10;

/// program_id and num_programs.
void populateGridOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);

/// Elementwise arith/math on tiles (integer results computed once per run
/// of equal elements that `axisInfo` proves), constants, make_range, splat,
/// addptr.
void populateElementwiseOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const ModuleAxisInfo &axisInfo);

/// fp8 constants, and conversions between fp8 and f16/f32 (cvt), on tiles
/// and scalars.
void populateFP8OpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);

/// Scalar extf from bf16 and remf, in a form LLVM's InstCombine cannot
/// narrow wrongly.
void populateFloatNarrowingOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);

/// Scalar math the NVPTX backend cannot lower by itself (exp and friends).
void populateMathOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);

/// load and store, vectorized as far as `axisInfo` allows.
void populateMemoryOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const ModuleAxisInfo &axisInfo);

/// tile.barrier (bar.sync 0).
void populateBarrierOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                     RewritePatternSet &patterns);

/// atomic_rmw and atomic_cas on pointer tiles and scalar pointers; fp32
/// adds along contiguous, aligned runs as vector atomics on sm_90 and later
/// (`computeCapability` 90).
void populateAtomicOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const ModuleAxisInfo &axisInfo,
                                    int computeCapability);

/// print (vprintf) and assert (__assertfail).
void populateDebugOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                   RewritePatternSet &patterns);

/// broadcast and expand_dims between lined-up layouts (registers only).
void populateViewOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);

/// convert_layout, trans and reshape, through the op's shared-memory scratch.
void populateConvertLayoutOpToLLVMPatterns(
    TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);

/// reduce along one axis (shuffles, then scratch across warps).
void populateReduceOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);

/// scan along one axis (Hillis-Steele through scratch).
void populateScanOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);

/// dot on the FMA units, operands staged through scratch.
void populateDotOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);

/// dot on the tensor cores (mma.sync), operands and accumulator in registers.
void populateMmaDotOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);

/// dot on wgmma (sm_90a): operands read from shared memory through matrix
/// descriptors, the accumulator in registers.
void populateWgmmaDotOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                      RewritePatternSet &patterns);

/// convert_layout into dot operand layouts (swizzled scratch and ldmatrix)
/// and local_load of a slot into them (ldmatrix).
void populateLoadMatrixToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                      RewritePatternSet &patterns);

/// local_alloc, async_copy (cp.async into swizzled slots),
/// async_commit_group and async_wait.
void populateAsyncCopyOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// histogram: counts in shared memory (red.shared.add).
void populateHistogramOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// inline_asm: the user's PTX, `pack` elements per statement.
void populateInlineAsmOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// init_barriers, inval_barriers, tma_copy and wait_barrier: the mbarriers
/// and bulk tensor copies of the tensor memory accelerator (sm_90).
void populateTmaOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);

/// hint (multiple_of, max_contiguous): the identity at run time.
void populateHintOpToLLVMPatterns(TileGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);

} // namespace mlir::tilec

#endif // TILEC_CONVERSION_TILEGPUTOLLVM_PATTERNS_H
