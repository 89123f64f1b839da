//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//
//
// Indexing (program_id, make_range), shape (splat, broadcast, expand_dims,
// trans, reshape), pointer arithmetic (addptr), global memory access (load,
// store, atomics), cross-element work (reduce, scan, dot), calls of libdevice
// functions (extern_elementwise), compiler hints and debugging (print,
// assert, barrier).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_TD
#define TILEC_DIALECT_TILE_IR_TILEOPS_TD

include "tilec/Dialect/Tile/IR/TileTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/EnumAttr.td"

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
  // A splat of a constant number is a dense constant, so that arith's folds
  // (x * 1, x + 0) and the axis info see its value.
  let hasFolder = 1;
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

def Tile_TransOp : Tile_Op<"trans", [Pure]> {
  let summary = "Permute the dimensions of a tile";
  let description = [{
    Result dimension `i` is source dimension `order[i]`: `order = [1, 0]`
    transposes a 2-D tile.
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  // The 2-D transpose of an index chain (a mask) moves into the chain
  // (Canonicalize.cpp).
  let hasCanonicalizer = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "Reinterpret a tile's elements (row-major order) as a new shape";
  let arguments = (ins Tile_Tensor:$src);
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

def Tile_PtrToIntOp : Tile_Op<"ptr_to_int", [Pure, Elementwise]> {
  let summary = "The addresses pointers hold, as i64";
  let description = [{
    `ptr.to(tl.int64)`, and a pointer as a condition (compared with 0).
  }];
  let arguments = (ins Tile_PtrLike:$ptr);
  let results = (outs Tile_IntLike:$result);
  let assemblyFormat = "$ptr attr-dict `:` type($ptr) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_IntToPtrOp : Tile_Op<"int_to_ptr", [Pure, Elementwise]> {
  let summary = "Pointers to the i64 addresses given";
  let description = [{
    `addr.to(tl.pointer_type(tl.float16))` (Triton's grouped GEMM loads its
    operands' addresses from a table). Nothing is known of where they point:
    accesses through them are not vectorized unless a tile.hint says so.
  }];
  let arguments = (ins Tile_IntLike:$addr);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$addr attr-dict `:` type($addr) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Load a tile (or scalar) from global memory";
  let description = [{
    Elements whose `mask` is false are not read and take the value of
    `other` (undefined when `other` is absent). A load marked volatile
    (`tile.volatile`, tl.load's volatile=True) also counts as a write, so
    that it is never removed, merged or moved.

    A load of a tensor descriptor or block pointer may also name a tensor
    map (`tma`: a host descriptor's CUtensorMap kernel parameter, or a
    tile.make_tensormap), the coordinates of the tile in the tensor (i32,
    outermost dimension first, as the offsets of desc.load), and the
    descriptor's parts as the load read them (`of`: base, shapes,
    strides). The values are those of `ptr`, `mask` and `other`:
    tilegpu-pipeline copies the tile with the tensor memory accelerator
    instead (sm_90) only when the map was made from those parts (the
    kernel parameters a host map was encoded from, or the make_tensormap's
    operands), and drops the map from every other load.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask,
                       Optional<Tile_Value>:$other,
                       Optional<Tile_TensorMapType>:$tensormap,
                       Variadic<I32>:$tmaCoords,
                       Variadic<AnyTypeOf<[Tile_PointerType, I64]>>:$tmaParts);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr (`mask` $mask^)? (`other` $other^)?
    (`tma` $tensormap^ `[` $tmaCoords `]` `of` `(` $tmaParts `)`)?
    attr-dict `:`
    functional-type(operands, $result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$ptr,
                   "::mlir::Value":$mask, "::mlir::Value":$other), [{
      build($_builder, $_state, result, ptr, mask, other,
            /*tensormap=*/::mlir::Value(), /*tmaCoords=*/::mlir::ValueRange(),
            /*tmaParts=*/::mlir::ValueRange());
    }]>
  ];
  let hasVerifier = 1;
}

def Tile_MakeTensorMapOp : Tile_Op<"make_tensormap", [Pure,
    AttrSizedOperandSegments]> {
  let summary = "A CUtensorMap built in the kernel (sm_90a)";
  let description = [{
    The tensor map of a 2-D tensor descriptor or block pointer made in the
    kernel: `base`, then `shapes` and `strides` (in elements) outermost
    dimension first, copied in boxes of `box` elements (outermost first)
    with a `swizzle`-byte swizzle (32, 64 or 128). The frontend gives one
    to every load of a block that the tensor memory accelerator could copy;
    tilegpu-pipeline uses it where the innermost stride is 1 and the base
    and outer stride are known to be 16-byte aligned, and drops it
    elsewhere. The lowering writes the map into the program's global
    scratch (`tensormap.replace`, sm_90a) in thread 0, which also issues
    the copies.
  }];
  let arguments = (ins Tile_PointerType:$base, Variadic<I64>:$shapes,
                       Variadic<I64>:$strides, DenseI64ArrayAttr:$box,
                       I64Attr:$swizzle);
  let results = (outs Tile_TensorMapType:$result);
  let assemblyFormat = [{
    $base `[` $shapes `]` `strides` `[` $strides `]` attr-dict `:`
    qualified(type($base))
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [MemoryEffects<[MemWrite]>,
    AttrSizedOperandSegments]> {
  let summary = "Store a tile (or scalar) to global memory";
  let description = [{
    Elements whose `mask` is false are not written.

    A store to a tensor descriptor or block pointer may also name a tensor
    map, the tile's coordinates and the descriptor's parts, as tile.load
    does (`tma ... of ...`): tilegpu-tma-store then stores the tile with
    the tensor memory accelerator (sm_90) when the map was made from those
    parts, and drops the map from every other store. The map clips the
    tile to the tensor's bounds, as the store's mask does.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$value,
                       Optional<Tile_BoolLike>:$mask,
                       Optional<Tile_TensorMapType>:$tensormap,
                       Variadic<I32>:$tmaCoords,
                       Variadic<AnyTypeOf<[Tile_PointerType, I64]>>:$tmaParts);
  let assemblyFormat = [{
    $ptr `,` $value (`mask` $mask^)?
    (`tma` $tensormap^ `[` $tmaCoords `]` `of` `(` $tmaParts `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$value,
                   "::mlir::Value":$mask), [{
      build($_builder, $_state, ptr, value, mask,
            /*tensormap=*/::mlir::Value(), /*tmaCoords=*/::mlir::ValueRange(),
            /*tmaParts=*/::mlir::ValueRange());
    }]>
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// External functions
//===----------------------------------------------------------------------===//

def Tile_ExternElementwiseOp : Tile_Op<"extern_elementwise", [Pure, Elementwise]> {
  let summary = "A pure scalar function outside the kernel, applied element by element";
  let description = [{
    Calls `symbol` (a function of NVIDIA's libdevice, `__nv_...`) on the
    elements at one index of every operand. Operands and the result are all
    scalars or all tiles of one shape; their element types are the
    function's own (the front end has converted them).
  }];
  let arguments = (ins Variadic<Tile_Value>:$srcs, StrAttr:$symbol);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$symbol `(` $srcs `)` attr-dict `:` functional-type($srcs, $result)";
  let hasVerifier = 1;
}

def Tile_InlineAsmOp : Tile_Op<"inline_asm", [Elementwise,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "The user's PTX applied element by element (tl.inline_asm_elementwise)";
  let description = [{
    Runs `asm_string` (PTX; `$0`... are the results, then the operands)
    with LLVM inline-assembly `constraints` (`=r,r,r`) on the elements at
    `pack` indices of every operand at once: each operand and result is a
    register holding `pack` elements, the first in its low bits. Operands
    and results are all scalars or all tiles of one shape. `pure` says the
    PTX has no side effects; the op is kept in any case (it is never
    removed or moved).
  }];
  let arguments = (ins Variadic<Tile_Value>:$srcs, StrAttr:$asm_string,
                       StrAttr:$constraints, BoolAttr:$pure,
                       ConfinedAttr<I32Attr, [IntPositive]>:$pack);
  let results = (outs Variadic<Tile_Value>:$results);
  let assemblyFormat = [{
    $asm_string `(` $srcs `)` attr-dict `:` functional-type($srcs, $results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Hints
//===----------------------------------------------------------------------===//

def Tile_HintOp : Tile_Op<"hint", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "Facts about a value the compiler cannot prove (multiple_of, max_contiguous)";
  let description = [{
    Returns `src` unchanged. `divisibility[d]` promises that the values
    along dimension d are multiples of that number (a scalar has one
    entry); `contiguity[d]` promises runs of that many consecutive values
    along d. Either array may be absent; the axis-info analysis uses them.
  }];
  let arguments = (ins Tile_Value:$src,
                       OptionalAttr<DenseI64ArrayAttr>:$divisibility,
                       OptionalAttr<DenseI64ArrayAttr>:$contiguity);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

def Tile_RMWKind : I32EnumAttr<"RMWKind", "read-modify-write operation", [
    I32EnumAttrCase<"Add", 0, "add">,   // integer or float add
    I32EnumAttrCase<"Max", 1, "max">,   // signed integer or float max
    I32EnumAttrCase<"UMax", 2, "umax">, // unsigned integer max
    I32EnumAttrCase<"Min", 3, "min">,   // signed integer or float min
    I32EnumAttrCase<"UMin", 4, "umin">, // unsigned integer min
    I32EnumAttrCase<"Xchg", 5, "xchg">,
    I32EnumAttrCase<"And", 6, "and">,
    I32EnumAttrCase<"Or", 7, "or">,
    I32EnumAttrCase<"Xor", 8, "xor">]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_MemSemantic : I32EnumAttr<"MemSemantic", "memory ordering of an atomic", [
    I32EnumAttrCase<"Relaxed", 0, "relaxed">,
    I32EnumAttrCase<"Acquire", 1, "acquire">,
    I32EnumAttrCase<"Release", 2, "release">,
    I32EnumAttrCase<"AcqRel", 3, "acq_rel">]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_MemScope : I32EnumAttr<"MemScope", "which threads an atomic's ordering covers", [
    I32EnumAttrCase<"Gpu", 0, "gpu">,
    I32EnumAttrCase<"Cta", 1, "cta">,
    I32EnumAttrCase<"Sys", 2, "sys">]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"value has the pointee type", "ptr", "val",
                   "::mlir::tile::getPointeeType($_self)">,
    AllTypesMatch<["val", "result"]>]> {
  let summary = "Atomic read-modify-write of global memory";
  let description = [{
    For each element (where `mask` is true) atomically applies `kind` with
    `val` at `ptr` and returns the old value (undefined where masked off).
    `sem` and `scope` are Triton's: acq_rel at GPU scope by default.
  }];
  let arguments = (ins Tile_RMWKind:$kind, Tile_PtrLike:$ptr, Tile_Value:$val,
                       Optional<Tile_BoolLike>:$mask,
                       DefaultValuedAttr<Tile_MemSemantic,
                                         "::mlir::tile::MemSemantic::AcqRel">:$sem,
                       DefaultValuedAttr<Tile_MemScope,
                                         "::mlir::tile::MemScope::Gpu">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $kind $ptr `,` $val (`mask` $mask^)? attr-dict `:` functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"cmp has the pointee type", "ptr", "cmp",
                   "::mlir::tile::getPointeeType($_self)">,
    AllTypesMatch<["cmp", "val", "result"]>]> {
  let summary = "Atomic compare-and-swap of global memory";
  let description = [{
    For each element: if `*ptr == cmp` then `*ptr = val`; returns the old
    value. `sem` and `scope` as for atomic_rmw.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$cmp, Tile_Value:$val,
                       DefaultValuedAttr<Tile_MemSemantic,
                                         "::mlir::tile::MemSemantic::AcqRel">:$sem,
                       DefaultValuedAttr<Tile_MemScope,
                                         "::mlir::tile::MemScope::Gpu">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)
  }];
}

//===----------------------------------------------------------------------===//
// Cross-element work
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [Pure, SameOperandsShape,
    SingleBlock]> {
  let summary = "Reduce tiles along one axis with a combining region";
  let description = [{
    Combines the elements of each `srcs` tile along `axis` with the region,
    whose block takes (lhs..., rhs...) scalars, one of each per source, and
    yields the combined scalars with `tile.reduce.return`. The combination
    must be associative and commutative. Results have the sources' shape
    without `axis`; reducing a 1-D tile gives scalars. Several sources
    reduce together (argmax reduces values and indices).
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Tile_Value>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis attr-dict `:` functional-type($srcs, $results) $combineOp
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape of the sources.
    ::llvm::ArrayRef<int64_t> getSrcShape() {
      return ::llvm::cast<::mlir::RankedTensorType>(getSrcs()[0].getType())
          .getShape();
    }
  }];
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, SameOperandsAndResultShape,
    SingleBlock]> {
  let summary = "Inclusive prefix combination along one axis (cumsum)";
  let description = [{
    Result element i along `axis` combines source elements 0..i (i..n-1
    when `reverse`) with the region, as in tile.reduce. The region must be
    associative.
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis attr-dict `:` functional-type($srcs, $results) $combineOp
  }];
  let hasRegionVerifier = 1;
}

def Tile_ReduceReturnOp : Tile_Op<"reduce.return", [Pure, Terminator,
    ReturnLike, ParentOneOf<["ReduceOp", "ScanOp"]>]> {
  let summary = "Yields the combined values of a reduce or scan region";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "$results attr-dict `:` type($results)";
}

def Tile_HistogramOp : Tile_Op<"histogram", [Pure]> {
  let summary = "Counts of each value of a 1-D integer tile";
  let description = [{
    `result[b]` (i32) counts the elements of `src` equal to `b` (those whose
    `mask` is true, when given), for `b` from 0 to the result's size - 1;
    other values are not counted. tl.histogram.
  }];
  let arguments = (ins Tile_IntTensor:$src, Optional<Tile_I1Tensor>:$mask);
  let results = (outs Tile_IntTensor:$result);
  let assemblyFormat = [{
    $src (`mask` $mask^)? attr-dict `:` type($src) (`,` type($mask)^)? `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "Matrix product with accumulation: d = a * b + c";
  let description = [{
    `a` is [M, K], `b` is [K, N], `c` and `d` are [M, N]; or, batched,
    [B, M, K], [B, K, N] and [B, M, N] (B products of one batch each, on
    the FMA units). fp16 and bf16
    inputs accumulate in fp32, i8 inputs exactly in i32. fp32 inputs multiply in full fp32 unless
    `input_precision` is "tf32": then the tensor cores may round them to
    tf32 (10-bit mantissas) first, as Triton does by default.
  }];
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$c,
                       OptionalAttr<StrAttr>:$input_precision);
  let results = (outs Tile_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
  // `acc + dot(a, b, 0)` -> `dot(a, b, acc)` (Canonicalize.cpp).
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "Print scalars and tile elements from the device (device_print)";
  let description = [{
    Each thread prints, for each element it owns, a line with the program
    id, the element's index, `prefix` and the value of every argument.
  }];
  let arguments = (ins StrAttr:$prefix, DefaultValuedAttr<BoolAttr, "false">:$hex,
                       Variadic<Tile_Value>:$args);
  let assemblyFormat = "$prefix attr-dict ($args^ `:` type($args))?";
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "Stop the kernel with a message where a condition is false";
  let description = [{
    The failure report names `message` and the op's source location
    (file:line), as device_assert promises.
  }];
  let arguments = (ins Tile_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Tile_BarrierOp : Tile_Op<"barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Synchronize the threads of one program (debug_barrier)";
  let assemblyFormat = "attr-dict";
}

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_TD
