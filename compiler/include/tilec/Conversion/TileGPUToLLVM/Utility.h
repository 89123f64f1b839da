//===- Utility.h - Helpers of the tilegpu-to-LLVM lowering ------*- C++ -*-===//
//
// Packing a thread's elements into and out of LLVM structs, and computing
// which element of a tile each of them is.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_TILEGPUTOLLVM_UTILITY_H
#define TILEC_CONVERSION_TILEGPUTOLLVM_UTILITY_H

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tilec {

/// The elements of a converted value: a struct's members, or the value itself
/// when it is a scalar.
SmallVector<Value> unpackElements(Location loc, Value packed,
                                  RewriterBase &rewriter);

/// Packs `elements` into a value of the converted type `type` (a literal
/// struct, or the single scalar itself).
Value packElements(Location loc, ValueRange elements, Type type,
                   RewriterBase &rewriter);

/// An i32 constant.
Value i32Constant(Location loc, RewriterBase &rewriter, int64_t value);

/// On a function: the lowest PTX ISA version (81 for 8.1) that instructions
/// the lowering put in it need; kMinPtxFnAttr once in LLVM IR.
constexpr llvm::StringLiteral kMinPtxAttr = "tile.min_ptx";
constexpr llvm::StringLiteral kMinPtxFnAttr = "tilec-min-ptx";

/// Raises `func`'s kMinPtxAttr to at least `version`.
void requirePtxVersion(Operation *func, int64_t version);

/// The highest kMinPtxFnAttr among the functions of the lowered `module`
/// (0 when none needs more than the default).
int64_t getRequiredPtxVersion(ModuleOp module);

/// Moves `func`'s integer attribute `from` into its LLVM IR attributes as
/// the string attribute `to` (decimal digits), which carries it through
/// LLVM IR to the metadata writer (the NVPTX backend ignores it); nothing
/// when `func` has no `from`.
void moveToPassthrough(LLVM::LLVMFuncOp func, StringRef from, StringRef to);

/// The float `x` (f16, bf16, f32 or f64) widened exactly to the float type
/// `to`. A bf16 widens as bits (they become an f32's top half), which LLVM's
/// InstCombine cannot trace back to a bf16; see FloatNarrowingOpToLLVM.cpp.
Value extendFloat(Location loc, RewriterBase &rewriter, Value x, Type to);

/// One inline-asm statement (`text`, wrapped in braces so that it may declare
/// registers) with `constraints` joined by commas; several results come back
/// as a literal struct. Without side effects LLVM may move or drop it.
Operation *emitAsm(Location loc, RewriterBase &rewriter, TypeRange results,
                   ValueRange operands, StringRef text,
                   ArrayRef<std::string> constraints,
                   bool hasSideEffects = true);

/// Where the calling thread sits in an MMA layout: its lane, its warp's row
/// and column in the grid of warps (warp w at (w / warpsPerCTA[1],
/// w % warpsPerCTA[1])), and its lane's group (lane / 4) and position in
/// the group (lane % 4).
struct MmaThread {
  Value lane, warpM, warpN, group, inGroup;
};
MmaThread emitMmaThread(Location loc, RewriterBase &rewriter,
                        tilegpu::MmaEncodingAttr mma);

/// The index, along each dimension, of every element the calling thread holds
/// of a tile of `shape` in `layout` (any distributed layout; see
/// tilegpu::isDistributedLayout): result[e][d] is element e's index along
/// dimension d, as i32 values. There are tilegpu::getTotalElemsPerThread
/// elements, ordered as in the converted struct (the register order):
///  - blocked: the thread's block of min(sizePerThread[d], shape[d])
///    elements per dimension, iterated with order[0] fastest (so consecutive
///    elements along order[0] are adjacent registers), then the CTA tiles
///    (repetitions when the tile is larger than the CTA tile), again with
///    order[0] fastest. Along a dimension smaller than the CTA tile indices
///    wrap around (replication: several threads hold the same element).
///  - mma and dot_op: the register order their ODS descriptions give,
///    instruction tiles of one warp strided by the layout's CTA tile;
///  - slice<{dim, parent}>: exactly the registers and indices of a tile of
///    `shape` with a 1 inserted at `dim` in `parent`, index `dim` dropped.
SmallVector<SmallVector<Value>> emitIndices(Location loc,
                                            RewriterBase &rewriter,
                                            Attribute layout,
                                            ArrayRef<int64_t> shape);

/// The compile-time part of emitIndices: for each element a thread holds (in
/// register order), its offset along each dimension from the thread's first
/// element, before wrapping. Two tiles in one layout whose shapes agree along
/// dimension d hold, in each thread, the same index along d at registers with
/// equal offsets along d.
SmallVector<SmallVector<int64_t>> getElemOffsets(Attribute layout,
                                                 ArrayRef<int64_t> shape);

/// The row-major linear position (i32) of the element at `index` in a tile
/// of `shape`.
Value emitLinearIndex(Location loc, RewriterBase &rewriter,
                      ArrayRef<Value> index, ArrayRef<int64_t> shape);

/// An i1 that is true in the one thread that owns each element of a tile of
/// `shape` in `layout` (blocked or slice), false in threads that hold
/// replicas (when the tile is smaller than the layout's CTA tile, or along a
/// sliced dimension); null when nothing is replicated. A thread owns all of
/// its elements or none.
Value emitOwnerPredicate(Location loc, RewriterBase &rewriter,
                         Attribute layout, ArrayRef<int64_t> shape);

/// `value` (any scalar of up to 64 bits, or a pointer) from another lane of
/// the warp: the lane whose id is `lane` (kind idx) or differs from this
/// one's by xor `lane` (kind bfly). 64-bit values move as two words.
Value emitShuffle(Location loc, RewriterBase &rewriter, Value value,
                  Value lane, NVVM::ShflKind kind);

} // namespace mlir::tilec

#endif // TILEC_CONVERSION_TILEGPUTOLLVM_UTILITY_H
