// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// An integer elementwise result that the axis-info analysis proves constant
// over runs of a thread's consecutive elements is computed once per run: a
// mask `offs < n` over 8 contiguous elements per thread, with n divisible by
// 16, takes one compare per 8 elements. Without that proof every element
// gets its own compare.

#b8 = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @divisible
  // CHECK-COUNT-2: llvm.icmp "slt"
  // CHECK-NOT: llvm.icmp
  // CHECK: llvm.select
  // CHECK: llvm.return
  func.func @divisible(%n: i32 {tile.divisibility = 16 : i32}, %x: tensor<512xf32, #b8>) -> tensor<512xf32, #b8> attributes {tile.kernel, "tilegpu.num-warps" = 1 : i32} {
    %offs = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b8>
    %bound = tile.splat %n : tensor<512xi32, #b8>
    %mask = arith.cmpi slt, %offs, %bound : tensor<512xi32, #b8>
    %zero = arith.constant dense<0.000000e+00> : tensor<512xf32, #b8>
    %y = arith.select %mask, %x, %zero : tensor<512xi1, #b8>, tensor<512xf32, #b8>
    return %y : tensor<512xf32, #b8>
  }

  // CHECK-LABEL: llvm.func @unknown
  // CHECK-COUNT-16: llvm.icmp "slt"
  // CHECK-NOT: llvm.icmp
  // CHECK: llvm.return
  func.func @unknown(%n: i32, %x: tensor<512xf32, #b8>) -> tensor<512xf32, #b8> attributes {tile.kernel, "tilegpu.num-warps" = 1 : i32} {
    %offs = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b8>
    %bound = tile.splat %n : tensor<512xi32, #b8>
    %mask = arith.cmpi slt, %offs, %bound : tensor<512xi32, #b8>
    %zero = arith.constant dense<0.000000e+00> : tensor<512xf32, #b8>
    %y = arith.select %mask, %x, %zero : tensor<512xi1, #b8>, tensor<512xf32, #b8>
    return %y : tensor<512xf32, #b8>
  }
}
