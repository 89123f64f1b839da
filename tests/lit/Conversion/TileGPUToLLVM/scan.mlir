// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm | FileCheck %s
// Scans: a Hillis-Steele scan through scratch, log2(n) steps of write,
// barrier, read the partner d before (or after, reversed) and combine.

#l = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // 8 elements: steps 1, 2, 4; the earlier segment is the left operand.
  // CHECK-LABEL: llvm.func @cumsum
  // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: %[[STEP:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[HAS:.*]] = llvm.icmp "uge" %{{.*}}, %[[STEP]] : i32
  // CHECK: %[[BEFORE:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK: %[[SUM:.*]] = llvm.fsub %[[BEFORE]], %{{.*}} : f32
  // CHECK: llvm.select %[[HAS]], %[[SUM]], %{{.*}} : i1, f32
  // CHECK: nvvm.barrier0
  // CHECK: llvm.mlir.constant(2 : i32) : i32
  // CHECK: nvvm.barrier0
  // CHECK: llvm.mlir.constant(4 : i32) : i32
  // CHECK-NOT: llvm.mlir.constant(8 : i32)
  // CHECK: llvm.return
  func.func @cumsum(%x: tensor<8xf32, #l>) -> tensor<8xf32, #l> attributes {"tilegpu.num-warps" = 1 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.subf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<8xf32, #l>) -> tensor<8xf32, #l>
    return %s : tensor<8xf32, #l>
  }

  // Reversed along the rows of a 4x32 tile: the partner is d elements
  // after, at row-major distance d, and exists while index + d < 32.
  // CHECK-LABEL: llvm.func @reverse_rows
  // CHECK: nvvm.barrier0
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[NEXT:.*]] = llvm.add %{{.*}}, %[[ONE]] : i32
  // CHECK: llvm.icmp "ult" %[[NEXT]], %{{.*}} : i32
  // CHECK: %[[AFTER:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: llvm.add %{{.*}}, %[[AFTER]] : i32
  func.func @reverse_rows(%x: tensor<4x32xi32, #b>) -> tensor<4x32xi32, #b> attributes {"tilegpu.num-warps" = 1 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tile.reduce.return %c : i32
    }) {axis = 1 : i32, reverse = true} : (tensor<4x32xi32, #b>) -> tensor<4x32xi32, #b>
    return %s : tensor<4x32xi32, #b>
  }
}
