// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-scf-to-cf -convert-tilegpu-to-llvm | FileCheck %s
// The kernel's shared memory is one external array in address space 3 (the
// `extern __shared__` idiom) that scratch users address at their offset;
// the allocation's barrier between two reductions becomes bar.sync 0 and
// the total travels to LLVM IR as a function attribute for the metadata.

// CHECK: llvm.mlir.global external @tilegpu_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @sums
// CHECK-SAME: passthrough = {{\[\[}}"tilec-shared-bytes", "16"]]
// CHECK: llvm.mlir.addressof @tilegpu_shared : !llvm.ptr<3>
// CHECK: nvvm.barrier0
// The barrier the allocation inserted before the second reduction.
// CHECK: nvvm.barrier0
// CHECK: llvm.mlir.addressof @tilegpu_shared : !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @sums(%x: tensor<256xf32, #b>, %out: !tile.ptr<f32>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %s = tile.reduce(%x) axis = 0 : (tensor<256xf32, #b>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %sum = arith.addf %l, %r : f32
      tile.reduce.return %sum : f32
    }
    %m = tile.reduce(%x) axis = 0 : (tensor<256xf32, #b>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %mx = arith.maximumf %l, %r : f32
      tile.reduce.return %mx : f32
    }
    %t = arith.addf %s, %m : f32
    tile.store %out, %t : (!tile.ptr<f32>, f32) -> ()
    return
  }
}
