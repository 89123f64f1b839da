// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// Elementwise ops apply per element held; exp uses ex2.approx, f32 division
// div.full; grid queries read the special registers.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @math
  func.func @math(%a: f32) attributes {tile.kernel, "tilegpu.num-warps" = 1 : i32} {
    // CHECK: nvvm.read.ptx.sreg.ctaid.y
    %pid = tile.program_id 1 : i32
    // CHECK: nvvm.read.ptx.sreg.nctaid.z
    %np = tile.num_programs 2 : i32
    // Each thread holds 2 elements: its lane * 2 + {0, 1}.
    // CHECK: nvvm.read.ptx.sreg.tid.x
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #b>
    %f = arith.sitofp %r : tensor<64xi32, #b> to tensor<64xf32, #b>
    %s = tile.splat %a : tensor<64xf32, #b>
    // CHECK-COUNT-2: llvm.fmul
    %m = arith.mulf %f, %s : tensor<64xf32, #b>
    // CHECK: %[[LOG2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
    // CHECK: %[[X:.*]] = llvm.fmul %{{.*}}, %[[LOG2E]] : f32
    // CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[X]]) : (f32) -> f32
    %e = math.exp %m : tensor<64xf32, #b>
    // CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.div.full"
    %d = arith.divf %e, %s : tensor<64xf32, #b>
    return
  }
}
