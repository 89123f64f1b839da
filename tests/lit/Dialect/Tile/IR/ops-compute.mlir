// RUN: tile-opt %s | tile-opt | FileCheck %s
// Round trip of the shape, hint, atomic, reduce/scan, dot and debug ops.

// CHECK-LABEL: func @compute
func.func @compute(%p: !tile.ptr<f32>, %x: tensor<16x32xf32>, %a: tensor<16x8xf16>,
                   %b: tensor<8x32xf16>, %m: tensor<16x32xi1>) {
  // CHECK: tile.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  // CHECK: tile.reshape %{{.*}} : tensor<16x32xf32> -> tensor<512xf32>
  %r = tile.reshape %x : tensor<16x32xf32> -> tensor<512xf32>
  // CHECK: tile.hint %{{.*}} {divisibility = array<i64: 16>} : !tile.ptr<f32>
  %h = tile.hint %p {divisibility = array<i64: 16>} : !tile.ptr<f32>
  // CHECK: tile.reduce(%{{.*}}) axis = 1 : (tensor<16x32xf32>) -> tensor<16xf32>
  // CHECK: tile.reduce.return
  %s = tile.reduce(%x) axis = 1 : (tensor<16x32xf32>) -> tensor<16xf32> {
  ^bb0(%l: f32, %rr: f32):
    %sum = arith.addf %l, %rr : f32
    tile.reduce.return %sum : f32
  }
  %all = tile.reduce(%r) axis = 0 : (tensor<512xf32>) -> f32 {
  ^bb0(%l: f32, %rr: f32):
    %mx = arith.maximumf %l, %rr : f32
    tile.reduce.return %mx : f32
  }
  // CHECK: tile.scan(%{{.*}}) axis = 0
  %c = tile.scan(%r) axis = 0 : (tensor<512xf32>) -> tensor<512xf32> {
  ^bb0(%l: f32, %rr: f32):
    %sum = arith.addf %l, %rr : f32
    tile.reduce.return %sum : f32
  }
  %acc = arith.constant dense<0.0> : tensor<16x32xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x8xf16> * tensor<8x32xf16> -> tensor<16x32xf32>
  %d = tile.dot %a, %b, %acc : tensor<16x8xf16> * tensor<8x32xf16> -> tensor<16x32xf32>
  %ps = tile.splat %h : tensor<16x32x!tile.ptr<f32>>
  // CHECK: tile.atomic_rmw add %{{.*}}, %{{.*}} mask %{{.*}}
  %old = tile.atomic_rmw add %ps, %d mask %m : (tensor<16x32x!tile.ptr<f32>>, tensor<16x32xf32>, tensor<16x32xi1>) -> tensor<16x32xf32>
  // CHECK: tile.atomic_cas
  %cas = tile.atomic_cas %p, %all, %all : (!tile.ptr<f32>, f32, f32) -> f32
  // CHECK: tile.print "x: " %{{.*}} : tensor<16x32xf32>
  tile.print "x: " %x : tensor<16x32xf32>
  // CHECK: tile.assert %{{.*}}, "in bounds" : tensor<16x32xi1>
  tile.assert %m, "in bounds" : tensor<16x32xi1>
  // CHECK: tile.barrier
  tile.barrier
  return
}
