//===- TileGPUOps.td - Operations of the tilegpu dialect ---*- tablegen -*-===//
//
// Layout conversion between encodings of the same tile.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
#define TILEC_DIALECT_TILEGPU_IR_TILEGPUOPS_TD

include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.td"
include "tilec/Dialect/Tile/IR/TileTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Move a tile's elements to another layout";
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
