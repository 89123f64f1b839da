// RUN: tile-opt %s -split-input-file -verify-diagnostics
// The verifiers' errors.

func.func @range_not_power_of_two() {
  // expected-error @+1 {{range length 100 is not a power of two}}
  %r = tile.make_range {start = 0 : i32, end = 100 : i32} : tensor<100xi32>
  return
}

// -----

func.func @range_wrong_size() {
  // expected-error @+1 {{result has 64 elements but the range has 128}}
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<64xi32>
  return
}

// -----

func.func @range_empty() {
  // expected-error @+1 {{end (0) must be greater than start (0)}}
  %r = tile.make_range {start = 0 : i32, end = 0 : i32} : tensor<1xi32>
  return
}

// -----

func.func @load_wrong_result(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{result type 'tensor<16xf16>' does not match the pointee type 'tensor<16xf32>'}}
  %v = tile.load %p : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf16>
  return
}

// -----

func.func @load_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<32xi1>) {
  // expected-error @+1 {{mask type 'tensor<32xi1>' does not have the shape of 'tensor<16x!tile.ptr<f32>>'}}
  %v = tile.load %p mask %m : (tensor<16x!tile.ptr<f32>>, tensor<32xi1>) -> tensor<16xf32>
  return
}

// -----

func.func @load_other_type(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<16xf16>) {
  // expected-error @+1 {{'other' type 'tensor<16xf16>' does not match the result type 'tensor<16xf32>'}}
  %v = tile.load %p mask %m other %o : (tensor<16x!tile.ptr<f32>>, tensor<16xi1>, tensor<16xf16>) -> tensor<16xf32>
  return
}

// -----

func.func @store_value_type(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xi32>) {
  // expected-error @+1 {{value type 'tensor<16xi32>' does not match the pointee type 'tensor<16xf32>'}}
  tile.store %p, %v : (tensor<16x!tile.ptr<f32>>, tensor<16xi32>) -> ()
  return
}

// -----

func.func @addptr_shape(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<32xi32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape}}
  %q = tile.addptr %p, %o : tensor<16x!tile.ptr<f32>>, tensor<32xi32>
  return
}

// -----

func.func @broadcast_bad(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{dimension 2 is neither 1 nor 4}}
  %y = tile.broadcast %x : tensor<2x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @expand_dims_bad(%x: tensor<8xf32>) {
  // expected-error @+1 {{is not 'tensor<8xf32>' with a 1 inserted at axis 1}}
  %y = tile.expand_dims %x {axis = 1 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  return
}

// -----

func.func @program_id_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %p = tile.program_id 3 : i32
  return
}

// -----

#l1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#l4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @scan_result_layout(%x: tensor<64xf32, #l1>) {
  // expected-error @+1 {{result 'tensor<64xf32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' is not of the source's type}}
  %s = "tile.scan"(%x) ({
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.reduce.return %c : f32
  }) {axis = 0 : i32} : (tensor<64xf32, #l1>) -> tensor<64xf32, #l4>
  return
}

// -----

#l1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#l4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @scan_sources_differ(%x: tensor<64xf32, #l1>, %y: tensor<64xi32, #l4>) {
  // expected-error @+1 {{differ in shape or layout}}
  %s:2 = "tile.scan"(%x, %y) ({
  ^bb0(%a: f32, %i: i32, %b: f32, %j: i32):
    tile.reduce.return %a, %i : f32, i32
  }) {axis = 0 : i32} : (tensor<64xf32, #l1>, tensor<64xi32, #l4>) -> (tensor<64xf32, #l1>, tensor<64xi32, #l4>)
  return
}

// -----

#l1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#l4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @reduce_sources_differ(%x: tensor<64xf32, #l1>, %y: tensor<64xi32, #l4>) {
  // expected-error @+1 {{differ in shape or layout}}
  %s:2 = "tile.reduce"(%x, %y) ({
  ^bb0(%a: f32, %i: i32, %b: f32, %j: i32):
    tile.reduce.return %a, %i : f32, i32
  }) {axis = 0 : i32} : (tensor<64xf32, #l1>, tensor<64xi32, #l4>) -> (f32, i32)
  return
}

// -----

func.func @extern_not_libdevice(%x: f32) -> f32 {
  // expected-error @+1 {{symbol 'sinf' is not a libdevice function (__nv_...)}}
  %0 = tile.extern_elementwise "sinf"(%x) : (f32) -> f32
  return %0 : f32
}

// -----

func.func @extern_shapes(%x: tensor<64xf32>, %y: tensor<32xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tile.extern_elementwise "__nv_powf"(%x, %y) : (tensor<64xf32>, tensor<32xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

func.func @histogram_of_2d(%x: tensor<4x8xi32>) -> tensor<16xi32> {
  // expected-error @+1 {{counts a 1-D tile into a 1-D tile of i32}}
  %0 = tile.histogram %x : tensor<4x8xi32> -> tensor<16xi32>
  return %0 : tensor<16xi32>
}

// -----

func.func @histogram_mask(%x: tensor<32xi32>, %m: tensor<16xi1>) -> tensor<16xi32> {
  // expected-error @+1 {{needs a mask of the source's shape}}
  %0 = tile.histogram %x mask %m : tensor<32xi32>, tensor<16xi1> -> tensor<16xi32>
  return %0 : tensor<16xi32>
}

// -----

func.func @tma_without_map(%p: tensor<16x16x!tile.ptr<f16>>, %c: i32) -> tensor<16x16xf16> {
  // expected-error @+1 {{has tensor-map coordinates or parts without a tensor map}}
  %0 = "tile.load"(%p, %c, %c) {operandSegmentSizes = array<i32: 1, 0, 0, 0, 2, 0>} : (tensor<16x16x!tile.ptr<f16>>, i32, i32) -> tensor<16x16xf16>
  return %0 : tensor<16x16xf16>
}

// -----

func.func @tma_parts(%p: tensor<16x16x!tile.ptr<f16>>, %map: !tile.tensormap, %c: i32, %n: i64) -> tensor<16x16xf16> {
  // expected-error @+1 {{needs the descriptor's base, then its 2 shapes and 2 strides (i64)}}
  %0 = tile.load %p tma %map[%c, %c] of(%n, %n) : (tensor<16x16x!tile.ptr<f16>>, !tile.tensormap, i32, i32, i64, i64) -> tensor<16x16xf16>
  return %0 : tensor<16x16xf16>
}

// -----

func.func @make_tensormap_rank(%p: !tile.ptr<f16>, %n: i64) -> !tile.tensormap {
  // expected-error @+1 {{needs 2 shapes, 2 strides and a box of 2 dimensions}}
  %0 = tile.make_tensormap %p[%n] strides[%n] {box = array<i64: 64>, swizzle = 128 : i64} : !tile.ptr<f16>
  return %0 : !tile.tensormap
}

// -----

func.func @make_tensormap_swizzle(%p: !tile.ptr<f16>, %n: i64) -> !tile.tensormap {
  // expected-error @+1 {{swizzle must be 32, 64 or 128 bytes, not 16}}
  %0 = tile.make_tensormap %p[%n, %n] strides[%n, %n] {box = array<i64: 64, 64>, swizzle = 16 : i64} : !tile.ptr<f16>
  return %0 : !tile.tensormap
}

// -----

func.func @make_tensormap_box(%p: !tile.ptr<f16>, %n: i64) -> !tile.tensormap {
  // expected-error @+1 {{box dimensions must be 1 to 256}}
  %0 = tile.make_tensormap %p[%n, %n] strides[%n, %n] {box = array<i64: 512, 64>, swizzle = 128 : i64} : !tile.ptr<f16>
  return %0 : !tile.tensormap
}

// -----

func.func @make_tensormap_element(%p: !tile.ptr<f32>, %n: i64) -> !tile.tensormap {
  // expected-error @+1 {{needs a base pointer to 16-bit elements, not 'f32'}}
  %0 = tile.make_tensormap %p[%n, %n] strides[%n, %n] {box = array<i64: 64, 64>, swizzle = 128 : i64} : !tile.ptr<f32>
  return %0 : !tile.tensormap
}

// -----

func.func @store_tma_parts(%p: tensor<16x16x!tile.ptr<f16>>, %v: tensor<16x16xf16>, %map: !tile.tensormap, %c: i32, %n: i64) {
  // expected-error @+1 {{needs the descriptor's base, then its 2 shapes and 2 strides (i64)}}
  tile.store %p, %v tma %map[%c, %c] of(%n, %n) : (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf16>, !tile.tensormap, i32, i32, i64, i64) -> ()
  return
}
