// RUN: tile-opt %s -convert-tile-to-tilegpu -tilegpu-coalesce -split-input-file | FileCheck %s
// Each thread gets as many consecutive elements as the widest proven
// contiguous, aligned access of that tile shape can move (up to 128 bits).

// fp32, contiguous, 16-byte aligned: 4 per thread (ld.global.v4.b32).
// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @contiguous_f32
func.func @contiguous_f32(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ns = tile.splat %n : tensor<1024xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  // CHECK: tile.load {{.*}} -> tensor<1024xf32, #blocked>
  %v = tile.load %xp mask %m : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
  tile.store %xp, %v mask %m : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
  return
}

// -----

// fp16: 8 per thread.
// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @contiguous_f16
func.func @contiguous_f16(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 2048 : i32} : tensor<2048xi32>
  %xs = tile.splat %x : tensor<2048x!tile.ptr<f16>>
  %xp = tile.addptr %xs, %r : tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>
  %v = tile.load %xp : (tensor<2048x!tile.ptr<f16>>) -> tensor<2048xf16>
  tile.store %xp, %v : (tensor<2048x!tile.ptr<f16>>, tensor<2048xf16>) -> ()
  return
}

// -----

// A pointer of unknown alignment: contiguous but only 4-byte aligned, so
// one element per thread.
// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @unaligned
func.func @unaligned(%x: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v = tile.load %xp : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  return
}

// -----

// Strided access (every other element): not contiguous, one per thread.
// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @strided
func.func @strided(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %two = arith.constant dense<2> : tensor<1024xi32>
  %s = arith.muli %r, %two : tensor<1024xi32>
  %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %s : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v = tile.load %xp : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  return
}

// -----

// A tile smaller than the threads: one element per thread, replicated.
// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @small
func.func @small(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tile.splat %x : tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp : (tensor<64x!tile.ptr<f32>>) -> tensor<64xf32>
  return
}

// -----

// Row sums of a [16, 256] tile: the warps split the rows (the dimension the
// reduction keeps), so each row sums within one warp, with shuffles only.
// CHECK: #blocked1 = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @row_sums
func.func @row_sums(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) -> tensor<16xf32> {
  %p = tile.splat %x : tensor<16x256x!tile.ptr<f32>>
  %r = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %b = tile.broadcast %e : tensor<1x256xi32> -> tensor<16x256xi32>
  %xp = tile.addptr %p, %b : tensor<16x256x!tile.ptr<f32>>, tensor<16x256xi32>
  // CHECK: tile.load {{.*}} -> tensor<16x256xf32, #blocked1>
  %v = tile.load %xp : (tensor<16x256x!tile.ptr<f32>>) -> tensor<16x256xf32>
  %s = tile.reduce(%v) axis = 1 : (tensor<16x256xf32>) -> tensor<16xf32> {
  ^bb0(%a: f32, %c: f32):
    %t = arith.addf %a, %c : f32
    tile.reduce.return %t : f32
  }
  return %s : tensor<16xf32>
}

// -----

// The same tile summed down its columns: the warps have no room along the
// columns (the lanes fill them), so they stay on the rows and the sums cross
// warps.
// CHECK: #blocked1 = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: func.func @column_sums
func.func @column_sums(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) -> tensor<256xf32> {
  %p = tile.splat %x : tensor<16x256x!tile.ptr<f32>>
  %r = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %b = tile.broadcast %e : tensor<1x256xi32> -> tensor<16x256xi32>
  %xp = tile.addptr %p, %b : tensor<16x256x!tile.ptr<f32>>, tensor<16x256xi32>
  %v = tile.load %xp : (tensor<16x256x!tile.ptr<f32>>) -> tensor<16x256xf32>
  %s = tile.reduce(%v) axis = 0 : (tensor<16x256xf32>) -> tensor<256xf32> {
  ^bb0(%a: f32, %c: f32):
    %t = arith.addf %a, %c : f32
    tile.reduce.return %t : f32
  }
  return %s : tensor<256xf32>
}
