//===- TileTypes.td - Types of the tile dialect ------------*- tablegen -*-===//
//
// `!tile.ptr<T>`: a pointer to global memory holding elements of type T;
// `!tile.tensormap`: a CUtensorMap (a host descriptor's parameter or one
// made in the kernel); and the type
// constraints the ops use (pointer-like, int-like, tiles of them).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILETYPES_TD
#define TILEC_DIALECT_TILE_IR_TILETYPES_TD

include "tilec/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PointerType : Tile_Type<"Pointer", "ptr"> {
  let summary = "Pointer to global memory";
  let description = [{
    `!tile.ptr<f32>` points at f32 elements in global memory (address
    space 1). Pointer arithmetic (`tile.addptr`) counts in elements.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType), [{
      return $_get(pointeeType.getContext(), pointeeType);
    }]>
  ];
}

def Tile_TensorMapType : Tile_Type<"TensorMap", "tensormap"> {
  let summary = "A CUtensorMap: how the tensor memory accelerator reads a tensor";
  let description = [{
    The 128-byte CUtensorMap of a tensor (sm_90): a host tensor
    descriptor's, passed by value as a `__grid_constant__` kernel
    parameter that the runtime encodes from the descriptor at each launch,
    or one tile.make_tensormap writes in the kernel. tile.load's `tma`
    operand names it; tilegpu.tma_copy copies through it.
  }];
}

def Tile_Float : AnyTypeOf<[F8E4M3FN, F8E5M2, F16, BF16, F32, F64]>;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def Tile_Scalar : AnyTypeOf<[Tile_Float, Tile_Int]>;

def Tile_IntTensor : RankedTensorOf<[Tile_Int]>;
def Tile_I1Tensor : RankedTensorOf<[I1]>;
def Tile_PtrTensor : RankedTensorOf<[Tile_PointerType]>;
def Tile_Tensor : RankedTensorOf<[Tile_Scalar, Tile_PointerType]>;

def Tile_IntLike : AnyTypeOf<[Tile_Int, Tile_IntTensor]>;
def Tile_BoolLike : AnyTypeOf<[I1, Tile_I1Tensor]>;
def Tile_PtrLike : AnyTypeOf<[Tile_PointerType, Tile_PtrTensor]>;
def Tile_Value : AnyTypeOf<[Tile_Scalar, Tile_PointerType, Tile_Tensor]>;

#endif // TILEC_DIALECT_TILE_IR_TILETYPES_TD
