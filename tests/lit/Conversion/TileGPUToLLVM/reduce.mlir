// RUN: tile-opt %s -split-input-file -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm | FileCheck %s --check-prefix=COUNT
// Reductions: within the thread, then butterfly shuffles over the lane bits
// that split the axis, then (when warps split it too) through scratch.

#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // Rows of 64 = 4 per thread x 8 lanes x 2 warps; 4 rows per thread.
  // CHECK-LABEL: llvm.func @rows
  // CHECK-COUNT-12: llvm.fadd
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[ONE]], %{{.*}} : i32 -> i32
  // CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[TWO]], %{{.*}} : i32 -> i32
  // CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[FOUR]], %{{.*}} : i32 -> i32
  // COUNT-LABEL: llvm.func @rows
  // COUNT-COUNT-12: nvvm.shfl.sync bfly
  // COUNT-NOT: nvvm.shfl.sync
  // COUNT: nvvm.barrier0
  // Each warp's partial goes to slot (row * 4 + warp along the axis).
  // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK: llvm.fadd
  // CHECK: llvm.return %{{.*}} : !llvm.struct<(f32, f32, f32, f32)>
  func.func @rows(%x: tensor<32x64xf32, #b>) -> tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #b}>> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 1 : i32} : (tensor<32x64xf32, #b>) -> tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #b}>>
    return %s : tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #b}>>
  }

  // Columns of 32 = 1 x 4 lanes x 2 warps x 4 repetitions: registers 0, 4,
  // 8, 12 of each column combine in the thread, then lanes 8 and 16 apart.
  // CHECK-LABEL: llvm.func @columns
  // CHECK-COUNT-12: llvm.intr.maxnum
  // CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[EIGHT]]
  // CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[SIXTEEN]]
  // CHECK: nvvm.barrier0
  // COUNT-LABEL: llvm.func @columns
  // COUNT-COUNT-8: nvvm.shfl.sync bfly
  // COUNT-NOT: nvvm.shfl.sync
  // COUNT: nvvm.barrier0
  func.func @columns(%x: tensor<32x64xf32, #b>) -> tensor<64xf32, #tilegpu.slice<{dim = 0, parent = #b}>> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.maxnumf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<32x64xf32, #b>) -> tensor<64xf32, #tilegpu.slice<{dim = 0, parent = #b}>>
    return %s : tensor<64xf32, #tilegpu.slice<{dim = 0, parent = #b}>>
  }

  // A 4x4 tile: each thread holds whole rows (4 elements); lanes and warps
  // along the axis hold replicas, so nothing crosses threads.
  // CHECK-LABEL: llvm.func @small
  // CHECK-COUNT-3: llvm.fadd
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @small(%x: tensor<4x4xf32, #b>) -> tensor<4xf32, #tilegpu.slice<{dim = 1, parent = #b}>> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 1 : i32} : (tensor<4x4xf32, #b>) -> tensor<4xf32, #tilegpu.slice<{dim = 1, parent = #b}>>
    return %s : tensor<4xf32, #tilegpu.slice<{dim = 1, parent = #b}>>
  }
}

// -----

#l = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // argmax over 16 elements: 8 lanes hold distinct pairs (lanes 8 and more
  // hold replicas), so only the shuffles 1, 2 and 4 happen, each moving the
  // value and its index, and no warp crosses.
  // CHECK-LABEL: llvm.func @argmax
  // CHECK: llvm.fcmp "ogt"
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[ONE]]
  // CHECK: %[[ONE2:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[ONE2]]
  // COUNT-LABEL: llvm.func @argmax
  // COUNT-COUNT-6: nvvm.shfl.sync bfly
  // COUNT-NOT: nvvm.shfl.sync
  // COUNT-NOT: nvvm.barrier0
  // COUNT: llvm.return %{{.*}} : i32
  func.func @argmax(%v: tensor<16xf32, #l>) -> i32 attributes {"tilegpu.num-warps" = 4 : i32} {
    %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #l>
    %mx:2 = "tile.reduce"(%v, %r) ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %eq = arith.cmpf oeq, %a, %b : f32
      %lt = arith.cmpi slt, %ai, %bi : i32
      %tie = arith.andi %eq, %lt : i1
      %pick = arith.ori %gt, %tie : i1
      %m = arith.select %pick, %a, %b : f32
      %i = arith.select %pick, %ai, %bi : i32
      tile.reduce.return %m, %i : f32, i32
    }) {axis = 0 : i32} : (tensor<16xf32, #l>, tensor<16xi32, #l>) -> (f32, i32)
    return %mx#1 : i32
  }

  // A sum over 1024 elements: 5 shuffles, then 4 warps through scratch; the
  // result is a scalar every thread holds.
  // CHECK-LABEL: llvm.func @total
  // CHECK-COUNT-5: nvvm.shfl.sync bfly
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: llvm.return %{{.*}} : i32
  func.func @total(%v: tensor<1024xi32, #l>) -> i32 attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%v) ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tile.reduce.return %c : i32
    }) {axis = 0 : i32} : (tensor<1024xi32, #l>) -> i32
    return %s : i32
  }

  // An argmax of i8 values across 4 warps: the i8 part of the scratch (4
  // bytes) is padded to 8 so that the i32 indices that follow are aligned
  // (at offset 4 they made the GPU fault with a misaligned address).
  // CHECK-LABEL: llvm.func @argmax_i8
  // CHECK: llvm.getelementptr %{{.*}}[8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i8, !llvm.ptr<3>
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  func.func @argmax_i8(%v: tensor<1024xi8, #l>) -> i32 attributes {"tilegpu.num-warps" = 4 : i32} {
    %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #l>
    %mx:2 = "tile.reduce"(%v, %r) ({
    ^bb0(%a: i8, %ai: i32, %b: i8, %bi: i32):
      %gt = arith.cmpi sgt, %a, %b : i8
      %m = arith.select %gt, %a, %b : i8
      %i = arith.select %gt, %ai, %bi : i32
      tile.reduce.return %m, %i : i8, i32
    }) {axis = 0 : i32} : (tensor<1024xi8, #l>, tensor<1024xi32, #l>) -> (i8, i32)
    return %mx#1 : i32
  }
}

// -----

// Rows of an mma.sync accumulator (warps [2, 2]): a thread holds 2 columns of
// each of its 16x8 tiles (2 tiles per warp along 32 columns), 4 lanes split
// a row (shuffles over lane bits 1 and 2), and 2 warps along N combine
// through scratch. Columns: 8 lanes (bits 4, 8, 16) hold rows g and g + 8 of
// each tile, and the 2 warps along M combine through scratch.
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @mma_rows
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[ONE]], %{{.*}} : i32 -> i32
  // CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[TWO]], %{{.*}} : i32 -> i32
  // CHECK: nvvm.barrier0
  // COUNT-LABEL: llvm.func @mma_rows
  // COUNT-COUNT-4: nvvm.shfl.sync bfly
  // COUNT-NOT: nvvm.shfl.sync
  // COUNT: nvvm.barrier0
  func.func @mma_rows(%x: tensor<32x32xf32, #mma>) -> tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #mma}>> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 1 : i32} : (tensor<32x32xf32, #mma>) -> tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #mma}>>
    return %s : tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #mma}>>
  }
  // CHECK-LABEL: llvm.func @mma_cols
  // CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[FOUR]], %{{.*}} : i32 -> i32
  // CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[EIGHT]], %{{.*}} : i32 -> i32
  // CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[SIXTEEN]], %{{.*}} : i32 -> i32
  // CHECK: nvvm.barrier0
  // COUNT-LABEL: llvm.func @mma_cols
  // COUNT-COUNT-12: nvvm.shfl.sync bfly
  // COUNT-NOT: nvvm.shfl.sync
  // COUNT: nvvm.barrier0
  func.func @mma_cols(%x: tensor<32x32xf32, #mma>) -> tensor<32xf32, #tilegpu.slice<{dim = 0, parent = #mma}>> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.maxnumf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<32x32xf32, #mma>) -> tensor<32xf32, #tilegpu.slice<{dim = 0, parent = #mma}>>
    return %s : tensor<32xf32, #tilegpu.slice<{dim = 0, parent = #mma}>>
  }
}
