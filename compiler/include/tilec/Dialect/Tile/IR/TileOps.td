//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//
//
// Indexing (program_id, make_range), shape (splat, broadcast, expand_dims),
// pointer arithmetic (addptr) and global memory access (load, store).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_TD
#define TILEC_DIALECT_TILE_IR_TILEOPS_TD

include "tilec/Dialect/Tile/IR/TileTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

class Tile_GridQueryOp<string mnemonic, string what>
    : Tile_Op<mnemonic, [Pure]> {
  let summary = what # " along one grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tile_ProgramIdOp : Tile_GridQueryOp<"program_id", "Index of this program">;
def Tile_NumProgramsOp : Tile_GridQueryOp<"num_programs", "Number of programs">;

def Tile_MakeRangeOp : Tile_Op<"make_range", [Pure]> {
  let summary = "The 1-D tile [start, start+1, ..., end-1]";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape
//===----------------------------------------------------------------------===//

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"result element type matches the scalar", "result", "src",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "A tile with every element equal to one scalar";
  let arguments = (ins AnyTypeOf<[Tile_Scalar, Tile_PointerType]>:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "Repeat a tile along its dimensions of size 1";
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "Insert a dimension of size 1 at `axis`";
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, Elementwise,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by a number of elements";
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead]>]> {
  let summary = "Load a tile (or scalar) from global memory";
  let description = [{
    Elements whose `mask` is false are not read and take the value of
    `other` (undefined when `other` is absent).
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask,
                       Optional<Tile_Value>:$other);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr (`mask` $mask^)? (`other` $other^)? attr-dict `:` functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Store a tile (or scalar) to global memory";
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$value,
                       Optional<Tile_BoolLike>:$mask);
  let assemblyFormat = [{
    $ptr `,` $value (`mask` $mask^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_TD
