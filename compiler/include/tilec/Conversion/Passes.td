//===- Passes.td - Conversions between tilec's stages ------*- tablegen -*-===//
//
// tile -> tilegpu (layouts assigned) -> LLVM + NVVM dialects.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_PASSES_TD
#define TILEC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToTileGPU : Pass<"convert-tile-to-tilegpu", "mlir::ModuleOp"> {
  let summary = "Give every tile a GPU layout";
  let description = [{
    Rewrites every ranked tensor type of each function to carry a default
    `#tilegpu.blocked` layout for the function's warps per program: its
    `tile.num_warps` attribute, else `num-warps`. Records the warp count on
    each function and the warp size on the module. Then a reduce result takes
    the slice of its operand's layout (converted back to the default for its
    users), an expand_dims operand is converted to the slice of its result's
    layout and a broadcast operand to its result's layout.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", "4",
           "Warps per program of functions without tile.num_warps">,
    Option<"threadsPerWarp", "threads-per-warp", "unsigned", "32",
           "Threads per warp">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def ConvertTileGPUToLLVM : Pass<"convert-tilegpu-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lower the tilegpu stage to the LLVM and NVVM dialects";
  let description = [{
    Each tile becomes, in each thread, a struct of the elements its layout
    gives that thread; each operation is lowered per element, memory
    accesses as vectorized, predicated PTX loads and stores. Kernels become
    `llvm.func`s marked `nvvm.kernel` with `nvvm.reqntid` set.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "The GPU the code is for (sm_80 ... sm_90a): sm_90 and later get "
           "vector atomics">,
    Option<"maxThreadWork", "max-thread-work", "int64_t",
           /*default=*/"::mlir::tilec::kMaxWorkPerThread",
           "The most weighted scalar operations per thread a kernel may need "
           "(Analysis/ThreadWork.h)">
  ];
}

#endif // TILEC_CONVERSION_PASSES_TD
