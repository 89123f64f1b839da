// RUN: tile-opt %s -test-print-axis-info -split-input-file -verify-diagnostics -o /dev/null
// Contiguity, divisibility and constancy of the values of a vector-add
// kernel, and of comparisons whose bound's divisibility is known or not.

func.func @offsets(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id 0 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [1024], constancy = [1]}}
  %c1024 = arith.constant 1024 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [1024], constancy = [1]}}
  %base = arith.muli %pid, %c1024 : i32
  // expected-remark @+1 {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1024], constancy = [1024]}}
  %bs = tile.splat %base : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = [1024], divisibility = [1024], constancy = [1]}}
  %offs = arith.addi %bs, %range : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1024]}}
  %ns = tile.splat %n : tensor<1024xi32>
  // A bound of unknown divisibility: the mask may change at any element.
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>>
  // Pointer divisibility counts bytes: 16-byte base, 4-byte elements.
  // expected-remark @+1 {{contiguity = [1024], divisibility = [16], constancy = [1]}}
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  return
}

// -----

func.func @aligned_bound(%n: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @+1 {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %range = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %ns = tile.splat %n : tensor<256xi32>
  // A bound divisible by 16: the mask is constant over runs of 16.
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %range, %ns : tensor<256xi32>
  // A range starting at 3: contiguous, but its runs start unaligned.
  // expected-remark @+1 {{contiguity = [256], divisibility = [1], constancy = [1]}}
  %off = tile.make_range {start = 3 : i32, end = 259 : i32} : tensor<256xi32>
  return
}

// -----

// `rows[:, None] * n` with n of unknown divisibility: the rows' runs start at
// multiples of 16, but along the new axis every element stands alone, so
// nothing is known of the row offsets (a 2-D store must not be vectorized).
func.func @expand_dims_of_a_range(%n: i32) {
  // expected-remark @+1 {{contiguity = [16], divisibility = [1073741824], constancy = [1]}}
  %rows = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  // expected-remark @+1 {{contiguity = [16, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %col = tile.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  // expected-remark @+1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [16, 1]}}
  %ns = tile.splat %n : tensor<16x1xi32>
  // expected-remark @+1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1]}}
  %offs = arith.muli %col, %ns : tensor<16x1xi32>
  return
}

// -----

// Divisibility saturates: 0 and INT64_MIN are multiples of every power of
// two up to the maximum (no signed overflow computing 2^63).
func.func @extremes() {
  // expected-remark @+1 {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %min = arith.constant -9223372036854775808 : i64
  // expected-remark @+1 {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %zero = arith.constant 0 : i64
  // expected-remark @+1 {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %sum = arith.addi %min, %zero : i64
  return
}

// -----

// Triton's tutorials wrap offsets with `% M`: with M divisible by 16 the
// result stays contiguous over runs of 16 (with M unknown, not at all).
func.func @wrapped_offsets(%m: i32 {tile.divisibility = 16 : i32}, %u: i32) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id 0 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [256], constancy = [1]}}
  %c256 = arith.constant 256 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [256], constancy = [1]}}
  %base = arith.muli %pid, %c256 : i32
  // expected-remark @+1 {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %range = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [256], constancy = [256]}}
  %bs = tile.splat %base : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [256], divisibility = [256], constancy = [1]}}
  %offs = arith.addi %bs, %range : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %ms = tile.splat %m : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %wrapped = arith.remsi %offs, %ms : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [256]}}
  %us = tile.splat %u : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %unknown = arith.remui %offs, %us : tensor<256xi32>
  return
}

// -----

// Inline PTX: a pure statement repeats where its operands repeat; an impure
// one (an atomic's old value) may differ at every element, and so may a
// packed one (reversing the bytes of a pack).
func.func @inline_asm(%p: i64, %b: i8) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [64]}}
  %ps = tile.splat %p : tensor<64xi64>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [64]}}
  %pure = tile.inline_asm "mov.b64 $0, $1;" (%ps) {constraints = "=l,l", pure = true, pack = 1 : i32} : (tensor<64xi64>) -> tensor<64xi64>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %old = tile.inline_asm "atom.global.add.u64 $0, [$1], 1;" (%ps) {constraints = "=l,l", pure = false, pack = 1 : i32} : (tensor<64xi64>) -> tensor<64xi64>
  %bytes = tile.splat %b : tensor<64xi8>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [64]}}
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %packed = tile.inline_asm "prmt.b32 $0, $1, 0, 0x0123;" (%bytes) {constraints = "=r,r", pure = true, pack = 4 : i32} : (tensor<64xi8>) -> tensor<64xi8>
  return
}
