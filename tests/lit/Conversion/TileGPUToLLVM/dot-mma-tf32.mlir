// RUN: not tile-opt %s -split-input-file -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm 2>/dev/null | FileCheck %s
// RUN: not tile-opt %s -split-input-file -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR
// fp32 operands with input_precision "tf32" arrive in their dot operand
// registers (kWidth 1: one fp32 per register) and run as mma.sync m16n8k8
// on tf32: 32x32x16 on 2x2 warps (16x16 each) is 2 K steps of 1 (M) x 2 (N)
// products per warp, each taking 4 a and 2 b registers; nothing is staged
// by the dot.

#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#db = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @tf32
  // CHECK-NOT: llvm.ptr<3>
  // CHECK-COUNT-4: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
  // CHECK-NOT: mma.sync
  // CHECK: llvm.return
  func.func @tf32(%a: tensor<32x16xf32, #da>, %b: tensor<16x32xf32, #db>, %c: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #mma> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c {input_precision = "tf32"} : tensor<32x16xf32, #da> * tensor<16x32xf32, #db> -> tensor<32x32xf32, #mma>
    return %d : tensor<32x32xf32, #mma>
  }
}

// -----

// Without "tf32" no tensor-core instruction multiplies fp32: an MMA
// accumulator for it is an error, not a silent FMA product.
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#db = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // ERR: error: 'tile.dot' op has an MMA accumulator but no tensor-core instruction multiplies
  func.func @ieee(%a: tensor<32x16xf32, #da>, %b: tensor<16x32xf32, #db>, %c: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #mma> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c {input_precision = "ieee"} : tensor<32x16xf32, #da> * tensor<16x32xf32, #db> -> tensor<32x32xf32, #mma>
    return %d : tensor<32x32xf32, #mma>
  }
}
