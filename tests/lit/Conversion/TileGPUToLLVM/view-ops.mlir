// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// broadcast and expand_dims between lined-up layouts move no data: the
// result registers are operand registers, with no shared memory and no
// barrier.

#b = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#s0 = #tilegpu.slice<{dim = 0, parent = #b}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @rows
  func.func @rows(%x: !tile.ptr<i32>) attributes {tile.kernel, "tilegpu.num-warps" = 1 : i32} {
    // Row vector [16] in slice(#b, 0): 2 registers per thread.
    // CHECK: llvm.mlir.undef : !llvm.struct<(i32, i32)>
    %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #s0>
    %e = tile.expand_dims %r {axis = 0 : i32} : tensor<16xi32, #s0> -> tensor<1x16xi32, #b>
    // [8, 16] in #b: 2 rows of the CTA tile (4 lanes) x 2 columns each: 4
    // registers, the 2 row repetitions copying the same 2 operand registers.
    // CHECK: %[[E0:.*]] = llvm.extractvalue %[[S:.*]][0] : !llvm.struct<(i32, i32)>
    // CHECK: %[[E1:.*]] = llvm.extractvalue %[[S]][1] : !llvm.struct<(i32, i32)>
    // CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i32, i32, i32, i32)>
    // CHECK: %[[I0:.*]] = llvm.insertvalue %[[E0]], %[[U]][0]
    // CHECK: %[[I1:.*]] = llvm.insertvalue %[[E1]], %[[I0]][1]
    // CHECK: %[[I2:.*]] = llvm.insertvalue %[[E0]], %[[I1]][2]
    // CHECK: llvm.insertvalue %[[E1]], %[[I2]][3]
    // CHECK-NOT: nvvm.barrier
    %bc = tile.broadcast %e : tensor<1x16xi32, #b> -> tensor<8x16xi32, #b>
    %p = tile.splat %x : tensor<8x16x!tile.ptr<i32>, #b>
    %q = tile.addptr %p, %bc : tensor<8x16x!tile.ptr<i32>, #b>, tensor<8x16xi32, #b>
    tile.store %q, %bc : (tensor<8x16x!tile.ptr<i32>, #b>, tensor<8x16xi32, #b>) -> ()
    return
  }
}
