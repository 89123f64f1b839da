// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm | FileCheck %s
// dot on the tensor cores: a (64x32) and b (32x64) staged in swizzled scratch
// with 16-byte stores, one barrier, then per K step of 16 each warp (2x2
// warps, 32x32 each) reads a with two ldmatrix.x4 and b with two
// ldmatrix.x4.trans and issues 2 x 4 mma.sync: 16 in all.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @dot
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK: llvm.getelementptr %{{.*}}[2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
  // CHECK: nvvm.barrier0
  // CHECK-NOT: nvvm.barrier0
  // CHECK-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.shared.b16
  // CHECK-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
  // CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
  // CHECK-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.shared.b16
  // CHECK-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
  // CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
  // CHECK-NOT: mma.sync
  // CHECK: llvm.return %{{.*}} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  func.func @dot(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }

  // Operands converted into their dot operand layouts beforehand: each
  // conversion stages and reads its whole operand (2 K steps), and the dot
  // reads registers only.
  // CHECK-LABEL: llvm.func @registers
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
  // CHECK-NOT: ldmatrix
  // CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
  func.func @registers(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {"tilegpu.num-warps" = 4 : i32} {
    %ra = tilegpu.convert_layout %a : tensor<64x32xf16, #a> -> tensor<64x32xf16, #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %rb = tilegpu.convert_layout %b : tensor<32x64xf16, #b> -> tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tile.dot %ra, %rb, %c : tensor<64x32xf16, #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}
