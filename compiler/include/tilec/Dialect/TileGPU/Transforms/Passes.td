//===- Passes.td - Passes over the tilegpu stage -----------*- tablegen -*-===//
//
// Layout optimization passes, and the test pass that prints the axis-info
// analysis they rely on.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
#define TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileGPUCoalesce : Pass<"tilegpu-coalesce", "mlir::ModuleOp"> {
  let summary = "Give memory accesses coalesced, vectorized layouts";
  let description = [{
    Runs the axis-info analysis over every load and store, finds how many
    consecutive, aligned elements each access can move at once (up to 128
    bits), and gives the tiles of each shape a blocked layout in which every
    thread holds that many consecutive elements along the fastest dimension,
    so that a warp's accesses are contiguous and each thread's are vectors.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPURemoveLayoutConversions
    : Pass<"tilegpu-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "Remove layout conversions that need not move data";
  let description = [{
    Folds chains of `tilegpu.convert_layout` and identity conversions,
    rematerializes cheap producers (make_range, splat, splat constants,
    elementwise arith/math, addptr, broadcast, expand_dims) in the layout a
    conversion targets instead of converting, and sinks conversions through
    elementwise ops into stores when the other operands can be recomputed in
    the source layout.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPUAccelerateDot
    : Pass<"tilegpu-accelerate-dot", "mlir::ModuleOp"> {
  let summary = "Run tl.dot on tensor cores where the target and types allow";
  let description = [{
    Gives each `tile.dot` whose operands are fp16 or bf16 (fp32
    accumulator) an MMA result layout: on sm_90a, version 3 (wgmma
    m64nNk16) with every warp along M when the warps form whole 64-row
    warpgroups, N is at most 256 and the operand tiles are whole 1024-byte
    swizzle atoms; otherwise, on sm_80 and later, version 2 (mma.sync
    m16n8k16) with the program's warps spread over M and N (the larger
    extent per warp first). The accumulator is converted to the MMA layout; the
    operands keep their layouts (the lowering stages them in shared memory
    and reads each K step into the registers of the dot operand layouts).
    Conversions back to the original layouts follow; tilegpu-remove-layout-conversions then keeps a
    loop-carried accumulator in the MMA layout across the loop. Other dots
    stay on the FMA units.
  }];
  let options = [
    Option<"target", "target", "std::string", "\"sm_80\"",
           "The target GPU (sm_80, sm_90, sm_90a)">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPUPipeline : Pass<"tilegpu-pipeline", "mlir::ModuleOp"> {
  let summary = "Multi-buffer the loads that feed tensor-core dots in loops";
  let description = [{
    For a kernel with `tile.num_stages` = S >= 2 (an `scf.for` may carry
    its own, from tl.range's num_stages), in every innermost `scf.for`
    whose body writes no memory and loads an operand of a tensor-core
    `tile.dot` (16-bit, loaded
    straight into the dot, masked-off elements zero, contiguous along rows
    in vectors of at least 4 bytes with one mask value per vector), the
    load becomes an asynchronous copy (`tilegpu.async_copy`, cp.async) into
    one of S shared-memory slots, issued S-1 iterations ahead of the dot
    that uses it: S-1 iterations are issued before the loop, each iteration
    waits for its own slot (`async_wait`, then a barrier), reads it with
    `local_load`, issues the copies of iteration i+S-1 into the slot read
    one iteration earlier, and then multiplies. The pointer and mask
    arithmetic the loads need runs S-1 iterations ahead with them (it may
    not depend on anything else the loop computes). When every dot of the
    loop is a wgmma (sm_90a) reading both operands from slots and its
    result is only the carried accumulator, its group stays in flight into
    the next iteration (`tilegpu.wgmma_async`, then `tilegpu.wgmma_wait` 1
    after it and 0 after the loop) and each load gets S+1 slots, so that
    copies never overwrite a slot an unfinished wgmma reads. At most 8
    stages are used, and fewer when the slots would not fit beside the
    largest buffer of an op inside the loop (first dropping the extra
    slot); loops that do not qualify are left as they are.
  }];
  let options = [
    Option<"target", "target", "std::string", "\"sm_80\"",
           "The target GPU (cp.async needs sm_80 or later)">,
    Option<"sharedMemoryLimit", "shared-memory-limit", "int64_t", "0",
           "Bytes of shared memory a program may use (0: no limit)">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileGPUTmaStore : Pass<"tilegpu-tma-store", "mlir::ModuleOp"> {
  let summary = "Store descriptors' tiles with the tensor memory accelerator";
  let description = [{
    On sm_90 and later, a `tile.store` of a 2-D tile of 16-bit elements
    that names a tensor map (a tensor descriptor's or block pointer's
    store) becomes a `tilegpu.local_alloc` of one slot, a
    `tilegpu.local_store` of the tile into it and a `tilegpu.tma_store` of
    the slot, when the map is a host descriptor's map read through its own
    parameters, or (on an sm_90a target) a `tile.make_tensormap` of the
    store's parts whose base and outer stride are known to be 16-byte
    aligned, and its box matches the slot's panels. A kernel whose new
    slots would not fit in `shared-memory-limit` bytes beside its other
    buffers keeps its stores. Every other store loses its map.
  }];
  let options = [
    Option<"target", "target", "std::string", "\"sm_80\"",
           "The target GPU (the tensor memory accelerator needs sm_90)">,
    Option<"sharedMemoryLimit", "shared-memory-limit", "int64_t", "0",
           "Bytes of shared memory a program may use (0: no limit)">,
    Option<"enabled", "enabled", "bool", "true",
           "Rewrite the stores (false: only drop their maps, as tilec does "
           "with --tma-stores=false)">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def TestPrintAxisInfo : Pass<"test-print-axis-info", "mlir::ModuleOp"> {
  let summary = "Print the axis-info analysis of every integer and pointer value";
  let description = [{
    Emits a remark on each operation with an integer or pointer result,
    giving its contiguity, divisibility and constancy per dimension. Used
    by the lit tests of the analysis.
  }];
}

def TileGPUAllocateSharedMemory
    : Pass<"tilegpu-allocate-shared-memory", "mlir::ModuleOp"> {
  let summary = "Place shared-memory buffers, insert barriers, check the limit";
  let description = [{
    Gives every op whose lowering needs shared-memory scratch (layout
    conversions, transposes, reshapes, reductions, scans, dots, scalar
    atomics) a byte offset (`tilegpu.scratch_offset`), letting buffers
    whose lifetimes do not overlap share bytes, and records each function's
    total as `tilegpu.shared_bytes`. Inserts a `tile.barrier` before a
    scratch op whose bytes an earlier scratch op (or a previous loop
    iteration) may still be reading. A kernel that needs more than
    `shared-memory-limit` bytes is an error at the kernel, with a note at
    its largest buffer's op.
  }];
  let options = [
    Option<"sharedMemoryLimit", "shared-memory-limit", "int64_t", "0",
           "Bytes of shared memory a program may use (0: no limit)">,
    Option<"targetName", "target-name", "std::string", "\"the target\"",
           "The target, as named in the limit error (e.g. sm_90)">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileGPUOccupancy : Pass<"tilegpu-occupancy", "mlir::ModuleOp"> {
  let summary = "Tell ptxas how many blocks per SM to allocate registers for";
  let description = [{
    Sets `nvvm.minctasm` (PTX's `.minnctapersm`) on every kernel without a
    dot or a scan to the blocks per SM that its register footprint (the
    RegisterFootprint analysis: the most registers its data tiles hold at
    once, from a liveness walk over each block) and its shared memory
    allow. Without the directive
    ptxas aims for the most resident blocks and, to reach them, keeps fewer
    loads in flight; with it, it uses the registers that number of blocks
    leaves and issues every load of a block before the first use. Kernels
    with a dot or a scan keep ptxas's own choice: they hold more than their
    tiles (accumulator fragments, partial sums), and ptxas spilled a scan
    under the directive. Runs after the shared-memory allocation, whose total
    it reads.
  }];
}

def TestPrintRegisterFootprint
    : Pass<"test-print-register-footprint", "mlir::ModuleOp"> {
  let summary = "Print each function's register footprint estimate";
  let description = [{
    Emits a remark on each function with its estimated registers per
    thread and blocks per SM, and one on the block where the estimate
    peaks. Used by the lit tests of the analysis.
  }];
}

def TestPrintAllocation : Pass<"test-print-allocation", "mlir::ModuleOp"> {
  let summary = "Print the shared-memory allocation of every function";
  let description = [{
    Emits a remark on each op with a shared-memory buffer giving its offset,
    size and lifetime, and one on each function with its total. Used by the
    lit tests of the allocation analysis.
  }];
}

#endif // TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
