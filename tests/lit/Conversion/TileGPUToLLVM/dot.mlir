// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm | FileCheck %s
// dot on the FMA units: a and b staged row-major in scratch, a barrier, then
// a loop over k with one fma per accumulator; fp16 widened to fp32.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @dot
  // a: 32x32 halves; b starts after them (32 * 32 elements in).
  // CHECK: %[[A:.*]] = llvm.mlir.addressof @tilegpu_shared : !llvm.ptr<3>
  // CHECK: %[[B:.*]] = llvm.getelementptr %[[A]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
  // CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.br ^[[LOOP:.*]](%{{.*}} : i32, f32, f32, f32, f32, f32, f32, f32, f32)
  // CHECK: ^[[LOOP]](%[[K:.*]]: i32, %{{.*}}: f32
  // Two distinct rows and four distinct columns per thread.
  // CHECK-COUNT-2: llvm.fpext %{{.*}} : f16 to f32
  // CHECK-COUNT-4: llvm.fpext %{{.*}} : f16 to f32
  // CHECK: %[[NEXT:.*]] = llvm.add %[[K]], %{{.*}} : i32
  // CHECK-COUNT-8: llvm.intr.fma
  // CHECK: %[[MORE:.*]] = llvm.icmp "slt" %[[NEXT]], %{{.*}} : i32
  // CHECK: llvm.cond_br %[[MORE]], ^[[LOOP]](%[[NEXT]], {{.*}}), ^[[DONE:.*]]
  // CHECK: ^[[DONE]]:
  // CHECK: llvm.return %{{.*}} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  func.func @dot(%a: tensor<32x32xf16, #a>, %b: tensor<32x32xf16, #a>, %c: tensor<32x32xf32, #c>) -> tensor<32x32xf32, #c> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<32x32xf16, #a> * tensor<32x32xf16, #a> -> tensor<32x32xf32, #c>
    return %d : tensor<32x32xf32, #c>
  }
}
