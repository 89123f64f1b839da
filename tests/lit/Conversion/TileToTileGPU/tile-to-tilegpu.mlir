// RUN: tile-opt %s -convert-tile-to-tilegpu | FileCheck %s
// RUN: tile-opt %s -convert-tile-to-tilegpu=num-warps=8 | FileCheck %s --check-prefix=EIGHT
// Every tile gets the default blocked layout for its function's warps: the
// function's tile.num_warps, else the pass option.

// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #blocked1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK: module attributes {"tilegpu.threads-per-warp" = 32 : i32}
// EIGHT: #blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>

// CHECK-LABEL: func.func @defaults
// CHECK-SAME: "tilegpu.num-warps" = 4 : i32
// EIGHT-LABEL: func.func @defaults
// EIGHT-SAME: "tilegpu.num-warps" = 8 : i32
func.func @defaults(%n: i32) {
  // CHECK: tile.make_range {{.*}} : tensor<1024xi32, #blocked>
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  // CHECK: arith.constant dense<1> : tensor<1024xi32, #blocked>
  %one = arith.constant dense<1> : tensor<1024xi32>
  // CHECK: arith.addi {{.*}} : tensor<1024xi32, #blocked>
  %s = arith.addi %r, %one : tensor<1024xi32>
  return
}

// CHECK-LABEL: func.func @two_warps
// CHECK-SAME: "tilegpu.num-warps" = 2 : i32
func.func @two_warps() attributes {tile.num_warps = 2 : i32} {
  // CHECK: tensor<64xi32, #blocked1>
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  return
}
