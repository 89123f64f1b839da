// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm | FileCheck %s
// dot on wgmma (version 3 accumulator, 4 warps = one warpgroup): a (64x32,
// 64-byte rows) and b (32x64, 128-byte rows) staged in 1024-byte aligned
// scratch, a proxy fence and a barrier, then per K step of 16 one
// wgmma.mma_async.m64n64k16 (32 fp32 accumulators per thread, b N-major)
// between wgmma.fence and the commit; the wait returns the accumulators.
// Then a b stored K-major, and an a read from registers.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bnk = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK: llvm.mlir.global external @tilegpu_shared() {addr_space = 3 : i32, alignment = 1024 : i64}
  // CHECK-LABEL: llvm.func @dot
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK: fence.proxy.async.shared::cta;
  // CHECK: nvvm.barrier0
  // CHECK: wgmma.fence.sync.aligned;
  // CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, $32, $33, p, 1, 1, 0, 1;
  // CHECK: wgmma.commit_group.sync.aligned;
  // CHECK: wgmma.wait_group.sync.aligned 0;
  // CHECK-NOT: wgmma
  func.func @dot(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }

  // A b running along K is stored transposed ([N, K], 16-byte vectors) and
  // read as a K-major b (imm-trans-b 0).
  // CHECK-LABEL: llvm.func @dot_nk
  // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, $32, $33, p, 1, 1, 0, 0;
  func.func @dot_nk(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bnk>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #bnk> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }

  // An a in its dot operand registers (flash attention's p) is read from
  // them: four registers per K step, nothing staged but b.
  // CHECK-LABEL: llvm.func @dot_a_registers
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK: wgmma.fence.sync.aligned;
  // CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;
  // CHECK: wgmma.wait_group.sync.aligned 0;
  func.func @dot_a_registers(%a: tensor<64x32xf16, #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<64x32xf16, #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }

  // A +0.0 accumulator is not read: the first K step runs with scale-d 0
  // (the predicate operand) on undefined accumulators, the second with 1 on
  // the first one's results; no zero is moved into the registers.
  // CHECK-LABEL: llvm.func @dot_zero_acc
  // CHECK: %[[UNDEF:.*]] = llvm.mlir.undef : f32
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[FIRST:.*]] = llvm.inline_asm {{.*}}wgmma.mma_async{{.*}} %{{.*}}, %{{.*}}, %[[ZERO]], %[[UNDEF]], %{{.*}}
  // CHECK: %[[ACC:.*]] = llvm.extractvalue %[[FIRST]][0]
  // CHECK-NOT: %[[ZERO]], %[[ACC]],
  // CHECK: llvm.inline_asm {{.*}}wgmma.mma_async{{.*}} %{{.*}}, %{{.*}}, %{{[0-9]+}}, %[[ACC]], %{{.*}}
  func.func @dot_zero_acc(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #b>) -> tensor<64x64xf32, #mma> attributes {"tilegpu.num-warps" = 4 : i32} {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}
