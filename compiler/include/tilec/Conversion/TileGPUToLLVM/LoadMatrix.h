//===- LoadMatrix.h - Tensor-core operands through shared memory -*- C++
//-*-===//
//
// Staging a 16-bit [rows, cols] operand tile in shared memory with the
// ldmatrix swizzle (row-major, or transposed for an mma.sync b operand that
// runs along K), and reading back the registers of one K step of a dot
// operand layout with ldmatrix. Used by convert_layout into dot operand
// layouts and by the tensor-core dot, which stages its operands itself and
// reads them one K step at a time.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_TILEGPUTOLLVM_LOADMATRIX_H
#define TILEC_CONVERSION_TILEGPUTOLLVM_LOADMATRIX_H

#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tilec {

/// One operand of a tensor-core product held in shared memory.
struct StagedOperand {
  Value base;                                 ///< !llvm.ptr<3> to the tile.
  tilegpu::SwizzledSharedEncodingAttr shared; ///< How it is laid out.
  tilegpu::DotOperandEncodingAttr layout;     ///< Registers it is read into.
  SmallVector<int64_t> shape;                 ///< [M, K] for a, [K, N] for b.
  Type element;                               ///< A 16-bit LLVM type.
};

/// Element offset (i32) of (row, col) of a [rows, cols] tile of
/// `elementBytes`-byte elements stored with the swizzled layout `shared`:
/// row-major (order [1, 0]), or transposed (order [0, 1]: the row-major
/// [cols, rows] tile, at (col, row)). The index along the stored rows may
/// point inside a vector. Rows longer than 128 bytes are cut into panels of
/// 128-byte rows stored one after another (the layout wgmma's 128-byte
/// swizzle reads). The staging stores, cp.async copies and ldmatrix reads
/// of operand tiles and slots all address them through this function.
Value emitSwizzledOffset(Location loc, RewriterBase &rewriter,
                         tilegpu::SwizzledSharedEncodingAttr shared,
                         int64_t rows, int64_t cols, int64_t elementBytes,
                         Value row, Value col);

/// Pointer to the first element of slot `slot` (i32) of `buffer`, whose
/// slots start at `base` (!llvm.ptr<3>); `element` is the converted element
/// type.
Value getSlotAddress(Location loc, RewriterBase &rewriter, Value base,
                     Value slot, tilegpu::MemDescType buffer, Type element);

/// The first element of the slot that `slot` (a tilegpu.local_load being
/// converted) reads, from the converted values of its buffer and slot.
Value getLocalLoadAddress(Location loc, ConversionPatternRewriter &rewriter,
                          tilegpu::LocalLoadOp slot, Type element);

/// The MMA accumulator layout of `dot` when it has one of `version` (2:
/// mma.sync, 3: wgmma), else null. Reports an error at `dot` (and returns
/// null) when its operand types are not fp16 or bf16 into fp32 (or, for
/// mma.sync, fp32 with input_precision "tf32", or i8 into i32), which no
/// tensor-core instruction of tilec multiplies.
tilegpu::MmaEncodingAttr getTensorCoreLayout(tile::DotOp dot, unsigned version);

/// Stores every element of the 2-D distributed tile `value` (converted
/// `packed`) at `base` (!llvm.ptr<3>) as the swizzled encoding `shared`
/// places it (emitSwizzledOffset), in vectors where the thread's registers
/// run along the stored rows (never across a 16-byte vector of the
/// swizzle); no barrier. `element` is the converted element type.
void storeSwizzled(Location loc, RewriterBase &rewriter, Value value,
                   Value packed, Value base,
                   tilegpu::SwizzledSharedEncodingAttr shared, Type element);

/// Stores every element of the distributed tile `value` (converted `packed`)
/// at `base` with the ldmatrix swizzle (no barrier), and returns the staged
/// operand that `layout` reads. `element` is the converted element type
/// (16 bits). The tile is stored row-major, except a b operand of mma.sync
/// (version 2) whose layout runs along K (order [0, 1]): that one is stored
/// transposed, so that each thread's run along K is one vector store.
StagedOperand stageOperand(Location loc, RewriterBase &rewriter, Value value,
                           Value packed, Value base,
                           tilegpu::DotOperandEncodingAttr layout,
                           Type element);

/// Stages operand `index` of the tensor-core `dot` (its converted value
/// `packed`) in the dot's scratch, `stagedElements` elements in (a first,
/// then b), as the operand layout `index` of `mma` reads it, and advances
/// `stagedElements`. Null (after an error at `dot`) when the allocation pass
/// gave the dot no scratch.
std::optional<StagedOperand>
stageDotOperand(Location loc, RewriterBase &rewriter, tile::DotOp dot,
                unsigned index, Value packed, tilegpu::MmaEncodingAttr mma,
                Type element, int64_t &stagedElements);

/// The elements of K step `k` (one instruction's K) of `operand`, read with
/// ldmatrix after a barrier, in the register order of its dot operand
/// layout restricted to that step: for a, 8 per M repetition; for b, 4 per N
/// repetition.
SmallVector<Value> loadOperandStep(Location loc, RewriterBase &rewriter,
                                   const StagedOperand &operand,
                                   const MmaThread &thread, int64_t k);

/// Every element of `operand` in the register order of its dot operand
/// layout, each K step read with loadOperandStep (no barrier).
SmallVector<Value> loadOperand(Location loc, RewriterBase &rewriter,
                               const StagedOperand &operand);

/// Where the elements of K step `k`, in the order loadOperandStep returns
/// them, sit in the register order of dot operand `layout` for a tile of
/// `shape`.
SmallVector<int64_t> getStepPositions(tilegpu::DotOperandEncodingAttr layout,
                                      ArrayRef<int64_t> shape, int64_t k);

/// Packs `count` 32-bit operand registers of `perRegister` elements each (2
/// 16-bit ones, or 1 fp32) from `elements` starting at `first`, the lower k
/// in the low half: the registers mma.sync and wgmma read.
SmallVector<Value> packRegisters(Location loc, RewriterBase &rewriter,
                                 ArrayRef<Value> elements, size_t first,
                                 unsigned count, unsigned perRegister);

} // namespace mlir::tilec

#endif // TILEC_CONVERSION_TILEGPUTOLLVM_LOADMATRIX_H
