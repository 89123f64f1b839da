// RUN: tile-opt %s -split-input-file -verify-diagnostics -canonicalize | FileCheck %s
// The blocked layout and convert_layout print and parse back (identical
// layouts fold away); bad layouts are rejected.

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @convert
func.func @convert(%x: tensor<512xf32, #b4>) -> tensor<512xf32, #b1> {
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
  %y = tilegpu.convert_layout %x : tensor<512xf32, #b4> -> tensor<512xf32, #b1>
  return %y : tensor<512xf32, #b1>
}

// -----

// CHECK-LABEL: func.func @convert_folds
func.func @convert_folds(%x: tensor<512xf32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) -> tensor<512xf32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> {
  // CHECK-NOT: convert_layout
  %y = tilegpu.convert_layout %x : tensor<512xf32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<512xf32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  %z = arith.addf %y, %y : tensor<512xf32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  return %z : tensor<512xf32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
}

// -----

// expected-error @+1 {{order must be a permutation of 0..1}}
func.func @bad_order(%x: tensor<4x4xf32, #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 0]}>>) {
  return
}

// -----

// expected-error @+1 {{layout sizes must be powers of two}}
func.func @bad_size(%x: tensor<4xf32, #tilegpu.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  return
}

// -----

// expected-error @+1 {{must all have one entry per dimension}}
func.func @bad_rank(%x: tensor<4xf32, #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  return
}
