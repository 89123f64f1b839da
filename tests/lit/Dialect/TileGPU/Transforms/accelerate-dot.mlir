// RUN: tile-opt %s -split-input-file -tilegpu-accelerate-dot=target=sm_90 | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-accelerate-dot=target=sm_75 | FileCheck %s --check-prefix=OLD
// RUN: tile-opt %s -split-input-file -tilegpu-accelerate-dot=target=sm_90a | FileCheck %s --check-prefix=WGMMA
// fp16/bf16 dots get an MMA accumulator (warps doubled along the dimension
// with more elements per warp, M on ties), the accumulator converted in and
// the result converted back; operands keep their layouts. fp32 dots, and
// every dot below sm_80, stay as they are. On sm_90a, dots whose warps can
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
    %d = tile.dot %a, %b, %c : tensor<32x32xf32, #a> * tensor<32x32xf32, #a> -> tensor<32x32xf32, #a>
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
