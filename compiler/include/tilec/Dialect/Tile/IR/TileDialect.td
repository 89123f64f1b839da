//===- TileDialect.td - The hardware-neutral tile dialect --*- tablegen -*-===//
//
// The `tile` dialect: whole tiles (ranked tensors of scalars and pointers) and
// the block-level operations of the .tile language. It knows nothing of
// threads; the `tilegpu` stage decides who holds which element.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEDIALECT_TD
#define TILEC_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Block-level tile operations of the .tile language";
  let description = [{
    Values are scalars, `!tile.ptr<T>` global-memory pointers, and ranked
    tensors of either. Elementwise arithmetic uses `arith` and `math` on
    tensors; control flow uses `scf`.
  }];
  let useDefaultTypePrinterParser = 1;
  // Folds (a splat of a constant) produce arith.constant.
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // TILEC_DIALECT_TILE_IR_TILEDIALECT_TD
