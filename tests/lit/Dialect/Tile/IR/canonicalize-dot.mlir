// RUN: tile-opt %s -canonicalize | FileCheck %s
// `acc += tl.dot(a, b)`: a product with a zero accumulator added to a tile of
// its type in the same block accumulates into that tile instead (either
// operand order, floats and integers). A non-zero accumulator, a product
// used twice, or one made outside the loop that adds it, stays.

// CHECK-LABEL: func.func @fold_in_loop
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ACC]] : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
// CHECK-NOT: arith.addf
// CHECK: scf.yield %[[D]]
func.func @fold_in_loop(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %n: index) -> tensor<32x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32>) {
    %d = tile.dot %a, %b, %zero : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
    %s = arith.addf %acc, %d : tensor<32x32xf32>
    scf.yield %s : tensor<32x32xf32>
  }
  return %r : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @fold_either_order
// CHECK: %[[X:.*]] = arith.mulf
// CHECK-NEXT: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[X]]
// CHECK-NEXT: return %[[D]]
func.func @fold_either_order(%a: tensor<16x16xi8>, %b: tensor<16x16xi8>, %x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %ai = arith.sitofp %a : tensor<16x16xi8> to tensor<16x16xf16>
  %bi = arith.sitofp %b : tensor<16x16xi8> to tensor<16x16xf16>
  %d = tile.dot %ai, %bi, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  // Defined after the product: the product moves down to the add.
  %y = arith.mulf %x, %x : tensor<16x16xf32>
  %s = arith.addf %d, %y : tensor<16x16xf32>
  return %s : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @fold_integer
// CHECK: %[[D:.*]] = tile.dot %arg0, %arg1, %arg2 : tensor<16x32xi8> * tensor<32x16xi8> -> tensor<16x16xi32>
// CHECK-NEXT: return %[[D]]
func.func @fold_integer(%a: tensor<16x32xi8>, %b: tensor<32x16xi8>, %x: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %zero = arith.constant dense<0> : tensor<16x16xi32>
  %d = tile.dot %a, %b, %zero : tensor<16x32xi8> * tensor<32x16xi8> -> tensor<16x16xi32>
  %s = arith.addi %x, %d : tensor<16x16xi32>
  return %s : tensor<16x16xi32>
}

// CHECK-LABEL: func.func @keep
// CHECK: %[[D1:.*]] = tile.dot
// CHECK: arith.addf %arg2, %[[D1]]
// CHECK: %[[D2:.*]] = tile.dot
// CHECK: %[[S2:.*]] = arith.addf %arg2, %[[D2]]
// CHECK: arith.addf %[[S2]], %[[D2]]
// CHECK: %[[D3:.*]] = tile.dot
// CHECK: scf.for
// CHECK: arith.addf %{{.*}}, %[[D3]]
func.func @keep(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %x: tensor<16x16xf32>, %n: index) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %one = arith.constant dense<1.0> : tensor<16x16xf32>
  // A non-zero accumulator.
  %d1 = tile.dot %a, %b, %one : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %s1 = arith.addf %x, %d1 : tensor<16x16xf32>
  // A product used twice.
  %d2 = tile.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %s2 = arith.addf %x, %d2 : tensor<16x16xf32>
  %t2 = arith.addf %s2, %d2 : tensor<16x16xf32>
  // A product made before the loop that adds it each iteration.
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d3 = tile.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<16x16xf32>) {
    %s = arith.addf %acc, %d3 : tensor<16x16xf32>
    scf.yield %s : tensor<16x16xf32>
  }
  return %s1, %t2, %r : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}
