// RUN: tile-opt %s -convert-tile-to-tilegpu -tilegpu-remove-layout-conversions -tilegpu-coalesce -tilegpu-remove-layout-conversions | FileCheck %s
// An access contiguous along dimension 0 (a transpose: x[j, i] read as
// tile[i, j], or K^T read from a row-major K) gets a layout of its own with
// dimension 0 fastest (4 fp32 per thread along it), its pointer arithmetic
// recomputed there; remove-layout-conversions does not move the load back
// into the row-major layout of its user, where it could not vectorize. The
// row-major store keeps its layout, with one conversion between the two.

// CHECK-DAG: #[[ROW:blocked[0-9]*]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[COL:blocked[0-9]*]] = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @transpose
// CHECK: %[[V:.*]] = tile.load {{.*}} -> tensor<64x64xf32, #[[COL]]>
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[V]] : tensor<64x64xf32, #[[COL]]> -> tensor<64x64xf32, #[[ROW]]>
// CHECK: tile.store %{{.*}}, %[[C]] : (tensor<64x64x!tile.ptr<f32>, #[[ROW]]>, tensor<64x64xf32, #[[ROW]]>)
func.func @transpose(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %n = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %mc = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %nr = tile.expand_dims %n {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %stride = arith.constant dense<64> : tensor<64x1xi32>
  %strideT = arith.constant dense<64> : tensor<1x64xi32>
  %ms = arith.muli %mc, %stride : tensor<64x1xi32>
  %ns = arith.muli %nr, %strideT : tensor<1x64xi32>
  %a = tile.broadcast %ms : tensor<64x1xi32> -> tensor<64x64xi32>
  %b = tile.broadcast %nr : tensor<1x64xi32> -> tensor<64x64xi32>
  %at = tile.broadcast %mc : tensor<64x1xi32> -> tensor<64x64xi32>
  %bt = tile.broadcast %ns : tensor<1x64xi32> -> tensor<64x64xi32>
  %rowMajor = arith.addi %a, %b : tensor<64x64xi32>
  %colMajor = arith.addi %at, %bt : tensor<64x64xi32>
  %xs = tile.splat %x : tensor<64x64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %colMajor : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %v = tile.load %xp : (tensor<64x64x!tile.ptr<f32>>) -> tensor<64x64xf32>
  %ys = tile.splat %y : tensor<64x64x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %rowMajor : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %yp, %v : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
  return
}
