// RUN: tile-opt %s -tilegpu-occupancy | FileCheck %s
// Kernels get nvvm.minctasm from their register footprint (see
// Analysis/register-footprint.mlir); kernels with a dot or a scan, and
// functions that are not kernels, get nothing.

#b8 = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // 64 + 32 + 16 = 112 registers: two blocks of 256 threads.
  // CHECK-LABEL: func.func @carried
  // CHECK-SAME: nvvm.minctasm = 2 : i32
  func.func @carried(%x: !tile.ptr<f16>, %n: i32) attributes {tile.kernel, "tilegpu.num-warps" = 8 : i32} {
    %c0 = arith.constant 0 : i32
    %step = arith.constant 16384 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16384xf32, #b8>
    %range = tile.make_range {end = 16384 : i32, start = 0 : i32} : tensor<16384xi32, #b8>
    %base = tile.splat %x : tensor<16384x!tile.ptr<f16>, #b8>
    %ptrs = tile.addptr %base, %range : tensor<16384x!tile.ptr<f16>, #b8>, tensor<16384xi32, #b8>
    %sum = scf.for %i = %c0 to %n step %step iter_args(%acc = %zero) -> (tensor<16384xf32, #b8>) : i32 {
      %v = tile.load %ptrs : (tensor<16384x!tile.ptr<f16>, #b8>) -> tensor<16384xf16, #b8>
      %w = arith.extf %v : tensor<16384xf16, #b8> to tensor<16384xf32, #b8>
      %next = arith.addf %acc, %w : tensor<16384xf32, #b8>
      scf.yield %next : tensor<16384xf32, #b8>
    }
    return
  }

  // CHECK-LABEL: func.func @scan
  // CHECK-NOT: nvvm.minctasm
  // CHECK: return
  func.func @scan(%r: tensor<512xf32, #b4>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %c = tile.scan(%r) axis = 0 : (tensor<512xf32, #b4>) -> tensor<512xf32, #b4> {
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      tile.reduce.return %s : f32
    }
    return
  }

  // CHECK-LABEL: func.func @dot
  // CHECK-NOT: nvvm.minctasm
  // CHECK: return
  func.func @dot(%a: tensor<64x32xf32, #a>, %b: tensor<32x64xf32, #a>, %c: tensor<64x64xf32, #a>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<64x32xf32, #a> * tensor<32x64xf32, #a> -> tensor<64x64xf32, #a>
    return
  }

  // CHECK-LABEL: func.func @helper
  // CHECK-NOT: nvvm.minctasm
  // CHECK: return
  func.func @helper(%x: tensor<512xf32, #b4>) attributes {"tilegpu.num-warps" = 4 : i32} {
    return
  }
}
