// RUN: tile-opt %s -convert-tile-to-tilegpu -tilegpu-remove-layout-conversions -tilegpu-coalesce | FileCheck %s
// 2-D: the accessed layout is replaced everywhere, in the slices that the
// row and column offsets live in as well, so the expand_dims and broadcasts
// stay consistent: rows of 64 contiguous, 16-byte aligned fp32 give 4 per
// thread along the last dimension.

// CHECK-DAG: #[[B:blocked[0-9]*]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #tilegpu.slice<{dim = 1, parent = #[[B]]}>
// CHECK-DAG: #[[COLS:slice[0-9]*]] = #tilegpu.slice<{dim = 0, parent = #[[B]]}>
// CHECK-LABEL: func.func @copy
// CHECK-NOT: tilegpu.convert_layout
// CHECK-DAG: tile.make_range {{.*}} : tensor<64xi32, #[[ROWS]]>
// CHECK-DAG: tile.make_range {{.*}} : tensor<64xi32, #[[COLS]]>
// CHECK: tile.load {{.*}} -> tensor<64x64xf32, #[[B]]>
// CHECK-NOT: tilegpu.convert_layout
func.func @copy(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %n = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %mc = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %stride = arith.constant dense<64> : tensor<64x1xi32>
  %ms = arith.muli %mc, %stride : tensor<64x1xi32>
  %nr = tile.expand_dims %n {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %a = tile.broadcast %ms : tensor<64x1xi32> -> tensor<64x64xi32>
  %b = tile.broadcast %nr : tensor<1x64xi32> -> tensor<64x64xi32>
  %o = arith.addi %a, %b : tensor<64x64xi32>
  %xs = tile.splat %x : tensor<64x64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %o : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %v = tile.load %xp : (tensor<64x64x!tile.ptr<f32>>) -> tensor<64x64xf32>
  %ys = tile.splat %y : tensor<64x64x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %o : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %yp, %v : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
  return
}
