// RUN: tile-opt %s -split-input-file -tilegpu-accelerate-dot=target=sm_90 | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-accelerate-dot=target=sm_75 | FileCheck %s --check-prefix=OLD
// RUN: tile-opt %s -split-input-file -tilegpu-accelerate-dot=target=sm_90a | FileCheck %s --check-prefix=WGMMA
// fp16/bf16 dots get an MMA accumulator (warps doubled along the dimension
// with more elements per warp, M on ties), the accumulator converted in and
// the result converted back; operands keep their layouts (but see
// @chained). fp32 dots in full precision ("ieee"), and every dot below
// sm_80, stay as they are. On sm_90a, dots whose warps can
// form whole warpgroups along M with 64 rows each (and whose operand tiles
// are whole 1024-byte swizzle atoms) get a version 3 (wgmma) accumulator
// with every warp along M; others keep mma.sync.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: func.func @square
  // CHECK: %[[C:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
  // CHECK: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[C]] : tensor<64x32xf16, #blocked> * tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
  // CHECK: %[[R:.*]] = tilegpu.convert_layout %[[D]] : {{.*}} -> tensor<64x64xf32, #blocked1>
  // CHECK: return %[[R]]
  // OLD-LABEL: func.func @square
  // OLD-NOT: mma
  // WGMMA-LABEL: func.func @square
  // WGMMA: tile.dot {{.*}} -> tensor<64x64xf32, #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>
  func.func @square(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #a>, %c: tensor<64x64xf32, #c>) -> tensor<64x64xf32, #c> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #a> -> tensor<64x64xf32, #c>
    return %d : tensor<64x64xf32, #c>
  }
}

// -----

// 8 warps on a tall 128x16 bf16 result all go along M, which has more
// elements per warp at every doubling.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: func.func @tall
  // CHECK: tile.dot {{.*}} -> tensor<128x16xf32, #tilegpu.mma<{version = 2, warpsPerCTA = [8, 1], instrShape = [16, 8]}>>
  // b (32x16 bf16) is 1 KB: a whole atom, so wgmma.
  // WGMMA-LABEL: func.func @tall
  // WGMMA: tile.dot {{.*}} -> tensor<128x16xf32, #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 8]}>>
  func.func @tall(%a: tensor<128x32xbf16, #a>, %b: tensor<32x16xbf16, #a>, %c: tensor<128x16xf32, #c>) -> tensor<128x16xf32, #c> attributes {"tilegpu.num-warps" = 8 : i32} {
    %d = tile.dot %a, %b, %c : tensor<128x32xbf16, #a> * tensor<32x16xbf16, #a> -> tensor<128x16xf32, #c>
    return %d : tensor<128x16xf32, #c>
  }
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: func.func @fp32
  // CHECK-NOT: mma
  // CHECK: tile.dot %{{.*}} -> tensor<32x32xf32, #blocked>
  func.func @fp32(%a: tensor<32x32xf32, #a>, %b: tensor<32x32xf32, #a>, %c: tensor<32x32xf32, #a>) -> tensor<32x32xf32, #a> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c {input_precision = "ieee"} : tensor<32x32xf32, #a> * tensor<32x32xf32, #a> -> tensor<32x32xf32, #a>
    return %d : tensor<32x32xf32, #a>
  }
  // fp32 with input_precision "tf32": mma.sync (also on sm_90a), both
  // operands converted to registers of one fp32 each (kWidth 1).
  // CHECK-LABEL: func.func @tf32
  // CHECK: tilegpu.convert_layout %{{.*}} -> tensor<32x32xf32, #tilegpu.dot_op<{opIdx = 0, parent = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 1}>>
  // CHECK: tilegpu.convert_layout %{{.*}} -> tensor<32x32xf32, #tilegpu.dot_op<{opIdx = 1, parent = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 1}>>
  // CHECK: tile.dot {{.*}} {input_precision = "tf32"} {{.*}} -> tensor<32x32xf32, #tilegpu.mma<{version = 2
  // WGMMA-LABEL: func.func @tf32
  // WGMMA: tile.dot {{.*}} -> tensor<32x32xf32, #tilegpu.mma<{version = 2
  // OLD-LABEL: func.func @tf32
  // OLD-NOT: mma
  func.func @tf32(%a: tensor<32x32xf32, #a>, %b: tensor<32x32xf32, #a>, %c: tensor<32x32xf32, #a>) -> tensor<32x32xf32, #a> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c {input_precision = "tf32"} : tensor<32x32xf32, #a> * tensor<32x32xf32, #a> -> tensor<32x32xf32, #a>
    return %d : tensor<32x32xf32, #a>
  }
}

// -----

// 32 rows cannot give 4 warps a warpgroup's 64: mma.sync, even on sm_90a.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: func.func @short
  // WGMMA-LABEL: func.func @short
  // WGMMA: tile.dot {{.*}} -> tensor<32x32xf32, #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
  func.func @short(%a: tensor<32x32xf16, #a>, %b: tensor<32x32xf16, #a>, %c: tensor<32x32xf32, #a>) -> tensor<32x32xf32, #a> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<32x32xf16, #a> * tensor<32x32xf16, #a> -> tensor<32x32xf32, #a>
    return %d : tensor<32x32xf32, #a>
  }
}

// -----

// Two chained dots (the product of the first reaches the a operand of the
// second) keep every warp along M, where chooseWarps would split 128x64 as
// [4, 2]; the second dot's a operand is converted to its registers, and so
// is an a operand that does not change in the loop around its dot. A loaded
// b stays as it is (the lowering stages it). On sm_90a both run on wgmma,
// which reads the same a operands from registers.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: func.func @chained
  // CHECK: scf.for
  // CHECK: %[[S:.*]] = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x32xf16, #tilegpu.dot_op<{opIdx = 0, parent = #tilegpu.mma<{version = 2, warpsPerCTA = [8, 1], instrShape = [16, 8]}>, kWidth = 2}>> * tensor<32x64xf16, #blocked> -> tensor<128x64xf32, #tilegpu.mma<{version = 2, warpsPerCTA = [8, 1], instrShape = [16, 8]}>>
  // CHECK: %[[P:.*]] = tilegpu.convert_layout %{{.*}} : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #tilegpu.dot_op<{opIdx = 0, parent = #tilegpu.mma<{version = 2, warpsPerCTA = [8, 1], instrShape = [16, 8]}>, kWidth = 2}>>
  // CHECK: tile.dot %[[P]], %{{.*}}, %{{.*}} : {{.*}} -> tensor<128x32xf32, #tilegpu.mma<{version = 2, warpsPerCTA = [8, 1], instrShape = [16, 8]}>>
  // WGMMA-LABEL: func.func @chained
  // WGMMA: scf.for
  // WGMMA: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x32xf16, #tilegpu.dot_op<{opIdx = 0, parent = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 8]}>, kWidth = 2}>> * tensor<32x64xf16, #blocked> -> tensor<128x64xf32, #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 8]}>>
  // WGMMA: %[[P3:.*]] = tilegpu.convert_layout %{{.*}} : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #tilegpu.dot_op<{opIdx = 0, parent = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 8]}>, kWidth = 2}>>
  // WGMMA: tile.dot %[[P3]], %{{.*}}, %{{.*}} : {{.*}} -> tensor<128x32xf32, #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 8]}>>
  func.func @chained(%q: tensor<128x32xf16, #a>, %k: tensor<32x64x!tile.ptr<f16>, #a>, %v: tensor<64x32xf16, #a>, %s0: tensor<128x64xf32, #a>, %o0: tensor<128x32xf32, #a>, %n: index) -> tensor<128x32xf32, #a> attributes {"tilegpu.num-warps" = 8 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %o = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %o0) -> (tensor<128x32xf32, #a>) {
      %kt = tile.load %k : (tensor<32x64x!tile.ptr<f16>, #a>) -> tensor<32x64xf16, #a>
      %s = tile.dot %q, %kt, %s0 : tensor<128x32xf16, #a> * tensor<32x64xf16, #a> -> tensor<128x64xf32, #a>
      %p = arith.truncf %s : tensor<128x64xf32, #a> to tensor<128x64xf16, #a>
      %r = tile.dot %p, %v, %acc : tensor<128x64xf16, #a> * tensor<64x32xf16, #a> -> tensor<128x32xf32, #a>
      scf.yield %r : tensor<128x32xf32, #a>
    }
    return %o : tensor<128x32xf32, #a>
  }
}

// -----

// wgmma reads rows of 32 or 64 bytes, or panels of 128-byte rows: K = 48
// (96-byte rows of a) stays on mma.sync even on sm_90a, although its tiles
// are whole 1024-byte atoms; K = 64 runs on wgmma.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // WGMMA-LABEL: func.func @rows_of_96_bytes
  // WGMMA: tile.dot {{.*}} -> tensor<64x64xf32, #tilegpu.mma<{version = 2,
  func.func @rows_of_96_bytes(%a: tensor<64x48xf16, #a>, %b: tensor<48x64xf16, #a>, %c: tensor<64x64xf32, #a>) -> tensor<64x64xf32, #a> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<64x48xf16, #a> * tensor<48x64xf16, #a> -> tensor<64x64xf32, #a>
    return %d : tensor<64x64xf32, #a>
  }
  // WGMMA-LABEL: func.func @rows_of_128_bytes
  // WGMMA: tile.dot {{.*}} -> tensor<64x64xf32, #tilegpu.mma<{version = 3,
  func.func @rows_of_128_bytes(%a: tensor<64x64xf16, #a>, %b: tensor<64x64xf16, #a>, %c: tensor<64x64xf32, #a>) -> tensor<64x64xf32, #a> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %b, %c : tensor<64x64xf16, #a> * tensor<64x64xf16, #a> -> tensor<64x64xf32, #a>
    return %d : tensor<64x64xf32, #a>
  }
}
