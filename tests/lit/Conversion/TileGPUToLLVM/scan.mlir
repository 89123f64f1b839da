// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm | FileCheck %s
// Scans of blocked tiles: each thread's run in registers, the lanes along
// the axis by shuffles, and the segments (warps, repetitions of the CTA
// tile) through one scratch slot each. Scans of other layouts: a
// Hillis-Steele scan through scratch holding the tile. simulate.test runs
// both on the CPU.

#l = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#w = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // 8 elements in one warp (runs of 2 in 4 distinct lanes): the run's scan
  // with the earlier element on the left, two shuffle steps over the lanes,
  // one shuffle for the lanes before, no shared memory.
  // CHECK-LABEL: llvm.func @cumsum
  // CHECK-SAME: "tilec-shared-bytes", "0"
  // CHECK-NOT: nvvm.barrier0
  // CHECK: %[[RUNSUM:.*]] = llvm.fsub %[[A:.*]], %{{.*}} : f32
  // CHECK: nvvm.shfl.sync  idx
  // CHECK: llvm.fsub %{{.*}}, %[[RUNSUM]] : f32
  // CHECK: nvvm.shfl.sync  idx
  // CHECK: nvvm.shfl.sync  idx
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @cumsum(%x: tensor<8xf32, #l>) -> tensor<8xf32, #l> attributes {"tilegpu.num-warps" = 1 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.subf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<8xf32, #l>) -> tensor<8xf32, #l>
    return %s : tensor<8xf32, #l>
  }

  // 1024 elements on 4 warps: 4 repetitions of 4 warps, 16 segments, 16
  // slots of scratch; each repetition's total goes to its slot, one
  // barrier, then every slot is read.
  // CHECK-LABEL: llvm.func @segments
  // CHECK-SAME: "tilec-shared-bytes", "64"
  // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-COUNT-16: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @segments(%x: tensor<1024xf32, #w>) -> tensor<1024xf32, #w> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<1024xf32, #w>) -> tensor<1024xf32, #w>
    return %s : tensor<1024xf32, #w>
  }

  // Reversed along the rows of a 4x32 tile (runs of 4 in 8 lanes): the run
  // from its last element back, the lane 1 later along the axis is the
  // partner while lane + 1 < 8, and the later value is the right operand.
  // CHECK-LABEL: llvm.func @reverse_rows
  // CHECK-NOT: nvvm.barrier0
  // CHECK: %[[S1:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
  // CHECK: %[[S2:.*]] = llvm.add %{{.*}}, %[[S1]] : i32
  // CHECK: %[[RUNSUM:.*]] = llvm.add %{{.*}}, %[[S2]] : i32
  // CHECK: %[[NEXT:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.icmp "ult" %[[NEXT]], %{{.*}} : i32
  // CHECK: %[[LATER:.*]] = nvvm.shfl.sync  idx
  // CHECK: %[[BITS:.*]] = llvm.bitcast %[[LATER]] : i32 to i32
  // CHECK: llvm.add %[[RUNSUM]], %[[BITS]] : i32
  func.func @reverse_rows(%x: tensor<4x32xi32, #b>) -> tensor<4x32xi32, #b> attributes {"tilegpu.num-warps" = 1 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tile.reduce.return %c : i32
    }) {axis = 1 : i32, reverse = true} : (tensor<4x32xi32, #b>) -> tensor<4x32xi32, #b>
    return %s : tensor<4x32xi32, #b>
  }

  // Two sources (i8, f32) over 4 segments: the i8 totals take 4 bytes, so
  // the f32 part starts at byte 8, aligned (8 + 16 bytes, 32 allocated).
  // CHECK-LABEL: llvm.func @two_sources
  // CHECK-SAME: "tilec-shared-bytes", "32"
  // CHECK: llvm.getelementptr %{{.*}}[8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i8, !llvm.ptr<3>
  // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  func.func @two_sources(%x: tensor<256xi8, #w>, %y: tensor<256xf32, #w>) -> tensor<256xf32, #w> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s:2 = "tile.scan"(%x, %y) ({
    ^bb0(%a: i8, %b: f32, %c: i8, %d: f32):
      %e = arith.addi %a, %c : i8
      %f = arith.addf %b, %d : f32
      tile.reduce.return %e, %f : i8, f32
    }) {axis = 0 : i32} : (tensor<256xi8, #w>, tensor<256xf32, #w>) -> (tensor<256xi8, #w>, tensor<256xf32, #w>)
    return %s#1 : tensor<256xf32, #w>
  }

  // A slice: through scratch holding the 4 elements, steps 1 and 2.
  // CHECK-LABEL: llvm.func @slice
  // CHECK-SAME: "tilec-shared-bytes", "16"
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @slice(%x: tensor<4xi32, #tilegpu.slice<{dim = 1, parent = #b}>>) -> tensor<4xi32, #tilegpu.slice<{dim = 1, parent = #b}>> attributes {"tilegpu.num-warps" = 1 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tile.reduce.return %c : i32
    }) {axis = 0 : i32} : (tensor<4xi32, #tilegpu.slice<{dim = 1, parent = #b}>>) -> tensor<4xi32, #tilegpu.slice<{dim = 1, parent = #b}>>
    return %s : tensor<4xi32, #tilegpu.slice<{dim = 1, parent = #b}>>
  }
}
