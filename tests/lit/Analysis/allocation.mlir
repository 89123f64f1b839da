// RUN: tile-opt %s -test-print-allocation -split-input-file -verify-diagnostics -o /dev/null
// Scratch sizes of every op that needs shared memory (rounded up to 16
// bytes), lifetimes over the pre-order numbering of the function's ops, and
// offsets: scratch buffers live only during their op, so they all share
// offset 0 and the total is the largest.

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-remark @+1 {{shared bytes = 2048}}
func.func @sizes(%x: tensor<16x32xf32>, %r: tensor<512xf32>, %a: tensor<16x8xf16>, %b: tensor<8x32xf16>, %p: !tile.ptr<f32>, %m: tensor<512xi1, #b4>) attributes {"tilegpu.num-warps" = 4 : i32} {
  // 16 results * 4 bytes * 4 warps.
  // expected-remark @+1 {{scratch offset = 0, bytes = 256, lifetime = [1, 1]}}
  %s = tile.reduce(%x) axis = 1 : (tensor<16x32xf32>) -> tensor<16xf32> {
  ^bb0(%l: f32, %rr: f32):
    %sum = arith.addf %l, %rr : f32
    tile.reduce.return %sum : f32
  }
  // A scalar result: 1 * 4 bytes * 4 warps.
  // expected-remark @+1 {{scratch offset = 0, bytes = 16, lifetime = [4, 4]}}
  %all = tile.reduce(%r) axis = 0 : (tensor<512xf32>) -> f32 {
  ^bb0(%l: f32, %rr: f32):
    %mx = arith.maximumf %l, %rr : f32
    tile.reduce.return %mx : f32
  }
  // Two sources (argmax): each source's elements times its warps.
  // expected-remark @+1 {{scratch offset = 0, bytes = 32, lifetime = [7, 7]}}
  %v, %i = tile.reduce(%r, %r) axis = 0 : (tensor<512xf32>, tensor<512xf32>) -> (f32, f32) {
  ^bb0(%l: f32, %li: f32, %rr: f32, %ri: f32):
    tile.reduce.return %l, %li : f32, f32
  }
  // expected-remark @+1 {{scratch offset = 0, bytes = 2048, lifetime = [9, 9]}}
  %c = tile.scan(%r) axis = 0 : (tensor<512xf32>) -> tensor<512xf32> {
  ^bb0(%l: f32, %rr: f32):
    %sum = arith.addf %l, %rr : f32
    tile.reduce.return %sum : f32
  }
  %acc = arith.constant dense<0.0> : tensor<16x32xf32>
  // (16*8 + 8*32) * 2 bytes.
  // expected-remark @+1 {{scratch offset = 0, bytes = 768, lifetime = [13, 13]}}
  %d = tile.dot %a, %b, %acc : tensor<16x8xf16> * tensor<8x32xf16> -> tensor<16x32xf32>
  // expected-remark @+1 {{scratch offset = 0, bytes = 2048, lifetime = [14, 14]}}
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  // expected-remark @+1 {{scratch offset = 0, bytes = 2048, lifetime = [15, 15]}}
  %re = tile.reshape %x : tensor<16x32xf32> -> tensor<512xf32>
  // A scalar atomic broadcasts its old value (used below): 8 bytes, rounded
  // to 16.
  // expected-remark @+1 {{scratch offset = 0, bytes = 16, lifetime = [16, 16]}}
  %cas = tile.atomic_cas %p, %all, %all : (!tile.ptr<f32>, f32, f32) -> f32
  // A tile atomic needs none when no thread holds a replica (or its old
  // values are unused).
  %ps = tile.splat %p : tensor<512x!tile.ptr<f32>>
  %old = tile.atomic_rmw add %ps, %r : (tensor<512x!tile.ptr<f32>>, tensor<512xf32>) -> tensor<512xf32>
  // i1 elements take a byte.
  // expected-remark @+1 {{scratch offset = 0, bytes = 512, lifetime = [19, 19]}}
  %mc = tilegpu.convert_layout %m : tensor<512xi1, #b4> -> tensor<512xi1, #b1>
  tile.store %p, %cas : (!tile.ptr<f32>, f32) -> ()
  return
}

// -----

// Buffers inside a loop still live only during their op; a function with
// no scratch needs no shared memory.
#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-remark @+1 {{shared bytes = 1024}}
func.func @loop(%x: tensor<256xf32, #b4>, %n: index) attributes {"tilegpu.num-warps" = 2 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<256xf32, #b4>) {
    // expected-remark @+1 {{scratch offset = 0, bytes = 1024, lifetime = [4, 4]}}
    %y = tilegpu.convert_layout %acc : tensor<256xf32, #b4> -> tensor<256xf32, #b1>
    // expected-remark @+1 {{scratch offset = 0, bytes = 1024, lifetime = [5, 5]}}
    %z = tilegpu.convert_layout %y : tensor<256xf32, #b1> -> tensor<256xf32, #b4>
    scf.yield %z : tensor<256xf32, #b4>
  }
  return
}

// -----

// expected-remark @+1 {{shared bytes = 0}}
func.func @none(%x: tensor<256xf32>) {
  %y = arith.addf %x, %x : tensor<256xf32>
  return
}

// -----

// A reduction whose axis no two warps split combines within warps and needs
// no scratch; one whose axis the warps split does.
#rows = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-remark @+1 {{shared bytes = 512}}
func.func @warps(%x: tensor<16x32xf32, #rows>) attributes {"tilegpu.num-warps" = 4 : i32} {
  // Axis 1: 4 per thread * 8 lanes cover the 32 columns in one warp.
  %r = tile.reduce(%x) axis = 1 : (tensor<16x32xf32, #rows>) -> tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #rows}>> {
  ^bb0(%l: f32, %rr: f32):
    %sum = arith.addf %l, %rr : f32
    tile.reduce.return %sum : f32
  }
  // Axis 0: 4 lanes * 4 warps split the 16 rows: 32 results * 4 bytes *
  // 4 warps.
  // expected-remark @+1 {{scratch offset = 0, bytes = 512, lifetime}}
  %c = tile.reduce(%x) axis = 0 : (tensor<16x32xf32, #rows>) -> tensor<32xf32, #tilegpu.slice<{dim = 0, parent = #rows}>> {
  ^bb0(%l: f32, %rr: f32):
    %sum = arith.addf %l, %rr : f32
    tile.reduce.return %sum : f32
  }
  return
}
