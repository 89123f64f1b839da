// RUN: tile-opt %s -canonicalize | FileCheck %s
// The 2-D transpose of an index chain (a mask) moves down the chain to its
// splats and ranges, where it vanishes: the mask is computed transposed. A
// transpose of loaded data stays.

// CHECK-LABEL: func.func @mask
// CHECK-NOT: tile.trans
// CHECK-DAG: %[[ROWS:.*]] = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK-DAG: %[[COLS:.*]] = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-DAG: tile.expand_dims %[[ROWS]] {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
// CHECK-DAG: tile.expand_dims %[[COLS]] {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
// CHECK: arith.andi %{{.*}}, %{{.*}} : tensor<32x64xi1>
// CHECK-NOT: tile.trans
func.func @mask(%m: i32, %n: i32) -> tensor<32x64xi1> {
  %rm = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rn = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %col = tile.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %row = tile.expand_dims %rn {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %ms = tile.splat %m : tensor<64x1xi32>
  %ns = tile.splat %n : tensor<1x32xi32>
  %a = arith.cmpi slt, %col, %ms : tensor<64x1xi32>
  %b = arith.cmpi slt, %row, %ns : tensor<1x32xi32>
  %ab = tile.broadcast %a : tensor<64x1xi1> -> tensor<64x32xi1>
  %bb = tile.broadcast %b : tensor<1x32xi1> -> tensor<64x32xi1>
  %mask = arith.andi %ab, %bb : tensor<64x32xi1>
  %t = tile.trans %mask {order = array<i32: 1, 0>} : tensor<64x32xi1> -> tensor<32x64xi1>
  return %t : tensor<32x64xi1>
}

// CHECK-LABEL: func.func @data
// CHECK: %[[X:.*]] = tile.load
// CHECK: tile.trans %[[X]]
func.func @data(%p: tensor<64x32x!tile.ptr<f32>>) -> tensor<32x64xf32> {
  %x = tile.load %p : (tensor<64x32x!tile.ptr<f32>>) -> tensor<64x32xf32>
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
  return %t : tensor<32x64xf32>
}
