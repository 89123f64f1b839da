// RUN: tile-opt %s -canonicalize | FileCheck %s
// A splat of a constant number folds into a dense constant, so that arith's
// folds see through it: a block pointer's unit stride (offsets * splat(1))
// leaves the offsets as they are, and the axis info keeps their contiguity.
// Splats of values that are not constants stay.

// CHECK-LABEL: func.func @unit_stride
// CHECK-NOT: tile.splat
// CHECK-NOT: arith.muli
// CHECK: return %arg0
func.func @unit_stride(%offsets: tensor<256xi64>) -> tensor<256xi64> {
  %c1 = arith.constant 1 : i64
  %ones = tile.splat %c1 : tensor<256xi64>
  %r = arith.muli %offsets, %ones : tensor<256xi64>
  return %r : tensor<256xi64>
}

// CHECK-LABEL: func.func @float_splat
// CHECK: %[[C:.*]] = arith.constant dense<2.500000e+00> : tensor<4x8xf32>
// CHECK: return %[[C]]
func.func @float_splat() -> tensor<4x8xf32> {
  %c = arith.constant 2.5 : f32
  %t = tile.splat %c : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @runtime_splat
// CHECK: %[[S:.*]] = tile.splat %arg0 : tensor<16xi32>
// CHECK: return %[[S]]
func.func @runtime_splat(%x: i32) -> tensor<16xi32> {
  %t = tile.splat %x : tensor<16xi32>
  return %t : tensor<16xi32>
}
