// RUN: tile-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// Shared-memory slots and the asynchronous copies into them print and parse
// back; wrong shapes, element types, copy widths, copy directions, result
// layouts and shared orders are rejected.

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dot = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
// CHECK-LABEL: func.func @slots
func.func @slots(%p: tensor<64x32x!tile.ptr<f16>, #b>, %m: tensor<64x32xi1, #b>, %slot: i32) -> tensor<64x32xf16, #dot> {
  // CHECK: %[[BUF:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<[3, 64, 32], f16, #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>>
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<[3, 64, 32], f16, #s>
  // CHECK: tilegpu.async_copy %{{.*}}, %[[BUF]][%{{.*}}] mask %{{.*}} {vec = 8 : i32}
  tilegpu.async_copy %p, %buf[%slot] mask %m {vec = 8 : i32} : tensor<64x32x!tile.ptr<f16>, #b>, !tilegpu.memdesc<[3, 64, 32], f16, #s>, tensor<64x32xi1, #b>
  // CHECK: tilegpu.async_copy %{{.*}}, %[[BUF]][%{{.*}}] {vec = 2 : i32}
  tilegpu.async_copy %p, %buf[%slot] {vec = 2 : i32} : tensor<64x32x!tile.ptr<f16>, #b>, !tilegpu.memdesc<[3, 64, 32], f16, #s>
  // CHECK: tilegpu.async_commit_group
  tilegpu.async_commit_group
  // CHECK: tilegpu.async_wait 1
  tilegpu.async_wait 1
  // CHECK: tilegpu.local_load %[[BUF]][%{{.*}}]
  %t = tilegpu.local_load %buf[%slot] : !tilegpu.memdesc<[3, 64, 32], f16, #s> -> tensor<64x32xf16, #dot>
  return %t : tensor<64x32xf16, #dot>
}

// -----

#s = #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// expected-error @+1 {{memdesc holds 2-D tiles: expected [slots, rows, columns], got 2 dimensions}}
func.func @flat(%x: !tilegpu.memdesc<[64, 32], f16, #s>) {
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{memdesc needs a shared-memory encoding}}
func.func @not_shared(%x: !tilegpu.memdesc<[2, 64, 32], f16, #b>) {
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
func.func @copy_shape(%p: tensor<64x32x!tile.ptr<f16>, #b>, %buf: !tilegpu.memdesc<[3, 32, 64], f16, #s>, %slot: i32) {
  // expected-error @+1 {{'tilegpu.async_copy' op copies 'tensor<64x32x!tile.ptr<f16>, #tilegpu.blocked}}
  tilegpu.async_copy %p, %buf[%slot] {vec = 8 : i32} : tensor<64x32x!tile.ptr<f16>, #b>, !tilegpu.memdesc<[3, 32, 64], f16, #s>
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
func.func @copy_width(%p: tensor<64x32x!tile.ptr<f16>, #b>, %buf: !tilegpu.memdesc<[3, 64, 32], f16, #s>, %slot: i32) {
  // expected-error @+1 {{copies vectors of 2 bytes; cp.async moves 4, 8 or 16}}
  tilegpu.async_copy %p, %buf[%slot] {vec = 1 : i32} : tensor<64x32x!tile.ptr<f16>, #b>, !tilegpu.memdesc<[3, 64, 32], f16, #s>
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
func.func @load_layout(%buf: !tilegpu.memdesc<[3, 64, 32], f16, #s>, %slot: i32) {
  // expected-error @+1 {{reads 16-bit tensor-core operands only}}
  %t = tilegpu.local_load %buf[%slot] : !tilegpu.memdesc<[3, 64, 32], f16, #s> -> tensor<64x32xf16, #b>
  return
}

// -----

#bt = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#s = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @copy_direction(%p: tensor<32x64x!tile.ptr<f16>, #bt>, %buf: !tilegpu.memdesc<[3, 32, 64], f16, #s>, %slot: i32) {
  // expected-error @+1 {{copies vectors along dimension 0 of the slot into slots whose rows run along dimension 1}}
  tilegpu.async_copy %p, %buf[%slot] {vec = 8 : i32} : tensor<32x64x!tile.ptr<f16>, #bt>, !tilegpu.memdesc<[3, 32, 64], f16, #s>
  return
}

// -----

// expected-error @+2 {{order is [1, 0] (row-major) or [0, 1] (transposed)}}
// expected-error @+1 {{failed to parse TileGPU_MemDescType parameter 'encoding'}}
func.func @shared_order(%x: !tilegpu.memdesc<[2, 64, 32], f16, #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0]}>>) {
  return
}

// -----

// A descriptor's store through one slot: local_store writes the tile, and
// tma_store stores the slot with the tensor memory accelerator.
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#s = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: func.func @store_slot
func.func @store_slot(%t: tensor<64x64xf16, #mma>, %map: !tile.tensormap, %x: i32, %y: i32) {
  // CHECK: %[[BUF:.*]] = tilegpu.local_alloc
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<[1, 64, 64], f16, #s>
  %slot = arith.constant 0 : i32
  // CHECK: tilegpu.local_store %{{.*}}, %[[BUF]][%{{.*}}] : tensor<64x64xf16, #tilegpu.mma
  tilegpu.local_store %t, %buf[%slot] : tensor<64x64xf16, #mma>, !tilegpu.memdesc<[1, 64, 64], f16, #s>
  // CHECK: tilegpu.tma_store %[[BUF]][%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}] : !tilegpu.memdesc<[1, 64, 64], f16, {{.*}}>, !tile.tensormap
  tilegpu.tma_store %buf[%slot], %map[%x, %y] : !tilegpu.memdesc<[1, 64, 64], f16, #s>, !tile.tensormap
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @local_store_shape(%t: tensor<64x32xf16, #b>, %buf: !tilegpu.memdesc<[1, 32, 64], f16, #s>, %slot: i32) {
  // expected-error @+1 {{'tilegpu.local_store' op writes 'tensor<64x32xf16, #tilegpu.blocked}}
  tilegpu.local_store %t, %buf[%slot] : tensor<64x32xf16, #b>, !tilegpu.memdesc<[1, 32, 64], f16, #s>
  return
}

// -----

#s = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @tma_store_coords(%buf: !tilegpu.memdesc<[1, 32, 64], f16, #s>, %slot: i32, %map: !tile.tensormap, %x: i32) {
  // expected-error @+1 {{has 1 coordinates for a 2-D slot}}
  tilegpu.tma_store %buf[%slot], %map[%x] : !tilegpu.memdesc<[1, 32, 64], f16, #s>, !tile.tensormap
  return
}
