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
    encoding is a `tilegpu` layout. Each kernel function carries
    `tilegpu.num-warps` and the module `tilegpu.threads-per-warp`; this
    dialect adds layout conversions.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let extraClassDeclaration = [{
    /// Function (or module) attribute: warps per program.
    static constexpr ::llvm::StringLiteral kNumWarpsAttr = "tilegpu.num-warps";
    /// Unit attribute of a tile.dot on wgmma: its group is committed but not
    /// waited for (a tilegpu.wgmma_wait on its result follows).
    static constexpr ::llvm::StringLiteral kWgmmaAsyncAttr =
        "tilegpu.wgmma_async";
    /// Module attribute: threads per warp.
    static constexpr ::llvm::StringLiteral kThreadsPerWarpAttr =
        "tilegpu.threads-per-warp";
    /// The `tilegpu.num-warps` of `op`'s function or module (4 if none).
    static int getNumWarps(::mlir::Operation *op);
    /// The `tilegpu.threads-per-warp` of `op`'s module (32 if none).
    static int getThreadsPerWarp(::mlir::Operation *op);
    /// Threads of one program of `op`'s function: getNumWarps times
    /// getThreadsPerWarp.
    static int getThreadsPerProgram(::mlir::Operation *op);
  }];
}

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD
