// RUN: tile-opt %s -convert-tile-to-tilegpu | FileCheck %s
// Layout assignment around the ops that relate different shapes: every new
// tensor has the default layout of its shape; expand_dims takes its operand
// in slice(result layout, axis); broadcast takes it in the result's layout;
// a reduce result is slice(operand layout, axis), converted back to the
// default for its users.

// CHECK-DAG: #[[B1:blocked[0-9]*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[COL:blocked[0-9]*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B2:blocked[0-9]*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SCOL:slice[0-9]*]] = #tilegpu.slice<{dim = 1, parent = #[[COL]]}>
// CHECK-DAG: #[[SROW:slice[0-9]*]] = #tilegpu.slice<{dim = 0, parent = #[[B2]]}>
// CHECK-DAG: #[[SRED:slice[0-9]*]] = #tilegpu.slice<{dim = 1, parent = #[[B2]]}>

// CHECK-LABEL: func.func @shapes
func.func @shapes(%p: !tile.ptr<f32>, %stride: i32) {
  %m = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %n = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  // CHECK: %[[MS:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64xi32, #[[B1]]> -> tensor<64xi32, #[[SCOL]]>
  // CHECK: tile.expand_dims %[[MS]] {axis = 1 : i32} : tensor<64xi32, #[[SCOL]]> -> tensor<64x1xi32, #[[COL]]>
  %mc = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %s = tile.splat %stride : tensor<64x1xi32>
  // CHECK: arith.muli {{.*}} : tensor<64x1xi32, #[[COL]]>
  %ms = arith.muli %mc, %s : tensor<64x1xi32>
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<32xi32, #[[B1]]> -> tensor<32xi32, #[[SROW]]>
  %nr = tile.expand_dims %n {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  // CHECK: %[[C:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x1xi32, #[[COL]]> -> tensor<64x1xi32, #[[B2]]>
  // CHECK: tile.broadcast %[[C]] : tensor<64x1xi32, #[[B2]]> -> tensor<64x32xi32, #[[B2]]>
  %a = tile.broadcast %ms : tensor<64x1xi32> -> tensor<64x32xi32>
  %b = tile.broadcast %nr : tensor<1x32xi32> -> tensor<64x32xi32>
  %o = arith.addi %a, %b : tensor<64x32xi32>
  %ps = tile.splat %p : tensor<64x32x!tile.ptr<f32>>
  %ptrs = tile.addptr %ps, %o : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  %x = tile.load %ptrs : (tensor<64x32x!tile.ptr<f32>>) -> tensor<64x32xf32>
  // CHECK: %[[R:.*]] = tile.reduce(%{{.*}}) axis = 1 : (tensor<64x32xf32, #[[B2]]>) -> tensor<64xf32, #[[SRED]]>
  // CHECK: tilegpu.convert_layout %[[R]] : tensor<64xf32, #[[SRED]]> -> tensor<64xf32, #[[B1]]>
  %r = tile.reduce(%x) axis = 1 : (tensor<64x32xf32>) -> tensor<64xf32> {
  ^bb0(%l: f32, %rr: f32):
    %sum = arith.addf %l, %rr : f32
    tile.reduce.return %sum : f32
  }
  %re = tile.expand_dims %r {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  %rb = tile.broadcast %re : tensor<64x1xf32> -> tensor<64x32xf32>
  %y = arith.subf %x, %rb : tensor<64x32xf32>
  tile.store %ptrs, %y : (tensor<64x32x!tile.ptr<f32>>, tensor<64x32xf32>) -> ()
  return
}

// scf loops carry tiles in the default layout of their shape.
// CHECK-LABEL: func.func @loop
func.func @loop(%n: index) -> () {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x16xf32, #blocked{{[0-9]*}}>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<16x16xf32>) {
    %t = tile.trans %acc {order = array<i32: 1, 0>} : tensor<16x16xf32> -> tensor<16x16xf32>
    scf.yield %t : tensor<16x16xf32>
  }
  return
}
