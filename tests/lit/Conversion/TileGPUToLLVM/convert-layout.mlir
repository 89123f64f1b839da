// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// convert_layout, trans and reshape go through the op's shared-memory
// scratch: each thread stores its elements at their row-major position in
// the result, a barrier, then each thread loads what the result layout gives
// it, in vectors of up to 16 bytes where its registers are consecutive slots.
// Where one side walks down the result's columns (the column-major result
// here, the transpose), the positions are XOR-swizzled within rows; the
// reshape, row-major on both sides, is not swizzled.

#rows = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#cols = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>
#flat = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK: llvm.mlir.global external @tilegpu_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  // CHECK-LABEL: llvm.func @convert
  func.func @convert(%x: tensor<32x32xf32, #rows>) -> tensor<32x32xf32, #cols> attributes {"tilegpu.num-warps" = 1 : i32} {
    // 32 elements per thread in and out: rows of 4 consecutive elements go
    // out as 8 16-byte stores; the column-major result reads element by
    // element.
    // CHECK: llvm.mlir.addressof @tilegpu_shared : !llvm.ptr<3>
    // CHECK: llvm.xor
    // CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
    // CHECK-NOT: llvm.store
    // CHECK: nvvm.barrier
    // CHECK-COUNT-32: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
    // CHECK-NOT: nvvm.barrier
    // CHECK: llvm.return
    %y = tilegpu.convert_layout %x {tilegpu.scratch_offset = 0 : i64} : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #cols>
    return %y : tensor<32x32xf32, #cols>
  }
  // The transposed element (i, j) goes to position j * 32 + i; the scratch
  // buffer starts at the op's offset.
  // CHECK-LABEL: llvm.func @trans
  func.func @trans(%x: tensor<32x32xi1, #rows>) -> tensor<32x32xi1, #rows> attributes {"tilegpu.num-warps" = 1 : i32} {
    // CHECK: llvm.getelementptr %{{.*}}[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    // CHECK: llvm.zext %{{.*}} : i1 to i8
    // CHECK: llvm.xor
    // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
    // CHECK: nvvm.barrier
    // CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> vector<4xi8>
    // CHECK: llvm.trunc %{{.*}} : i8 to i1
    %y = tile.trans %x {order = array<i32: 1, 0>, tilegpu.scratch_offset = 1024 : i64} : tensor<32x32xi1, #rows> -> tensor<32x32xi1, #rows>
    return %y : tensor<32x32xi1, #rows>
  }
  // CHECK-LABEL: llvm.func @reshape
  func.func @reshape(%x: tensor<32x32xf16, #rows>) -> tensor<1024xf16, #flat> attributes {"tilegpu.num-warps" = 1 : i32} {
    // CHECK-NOT: llvm.xor
    // CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
    // CHECK: nvvm.barrier
    // CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<4xf16>
    // CHECK-NOT: llvm.xor
    // CHECK: llvm.return
    %y = tile.reshape %x {tilegpu.scratch_offset = 0 : i64} : tensor<32x32xf16, #rows> -> tensor<1024xf16, #flat>
    return %y : tensor<1024xf16, #flat>
  }
}

// An mma.sync accumulator with every warp along M into the a operand of the
// same MMA layout moves nothing: no scratch, no shared-memory access.
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#dota = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @mma_to_a
  // CHECK-NOT: llvm.ptr<3>
  // CHECK-NOT: barrier
  // CHECK: llvm.return %{{.*}} : !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16)>
  func.func @mma_to_a(%x: tensor<64x32xf16, #mma>) -> tensor<64x32xf16, #dota> attributes {"tilegpu.num-warps" = 4 : i32} {
    %y = tilegpu.convert_layout %x : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #dota>
    return %y : tensor<64x32xf16, #dota>
  }
}
