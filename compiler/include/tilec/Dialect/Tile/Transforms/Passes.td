//===- Passes.td - Passes over the tile dialect -------------*- tablegen -*-===//
//
// Passes that run on the tile dialect as the frontend produced it, before
// the interpreter reads it and the tilegpu pipeline lowers it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileLegalizeFP8 : Pass<"tile-legalize-fp8", "mlir::ModuleOp"> {
  let summary = "Compute fp8 arithmetic in fp32";
  let description = [{
    fp8 values (f8E4M3FN, Triton's fp8e4nv, and f8E5M2, fp8e5) are stored and
    moved as bytes, but neither the GPU nor LLVM computes on them. Every
    arith or math op with an fp8 operand or result (other than constants,
    selects, bitcasts and the conversions extf/truncf) is rewritten to widen
    its fp8 operands to fp32, compute in fp32, and round each fp8 result back
    with one truncf, the result Triton gives. `tile.print` prints fp8
    operands as fp32. Ops that cannot take fp8 (dot, atomics, reductions and
    scans, extern elementwise calls, inline asm; the frontend widens what it
    can before them) are errors at their location. On targets older than
    sm_89, whose cvt has no fp8 formats, every fp8 conversion is an error.
    Every truncf to fp8 gets the rounding mode to_nearest_even stated, which
    keeps canonicalization from folding an earlier rounding into it.
  }];
  let options = [
    Option<"target", "target", "std::string", "\"sm_90\"",
           "Target GPU (sm_80, sm_90, sm_90a)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
