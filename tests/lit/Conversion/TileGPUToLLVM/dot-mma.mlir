// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm | FileCheck %s
// dot on the tensor cores: a (64x32) and b (32x64) staged in swizzled scratch
// with 16-byte stores, one barrier, then per K step of 16 each warp (2x2
// warps, 32x32 each) reads a with two ldmatrix.x4 and b with two
// ldmatrix.x4.trans and issues 2 x 4 mma.sync: 16 in all. A b running along
// K is stored transposed and read with ldmatrix.x4.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bnk = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#bnk1 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
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

  // b running along K (order [0, 1]) is stored transposed, [N, K]: its
  // runs of 8 along K are 16-byte stores too, and plain ldmatrix.x4 reads
  // it.
  // CHECK-LABEL: llvm.func @dot_nk
  // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK: nvvm.barrier0
  // CHECK-NOT: .trans
  // CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
  // CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
  // CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
  // CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
  // CHECK-NOT: .trans
  // CHECK: llvm.return
  func.func @dot_nk(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bnk>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #bnk> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }

  // One element per thread along K: stored transposed one element at a
  // time (16 per thread), still read without .trans.
  // CHECK-LABEL: llvm.func @dot_nk_scalar
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-NOT: .trans
  // CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
  // CHECK-NOT: .trans
  // CHECK: llvm.return
  func.func @dot_nk_scalar(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bnk1>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #bnk1> -> tensor<64x64xf32, #mma>
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
