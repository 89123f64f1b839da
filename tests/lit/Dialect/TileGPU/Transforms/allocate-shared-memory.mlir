// RUN: tile-opt %s -tilegpu-allocate-shared-memory -split-input-file | FileCheck %s
// Offsets and totals are recorded; a barrier goes before each scratch op
// whose bytes an earlier one may still be reading (not before the first,
// not after an existing barrier, always inside loops).

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @straight
// CHECK-SAME: tilegpu.shared_bytes = 2048 : i64
func.func @straight(%x: tensor<512xf32, #b4>) -> (f32, tensor<512xf32, #b4>) attributes {"tilegpu.num-warps" = 4 : i32} {
  // CHECK-NEXT: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 0 : i64}
  %y = tilegpu.convert_layout %x : tensor<512xf32, #b4> -> tensor<512xf32, #b1>
  // CHECK-NEXT: tile.barrier
  // CHECK-NEXT: tile.reduce
  // CHECK-SAME: tilegpu.scratch_offset = 0 : i64
  // CHECK: tile.reduce.return
  // CHECK-NEXT: }
  %s = tile.reduce(%y) axis = 0 : (tensor<512xf32, #b1>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %sum = arith.addf %l, %r : f32
    tile.reduce.return %sum : f32
  }
  // Elementwise work between scratch ops needs no barrier of its own.
  // CHECK-NEXT: arith.addf
  %z = arith.addf %y, %y : tensor<512xf32, #b1>
  // CHECK-NEXT: tile.barrier
  // CHECK-NEXT: tilegpu.convert_layout
  %w = tilegpu.convert_layout %z : tensor<512xf32, #b1> -> tensor<512xf32, #b4>
  // An existing barrier is enough.
  // CHECK-NEXT: tile.barrier
  // CHECK-NEXT: tilegpu.convert_layout
  tile.barrier
  %v = tilegpu.convert_layout %w : tensor<512xf32, #b4> -> tensor<512xf32, #b1>
  // CHECK-NEXT: return
  return %s, %w : f32, tensor<512xf32, #b4>
}

// -----

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A loop's only scratch op reuses its own bytes of the previous iteration.
// CHECK-LABEL: func.func @loop
// CHECK-SAME: tilegpu.shared_bytes = 1024 : i64
func.func @loop(%x: tensor<256xf32, #b4>, %n: index) -> tensor<256xf32, #b4> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: scf.for
  %r = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<256xf32, #b4>) {
    // CHECK-NEXT: tile.barrier
    // CHECK-NEXT: tilegpu.convert_layout
    %y = tilegpu.convert_layout %acc : tensor<256xf32, #b4> -> tensor<256xf32, #b1>
    %e = math.exp %y : tensor<256xf32, #b1>
    // CHECK-NEXT: math.exp
    // CHECK-NEXT: tile.barrier
    // CHECK-NEXT: tilegpu.convert_layout
    %z = tilegpu.convert_layout %e : tensor<256xf32, #b1> -> tensor<256xf32, #b4>
    scf.yield %z : tensor<256xf32, #b4>
  }
  // After the loop, the last iteration's op may still be reading.
  // CHECK: tile.barrier
  // CHECK-NEXT: tilegpu.convert_layout
  %u = tilegpu.convert_layout %r : tensor<256xf32, #b4> -> tensor<256xf32, #b1>
  %v = tilegpu.convert_layout %u : tensor<256xf32, #b1> -> tensor<256xf32, #b4>
  return %v : tensor<256xf32, #b4>
}

// -----

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// Each branch of an if starts from what was pending before it; the first
// scratch op of the function needs no barrier even inside a branch.
// CHECK-LABEL: func.func @branches
func.func @branches(%x: tensor<256xf32, #b4>, %c: i1) -> tensor<256xf32, #b1> {
  // CHECK: scf.if
  // CHECK-NEXT: tilegpu.convert_layout
  // CHECK: else
  // CHECK-NEXT: math.exp
  // CHECK-NEXT: tilegpu.convert_layout
  %r = scf.if %c -> tensor<256xf32, #b1> {
    %y = tilegpu.convert_layout %x : tensor<256xf32, #b4> -> tensor<256xf32, #b1>
    scf.yield %y : tensor<256xf32, #b1>
  } else {
    %e = math.exp %x : tensor<256xf32, #b4>
    %y = tilegpu.convert_layout %e : tensor<256xf32, #b4> -> tensor<256xf32, #b1>
    scf.yield %y : tensor<256xf32, #b1>
  }
  // CHECK: tile.barrier
  // CHECK-NEXT: tilegpu.convert_layout
  %z = tilegpu.convert_layout %r : tensor<256xf32, #b1> -> tensor<256xf32, #b4>
  %w = tilegpu.convert_layout %z : tensor<256xf32, #b4> -> tensor<256xf32, #b1>
  return %w : tensor<256xf32, #b1>
}

// -----

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// Nested loops and a while loop: the inner loop's only scratch op follows
// itself across both loops' iterations; an existing barrier at the top of a
// loop body covers the scratch op after it; the while loop's body repeats.
// CHECK-LABEL: func.func @nested
func.func @nested(%x: tensor<256xf32, #b4>, %n: index, %c: i1) -> tensor<256xf32, #b4> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: scf.for
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: tile.barrier
  // CHECK-NEXT: tilegpu.convert_layout
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %y = tilegpu.convert_layout %x : tensor<256xf32, #b4> -> tensor<256xf32, #b1>
    }
  }
  // CHECK: scf.for
  // CHECK-NEXT: tile.barrier
  // CHECK-NEXT: tilegpu.convert_layout
  // CHECK-NEXT: {{^ *}}}
  scf.for %i = %c0 to %n step %c1 {
    tile.barrier
    %y = tilegpu.convert_layout %x : tensor<256xf32, #b4> -> tensor<256xf32, #b1>
  }
  // CHECK: scf.while
  // CHECK: scf.condition
  // CHECK: do
  // CHECK: tile.barrier
  // CHECK-NEXT: tilegpu.convert_layout
  %w = scf.while (%a = %x) : (tensor<256xf32, #b4>) -> tensor<256xf32, #b4> {
    scf.condition(%c) %a : tensor<256xf32, #b4>
  } do {
  ^bb0(%a: tensor<256xf32, #b4>):
    %y = tilegpu.convert_layout %a : tensor<256xf32, #b4> -> tensor<256xf32, #b1>
    %z = tilegpu.convert_layout %y : tensor<256xf32, #b1> -> tensor<256xf32, #b4>
    scf.yield %z : tensor<256xf32, #b4>
  }
  return %w : tensor<256xf32, #b4>
}

// -----

// Slots (tilegpu.local_alloc) live from the alloc through the loop that uses
// them and start on a 1024-byte boundary (wgmma's swizzle atom): placed
// after the larger 40000-byte conversion live in the same loop, they start
// at 40960, not 40000. The conversion after the loop reuses offset 0 after
// a barrier.
#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dot = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
// CHECK-LABEL: func.func @slots
// CHECK-SAME: tilegpu.shared_bytes = 65536 : i64
func.func @slots(%x: tensor<10000xf32, #b4>, %n: index) -> tensor<10000xf32, #b1> attributes {"tilegpu.num-warps" = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  // CHECK: tilegpu.local_alloc {tilegpu.scratch_offset = 40960 : i64}
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<[3, 64, 64], f16, #s>
  scf.for %i = %c0 to %n step %c1 {
    // CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 0 : i64}
    %y = tilegpu.convert_layout %x : tensor<10000xf32, #b4> -> tensor<10000xf32, #b1>
    tilegpu.async_wait 0
    %t = tilegpu.local_load %buf[%c0_i32] : !tilegpu.memdesc<[3, 64, 64], f16, #s> -> tensor<64x64xf16, #dot>
    scf.yield
  }
  // CHECK: tile.barrier
  // CHECK-NEXT: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 0 : i64}
  %z = tilegpu.convert_layout %x : tensor<10000xf32, #b4> -> tensor<10000xf32, #b1>
  return %z : tensor<10000xf32, #b1>
}
