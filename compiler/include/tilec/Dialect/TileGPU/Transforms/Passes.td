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

def TestPrintAxisInfo : Pass<"test-print-axis-info", "mlir::ModuleOp"> {
  let summary = "Print the axis-info analysis of every integer and pointer value";
  let description = [{
    Emits a remark on each operation with an integer or pointer result,
    giving its contiguity, divisibility and constancy per dimension. Used
    by the lit tests of the analysis.
  }];
}

#endif // TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
