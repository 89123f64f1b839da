//===- TileGPUOps.td - Operations of the tilegpu dialect ---*- tablegen -*-===//
//
// Layout conversion between encodings of the same tile; shared-memory
// slots, the asynchronous copies that fill them and the loads that read them
// (software pipelining of tl.dot operands).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
#define TILEC_DIALECT_TILEGPU_IR_TILEGPUOPS_TD

include "tilec/Dialect/TileGPU/IR/TileGPUTypes.td"
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

//===----------------------------------------------------------------------===//
// Shared-memory slots and asynchronous copies
//===----------------------------------------------------------------------===//

def TileGPU_LocalAllocOp : TileGPU_Op<"local_alloc",
    [MemoryEffects<[MemAlloc]>]> {
  let summary = "Shared memory for the slots of a tile";
  let description = [{
    A buffer of the kernel's shared memory that lives from here to its last
    use (tilegpu-allocate-shared-memory places it; inside a loop, for the
    whole loop).
  }];
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TileGPU_AsyncCopyOp : TileGPU_Op<"async_copy",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Copy a tile from global memory into a slot, asynchronously";
  let description = [{
    Every thread starts copying the elements of `ptrs` it holds into slot
    `slot` of `buffer`, in vectors of `vec` elements (at least 4 bytes,
    contiguous and aligned in global memory along the fastest dimension, and
    with one mask value each). Elements whose `mask` is false are written as
    zeros and not read. The copies complete at a later `async_wait`; until
    then the slot may not be read. (cp.async on sm_80 and later.) With
    `transpose`, `ptrs` is the 2-D transpose of the slot's tile: element
    (i, j) of `ptrs` lands at (j, i) of the slot (a loaded K that a dot
    reads as K^T).
  }];
  let arguments = (ins Tile_PtrTensor:$ptrs, TileGPU_MemDescType:$buffer,
                       I32:$slot, Optional<Tile_I1Tensor>:$mask,
                       ConfinedAttr<I32Attr, [IntPositive]>:$vec,
                       UnitAttr:$transpose);
  let assemblyFormat = [{
    $ptrs `,` $buffer `[` $slot `]` (`mask` $mask^)? attr-dict `:`
    type($ptrs) `,` qualified(type($buffer)) (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitGroupOp : TileGPU_Op<"async_commit_group",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "Close the group of this thread's outstanding async copies";
  let assemblyFormat = "attr-dict";
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait until at most `pending` groups of copies are in flight";
  let description = [{
    Waits for this thread's copies only: a barrier must follow before other
    threads read what they wrote.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "$pending attr-dict";
}

def TileGPU_FenceAsyncSharedOp : TileGPU_Op<"fence_async_shared",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Order this thread's shared-memory writes before wgmma reads";
  let description = [{
    `fence.proxy.async.shared::cta` (sm_90): shared memory this thread
    wrote through ordinary stores or cp.async becomes visible to the
    asynchronous proxy that wgmma reads through, once a barrier follows.
  }];
  let assemblyFormat = "attr-dict";
}

def TileGPU_WgmmaWaitOp : TileGPU_Op<"wgmma_wait",
    [AllTypesMatch<["src", "result"]>, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait until at most `pending` groups of wgmma are in flight";
  let description = [{
    The accumulator `src` of a tile.dot that left its wgmma group in flight
    (`tilegpu.wgmma_async`), as `result` once no more than `pending` of the
    warpgroup's groups are outstanding: with 0 it is final; with 1 only the
    latest group may still write it, which only a following wgmma into the
    same accumulator may then read.
  }];
  let arguments = (ins Tile_Tensor:$src,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$pending);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src `,` $pending attr-dict `:` type($src)";
}

def TileGPU_LocalLoadOp : TileGPU_Op<"local_load",
    [MemoryEffects<[MemRead]>]> {
  let summary = "Read one slot into registers";
  let description = [{
    The tile in slot `slot` of `buffer`, in the registers of the result's
    layout (a 16-bit tensor-core operand layout, read with ldmatrix).
  }];
  let arguments = (ins TileGPU_MemDescType:$buffer, I32:$slot);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $buffer `[` $slot `]` attr-dict `:` qualified(type($buffer)) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def TileGPU_LocalStoreOp : TileGPU_Op<"local_store",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "Write a tile from registers into a slot";
  let description = [{
    Every thread stores the elements of `value` (a 2-D tile of a blocked or
    MMA layout) it holds into slot `slot` of `buffer`, where the slot's
    swizzled encoding places them, in
    vectors where its registers run along the slot's rows. No barrier:
    other threads (or the tensor memory accelerator) may read the slot only
    after one.
  }];
  let arguments = (ins Tile_Tensor:$value, TileGPU_MemDescType:$buffer,
                       I32:$slot);
  let assemblyFormat = [{
    $value `,` $buffer `[` $slot `]` attr-dict `:` type($value) `,`
    qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Copies by the tensor memory accelerator (sm_90)
//===----------------------------------------------------------------------===//

def TileGPU_InitBarriersOp : TileGPU_Op<"init_barriers",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "Initialize one mbarrier per slot";
  let description = [{
    `barriers` holds one 64-bit mbarrier per slot (`[slots, 1]` of i64).
    Thread 0 initializes each with an arrival count of `count` (the
    `tma_copy` ops that complete on it per use), then fences the
    initialization for the async proxy; a `tile.barrier` must follow
    before any thread waits on them.
  }];
  let arguments = (ins TileGPU_MemDescType:$barriers, I32Attr:$count);
  let assemblyFormat = "$barriers `,` $count attr-dict `:` qualified(type($barriers))";
}

def TileGPU_InvalBarriersOp : TileGPU_Op<"inval_barriers",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "Invalidate the mbarriers of `init_barriers`";
  let description = [{
    Thread 0 invalidates each mbarrier, once every copy that completes on
    them has been waited for, so that their bytes may be reused (a later
    `init_barriers` included).
  }];
  let arguments = (ins TileGPU_MemDescType:$barriers);
  let assemblyFormat = "$barriers attr-dict `:` qualified(type($barriers))";
}

def TileGPU_TmaCopyOp : TileGPU_Op<"tma_copy",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Copy a tile into a slot with the tensor memory accelerator";
  let description = [{
    When `pred` holds, thread 0 arrives on slot `slot`'s mbarrier,
    expecting the slot's bytes, and copies the tile of `tensormap` at
    `coords` (the tile's dimension 0 first) into the slot: one copy per
    panel of 128-byte (or shorter) rows, each a box of the map, with the
    swizzle of the slot's encoding; the mbarrier's phase completes when the
    bytes have landed (`wait_barrier`). Out-of-bounds elements are zeros.
    The map's innermost dimension is the slot's contiguous one: the tile's
    dimension 1, or its dimension 0 for a transposed slot (order [0, 1]).
  }];
  let arguments = (ins Tile_TensorMapType:$tensormap, Variadic<I32>:$coords,
                       TileGPU_MemDescType:$buffer, I32:$slot,
                       TileGPU_MemDescType:$barriers, I1:$pred);
  let assemblyFormat = [{
    $tensormap `[` $coords `]` `,` $buffer `[` $slot `]` `,` $barriers `,`
    $pred attr-dict `:` qualified(type($tensormap)) `,`
    qualified(type($buffer)) `,` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def TileGPU_TmaStoreOp : TileGPU_Op<"tma_store",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Store a slot to global memory with the tensor memory accelerator";
  let description = [{
    Stores the tile in slot `slot` of `buffer` (written by `local_store`)
    to the tile of `tensormap` at `coords` (the tile's dimension 0 first):
    every thread fences its shared-memory writes for the async proxy, a
    barrier follows, thread 0 copies one box of the map per panel of
    128-byte (or shorter) rows, with the swizzle of the slot's encoding,
    and waits until the copies have read the slot, and a second barrier
    lets every thread reuse it. Elements outside the tensor's bounds are
    not written. The map's innermost dimension is the slot's contiguous
    one, as for `tma_copy`.
  }];
  let arguments = (ins Tile_TensorMapType:$tensormap, Variadic<I32>:$coords,
                       TileGPU_MemDescType:$buffer, I32:$slot);
  let assemblyFormat = [{
    $buffer `[` $slot `]` `,` $tensormap `[` $coords `]` attr-dict `:`
    qualified(type($buffer)) `,` qualified(type($tensormap))
  }];
  let hasVerifier = 1;
}

def TileGPU_WaitBarrierOp : TileGPU_Op<"wait_barrier",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait for a phase of a slot's mbarrier";
  let description = [{
    Every thread waits until the phase of slot `slot`'s mbarrier with
    parity `phase` (0 or 1) has completed: the copy into the slot has
    landed and may be read.
  }];
  let arguments = (ins TileGPU_MemDescType:$barriers, I32:$slot, I32:$phase);
  let assemblyFormat = [{
    $barriers `[` $slot `]` `,` $phase attr-dict `:` qualified(type($barriers))
  }];
}

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
