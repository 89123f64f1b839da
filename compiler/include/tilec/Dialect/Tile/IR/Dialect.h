//===- Dialect.h - The tile dialect -----------------------------*- C++ -*-===//
//
// Declarations of the tile dialect, its pointer type and its operations.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_DIALECT_H
#define TILEC_DIALECT_TILE_IR_DIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h.inc"

#include "tilec/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileTypes.h.inc"

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir::tile {

/// Function attribute (unit): the func.func is a kernel (a grid's entry), not
/// a helper it calls.
constexpr llvm::StringLiteral kKernelAttr = "tile.kernel";

/// Function attribute (i32): the kernel's num_stages, how many iterations of
/// a loop's tensor-core operand loads may be in flight at once (from its
/// decorator or the command line); tilegpu-pipeline reads it. On an scf.for
/// (from tl.range's num_stages) it overrides the kernel's for that loop.
constexpr llvm::StringLiteral kNumStagesAttr = "tile.num_stages";

/// Discardable attribute (i64) on a tile.load: `volatile=True`. Such a load
/// counts as a write too (LoadOp::getEffects), so nothing removes, merges
/// or moves it; each holds its own value; the lowering reads memory anew
/// (ld.volatile), and the pipeliner leaves its loop alone.
constexpr llvm::StringLiteral kVolatileAttr = "tile.volatile";

/// Argument attributes of a kernel's !tile.tensormap parameter (the
/// CUtensorMap of the host tensor descriptor whose parts precede it): the box
/// each copy reads (i64 array, outermost dimension first) and the swizzle in
/// bytes (i64: 0, 32, 64 or 128) the frontend chose and the runtime encodes;
/// tilegpu-pipeline copies with the map only into slots laid out that way.
constexpr llvm::StringLiteral kTensorMapBoxAttr = "tile.tma_box";
constexpr llvm::StringLiteral kTensorMapSwizzleAttr = "tile.tma_swizzle";

/// Size and alignment of a CUtensorMap kernel parameter.
constexpr int64_t kTensorMapBytes = 128;
constexpr int64_t kTensorMapAlignment = 64;

/// Returns the element type that a pointer or a tile of pointers points at,
/// shaped like `ptrLike` (a scalar for a scalar pointer, a tensor for a tile).
Type getPointeeType(Type ptrLike);

/// Returns `elementType` shaped like `like`: a tensor of the same shape (and
/// encoding) when `like` is a tensor, else `elementType` itself.
Type getShapedLike(Type like, Type elementType);

/// Returns the i1 mask type that matches a pointer-like type.
Type getMaskType(Type ptrLike);

} // namespace mlir::tile

#endif // TILEC_DIALECT_TILE_IR_DIALECT_H
