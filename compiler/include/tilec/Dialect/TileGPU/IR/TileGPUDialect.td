//===- TileGPUDialect.td - The layout-carrying GPU dialect -*- tablegen -*-===//
//
// The `tilegpu` dialect: the tile dialect's tensors, each carrying a layout
// encoding that says which thread of which warp holds which element.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD
#define TILEC_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD

include "mlir/IR/OpBase.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::mlir::tilegpu";
  let summary = "Tile tensors with GPU layouts";
  let description = [{
    The operations of the `tile` dialect keep working on tensors whose
    encoding is a `tilegpu` layout. The module carries `tilegpu.num-warps`
    and `tilegpu.threads-per-warp`; this dialect adds layout conversions.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let extraClassDeclaration = [{
    /// Module attribute: warps per program.
    static constexpr ::llvm::StringLiteral kNumWarpsAttr = "tilegpu.num-warps";
    /// Module attribute: threads per warp.
    static constexpr ::llvm::StringLiteral kThreadsPerWarpAttr =
        "tilegpu.threads-per-warp";
    /// Reads `tilegpu.num-warps` off a module (4 when absent).
    static int getNumWarps(::mlir::Operation *module);
    /// Reads `tilegpu.threads-per-warp` off a module (32 when absent).
    static int getThreadsPerWarp(::mlir::Operation *module);
  }];
}

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD
